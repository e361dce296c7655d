"""The table page, and what the phones that follow a game fetch: the page and its live fragments
(rendered once per version and kept in the cache)."""

from __future__ import annotations

from functools import partial
from typing import Any
from urllib.parse import urlencode
from weakref import WeakKeyDictionary

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.utils.functional import SimpleLazyObject, cached_property
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from referee.engine.stories import Recap, recap
from scorekeeping.changes import change_line, change_told
from scorekeeping.links import qr_svg, rules_path, share_base, view_path
from scorekeeping.models import Change, Draft, Game, Player
from scorekeeping.selectors import (
    CurrentRound,
    Standings,
    game_current_round,
    game_filled,
    game_history,
    game_rounds,
    game_standings,
    latest_change,
)
from scorekeeping.selectors.folding import played
from scorekeeping.selectors.tables import is_club_table
from scorekeeping.services import (
    DraftStatus,
    draft_ahead,
    draft_status,
    seat_holder,
    seat_of,
    seats_taken,
)
from scorekeeping.web import session as phone
from scorekeeping.web.archive import chart
from scorekeeping.web.entry import DraftView, EntryView, entry_view
from scorekeeping.web.entry_state import EntryState
from scorekeeping.web.pages import game_head, streamed
from scorekeeping.web.presentation import (
    BoardRow,
    DraftLine,
    announcement,
    board_rows,
    by_place,
    draft_line,
    draft_waiting,
)
from scorekeeping.web.recap import best_round_line, recap_lines
from scorekeeping.webkit.htmx import HtmxHttpRequest

# How long a rendered page or fragment for the phones that follow is kept; its version makes an
# old one unreachable long before that, so this only bounds the cache's memory.
LIVE_FRAGMENT_SECONDS = 600


class Table:
    """What the table shows, each part loaded or computed the first time a template asks for it.

    What every phone sees alike (announcement, standings, scoreboard, chart, history) is kept
    as rendered HTML per game version and language (``{% cache %}`` in the template), so after
    a change the first render pays for it and every later one finds it there: the game's
    players, rounds and scores are then not even loaded for a phone that follows."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rules = game.rules

    @cached_property
    def filled(self) -> Game:
        return game_filled(self.game, scores=False)  # nothing more when the game came loaded

    @cached_property
    def players(self) -> list[Player]:
        return list(self.filled.players.all())

    @cached_property
    def rounds_played(self) -> int:
        return len(game_rounds(self.game))

    @cached_property
    def current(self) -> CurrentRound | None:
        return game_current_round(game=self.filled)

    @cached_property
    def standings(self) -> Standings:
        return game_standings(game=self.filled)

    @cached_property
    def board(self) -> list[BoardRow]:
        return board_rows(self.filled, self.rules, self.standings, self.current)

    def fresh_entry(self) -> EntryView | None:
        if self.current is None:
            return None
        if self.draft is not None:
            return self.draft_entry(DraftView(status=None, seat=None))
        state = EntryState(version=self.game.version)
        return entry_view(game=self.filled, players=self.players, number=self.current.number, state=state)

    @cached_property
    def ahead(self) -> Draft | None:
        return draft_ahead(self.filled)

    @property
    def draft(self) -> Draft | None:
        """The round in progress (not one an undo left waiting)."""
        ahead = self.ahead
        return ahead if ahead is not None and ahead.number == self.rounds_played + 1 else None

    @cached_property
    def draft_status(self) -> DraftStatus | None:
        return draft_status(self.filled, self.draft) if self.draft is not None else None

    def draft_line(self) -> DraftLine | None:
        status = self.draft_status
        if status is not None:
            return draft_line(status, seats_taken(self.game), self.rules)
        return draft_waiting(self.ahead.number, self.rules) if self.ahead is not None else None

    def draft_entry(self, view: DraftView) -> EntryView | None:
        """This phone's entry while the round is scored hand by hand: its own hand first."""
        if self.current is None:
            return None
        view.status = self.draft_status
        active = view.seat.seat if view.seat else None
        if view.status is not None:
            mine = view.seat.pk if view.seat else None
            state = EntryState.from_draft(view.status, self.game.version, active, mine=mine)
        else:
            state = EntryState(version=self.game.version, active=active)
        return entry_view(game=self.filled, players=self.players, number=self.current.number, state=state, draft=view)

    @cached_property
    def history(self) -> list[tuple[Change, str]]:
        return [(c, change_line(self.rules, c)) for c in game_history(game=self.game)]

    @cached_property
    def told(self) -> str:
        """The game's latest change, as the phones that did not make it are told it (none before the first)."""
        latest = latest_change(game=self.game)
        return change_told(self.rules, latest) if latest is not None and latest.version == self.game.version else ""

    @cached_property
    def recap(self) -> Recap:
        return recap(played(self.filled))

    def story(self) -> list[str]:
        """The recap of a finished game in words (the table shows it under the final places)."""
        _headline, lines = recap_lines(self.recap, self.rules)
        return lines

    def finish(self) -> dict[str, Any]:
        """What the finish shows beside the places: the winner's colour, the margin, the best round."""
        told = self.recap
        winners = self.standings.winners
        best = told.best_round
        return {
            "colour": winners[0].colour if len(winners) == 1 else "",
            "margin": told.margin,
            "best": best_round_line(best, self.rules) if best else "",
        }

    def speech(self) -> str:
        return announcement(self.current, self.rules.last_round) if self.current else ""

    def referee_query(self) -> str:
        game, current = self.game, self.current
        return urlencode(
            [("ruleset", game.ruleset), *[("variant", v) for v in game.variants], ("players", len(self.players))]
            + ([("round", current.number)] if current else [])
        )


