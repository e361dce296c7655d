"""What a phone that follows the game asks (``live.js``): the fragments that changed since the
version it shows, after each event of the game's stream (or every 5 s without one), and the
stream's address where the server holds none."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_safe

from scorekeeping import selectors
from scorekeeping.models import Game
from scorekeeping.selectors import (
    rounds_recorded,
)
from scorekeeping.services import (
    seats_taken,
)
from scorekeeping.web import session as phone
from scorekeeping.web.entry import offered_hands
from scorekeeping.web.entry_state import NO_WINNER
from scorekeeping.web.pages import game_head

# How long a rendered page or fragment for the phones that follow is kept; its version makes an
# old one unreachable long before that, so this only bounds the cache's memory.
from scorekeeping.web.table import render_table, shared, table_context
from scorekeeping.webkit.formdata import form_int
from scorekeeping.webkit.htmx import HtmxHttpRequest


def _live_etag(request: HtmxHttpRequest, game_id: str) -> str:
    """The game's version as an ETag: unchanged means nothing to send."""
    return f'"v{game_head(request, game_id).live_version}"'


@require_safe
def events(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The change stream is served under ASGI (``scorekeeping.live``, the start command). This
    server is WSGI (``runserver``, the test live server): 204 tells EventSource not to retry,
    and the page polls every 5 s instead."""
    game_head(request, game_id)
    return HttpResponse(status=204)


def _other_hands(request: HtmxHttpRequest, head: Game, mine: int) -> bool:
    """Whether the seated phone's form (``X-Entry-Offered``: the seats of the hands it offers)
    offers other hands than it would now."""
    shown = request.headers.get("X-Entry-Offered")
    if shown is None:
        return False
    offered = offered_hands(list(head.players.all()), mine, seats_taken(head))
    return shown != " ".join(str(p.seat) for p in offered)


def _other_winner(request: HtmxHttpRequest, head: Game) -> bool:
    """Whether the phone's form (``X-Entry-Winner``: the winner it shows, "" for none chosen)
    says another winner than the round in progress."""
    shown = request.headers.get("X-Entry-Winner")
    if shown is None:
        return False
    in_progress, seat = selectors.said_out(game_id=head.pk)
    return in_progress and shown != (str(seat) if seat is not None else NO_WINNER)


@require_safe
@cache_control(no_cache=True)
@condition(etag_func=_live_etag)
def live(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """What changed, fetched after an event on the game's stream: 304 with no body while nothing
    did; else the fresh fragments. They are the same for every phone that follows, and for
    every phone that records and has typed nothing yet (its fresh entry comes with them), so
    they are rendered once per version, language and role and kept in Django's cache."""
    head = game_head(request, game_id)
    if not phone.records(request, head):
        return HttpResponse(shared(request, head, {"html": "live"}, ["follow"], follower=True)["html"])
    pristine = request.headers.get("X-Entry-Pristine") == "1"
    # A phone typing a round is told when the game itself moved on (its Record would be
    # refused), not when a hand of the round in progress came in from another phone.
    moved = request.headers.get("X-Entry-Version", str(head.version)) != str(head.version)
    # Whatever the phone was doing, an entry typed for a round that is no longer the one to play
    # (recorded, undone) is replaced by the round's own: no phone is left on an old round.
    typed_for = form_int(request.headers.get("X-Entry-Round"), None)
    replaced = moved and not pristine and typed_for is not None and typed_for != rounds_recorded(game_id=head.pk) + 1
    # An entry that shows another "who went out" than the round in progress (said on another
    # phone) is drawn anew as the round has it; what this phone typed comes back into it (entry.js).
    pristine = pristine or replaced or _other_winner(request, head)
    extra = {"pristine": pristine, "moved": moved, "replaced": replaced}
    mine = phone.seat_taken(request, head.pk)
    if mine is not None:  # its own hand's entry: its own fragment
        # A form offering other hands than the seats now call for (a phone took a seat, or left
        # one, since it was drawn) is drawn anew; what this phone typed comes back into it.
        extra["pristine"] = pristine or _other_hands(request, head, mine)
        context = table_context(request, head, **extra)
        return render_table(request, "scorekeeping/table.html#live", context)
    role = (
        "record-replaced" if replaced else "record-fresh" if pristine else "record-moved" if moved else "record-typing"
    )
    response = HttpResponse(shared(request, head, {"html": "live"}, [role], **extra)["html"])
    patch_cache_control(response, no_store=True)
    return response
