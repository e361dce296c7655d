"""A game's recap (``referee.engine.stories.recap``) in the table's language: on the table when
the game ends, on a page of its own with Open Graph tags (a shared link shows the recap), and as
an image: SVG drawn here, and PNG for messengers that show no SVG (drawn with Pillow from the same
lines, in its bundled font: no system library needed)."""

from __future__ import annotations

import functools
import io
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.utils.text import capfirst
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from PIL import Image, ImageDraw, ImageFont

from referee.engine import Rules
from referee.engine.stories import BestRound, Recap, recap
from referee.engine.words import names_and
from scorekeeping.links import rules_path, share_url
from scorekeeping.models import Game
from scorekeeping.selectors import game_get, game_head
from scorekeeping.selectors.folding import played
from scorekeeping.webkit.htmx import HtmxHttpRequest

WIDTH, HEIGHT = 1200, 630  # the size Open Graph previews are drawn at
IMAGE_SECONDS = 60  # how long a browser or a messenger may keep an image of a game still played


@dataclass(frozen=True)
class Told:
    game: Game
    recap: Recap
    headline: str
    lines: list[str]


def best_round_line(best: BestRound, rules: Rules) -> str:
    """The round a player did best in against the table, in words."""
    return _("Best {word}: {name} in {where}, {points} under the others' average.").format(
        word=_(rules.round_word), name=best.player, where=rules.round_name(best.round), points=best.ahead
    )


def recap_lines(told: Recap, rules: Rules) -> tuple[str, list[str]]:
    """The headline and the story, in words: a round by its name with its article, as the
    language says it ("el reparto 3", "la ronda 3"), never a word and a number."""
    round_word = _(rules.round_word)
    if not told.winners:
        headline = _("The game is not over yet")
    elif len(told.winners) == 1:
        headline = _("{name} wins with {total}").format(name=told.winners[0], total=told.places[0][2])
    else:
        headline = _("{names} share the win with {total}").format(
            names=names_and(told.winners), total=told.places[0][2]
        )
    lines = []
    if told.winners and told.deciding_round is not None:
        names = names_and(told.winners)
        last = told.round_best[-1][0] if told.round_best else told.deciding_round
        if told.deciding_round == 1:
            lines.append(_("{names} led from the first {word} to the last.").format(names=names, word=round_word))
        elif told.deciding_round == last:
            lines.append(
                _("{where} decided it, at the very end.").format(where=capfirst(rules.round_name(told.deciding_round)))
            )
        else:
            lines.append(
                _("{where} decided it: {names} led from there to the end.").format(
                    where=capfirst(rules.round_name(told.deciding_round)), names=names
                )
            )
    if told.comeback is not None:
        lines.append(
            _("{name} came back from {points} behind after {where}.").format(
                name=told.comeback.player, points=told.comeback.deficit, where=rules.round_name(told.comeback.round)
            )
        )
    if told.biggest_swing is not None:
        swing = told.biggest_swing
        lines.append(
            _("The biggest swing came in {where}: {gainer} gained {points} on {loser}.").format(
                where=rules.round_name(swing.round), gainer=swing.gainer, points=swing.points, loser=swing.loser
            )
        )
    outs: dict[str, int] = {}
    for _number, best_of_round in told.round_best:
        for name in best_of_round:
            outs[name] = outs.get(name, 0) + 1
    if outs:
        most = max(outs.values())
        best = names_and([n for n, c in outs.items() if c == most])
        lines.append(_("{names}: the best in {n} of {total}.").format(names=best, n=most, total=len(told.round_best)))
    return headline, lines


def told_game(game_id: str) -> Told:
    game = game_get(game_id=game_id)
    told = recap(played(game))
    headline, lines = recap_lines(told, game.rules)
    return Told(game, told, headline, lines)


