"""The players' stories as pages: a player's profile and the records, of a club (its members) or
of this server (names, across the games the server-wide lists show)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from referee.engine import RULESETS
from referee.engine.stories import COMEBACK, HIGHEST_ROUND, LONGEST_STREAK, LOWEST_TOTAL, MOST_OUT, Profile, Record
from referee.htmx import HtmxHttpRequest
from scorekeeping.errors import NotFound
from scorekeeping.models import Club
from scorekeeping.selectors.stories import ServerStories, club_stories, server_stories
from scorekeeping.web.archive import listed
from scorekeeping.web.charts import Series, totals_svg


def _titled(found: list[Record]) -> list[tuple[str, str, Record]]:
    """Each record with its title in the page's language."""
    titles = {
        LOWEST_TOTAL: _("Lowest game total"),
        HIGHEST_ROUND: _("Highest penalty in one round"),
        MOST_OUT: _("Most rounds gone out in one game"),
        LONGEST_STREAK: _("Longest win streak"),
        COMEBACK: _("Biggest comeback (points behind, then won)"),
    }
    return [(titles[r.title], _ruleset_name(r.ruleset), r) for r in found]


def _context(found: Profile, colour: str) -> dict[str, object]:
    """A profile's page, in the player's colour (``colour``: a palette key, or "")."""
    chart = None
    if len(found.rolling_average) > 1:
        series = [Series(found.name, [round(v) for v in found.rolling_average], colour)]
        numbers = list(range(1, len(found.rolling_average) + 1))
        title = _("Rolling average, game by game")
        chart = totals_svg(numbers, series, title=title, round_word=_("Games"), from_zero=False)
    figures = [(_ruleset_name(r.ruleset), r) for r in found.by_ruleset]
    main = _ruleset_name(found.main_ruleset) if found.main_ruleset else ""
    return {"profile": found, "colour": colour, "chart": chart, "figures": figures, "main_ruleset": main}


def _ruleset_name(slug: str) -> str:
    rules = RULESETS.get(slug)
    return rules.display_name if rules else slug


@require_safe
def club_member(request: HtmxHttpRequest, club_id: str, name: str) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    stories = club_stories(club)
    try:
        found = stories.profile(name)
    except NotFound:
        raise Http404 from None
    context = {"club": club, **_context(found, stories.colour(found.name))}
    return render(request, "stories/profile.html", context)


@require_safe
def club_records(request: HtmxHttpRequest, club_id: str) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    context = {"club": club, "records": _titled(club_stories(club).records())}
    return render(request, "stories/records.html", context)


def _server(request: HtmxHttpRequest) -> ServerStories:
    ids, _total = listed(request)
    return server_stories(ids)


@require_safe
def player(request: HtmxHttpRequest, name: str) -> HttpResponse:
    stories = _server(request)
    try:
        found = stories.profile(name)
    except NotFound:
        raise Http404 from None
    return render(request, "stories/profile.html", _context(found, stories.colour(found.name)))


@require_safe
def server_records(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "stories/records.html", {"records": _titled(_server(request).records())})
