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
from django.utils.formats import date_format
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from referee.engine import Rules
from referee.engine.stories import BEST_ROUND, COMEBACK, LOWEST_TOTAL, MOST_OUT
from referee.rulebook import rules_for
from scorekeeping.errors import Conflict
from scorekeeping.links import night_events_path, share_base, share_url, view_path
from scorekeeping.models import Club, Night
from scorekeeping.selectors.clubs import (
    NightTold,
    TableState,
    club_get,
    club_member,
    night_get,
    night_present_member,
    night_tables,
    night_told,
)
from scorekeeping.services import seat_claim
from scorekeeping.web import session as phone
from scorekeeping.web.guards import at_open_night
from scorekeeping.web.pages import followed, streamed
from scorekeeping.web.recap import WIDTH, canvas, font_of, picture, png_bytes, wrapped
from scorekeeping.webkit.formdata import form_int
from scorekeeping.webkit.htmx import HtmxHttpRequest


@dataclass(frozen=True)
class Placed:
    """A finished table as the results list it: its number, and (place, name, total) best first."""

    number: int
    rows: list[tuple[int, str, int]]


def _placed(states: dict[int, list[TableState]]) -> list[tuple[int, list[Placed]]]:
    """Every finished (or ended) table of every sitting, in order, with its places."""
    found = []
    for sitting, tables in sorted(states.items()):
        done = []
        for state in tables:
            if state.finished:
                by_seat = {row.player.seat: row for row in state.standings}
                rows = [(by_seat[i].place, m.name, by_seat[i].total) for i, m in enumerate(state.members)]
                done.append(Placed(state.table.number, sorted(rows, key=lambda r: (r[0], r[1].casefold()))))
        if done:
            found.append((sitting, done))
    return found


def moment_lines(told: NightTold, rules: Rules) -> list[tuple[str, str]]:
    """The night's best moments in words: (title, what happened, where)."""
    titles = {
        BEST_ROUND: _("Best round"),
        COMEBACK: _("Biggest comeback"),
        LOWEST_TOTAL: _("Lowest game total"),
        MOST_OUT: _("Most rounds gone out in one game"),
    }
    found = []
    for moment in told.moments:
        sitting, table = told.where.get(moment.game, (0, 0))
        where = _("sitting {s}, table {t}").format(s=sitting, t=table)
        played_in = rules.round_name(moment.round or 0)
        if moment.title == BEST_ROUND:
            said = ngettext(
                "{name}: {n} point better than the table's average in {round} ({where}).",
                "{name}: {n} points better than the table's average in {round} ({where}).",
                moment.value,
            )
        elif moment.title == COMEBACK:
            said = _("{name} came back from {n} behind after {round} and won ({where}).")
        elif moment.title == LOWEST_TOTAL:
            said = _("{name} finished a game on {n} ({where}).")
        else:
            said = ngettext(
                "{name} went out in {n} round of one game ({where}).",
                "{name} went out in {n} rounds of one game ({where}).",
                moment.value,
            )
        told_so = said.format(name=moment.player, n=moment.value, round=played_in, where=where)
        found.append((titles[moment.title], told_so))
    return found


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
    mine = _my_table(states, me_id) if row.status == Night.Status.OPEN else None  # at the end: the own card
    base, _source = share_base(request)
    current = max(states) if states else None
    # A table's QR code on the room screen: "Who are you?" offers that table's players only.
    at_table = form_int(request.GET.get("table"), None) if me is None and current else None
    seated_here = next((s for s in states.get(current or 0, []) if s.table.number == at_table), None)
    if seated_here is not None:
        present = [m for m in present if m.pk in seated_here.table.members]
    told = night_told(row, states)
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
        "told": told,
        "moments": moment_lines(told, rules_for(row.ruleset, row.variants)),
        "standings": told.standings,
        "placed": _placed(states),
        "player_lines": [(r, told.lines.get(r.player, [])) for r in told.standings],
        "my_line": told.lines.get(me.name) if me is not None else None,
        "my_standing": next((r for r in told.standings if me is not None and r.player == me.name), None),
        "page_url": share_url(request, reverse("club-night", args=[found.pk, row.pk])),
        "image_url": share_url(request, reverse("club-night-png", args=[found.pk, row.pk])),
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


def _night_png(found: Club, row: Night, told: NightTold, moments: list[tuple[str, str]]) -> bytes:
    """The night's results as a PNG, 1200x630: the club and night, the first ten places, the moments."""
    image, draw = canvas()
    number = getattr(row, "number", row.pk)  # annotated by night_get (``numbered``)
    title = _("Night {n} · {date}").format(n=number, date=date_format(row.date, "j F Y"))
    draw.text((64, 48), found.name[:40], fill="#0b6e4f", font=font_of(52))
    draw.text((64, 110), title, fill="#555555", font=font_of(30))
    rank = row.scoring == "rank"
    y = 170
    for standing in told.standings[:9]:
        figure = f"{standing.points:g}" if rank else f"{standing.percent:g} %"
        draw.text((64, y), f"{standing.place}. {standing.player[:24]}", fill="#1b1b1b", font=font_of(34))
        draw.text((560, y), figure, fill="#1b1b1b", font=font_of(34), anchor="ra")
        y += 44
    if not told.standings:
        draw.text((64, y), _("No table has finished yet."), fill="#333333", font=font_of(30))
    y = 170
    for heading, said in moments:
        draw.text((620, y), heading, fill="#0b6e4f", font=font_of(28))
        y += 36
        for part in wrapped(draw, said, font_of(24), WIDTH - 620 - 64)[:3]:
            draw.text((620, y), part, fill="#333333", font=font_of(24))
            y += 30
        y += 14
    return png_bytes(image)


@require_safe
def night_image(request: HtmxHttpRequest, club_id: str, night_id: int) -> HttpResponse:
    """The night's results as a picture to share, once per version of the night and language."""
    found, row = _night(club_id, night_id)

    def make() -> tuple[bytes, bool]:
        told = night_told(row, night_tables(row))
        moments = moment_lines(told, rules_for(row.ruleset, row.variants))
        return _night_png(found, row, told, moments), row.status == Night.Status.FINISHED

    return picture(f"night-png:{row.pk}:{row.version}:{get_language()}", make)