_TABLES: WeakKeyDictionary[HttpRequest, dict[tuple[str, int], Table]] = WeakKeyDictionary()


def table_of(request: HttpRequest, game: Game) -> Table:
    """The game's ``Table`` for this request and version: one, whatever renders it (the answer,
    and what ``warm`` renders for the other phones), so its players, rounds and standings are
    loaded once. A write moves the version (``live_version``): a game read again after it gets a
    new one."""
    tables = _TABLES.setdefault(request, {})
    key = (game.pk, game.live_version)
    if key not in tables:
        tables[key] = Table(game)
    return tables[key]


def seat_view(request: HtmxHttpRequest, table: Table) -> DraftView | None:
    """This phone's seat, if it took one (the Seat table says whether it still holds it; if
    another phone took it, ``displaced`` says whose it was). None for a phone that never took one."""
    taken = phone.seat_taken(request, table.game.pk)
    if taken is None:
        return None
    key = phone.phone_key(request)
    seat = seat_of(table.game, key)
    if seat is not None:
        return DraftView(status=None, seat=seat)
    mine = next((p for p in table.players if p.pk == taken), None)
    if mine is not None and seat_holder(table.game, mine) in (None, key):
        # This phone's own claim is still being written (the session is saved first, so that the
        # claim's event finds it), or was written between the two reads: a request read
        # meanwhile shows the seat, and says nothing. Only another phone's claim displaces it.
        return DraftView(status=None, seat=mine)
    return DraftView(status=None, seat=None, displaced=mine.name if mine else "")


def table_context(request: HtmxHttpRequest, game: Game, *, follower: bool = False, **extra: Any) -> dict[str, Any]:
    """Everything the table shows (as a phone that follows sees it, with ``follower``); the
    parts behind ``{% cache %}`` are lazy (see ``Table``)."""
    table = table_of(request, game)
    rules = table.rules
    editable = not follower and phone.records(request, game)
    base, base_source = share_base(request)
    view_url = base + view_path(game.pk)
    context: dict[str, Any] = {
        "game": game,
        "rules": rules,
        "players": SimpleLazyObject(lambda: table.players),
        "standings": SimpleLazyObject(lambda: table.standings),
        "current": SimpleLazyObject(lambda: table.current),
        "board": SimpleLazyObject(lambda: table.board),
        # The scoreboard's two orders: the places, shown first, and the seats, one tap away.
        "board_orders": SimpleLazyObject(
            lambda: [("by-place", by_place(table.board, table.standings)), ("by-seat", table.board)]
        ),
        "round_numbers": range(1, rules.last_round + 1),
        "round_word": _(rules.round_word),
        "can_edit": editable,
        "holds_token": editable and phone.holds_token(request, game),  # may make a new game, a new link
        "speech": SimpleLazyObject(table.speech),
        "recap_lines": SimpleLazyObject(table.story),
        "finish": SimpleLazyObject(table.finish),
        "history": SimpleLazyObject(lambda: table.history),
        "told": SimpleLazyObject(lambda: table.told),
        "story": SimpleLazyObject(lambda: chart(table.filled)),
        "rounds_played": SimpleLazyObject(lambda: table.rounds_played),
        "finished": SimpleLazyObject(lambda: table.rounds_played >= rules.last_round),
        "has_history": game.version > 1,  # every change moves the version on (imports replay theirs)
        "view_url": view_url,
        "link_source": base_source,
        "lan_https": settings.LAN_HTTPS,
        "stream": streamed(request),
        "view_qr": partial(qr_svg, view_url),  # templates call it only where the code is shown
        "fragment_seconds": LIVE_FRAGMENT_SECONDS,
        "referee_query": SimpleLazyObject(table.referee_query),
        "rules_url": rules_path(game.ruleset, list(game.variants)),
    }
    # The edit link itself is fetched when asked for (``games.edit_link``, kept by no cache): the
    # page carries no secret, so it is sent compressed.
    if editable and phone.token_for(request, game):
        context["holds_link"] = True
        context["replaceable"] = not is_club_table(game_id=game.pk)  # a club table's is the organiser's
    context["draft_line"] = SimpleLazyObject(table.draft_line)
    view = seat_view(request, table) if editable else None
    if view is not None and view.displaced:
        context["seat_notice"] = _("{name}'s hand is now scored on another phone.").format(name=view.displaced)
        phone.remember_seat(request, game.pk, phone.ASK)  # said once; asked again who this phone is
    context["seated"] = view is not None and view.seat is not None
    # A phone that opened the edit link is asked who it is where it lands; one that chose to
    # watch keeps its right, and its page offers to score after all.
    context["ask_seat"] = editable and not context["seated"] and phone.seat_choice(request, game.pk) == phone.ASK
    context["watching"] = not follower and not editable and phone.can_edit(request, game)
    # Only a seated phone's page says where it came from: no fragment shared by phones has it.
    context["club_night"] = phone.club_night(request, game.pk) if context["seated"] else ""
    if editable and "entry" not in extra and view is not None and view.seat is not None:
        context["entry"] = SimpleLazyObject(partial(table.draft_entry, view))  # this phone's own hand
    elif editable and "entry" not in extra:
        # A form with nothing typed in it (none once the game is over) is the same on every
        # phone without a seat, for a live version (a round in progress or not): cached too.
        context["entry"] = SimpleLazyObject(table.fresh_entry)
        context["entry_pristine"] = True
    context.update(extra)
    return context


