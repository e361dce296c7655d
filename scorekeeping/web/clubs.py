"""A club's pages: the club (members, nights and their standings, every table's game), and the
organiser link, which keeps the organiser's token on this phone (a cookie sent only to the
club's pages) so that the club page shows the organiser each table's edit link."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from referee.engine.clubs import SCORINGS
from referee.forms import ruleset_typed
from referee.rulebook import rules_for, rulesets_offered
from scorekeeping.access import check_organiser
from scorekeeping.errors import EditForbidden, InvalidInput, TooManyRequests
from scorekeeping.links import edit_path, night_events_path, qr_document, qr_svg, share_base, view_path
from scorekeeping.models import Club, Night
from scorekeeping.selectors.clubs import (
    TableState,
    club_get,
    club_member,
    club_nights,
    club_nights_listed,
    members_active,
    night_get,
    night_results,
    night_running,
    night_tables,
    night_told,
    season,
    still_entering,
)
from scorekeeping.services.clubs import (
    MAX_MEMBERS,
    club_ladder_shown,
    member_rename,
    member_retire,
    members_add,
    night_check_in,
    night_create,
    night_present,
)
from scorekeeping.services.sittings import night_finish, sitting_draw, table_token
from scorekeeping.web.forms import SeasonForm
from scorekeeping.web.guards import keep_organiser_token, organiser_only, organiser_refused, organiser_token
from scorekeeping.web.nights import moment_lines
from scorekeeping.web.pages import followed, streamed
from scorekeeping.webkit.formdata import form_int
from scorekeeping.webkit.htmx import HtmxHttpRequest

NIGHTS_IN_FULL = 3  # the club page's newest nights, with their tables and standings
NIGHTS_LISTED = 50  # the older nights a page lists, a line each (the next ones on the next page)


@require_safe
def club(request: HtmxHttpRequest, club_id: str) -> HttpResponse:
    """The club: its newest nights in full, the older ones a line each (``?page=2`` the next
    ones), its members; the same few queries and a bounded page however long its history."""
    found = club_get(club_id=club_id)
    token = organiser_token(request, found)
    organiser = token is not None
    base, _source = share_base(request)
    page = min(max(form_int(request.GET.get("page"), 1), 1), 10_000)
    nights = []
    for shown in club_nights(club=found, newest=NIGHTS_IN_FULL) if page == 1 else []:
        sittings = []
        for number, states in shown.tables.items():
            tables = []
            for state in states:
                link = base + view_path(state.table.game_id)
                edit = base + edit_path(state.table.game_id, table_token(token or "", state.table)) if organiser else ""
                tables.append({"state": state, "link": link, "edit": edit})
            sittings.append({"number": number, "tables": tables})
        latest = shown.tables[max(shown.tables)] if shown.tables else []
        playing = sum(1 for state in latest if not state.finished and not state.ended)
        nights.append(
            {
                "night": shown.night,
                "sittings": sittings,
                "standings": shown.standings,
                "present": shown.present,
                "playing": playing,  # what "Finish the night?" says would end as it stands
            }
        )
    chosen = ruleset_typed(request.GET.get("ruleset", ""))
    skip = NIGHTS_IN_FULL + (page - 1) * NIGHTS_LISTED
    older, more = club_nights_listed(club=found, skip=skip, most=NIGHTS_LISTED)
    context = {
        "club": found,
        "members": found.members.all(),
        "nights": nights,
        "older": older,
        "page": page,
        "next_page": page + 1 if more else None,
        "organiser": organiser,
        "rulesets": rulesets_offered(chosen),
        "chosen": chosen,  # ?ruleset=: a house ruleset offered, and chosen, in the night's form
        "scorings": SCORINGS,
    }
    if token is not None:
        # The organiser's link, to keep (copy, share, a code for a second device): this page is
        # kept by no cache (below), and the code is encoded for it alone (``qr_document``).
        link = base + reverse("club-join", args=[found.pk, token])
        context |= {
            "organiser_link": link,
            "organiser_qr": mark_safe(qr_document(link).decode()),
            "new": "new" in request.GET,
        }
    response = render(request, "clubs/club.html", context)
    if organiser:
        patch_cache_control(response, no_store=True)
    return response


@require_safe
def club_season(request: HtmxHttpRequest, club_id: str) -> HttpResponse:
    """The club's standings over a date range (every night by default), each player's best N
    nights counted, and who has played enough nights for the title."""
    found = club_get(club_id=club_id)
    form = SeasonForm(request.GET or None)
    rows = []
    data: dict[str, Any] = {}
    if not request.GET or form.is_valid():
        data = form.cleaned_data if request.GET else {}
        rows = season(
            club=found,
            start=data.get("start"),
            end=data.get("end"),
            best=data.get("best"),
            minimum=data.get("minimum") or 1,
        )
    minimum = data.get("minimum") or 1
    context = {"club": found, "form": form, "standings": rows, "best": data.get("best"), "minimum": minimum}
    return render(request, "clubs/season.html", context)


def _leader(state: TableState) -> str:
    """Who leads a table's game now (the lowest total), with the total: "Ana 35"."""
    rows = state.standings
    return f"{rows[0].player.name} {rows[0].total}" if state.played and rows else ""


