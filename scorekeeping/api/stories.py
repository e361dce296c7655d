"""The players' stories in the API: a club member's profile, a club's records, a game's recap
(each figure defined in ``referee.engine.stories``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from referee.api import ERROR
from referee.engine.stories import Profile, Recap, Record, recap, records
from scorekeeping.selectors import game_get
from scorekeeping.selectors.clubs import club_get
from scorekeeping.selectors.stories import club_games, played

STORY = inline_serializer("StoryAnswer", {"name": serializers.CharField()})


def profile_data(found: Profile) -> dict[str, Any]:
    main = next((r for r in found.by_ruleset if r.ruleset == found.main_ruleset), None)
    return {
        "name": found.name,
        "games": found.games,
        "wins": found.wins,
        "win_rate": found.win_rate,
        "ruleset": found.main_ruleset,  # average, best, worst, the rolling average and the rounds are of it
        "average": main.average if main else None,
        "best": main.best if main else None,
        "worst": main.worst if main else None,
        "by_ruleset": [
            {"ruleset": r.ruleset, "games": r.games, "average": r.average, "best": r.best, "worst": r.worst}
            for r in found.by_ruleset
        ],
        "rounds_out": found.rounds_out,
        "longest_streak": found.longest_streak,
        "rolling_average": found.rolling_average,
        "favourite_round": found.favourite_round,
        "worst_round": found.worst_round,
        "head_to_head": [
            {
                "opponent": h.opponent,
                "games": h.games,
                "ahead": h.ahead,
                "behind": h.behind,
                "average_difference": h.average_difference,
            }
            for h in found.head_to_head
        ],
        "rival": found.rival,
        "nemesis": found.nemesis,
    }


def records_data(found: list[Record]) -> dict[str, Any]:
    fields = ("title", "ruleset", "player", "value", "game", "date")
    return {"records": [{f: getattr(r, f) for f in fields} for r in found]}


def recap_data(told: Recap) -> dict[str, Any]:
    swing = told.biggest_swing
    comeback = told.comeback
    return {
        "winner": " & ".join(told.winners) or None,
        "winners": told.winners,
        "places": [{"place": place, "player": player, "total": total} for place, player, total in told.places],
        "deciding_round": told.deciding_round,
        "biggest_swing": (
            {"round": swing.round, "gainer": swing.gainer, "loser": swing.loser, "points": swing.points}
            if swing
            else None
        ),
        "round_best": [{"round": n, "players": names} for n, names in told.round_best],
        "comeback": (
            {"player": comeback.player, "deficit": comeback.deficit, "round": comeback.round} if comeback else None
        ),
    }


class RecordsView(APIView):
    """A club's records, per ruleset: lowest game total, highest round, most rounds gone out in
    one game, longest win streak, biggest comeback; each with the player, the game and the date."""

    @extend_schema(responses={200: STORY, 404: ERROR})
    def get(self, request: Request, club_id: str) -> Response:
        return Response(records_data(records(club_games(club_get(club_id=club_id)))))


class RecapView(APIView):
    """A game's recap: the winner and places, the round that decided it, the biggest swing, each
    round's best player, a comeback if there was one."""

    @extend_schema(responses={200: STORY, 404: ERROR})
    def get(self, request: Request, game_id: str) -> Response:
        return Response(recap_data(recap(played(game_get(game_id=game_id)))))
