"""A club night as a member's phone sees it: the night's tables and standings, followed by push,
and "I am Ben": one tap a night, after which each draw takes this phone to Ben's table, seated
as Ben (it scores Ben's own hand there), with the night's page one tap away again.

The club link is the members' link: a phone that holds it may say who it is and score at that
player's table of the current sitting, until "Not me", another player, the next draw or the
night's end (docs/clubs.md, "Who may do what"). It records and sends hands there; it never holds
nor replaces the table's edit token.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_safe

from scorekeeping.errors import Conflict
from scorekeeping.links import night_events_path, share_base, view_path
from scorekeeping.models import Club, Night
from scorekeeping.selectors.clubs import (
    TableState,
    club_get,
    club_member,
    night_get,
    night_present_member,
    night_results,
    night_tables,
)
from scorekeeping.services import seat_claim
from scorekeeping.web import session as phone
from scorekeeping.web.guards import at_open_night
from scorekeeping.web.pages import followed, streamed
from scorekeeping.webkit.formdata import form_int
from scorekeeping.webkit.htmx import HtmxHttpRequest


@dataclass(frozen=True)
class MyTable:
    sitting: int
    state: TableState
    others: list[str]  # the other players at the table, in seat order


def _night(club_id: str, night_id: int) -> tuple[Club, Night]:
    found = club_get(club_id=club_id)
    return found, night_get(club=found, night_id=night_id)


def _my_table(states: dict[int, list[TableState]], member_id: int | None) -> MyTable | None:
    """Where the member sits in the night's latest sitting, if they play in it."""
    if member_id is None or not states:
        return None
    current = max(states)
    for state in states[current]:
        if member_id in state.table.members:
            others = [m.name for m in state.members if m.pk != member_id]
            return MyTable(current, state, others)
    return None


@require_safe
def night(request: HtmxHttpRequest, club_id: str, night_id: int) -> HttpResponse:
    found, row = _night(club_id, night_id)
    me_id, taken = phone.night_me(request, row.pk)
    states = night_tables(row)
    present = sorted(row.present.all(), key=lambda m: m.key)
    me = next((m for m in present if m.pk == me_id), None)
    if me is None and me_id is not None:
        me = club_member(club=found, member_id=me_id)
    mine = _my_table(states, me_id)
    base, _source = share_base(request)
    current = max(states) if states else None
    # A table's QR code on the room screen: "Who are you?" offers that table's players only.
    at_table = form_int(request.GET.get("table"), None) if me is None and current else None
    seated_here = next((s for s in states.get(current or 0, []) if s.table.number == at_table), None)
    if seated_here is not None:
        present = [m for m in present if m.pk in seated_here.table.members]
    tables = [(s, base + view_path(s.table.game_id)) for s in states.get(current, [])] if current else []
    context = {
        "club": found,
        "night": row,
        "present": present,
        "at_table": seated_here.table.number if seated_here is not None else None,
        "me": me,
        "mine": mine,
        # Each draw takes this phone to its table once (then the page only offers the way there).
        "take": mine is not None and mine.sitting > taken and not mine.state.finished,
        "sitting": current,
        "tables": tables,
        "standings": night_results(row, states),
        "stream": streamed(request),
        "events": night_events_path(found.pk, row.pk),
    }
    return followed(request, "clubs/night.html", context, no_store=True)


@at_open_night
def night_me(request: HtmxHttpRequest, found: Club, row: Night) -> HttpResponse:
    """ "I am Ben" (one of the players checked in), or "not me" (no member chosen): either way,
    the right this phone had as another player at this night ends."""
    member = night_present_member(night=row, member_id=form_int(request.POST.get("member"), None))
    phone.remember_me(request, row.pk, member.pk if member is not None else None)
    return HttpResponseRedirect(reverse("club-night", args=[found.pk, row.pk]))


@at_open_night
def night_go(request: HtmxHttpRequest, found: Club, row: Night) -> HttpResponse:
    """To this phone's table in the night's latest sitting: allowed to score there, seated as
    its player; back to the night's page if that player plays in no table now."""
    me_id, _taken = phone.night_me(request, row.pk)
    mine = _my_table(night_tables(row), me_id)
    night_path = reverse("club-night", args=[found.pk, row.pk])
    if mine is None or me_id is None or mine.state.ended:
        target = night_path
    else:
        game = mine.state.table.game
        phone.grant_table(request, game, night_id=row.pk, member_id=me_id, night_path=night_path)
        key = phone.phone_key(request, create=True) or ""
        name = next(m.name for m in mine.state.members if m.pk == me_id)
        try:
            player = seat_claim(game=game, name=name, phone=key)
        except Conflict:  # the table was ended, or the night finished, a moment ago: the night says so
            return HttpResponseRedirect(night_path)
        phone.remember_seat(request, game.pk, player.pk)
        phone.remember_me(request, row.pk, me_id, taken=mine.sitting)
        target = reverse("table", args=[game.pk])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = target
        return response
    return HttpResponseRedirect(target)
