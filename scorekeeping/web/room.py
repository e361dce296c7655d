"""A single game's room screen: a TV or a tablet in landscape beside the table, nothing to tap:
the round to deal (cards, wilds, contract, who deals and starts) and the standings, large, kept
up to date by push like the table itself."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_safe

from scorekeeping.selectors import game_current_round, game_filled, game_standings
from scorekeeping.web.pages import followed, game_head, streamed
from scorekeeping.webkit.htmx import HtmxHttpRequest


@require_safe
def game_room(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = game_filled(game_head(request, game_id))
    context = {
        "game": game,
        "rules": game.rules,
        "current": game_current_round(game=game),
        "standings": game_standings(game=game),
        "played": len(game.rounds.all()),
        "stream": streamed(request),
    }
    return followed(request, "scorekeeping/room.html", context, no_cache=True)