@dataclass(frozen=True)
class TilePlayer:
    """A player on a table's tile of the room screen: in their colour, the initial on it."""

    name: str
    colour: str
    total: int
    leads: bool
    entering: bool  # their hand of the round in progress is not in yet

    @property
    def initial(self) -> str:
        return self.name[:1].upper()


def _tile_players(state: TableState, entering: list[str]) -> list[TilePlayer]:
    """A table's players by place once a round is played (the leader first), else in seat order."""
    rows = state.standings if state.played else sorted(state.standings, key=lambda r: r.player.seat)
    return [
        TilePlayer(
            r.player.name, r.player.colour, r.total, bool(state.played) and r.place == 1, r.player.name in entering
        )
        for r in rows
    ]


def _colours(states: dict[int, list[TableState]]) -> dict[str, str]:
    """Each member's colour by name on the room screen: the one their current table gives them
    (as its tile and their phone show it), else the member's own."""
    found = {m.name: m.colour for sitting in states.values() for state in sitting for m in state.members}
    for state in states[max(states)] if states else []:
        for member, seat in zip(state.members, sorted(state.standings, key=lambda r: r.player.seat), strict=False):
            found[member.name] = seat.player.colour
    return found


@require_safe
def room(request: HtmxHttpRequest, club_id: str, night_id: int) -> HttpResponse:
    """The room screen (a TV or a tablet in landscape, nothing to tap): the night's standings,
    every table of the current sitting with its round, its leader and its QR code, kept up to
    date by push. It holds no right, whoever opens it (the organiser's cookie is not read): a
    table's QR code takes a phone to the night's "Who are you?" for that table's players, where
    one tap seats it at its table (an "I am" right, which never hands out the edit link)."""
    found = club_get(club_id=club_id)
    night = night_get(club=found, night_id=night_id)
    base, _source = share_base(request)
    states = night_tables(night)
    current = max(states) if states else None
    tables = []
    shown = states.get(current, []) if current else []
    entering = still_entering(shown)
    for state in shown:
        view = base + view_path(state.table.game_id)
        seat = f"{base}{reverse('club-night', args=[found.pk, night.pk])}?table={state.table.number}"
        qr = qr_svg(seat) if not state.finished else qr_svg(view)
        waiting = entering.get(state.table.game_id, [])
        tables.append(
            {
                "state": state,
                "leader": _leader(state),
                "qr": qr,
                "view": view,
                "seat": seat,
                "entering": waiting,
                "players": _tile_players(state, waiting),
                "pips": [n <= state.played for n in range(1, state.last_round + 1)],
            }
        )
    finished = night.status == Night.Status.FINISHED
    told = night_told(night, states) if finished else None  # the night over: its moments instead of tiles
    standings = told.standings if told is not None else night_results(night, states)
    running = [] if standings else night_running(night, states)  # while no table has finished
    colours = _colours(states)
    context = {
        "club": found,
        "night": night,
        "sitting": current,
        "tables": tables,
        "standings": standings,
        "running": running,
        "rows": [(row, colours.get(row.player, "")) for row in standings or running],  # with their colours
        "rules": (rules := rules_for(night.ruleset, night.variants)),  # its name said beside the night's
        "round_word": _(rules.round_word),
        "moments": moment_lines(told, rules) if told is not None else [],
        "finished": finished,
        "stream": streamed(request),
        "events": night_events_path(found.pk, night.pk),
    }
    return followed(request, "clubs/room.html", context, no_store=True)


