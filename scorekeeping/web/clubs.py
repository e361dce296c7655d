"""A club's pages: the club (members, nights and their standings, every table's game), and the
organiser link, which keeps the organiser's token on this phone (a cookie sent only to the
club's pages) so that the club page shows the organiser each table's edit link."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from referee.htmx import HtmxHttpRequest
from scorekeeping.access import check_organiser
from scorekeeping.errors import EditForbidden, NotFound, TooManyRequests
from scorekeeping.links import edit_path, night_events_path, qr_document, qr_svg, share_base, view_path
from scorekeeping.models import Club
from scorekeeping.selectors import game_filled, game_standings
from scorekeeping.selectors.clubs import TableState, night_get, night_results, night_tables
from scorekeeping.services.clubs import club_token_valid, table_token
from scorekeeping.web.table import streamed


def _cookie(club_id: str) -> str:
    return f"club-{club_id}"


@require_safe
def club(request: HtmxHttpRequest, club_id: str) -> HttpResponse:
    found = get_object_or_404(Club, pk=club_id)
    token = request.COOKIES.get(_cookie(found.pk))
    organiser = club_token_valid(club=found, token=token)
    base, _source = share_base(request)
    nights = []
    for row in found.nights.all()[:20]:
        night = night_get(club=found, night_id=row.pk)
        sittings = []
        for number, states in night_tables(night).items():
            tables = []
            for state in states:
                link = base + view_path(state.table.game_id)
                edit = base + edit_path(state.table.game_id, table_token(token or "", state.table)) if organiser else ""
                tables.append({"state": state, "link": link, "edit": edit})
            sittings.append({"number": number, "tables": tables})
        nights.append({"night": night, "sittings": sittings, "standings": night_results(night)})
    context = {"club": found, "members": found.members.all(), "nights": nights, "organiser": organiser}
    response = render(request, "clubs/club.html", context)
    if organiser:
        patch_cache_control(response, no_store=True)
    return response


def _leader(state: TableState) -> str:
    """Who leads a table's game now (the lowest total), with the total: "Ana 35"."""
    if not state.played:
        return ""
    rows = game_standings(game=game_filled(state.table.game)).rows
    return f"{rows[0].player.name} {rows[0].total}" if rows else ""


@require_safe
def room(request: HtmxHttpRequest, club_id: str, night_id: int) -> HttpResponse:
    """The room screen (a TV or a tablet in landscape, nothing to tap): the night's standings,
    every table of the current sitting with its round, its leader and its QR code (the view
    link; the edit link for the organiser's screen), kept up to date by push."""
    found = get_object_or_404(Club, pk=club_id)
    try:
        night = night_get(club=found, night_id=night_id)
    except NotFound:
        raise Http404 from None
    token = request.COOKIES.get(_cookie(found.pk))
    organiser = club_token_valid(club=found, token=token)
    base, _source = share_base(request)
    states = night_tables(night)
    current = max(states) if states else None
    tables = []
    for state in states.get(current, []) if current else []:
        view = base + view_path(state.table.game_id)
        qr = qr_svg(view)
        if organiser and not state.finished:  # encoded here, kept nowhere: it is the token
            edit = base + edit_path(state.table.game_id, table_token(token or "", state.table))
            qr = mark_safe(qr_document(edit).decode())
        tables.append({"state": state, "leader": _leader(state), "qr": qr, "view": view})
    context = {
        "club": found,
        "night": night,
        "sitting": current,
        "tables": tables,
        "standings": night_results(night),
        "stream": streamed(request),
        "events": night_events_path(found.pk, night.pk),
    }
    name = "clubs/room.html#content" if request.htmx else "clubs/room.html"
    response = render(request, name, context)
    patch_cache_control(response, no_store=True)
    return response


@require_safe
def club_join(request: HtmxHttpRequest, club_id: str, token: str) -> HttpResponse:
    """The organiser link: a right token is kept on this phone, then leaves the address bar."""
    found = get_object_or_404(Club, pk=club_id)
    try:
        check_organiser(request, found, token)
    except (EditForbidden, TooManyRequests) as exc:
        response = render(request, "clubs/forbidden.html", {"club": found, "message": exc.message}, status=exc.status)
    else:
        response = HttpResponseRedirect(reverse("club", args=[found.pk]))
        response.set_cookie(
            _cookie(found.pk),
            token,
            max_age=settings.SESSION_COOKIE_AGE,
            path=reverse("club", args=[found.pk]),
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    response["Referrer-Policy"] = "no-referrer"
    patch_cache_control(response, no_store=True)
    return response
