"""The players' stories as pages: a player's profile and the records, of a club (its members) or
of this server (names, across the games the server-wide lists show)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from referee.engine import RefereeError
from referee.engine.ladder import MINIMUM_GAMES, Ladder
from referee.engine.stories import COMEBACK, HIGHEST_ROUND, LONGEST_STREAK, LOWEST_TOTAL, MOST_OUT, Profile, Record
from referee.rulebook import SLUG_MAX, rules_for, rulesets_offered
from scorekeeping.models import Club
from scorekeeping.selectors.clubs import club_get
from scorekeeping.selectors.stories import PhoneStories, ServerStories, club_stories, server_stories
from scorekeeping.web.archive import listed
from scorekeeping.web.charts import Series, totals_svg
from scorekeeping.webkit.htmx import HtmxHttpRequest


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


def _rating(found: Profile, rated: Ladder, colour: str) -> dict[str, object]:
    """The profile's rating on the ladder (its default ruleset): the figure and its place, and its
    history drawn (each rated game's rating; the chart rounds to whole points, the text does not)."""
    history = rated.history.get(found.name, [])
    chart = None
    if len(history) > 1:
        series = [Series(found.name, [round(step.rating) for step in history], colour)]
        title = _("Rating, game by game")
        on = rated.rating_of(found.name)
        first = (on.games if on else len(history)) - len(history) + 1  # the latest games only: numbered as played
        numbers = list(range(first, first + len(history)))
        chart = totals_svg(numbers, series, title=title, round_word=_("Games"), from_zero=False, ident="rating-chart")
    return {
        "rated": rated.rating_of(found.name),
        "rating_history": [step.rating for step in history],
        "rating_chart": chart,
        "ladder_ruleset": _ruleset_name(rated.ruleset),
        "ladder_size": len(rated.players),
        "needed": MINIMUM_GAMES,
    }


def _context(found: Profile, colour: str, rated: Ladder) -> dict[str, object]:
    """A profile's page, in the player's colour (``colour``: a palette key, or "")."""
    chart = None
    if len(found.rolling_average) > 1:
        series = [Series(found.name, [round(v) for v in found.rolling_average], colour)]
        first = found.rolling_from  # the latest games only: numbered as played
        numbers = list(range(first, first + len(found.rolling_average)))
        title = _("Rolling average, game by game")
        chart = totals_svg(numbers, series, title=title, round_word=_("Games"), from_zero=False)
    figures = [(_ruleset_name(r.ruleset), r) for r in found.by_ruleset]
    main = _ruleset_name(found.main_ruleset) if found.main_ruleset else ""
    return {
        # Which round, in the words of the rules played most ("round 1", "deal 3"), not a bare number.
        "best_round": _round_name(found.main_ruleset, found.favourite_round),
        "hardest_round": _round_name(found.main_ruleset, found.worst_round),
        "profile": found,
        "colour": colour,
        "chart": chart,
        "figures": figures,
        "main_ruleset": main,
        **_rating(found, rated, colour),
    }


def _round_name(slug: str | None, number: int | None) -> str:
    if not slug or number is None:
        return ""
    try:
        return capfirst(rules_for(slug).round_name(number))
    except RefereeError:
        return str(number)


def _ruleset_name(slug: str) -> str:
    try:
        return rules_for(slug).display_name
    except RefereeError:
        return slug


@require_safe
def club_member(request: HtmxHttpRequest, club_id: str, name: str) -> HttpResponse:
    club = club_get(club_id=club_id)
    stories = club_stories(club)
    found = stories.profile(name)  # NotFound: 404
    context = {"club": club, **_context(found, stories.colour(found.name), stories.ladder(history_of=found.name))}
    return render(request, "stories/profile.html", context)


@require_safe
def club_records(request: HtmxHttpRequest, club_id: str) -> HttpResponse:
    club = club_get(club_id=club_id)
    context = {"club": club, "records": _titled(club_stories(club).records())}
    return render(request, "stories/records.html", context)


def _server(request: HtmxHttpRequest) -> ServerStories | PhoneStories:
    ids, _total = listed(request)
    return server_stories(ids)


@require_safe
def player(request: HtmxHttpRequest, name: str) -> HttpResponse:
    stories = _server(request)
    found = stories.profile(name)  # NotFound: 404
    return render(
        request,
        "stories/profile.html",
        _context(found, stories.colour(found.name), stories.ladder(history_of=found.name)),
    )


@require_safe
def server_records(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "stories/records.html", {"records": _titled(_server(request).records())})


def _asked_ruleset(request: HtmxHttpRequest) -> str | None:
    """``?ruleset=``: a known slug, or None for the ruleset played most (an unknown one: 404)."""
    asked = request.GET.get("ruleset") or None
    if asked is not None:
        try:
            rules_for(asked[: SLUG_MAX + 1])
        except RefereeError:
            raise Http404(_("No such ruleset")) from None
    return asked


def _ladder(request: HtmxHttpRequest, found: Ladder, club: Club | None) -> HttpResponse:
    """The ladder page: on a phone, or with ``?tv=1`` as a room screen (no site header or footer)."""
    context = {
        "club": club,
        "ladder": found,
        "ruleset_name": _ruleset_name(found.ruleset),
        "rulesets": [(rules.slug, rules.display_name) for rules in rulesets_offered(found.ruleset)],
        "tv": request.GET.get("tv") == "1",
        "needed": MINIMUM_GAMES,
    }
    return render(request, "stories/ladder.html", context)


@require_safe
def club_ladder(request: HtmxHttpRequest, club_id: str) -> HttpResponse:
    club = club_get(club_id=club_id)
    if not club.ladder_shown:  # the organiser's choice: said, not a bare 404
        return render(request, "stories/no_ladder.html", {"club": club}, status=404)
    return _ladder(request, club_stories(club).ladder(_asked_ruleset(request)), club)


@require_safe
def server_ladder(request: HtmxHttpRequest) -> HttpResponse:
    return _ladder(request, _server(request).ladder(_asked_ruleset(request)), None)