@require_safe
def table(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The table. Every phone that follows a game sees the same page for a version (and language
    and link address): its body is rendered once and kept in Django's cache, like the fragments
    after an event. The phone that records gets its own page (its forms carry its CSRF token),
    made mostly of fragments cached per version too (``{% cache %}`` in the template)."""
    head = game_head(request, game_id)
    if request.GET or phone.can_edit(request, head):
        response = render_table(request, "scorekeeping/table.html", table_context(request, head))
    else:
        context = {"game": head, "stream": streamed(request), **_follower_page(request, head)}
        response = render(request, "scorekeeping/table.html", context)
    phone.remember(request, response, head.pk)
    return response


def _follower_page(request: HtmxHttpRequest, head: Game) -> dict[str, str]:
    """The title and body of the table as every phone that follows sees it (and link address)."""
    base, _source = share_base(request)
    return shared(request, head, {"page_title": "title", "body_html": "body"}, [base], follower=True)


def shared(
    request: HtmxHttpRequest, head: Game, partials: dict[str, str], vary: list[str], **extra: Any
) -> dict[str, str]:
    """Partials of the table that are the same for every phone in the same role (following, or
    recording with a fresh form) for a version, language and ``vary``: rendered once and kept in
    Django's cache (the version in the key makes an old one unreachable). Nothing in them is
    one phone's own: no edit link, and no CSRF token (htmx sends it in a header)."""
    key = ":".join(["table", *partials.values(), head.pk, str(head.live_version), get_language(), *vary])
    parts: dict[str, str] | None = cache.get(key)
    if parts is None:
        context = table_context(request, head, **extra)
        parts = {
            name: render_to_string(f"scorekeeping/table.html#{partial}", context, request=request)
            for name, partial in partials.items()
        }
        cache.set(key, parts, LIVE_FRAGMENT_SECONDS)
    return parts


def warm(request: HtmxHttpRequest, head: Game) -> None:
    """After a change made on this phone: render now what the other phones fetch at its event
    (as a phone that follows sees it, and a phone that records with nothing typed), so that
    the first of them finds it ready too. ``head``, the game as this phone's answer showed it,
    brings that answer's ``Table``: nothing is loaded again. The phone that wrote pays a few
    milliseconds once."""
    shared(request, head, {"html": "live"}, ["follow"], follower=True)
    if phone.seat_taken(request, head.pk) is None:  # a seat would put its own hand in the form
        shared(request, head, {"html": "live"}, ["record-fresh"], pristine=True, moved=False)
    _follower_page(request, head)  # a phone that opens the table now (mostly fragments made above)


def render_table(request: HtmxHttpRequest, name: str, context: dict[str, Any], status: int = 200) -> HttpResponse:
    """A page or fragment of the table; a recording phone's own is kept by no shared cache."""
    response = render(request, name, context, status=status)
    if context.get("can_edit"):
        patch_cache_control(response, private=True)
    return response