@organiser_only
def night_new(request: HtmxHttpRequest, club: Club, token: str) -> str:
    night = night_create(
        club=club,
        ruleset=ruleset_typed(request.POST.get("house", "")) or request.POST.get("ruleset", ""),
        sittings=form_int(request.POST.get("sittings"), 0),
        table_size=form_int(request.POST.get("table_size"), 0),
        scoring=request.POST.get("scoring", ""),
    )
    return _("A club night of {n} sittings is open: check in who is here.").format(n=night.sittings)


@organiser_only
def present(request: HtmxHttpRequest, club: Club, token: str, night: Night) -> str:
    """Who is here: the members ticked, and the names typed (one a line), new members if need be;
    or, a box ticked or unticked with htmx (``tick``: the member), that member alone."""
    tick = form_int(request.POST.get("tick"), None)
    if tick is not None:
        count = night_check_in(night=night, member_id=tick, here=str(tick) in request.POST.getlist("member"))
        return ngettext("{n} player is here.", "{n} players are here.", count).format(n=count)
    ticked = set(request.POST.getlist("member"))
    names = [m.name for m in members_active(club=club) if str(m.pk) in ticked]
    names += [line for line in request.POST.get("more", "").splitlines() if line.strip()][:MAX_MEMBERS]
    if not names:
        raise InvalidInput(_("Tick who is here, or type their names."), "names")
    here = night_present(night=night, names=names)
    return ngettext("{n} player is here.", "{n} players are here.", len(here)).format(n=len(here))


@organiser_only
def members(request: HtmxHttpRequest, club: Club, token: str) -> str:
    """New members, one name a line (a pasted list), or one member renamed or retired."""
    member = club_member(club=club, member_id=form_int(request.POST.get("member"), None))
    if member is not None and request.POST.get("action") == "retire":
        member_retire(club=club, name=member.name)
        return _("{name} is retired: kept in the history, no longer offered.").format(name=member.name)
    if member is not None:
        renamed = member_rename(club=club, name=member.name, new_name=request.POST.get("name", ""))
        return _("{old} is now {new}.").format(old=member.name, new=renamed.name)
    names = [line for line in request.POST.get("names", "").splitlines() if line.strip()]
    if not names:
        raise InvalidInput(_("Type the new members' names, one a line."), "names")
    added = members_add(club=club, names=names[:MAX_MEMBERS])
    return ngettext("The club has {n} member.", "The club has {n} members.", len(added)).format(n=len(added))


@organiser_only
def ladder_shown(request: HtmxHttpRequest, club: Club, token: str) -> str:
    """The organiser's switch: the club's ladder on show, or not."""
    shown = request.POST.get("shown") == "1"
    club_ladder_shown(club=club, shown=shown)
    if shown:
        return _("The ladder is on show again.")
    return _("The ladder is hidden: no ratings are shown, on its page or on the members' pages.")


@organiser_only
def draw(request: HtmxHttpRequest, club: Club, token: str, night: Night) -> tuple[str, str]:
    """The next sitting drawn; the organiser lands on its tables (they were below the fold)."""
    sitting = sitting_draw(night=night, organiser_token=token, force=request.POST.get("force") == "1")
    said = _("Sitting {n} is drawn: its tables are here, and on the room screen.").format(n=sitting.number)
    return said, f"night-{night.pk}-sitting-{sitting.number}"


@organiser_only
def finish(request: HtmxHttpRequest, club: Club, token: str, night: Night) -> str:
    """The night ends: only once the organiser confirmed it in words ("Finish the night? Tables
    still playing: 3"), so that a tap meant for Draw never ends a night."""
    if request.POST.get("confirm") != "1":
        raise InvalidInput(_("The night was not finished: confirm it with Yes, finish the night."), "confirm")
    night_finish(night=night)
    return _("The night is finished.")


@require_safe
def club_join(request: HtmxHttpRequest, club_id: str, token: str) -> HttpResponse:
    """The organiser link: a right token is kept on this phone, then leaves the address bar."""
    found = club_get(club_id=club_id)
    try:
        check_organiser(request, found, token)
    except (EditForbidden, TooManyRequests) as exc:
        response = organiser_refused(request, found, exc)
    else:
        response = HttpResponseRedirect(reverse("club", args=[found.pk]))
        keep_organiser_token(response, found, token)
    response["Referrer-Policy"] = "no-referrer"
    patch_cache_control(response, no_store=True)
    return response
