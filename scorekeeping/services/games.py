"""Creating a game: the rules and variants, the players in seat order, the first dealer."""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Mapping, Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from referee.engine import RefereeError, Rules, UnknownVariant
from referee.engine.rounds import draw_for_dealer
from referee.engine.words import MAX_NAME, clean_name, invisible_in, name_key
from referee.rulebook import rules_for
from scorekeeping import colours as palette
from scorekeeping.errors import InvalidInput
from scorekeeping.models import Game, Player
from scorekeeping.services.tokens import new_token, token_hash


def holds_control_characters(text: str) -> bool:
    """Control characters or lone surrogates: no name or card holds them, and a database may
    refuse them (PostgreSQL stores no NUL byte in text or JSON)."""
    return any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text)


def _clean_names(names: Sequence[object], rules: Rules) -> list[str]:
    errors: dict[str, list[str]] = {}
    cleaned: list[str] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(names):
        key = f"players.{i}"
        name = clean_name(raw) if isinstance(raw, str) else ""
        if not name:
            errors.setdefault(key, []).append(_("Player {n} needs a name").format(n=i + 1))
        elif holds_control_characters(name):
            errors.setdefault(key, []).append(_("Player {n}: a name cannot hold control characters").format(n=i + 1))
        elif invisible := invisible_in(name):
            message = _(
                "Player {n}: a name cannot hold an invisible character ({code}), which makes it look like another"
            )
            errors.setdefault(key, []).append(message.format(n=i + 1, code=invisible))
        elif len(name) > MAX_NAME:
            message = _("{name}… is too long: names have at most {n} characters")
            errors.setdefault(key, []).append(message.format(name=name[:MAX_NAME], n=MAX_NAME))
        elif name_key(name) in seen:
            message = _("{name} is already at the table (player {n}); names must differ")
            errors.setdefault(key, []).append(message.format(name=name, n=seen[name_key(name)] + 1))
        else:
            seen[name_key(name)] = i
        cleaned.append(name)
    if not rules.min_players <= len(names) <= rules.max_players:
        message = _("{title} is for {low}-{high} players, not {n}")
        errors.setdefault("players", []).append(
            message.format(title=rules.title, low=rules.min_players, high=rules.max_players, n=len(names))
        )
    if errors:
        raise InvalidInput(errors)
    return cleaned


def _colours(colours: Sequence[object] | None, names: list[str]) -> list[str]:
    """Each seat's colour: as chosen (one per player, each its own), or the palette in seat order."""
    if colours is None:
        return palette.in_seat_order(len(names))
    errors: dict[str, list[str]] = {}
    if len(colours) != len(names):
        message = _("colours: one colour per player ({n}), not {given}")
        raise InvalidInput(message.format(n=len(names), given=len(colours)), "colours")
    given = [palette.current_key(c) if isinstance(c, str) else c for c in colours]
    chosen = [c if isinstance(c, str) and c in palette.BY_KEY else "" for c in given]
    for i, colour in enumerate(chosen):
        if not colour:
            message = _("{name}: the colour must be one of {keys}")
            errors[f"colours.{i}"] = [message.format(name=names[i], keys=", ".join(palette.KEYS))]
    for clash in palette.clashes([c for c in chosen if c]):
        seats = [names[i] for i, c in enumerate(chosen) if c == clash]
        message = _("{names} have the same colour ({colour}): give each player a colour of their own")
        errors[f"colours.{chosen.index(clash, chosen.index(clash) + 1)}"] = [
            message.format(names=" & ".join(seats), colour=palette.BY_KEY[clash].name)
        ]
    if errors:
        raise InvalidInput(errors)
    return chosen


def _first_dealer(names: list[str], first_dealer: str | None, draw: Mapping[str, str] | None) -> tuple[int, str]:
    if first_dealer is not None and draw:
        raise InvalidInput(_("Name the first dealer or draw for it, not both"), "first_dealer")
    if first_dealer is not None:
        seat = {name_key(n): i for i, n in enumerate(names)}.get(name_key(first_dealer))
        if seat is None:
            raise InvalidInput(_("{name!r} is not one of the players").format(name=first_dealer), "first_dealer")
        return seat, Game.DealerMethod.NAMED
    if not draw:
        return secrets.randbelow(len(names)), Game.DealerMethod.RANDOM
    drawn, errors = draw_for_dealer(names, draw)
    if drawn is None:
        raise InvalidInput(errors)
    return drawn, Game.DealerMethod.DRAW


def rules_of(ruleset: str, variants: Sequence[str]) -> Rules:
    """The rules named, or 400 naming the field that names no ruleset or variant of it."""
    try:
        return rules_for(ruleset, variants)
    except UnknownVariant as exc:
        raise InvalidInput(str(exc), "variants") from None
    except RefereeError as exc:
        raise InvalidInput(str(exc), "ruleset") from None


def game_create(
    *,
    ruleset: str,
    variants: Sequence[str],
    players: Sequence[object],
    first_dealer: str | None = None,
    draw: Mapping[str, str] | None = None,
    token: str | None = None,
    colours: Sequence[object] | None = None,
) -> tuple[Game, str]:
    """A new game and its edit token (returned once; only its hash is kept). A club's draw
    passes the token it derives for the table (``clubs.table_token``) and its members' colours."""
    rules = rules_of(ruleset, variants)
    names = _clean_names(players, rules)
    shades = _colours(colours, names)
    seat, method = _first_dealer(names, first_dealer, draw)
    token = token or new_token()
    with transaction.atomic():
        game = Game.objects.create(
            ruleset=rules.slug,
            variants=list(rules.variants),
            edit_token_hash=token_hash(token),
            first_dealer_seat=seat,
            first_dealer_method=method,
        )
        Player.objects.bulk_create(
            Player(game=game, seat=i, name=n, colour=c) for i, (n, c) in enumerate(zip(names, shades, strict=True))
        )
    return game, token


def game_again(*, game: Game) -> tuple[Game, str]:
    """The next game at the same table: the same players in the same seats, the same rules and
    variants, and the deal passing on to the left of the last game's first dealer."""
    players = list(game.players.order_by("seat"))
    names = [p.name for p in players]
    first = names[(game.first_dealer_seat + 1) % len(names)]
    return game_create(
        ruleset=game.ruleset,
        variants=list(game.variants),
        players=names,
        first_dealer=first,
        colours=palette.in_seat_order(len(players), [p.colour for p in players]),
    )
