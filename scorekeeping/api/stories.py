"""The players' stories in the API: a club member's profile, a club's records, a game's recap
(each figure defined in ``referee.engine.stories``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from referee.api import ERROR
from referee.engine import RULESETS
from referee.engine.stories import Profile, Recap, Record, recap
from referee.serializers import InputSerializer, TextField
from scorekeeping.access import check_organiser, creating
from scorekeeping.api.representations import NewGameOutput
from scorekeeping.api.writes import created
from scorekeeping.errors import InvalidInput
from scorekeeping.selectors import game_get
from scorekeeping.selectors.clubs import club_get
from scorekeeping.selectors.stories import club_stories, played
from scorekeeping.services.clubs import count_tables
from scorekeeping.services.sheets import MAX_BYTES, sheet_import

SHEET_ORGANISER = OpenApiParameter(
    "X-Club-Token", str, OpenApiParameter.HEADER, required=False, description="With ``club``: its organiser's token."
)
_S = serializers


def _shape(name: str, fields: dict[str, Any], **kwargs: Any) -> Any:
    return inline_serializer(name, fields, **kwargs)


HEAD_TO_HEAD_FIELDS = (
    "HeadToHead",
    {
        "opponent": _S.CharField(),
        "games": _S.IntegerField(),
        "ahead": _S.IntegerField(),
        "behind": _S.IntegerField(),
        "average_difference": _S.FloatField(),
    },
)
RULESET_FIGURES_FIELDS = (
    "RulesetFigures",
    {
        "ruleset": _S.CharField(),
        "games": _S.IntegerField(),
        "average": _S.FloatField(),
        "best": _S.IntegerField(),
        "worst": _S.IntegerField(),
    },
)
PROFILE = _shape(
    "Profile",
    {
        "name": _S.CharField(),
        "games": _S.IntegerField(),
        "wins": _S.IntegerField(),
        "win_rate": _S.FloatField(),
        "ruleset": _S.CharField(allow_null=True),
        "average": _S.FloatField(allow_null=True),
        "best": _S.IntegerField(allow_null=True),
        "worst": _S.IntegerField(allow_null=True),
        "by_ruleset": _shape(*RULESET_FIGURES_FIELDS, many=True),
        "rounds_out": _S.IntegerField(),
        "longest_streak": _S.IntegerField(),
        "rolling_average": _S.ListField(child=_S.FloatField()),
        "favourite_round": _S.IntegerField(allow_null=True),
        "worst_round": _S.IntegerField(allow_null=True),
        "head_to_head": _shape(*HEAD_TO_HEAD_FIELDS, many=True),
        "rival": _S.CharField(allow_null=True),
        "nemesis": _S.CharField(allow_null=True),
    },
)
RECORD_FIELDS = (
    "Record",
    {
        "title": _S.CharField(),
        "ruleset": _S.CharField(),
        "player": _S.CharField(),
        "value": _S.IntegerField(),
        "game": _S.CharField(),
        "date": _S.DateField(),
    },
)
RECORDS = _shape("Records", {"records": _shape(*RECORD_FIELDS, many=True)})
RECAP = _shape(
    "Recap",
    {
        "winner": _S.CharField(allow_null=True),
        "winners": _S.ListField(child=_S.CharField()),
        "places": _shape(
            "RecapPlace", {"place": _S.IntegerField(), "player": _S.CharField(), "total": _S.IntegerField()}, many=True
        ),
        "deciding_round": _S.IntegerField(allow_null=True),
        "biggest_swing": _shape(
            "Swing",
            {
                "round": _S.IntegerField(),
                "gainer": _S.CharField(),
                "loser": _S.CharField(),
                "points": _S.IntegerField(),
            },
            allow_null=True,
        ),
        "round_best": _shape(
            "RoundBest", {"round": _S.IntegerField(), "players": _S.ListField(child=_S.CharField())}, many=True
        ),
        "comeback": _shape(
            "Comeback",
            {"player": _S.CharField(), "deficit": _S.IntegerField(), "round": _S.IntegerField()},
            allow_null=True,
        ),
    },
)


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

    @extend_schema(responses={200: RECORDS, 404: ERROR})
    def get(self, request: Request, club_id: str) -> Response:
        return Response(records_data(club_stories(club_get(club_id=club_id)).records()))


class RecapView(APIView):
    """A game's recap: the winner and places, the round that decided it, the biggest swing, each
    round's best player, a comeback if there was one."""

    @extend_schema(responses={200: RECAP, 404: ERROR})
    def get(self, request: Request, game_id: str) -> Response:
        return Response(recap_data(recap(played(game_get(game_id=game_id)))))


class SheetImportView(APIView):
    """An old paper score sheet (XLSX or CSV: a row per round, a column per player, names in the
    first row) made a game of this server, or of a club with its organiser's token."""

    parser_classes = [MultiPartParser]

    class InputSerializer(InputSerializer):
        class Meta:
            ref_name = "SheetImportInput"

        file = serializers.FileField(help_text="The sheet: XLSX or CSV (UTF-8), at most 256 KB.")
        ruleset = serializers.ChoiceField(choices=list(RULESETS), default="mexican")
        variants = serializers.ListField(child=TextField(max_length=40), max_length=10, default=list)
        club = TextField(max_length=16, required=False, help_text="A club's id: the game is the club's (X-Club-Token).")
        date = serializers.DateField(required=False, help_text="The club night's date (a club's game).")

    @extend_schema(
        request={"multipart/form-data": InputSerializer},
        parameters=[SHEET_ORGANISER],
        responses={201: NewGameOutput, 400: ERROR, 403: ERROR, 404: ERROR, 429: ERROR},
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        upload = data["file"]
        if upload.size > MAX_BYTES:
            said = _("the file is {n} KB; a score sheet is at most {most} KB")
            raise InvalidInput(said.format(n=upload.size // 1024, most=MAX_BYTES // 1024), "file")
        content = upload.read(MAX_BYTES + 1)
        if "club" in data:
            club = club_get(club_id=data["club"])
            token = request.headers.get("X-Club-Token")
            check_organiser(request, club, token)
            count_tables(club, 1)  # a club's imported table counts as a drawn one, before it is read
            game, edit = sheet_import(
                data=content,
                ruleset=data["ruleset"],
                variants=data["variants"],
                club=club,
                organiser_token=token or "",
                date=data.get("date"),
            )
        else:
            with creating(request, refund=False):  # a refused sheet was read all the same: it counts
                game, edit = sheet_import(data=content, ruleset=data["ruleset"], variants=data["variants"])
        return created(request, game, edit)
