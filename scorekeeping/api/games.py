"""The API's games: create, read, standings, history, undo, a new edit token, export and import.

Reads need only the game's id; every write needs its edit token in ``X-Game-Token``.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeping import colours as palette
from scorekeeping.access import creating
from scorekeeping.api.permissions import GameEditToken, edit_token_if_valid, game_of
from scorekeeping.api.representations import (
    ChangeOutput,
    GameOutput,
    NewGameOutput,
    StandingsOutput,
    change_data,
    game_data,
    standings_data,
)
from scorekeeping.api.writes import (
    TOKEN,
    WRITE_ERRORS,
    RulesInput,
    created,
    secret,
    share_base_of,
    version_field,
    written,
)
from scorekeeping.selectors import game_filled, game_get, game_history, game_standings
from scorekeeping.services import (
    game_create,
    game_token_replace,
    game_undo,
)
from scorekeeping.services.exchange import game_document, game_import
from scorekeeping.webkit.errors import ERROR
from scorekeeping.webkit.serializers import InputSerializer


class GamesView(APIView):
    """Start a game."""

    class InputSerializer(RulesInput):
        """A new game: the rules, the players in seat order, and how the first dealer is chosen."""

        class Meta:
            ref_name = "GameInput"

        players = serializers.ListField(
            child=serializers.CharField(allow_blank=True, trim_whitespace=False, max_length=200),
            max_length=20,
            help_text="Names in seat order, clockwise.",
        )
        first_dealer = serializers.CharField(
            required=False,
            allow_null=True,
            default=None,
            max_length=200,
            help_text="A player's name; random if absent.",
        )
        draw = serializers.DictField(
            child=serializers.CharField(max_length=20),
            required=False,
            default=None,
            allow_null=True,
            help_text="Draw for the deal: each player's card; the highest (aces high) deals.",
        )
        colours = serializers.ListField(
            child=serializers.ChoiceField(choices=[*palette.KEYS, *palette.RENAMED]),  # a renamed one read as now
            max_length=20,
            required=False,
            default=None,
            allow_null=True,
            help_text="Each player's colour in seat order, each a colour of its own; the palette in seat order"
            " if absent.",
        )

    @extend_schema(request=InputSerializer, responses={201: NewGameOutput, 400: ERROR, 429: ERROR})
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        with creating(request):
            game, token = game_create(
                ruleset=data["ruleset"],
                variants=data["variants"],
                players=data["players"],
                first_dealer=data["first_dealer"],
                draw=data["draw"],
                colours=data["colours"],
            )
        return created(request, game, token)


READ_TOKEN = OpenApiParameter(
    "X-Game-Token",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="The game's edit token, optional: with it the answer adds the edit link; a wrong one counts"
    " against the wrong-token limit (429 past it).",
)


class GameView(APIView):
    """A game: players, rounds with every score, the round to deal next, standings."""

    @extend_schema(parameters=[READ_TOKEN], responses={200: GameOutput, 404: ERROR, 429: ERROR})
    def get(self, request: Request, game_id: str) -> Response:
        game = game_get(game_id=game_id)
        known = edit_token_if_valid(request, game)
        response = Response(game_data(game, base_url=share_base_of(request), token=known))
        return secret(response) if known else response


class StandingsView(APIView):
    """Totals, rounds won and places."""

    @extend_schema(responses={200: StandingsOutput, 404: ERROR})
    def get(self, request: Request, game_id: str) -> Response:
        return Response(standings_data(game_standings(game=game_get(game_id=game_id))))


HISTORY = inline_serializer("History", {"changes": ChangeOutput(many=True)})


class HistoryView(APIView):
    """Every change to the game, newest first, with the round before and after."""

    @extend_schema(
        responses={200: inline_serializer("History", {"changes": ChangeOutput(many=True)}, many=False), 404: ERROR}
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = game_get(game_id=game_id)
        return Response({"changes": [change_data(c) for c in game_history(game=game)]})


class UndoView(APIView):
    """Undo the latest change still in force (it stays in the history)."""

    permission_classes = [GameEditToken]

    class InputSerializer(InputSerializer):
        """The version the undo was decided on, to refuse it if the game changed meanwhile."""

        class Meta:
            ref_name = "UndoInput"

        version = version_field("The game version the undo was decided on.")

    @extend_schema(request=InputSerializer, parameters=[TOKEN], responses={200: GameOutput, **WRITE_ERRORS})
    def post(self, request: Request, game_id: str) -> Response:
        game = game_filled(game_of(self))
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game_undo(game=game, version=serializer.validated_data["version"])
        return written(request, game_id)


class EditTokenView(APIView):
    """Replace a leaked edit token: the old one, its edit link and every phone's right made from
    it stop working. Answers the game with the new ``edit_token`` (shown once)."""

    permission_classes = [GameEditToken]

    @extend_schema(request=None, parameters=[TOKEN], responses={201: NewGameOutput, 403: ERROR, 404: ERROR, 429: ERROR})
    def post(self, request: Request, game_id: str) -> Response:
        game = game_filled(game_of(self))
        token = game_token_replace(game=game)
        return created(request, game, token)


class ExportView(APIView):
    """The game as a document that import restores exactly (no id, no token)."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: ERROR})
    def get(self, request: Request, game_id: str) -> Response:
        return Response(game_document(game_get(game_id=game_id)))


class ImportView(APIView):
    """Restore an exported game as a new game, with a new id and edit token."""

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: NewGameOutput, 400: ERROR, 429: ERROR})
    def post(self, request: Request) -> Response:
        with creating(request):  # a refused import makes nothing and counts nothing
            game, token = game_import(document=request.data)
        return created(request, game, token)
