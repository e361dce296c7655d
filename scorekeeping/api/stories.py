"""The players' stories in the API: a club member's profile, a club's records, a game's recap
(each figure defined in ``referee.engine.stories``)."""

from __future__ import annotations

import copy
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from referee.engine import DEFAULT_RULESET, RULESETS, RefereeError
from referee.engine.ladder import Ladder
from referee.engine.stories import Profile, Recap, Record, recap
from referee.fields import RulesetField
from referee.rulebook import SLUG_MAX, rules_for
from scorekeeping.access import creating
from scorekeeping.api.permissions import club_organised
from scorekeeping.api.representations import NewGameOutput
from scorekeeping.api.writes import created
from scorekeeping.errors import InvalidInput, NotFound
from scorekeeping.selectors import game_get
from scorekeeping.selectors.clubs import club_get
from scorekeeping.selectors.folding import played
from scorekeeping.selectors.stories import club_stories, server_stories
from scorekeeping.services.sheets import MAX_BYTES, sheet_import
from scorekeeping.services.sittings import tables_counted
from scorekeeping.webkit.errors import ERROR
from scorekeeping.webkit.serializers import InputSerializer, TextField

SHEET_ORGANISER = OpenApiParameter(
    "X-Club-Token", str, OpenApiParameter.HEADER, required=False, description="With ``club``: its organiser's token."
)
_S = serializers


def _shape(name: str, fields: dict[str, Any], **kwargs: Any) -> Any:
    """An inline serializer of copies of ``fields`` (a field belongs to one serializer, so two
    shapes that share fields, a profile and a member's profile, each get their own)."""
    return inline_serializer(name, copy.deepcopy(fields), **kwargs)


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


def _profile_fields() -> dict[str, Any]:
    """A profile's fields, made anew for each shape (a field belongs to one serializer)."""
    return {
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
        "rolling_average": _S.ListField(child=_S.FloatField(), help_text="After each of the latest 100 games."),
        "rolling_from": _S.IntegerField(help_text="The number of the game the first average is after, from 1."),
        "favourite_round": _S.IntegerField(allow_null=True),
        "worst_round": _S.IntegerField(allow_null=True),
        "head_to_head": _shape(*HEAD_TO_HEAD_FIELDS, many=True),
        "rival": _S.CharField(allow_null=True),
        "nemesis": _S.CharField(allow_null=True),
    }