@require_safe
def recap_page(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    told = told_game(game_id)
    colours = {p.name: p.colour for p in told.game.players.all()}
    context = {
        "told": told,
        "podium": [(place, name, total, colours.get(name, "")) for place, name, total in told.recap.places],
        "image_url": share_url(request, f"/g/{game_id}/recap.png"),
        "page_url": share_url(request, f"/g/{game_id}/recap/"),
        "rules_url": rules_path(told.game.ruleset, list(told.game.variants)),
        "width": WIDTH,
        "height": HEIGHT,
    }
    return render(request, "stories/recap.html", context)


def _image(response: HttpResponse, told: Told) -> HttpResponse:
    """A finished game's picture may be kept an hour (a correction makes a new one); a minute while
    the story goes on."""
    patch_cache_control(response, public=True, max_age=3600 if told.recap.winners else IMAGE_SECONDS)
    return response


@require_safe
def recap_svg(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    told = told_game(game_id)
    places = [(186 + 48 * i, row) for i, row in enumerate(told.recap.places[:6])]
    wrapped = [part for line in told.lines for part in textwrap.wrap(line, 40)][:10]
    context = {
        "told": told,
        "width": WIDTH,
        "height": HEIGHT,
        "places": places,
        "lines": [(186 + 38 * i, part) for i, part in enumerate(wrapped)],
    }
    svg = render_to_string("stories/recap.svg", context, request=request)
    return _image(HttpResponse(svg, content_type="image/svg+xml; charset=utf-8"), told)


Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


FONT = Path(__file__).parent / "fonts" / "DejaVuSans.ttf"  # vendored: every accented letter of nl and es


@functools.cache
def font_of(size: int) -> Font:
    """The share pictures' type: DejaVu Sans (Pillow's own default lacks "ó", "ë", "é")."""
    return ImageFont.truetype(str(FONT), size)


def recap_png(told: Told) -> bytes:
    """The recap as a PNG, 1200x630: the headline, the places, the story."""
    image, draw = canvas()
    draw.text((64, 56), told.headline, fill="#0b6e4f", font=font_of(56))
    y = 150
    for place, name, total in told.recap.places[:6]:
        draw.text((64, y), f"{place}. {name}", fill="#1b1b1b", font=font_of(36))
        draw.text((520, y), str(total), fill="#1b1b1b", font=font_of(36), anchor="ra")
        y += 48
    y = 150
    for line in told.lines:
        for part in wrapped(draw, line, font_of(28), WIDTH - 600 - 64):
            draw.text((600, y), part, fill="#333333", font=font_of(28))
            y += 38
        y += 14
    draw.text((64, HEIGHT - 80), told.game.rules.display_name, fill="#555555", font=font_of(26))
    return png_bytes(image)


def wrapped(
    draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: int
) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and draw.textlength(f"{lines[-1]} {word}", font=font) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def picture(key: str, make: Callable[[], tuple[bytes, bool]]) -> HttpResponse:
    """A PNG (``make``: its bytes, and whether what it shows is final) drawn once per ``key`` (a
    version and a language) in each process and kept in the pictures' cache (``images``, bounded
    in bytes): a link shared to a hundred phones draws it once. A final picture may be kept an
    hour by a browser or a messenger, one still changing a minute."""
    images = caches["images"]
    found: tuple[bytes, bool] | None = images.get(key)
    if found is None:
        found = make()
        if len(found[0]) <= settings.IMAGE_CACHE_ITEM_BYTES:
            images.set(key, found, 3600)
    png, final = found
    response = HttpResponse(png, content_type="image/png")
    patch_cache_control(response, public=True, max_age=3600 if final else IMAGE_SECONDS)
    return response


def canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A share picture's ground, 1200x630: a light card in a green frame."""
    image = Image.new("RGB", (WIDTH, HEIGHT), "#0b6e4f")
    draw = ImageDraw.Draw(image)
    draw.rectangle((24, 24, WIDTH - 24, HEIGHT - 24), fill="#f6f4ee")
    return image, draw


def png_bytes(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


@require_safe
def recap_image(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The recap's PNG (about 90 ms to draw), once per version of the game and language."""
    head = game_head(game_id=game_id)

    def make() -> tuple[bytes, bool]:
        told = told_game(game_id)
        return recap_png(told), bool(told.recap.winners)

    return picture(f"recap-png:{head.pk}:{head.version}:{get_language()}", make)
