"""The archive of games: the games on this server, player records, the score sheet, export and import."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from referee.engine.sheets import shorten
from scorekeeping.access import creating
from scorekeeping.errors import ScorekeepingError
from scorekeeping.models import Game
from scorekeeping.selectors import (
    GAMES_LISTED,
    game_get,
    game_standings,
    games_summaries,
    server_games_count,
    with_scores,
)
from scorekeeping.selectors.stories import server_stories
from scorekeeping.services.exchange import game_csv, game_document, game_import
from scorekeeping.web import session as phone
from scorekeeping.web.charts import cumulative, totals_svg
from scorekeeping.webkit.htmx import HtmxHttpRequest

MAX_IMPORT = 2_000_000  # bytes


def chart(game: Game) -> dict[str, object]:
    """The chart of running totals and its numbers, for the table page and the score sheet."""
    rules = with_scores(game).rules
    numbers, series = cumulative(game)
    title = _("Running totals after each {word}").format(word=_(rules.round_word))
    return {
        "chart": totals_svg(numbers, series, title=title, round_word=_(rules.round_word)) if numbers else None,
        "chart_numbers": numbers,
        "chart_series": series,
    }


def listed(request: HtmxHttpRequest) -> tuple[list[str] | None, int]:
    """Which games the server-wide lists show: all, or with ``PRIVATE_LISTS`` (a server open to
    the internet, where every view link listed would be a public one) only this phone's."""
    if settings.PRIVATE_LISTS:
        ids = phone.game_ids(request)
        return ids, len(ids)
    return None, server_games_count()


@require_safe
def games(request: HtmxHttpRequest) -> HttpResponse:
    ids, total = listed(request)
    summaries = games_summaries(limit=GAMES_LISTED, ids=ids)
    context = {"summaries": summaries, "total": total, "limit": GAMES_LISTED, "private": ids is not None}
    return render(request, "scorekeeping/games.html", context)


@require_safe
def players(request: HtmxHttpRequest) -> HttpResponse:
    ids, total = listed(request)
    records = server_stories(ids).player_lines()  # every finished game's kept lines, summed
    context = {"records": records, "total": total, "private": ids is not None}
    return render(request, "scorekeeping/players.html", context)


@require_safe
def export_json(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = game_get(game_id=game_id)
    response = JsonResponse(game_document(game), json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="rummy-{game.pk}.json"'
    return response


@require_safe
def export_csv(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = game_get(game_id=game_id)
    response = HttpResponse(game_csv(game), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="rummy-{game.pk}.csv"'
    return response


@require_safe
def sheet(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = game_get(game_id=game_id)
    rules = game.rules
    context = {"game": game, "rules": rules, "standings": game_standings(game=game), **chart(game)}
    context["rows"] = [
        (p, [next((s.points for s in r.scores.all() if s.player_id == p.pk), None) for r in game.rounds.all()])
        for p in game.players.all()
    ]
    return render(request, "scorekeeping/sheet.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def import_game(request: HtmxHttpRequest) -> HttpResponse:
    if request.method != "POST":
        return render(request, "scorekeeping/import.html", {})
    upload = request.FILES.get("file")
    text = upload.read(MAX_IMPORT + 1).decode("utf-8", "replace") if upload else request.POST.get("document", "")
    error = None
    if len(text) > MAX_IMPORT:
        error = _("That file is too large for a game export.")
    else:
        try:
            with creating(request):  # a refused import makes nothing and counts nothing
                game, token = game_import(document=json.loads(text))
        except json.JSONDecodeError as exc:
            error = _("That is not JSON: {error} at line {line}.").format(error=exc.msg, line=exc.lineno)
        except RecursionError:  # json's decoder recurses once per level of nesting
            error = _("That is not a game export: it is nested too deeply.")
        except ScorekeepingError as exc:
            error = shorten(exc.message, 2000)  # the first faults: a page of them is no help
    if error:
        return render(request, "scorekeeping/import.html", {"error": error, "document": text[:20000]}, status=422)
    messages.success(request, _("The game is restored."))
    response = HttpResponseRedirect(reverse("table", args=[game.pk]))
    phone.grant(request, response, game.pk, token)
    return response