PROFILE = _shape("Profile", _profile_fields())
RATING_HELP = (
    "The conservative rating, mu - 3 sigma (OpenSkill's Plackett-Luce model, its default parameters), "
    "rounded to 2 decimals: see docs/stories.md."
)
MEMBER_PROFILE = _shape(
    "MemberProfile",
    {
        **_profile_fields(),
        "rating": _S.FloatField(
            allow_null=True, help_text=RATING_HELP + " Null below 3 rated games of the club's ladder ruleset."
        ),
        "rating_ruleset": _S.CharField(help_text="The ruleset of the ladder the rating is of: the one played most."),
        "rating_history": _shape(
            "RatingStep",
            {"game": _S.CharField(), "rating": _S.FloatField(help_text="The rating after that game.")},
            many=True,
            help_text="One entry per rated game of the latest 100, oldest first (also below 3 games).",
        ),
    },
)
LADDER = _shape(
    "Ladder",
    {
        "ruleset": _S.CharField(help_text="The ruleset whose finished games were rated."),
        "players": _shape(
            "LadderPlayer",
            {
                "name": _S.CharField(),
                "rating": _S.FloatField(help_text=RATING_HELP),
                "mu": _S.FloatField(),
                "sigma": _S.FloatField(),
                "games": _S.IntegerField(help_text="Rated games: the finished games of the ruleset."),
                "wins": _S.IntegerField(),
                "place": _S.IntegerField(help_text="By rating, highest first; equal ratings share a place."),
            },
            many=True,
        ),
        "unrated": _shape(
            "LadderUnrated",
            {
                "name": _S.CharField(),
                "games": _S.IntegerField(help_text="Fewer than 3 rated games."),
                "to_go": _S.IntegerField(help_text="Rated games still needed before a rating shows."),
            },
            many=True,
        ),
    },
)
LADDER_RULESET = OpenApiParameter(
    "ruleset",
    str,
    OpenApiParameter.QUERY,
    required=False,
    description="Rate only this ruleset's games, a built-in's or a saved house ruleset's slug"
    " (default: the ruleset played most).",
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
        "rolling_from": found.rolling_from,
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


def ladder_data(found: Ladder) -> dict[str, Any]:
    return {
        "ruleset": found.ruleset,
        "players": [
            {
                "name": r.name,
                "rating": r.rating,
                "mu": r.mu,
                "sigma": r.sigma,
                "games": r.games,
                "wins": r.wins,
                "place": r.place,
            }
            for r in found.players
        ],
        "unrated": [{"name": u.name, "games": u.games, "to_go": u.to_go} for u in found.unrated],
    }


def member_profile_data(found: Profile, rated: Ladder, shown: bool = True) -> dict[str, Any]:
    """A member's profile with their rating on the club's ladder (its default ruleset); none where
    the club keeps no ladder on show (``shown``)."""
    if not shown:
        return profile_data(found) | {"rating": None, "rating_ruleset": None, "rating_history": []}
    on = rated.rating_of(found.name)
    history = [{"game": step.game, "rating": step.rating} for step in rated.history.get(found.name, [])]
    rating = {"rating": on.rating if on else None, "rating_ruleset": rated.ruleset, "rating_history": history}
    return profile_data(found) | rating


def ladder_ruleset(request: Request) -> str | None:
    """The ``ruleset`` asked for: a known slug, or None (the ruleset played most)."""
    asked = request.query_params.get("ruleset")
    if asked is None:
        return None
    try:
        rules_for(asked[: SLUG_MAX + 1])
    except RefereeError:
        known = ", ".join([*RULESETS, _("a saved house ruleset's slug")])
        said = _("{value} is no ruleset: one of {known}").format(value=asked[:40], known=known)
        raise InvalidInput(said, "ruleset") from None
    return asked


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


class LadderView(APIView):
    """A club's ladder: every member rated from the club's finished games (OpenSkill's
    Plackett-Luce model), the conservative rating first, beside games and wins; members with
    fewer than 3 rated games listed apart."""

    @extend_schema(parameters=[LADDER_RULESET], responses={200: LADDER, 400: ERROR, 404: ERROR})
    def get(self, request: Request, club_id: str) -> Response:
        club = club_get(club_id=club_id)
        if not club.ladder_shown:
            raise NotFound(_("This club keeps no ladder: its organiser chose so"), "ladder")
        return Response(ladder_data(club_stories(club).ladder(ladder_ruleset(request))))


class ServerLadderView(APIView):
    """This server's ladder: the players of its games in no club, by name, rated as a club's are.
    Not offered where the server keeps its lists private (``PRIVATE_LISTS``: 404)."""

    @extend_schema(parameters=[LADDER_RULESET], responses={200: LADDER, 400: ERROR, 404: ERROR})
    def get(self, request: Request) -> Response:
        if settings.PRIVATE_LISTS:
            raise NotFound(_("This server keeps its lists private"), "ladder")
        return Response(ladder_data(server_stories().ladder(ladder_ruleset(request))))


class RecapView(APIView):
    """A game's recap: the winner and places, the round that decided it, the biggest swing, each
    round's best player, a comeback if there was one."""

    @extend_schema(responses={200: RECAP, 404: ERROR})
    def get(self, request: Request, game_id: str) -> Response:
        return Response(recap_data(recap(played(game_get(game_id=game_id)))))


class SheetImportView(APIView):
    """An old paper score sheet (XLSX or CSV: a row per round, a column per player, names in the
    first row), or this app's own CSV export (a row per player per round: the same game back),
    made a game of this server, or of a club with its organiser's token."""

    parser_classes = [MultiPartParser]

    class InputSerializer(InputSerializer):
        class Meta:
            ref_name = "SheetImportInput"

        file = serializers.FileField(help_text="The sheet: XLSX or CSV (UTF-8), at most 256 KB.")
        ruleset = RulesetField(default=DEFAULT_RULESET)
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
            club, token = club_organised(request, data["club"])
            with tables_counted(club, 1):  # a club's imported table counts as a drawn one; a refused one not
                game, edit = sheet_import(
                    data=content,
                    ruleset=data["ruleset"],
                    variants=data["variants"],
                    club=club,
                    organiser_token=token,
                    date=data.get("date"),
                )
        else:
            with creating(request):  # a refused import makes nothing and counts nothing
                game, edit = sheet_import(data=content, ruleset=data["ruleset"], variants=data["variants"])
        return created(request, game, edit)
