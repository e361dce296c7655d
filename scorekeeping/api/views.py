"""The score-keeper's JSON API: games, rounds, standings, history, undo.

Reads need only the game's id; every write needs its edit token in ``X-Game-Token``.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from referee.api import ERROR
from referee.engine import DEFAULT_RULESET
from referee.fields import CardsField
from referee.serializers import InputSerializer
from scorekeeping.access import check_token, creating, token_if_valid
from scorekeeping.api.representations import (
    ChangeOutput,
    DraftOutput,
    GameOutput,
    NewGameOutput,
    StandingsOutput,
    change_data,
    draft_data,
    game_data,
    standings_data,
)
from scorekeeping.errors import NotFound
from scorekeeping.models import Game
from scorekeeping.selectors import game_get, game_history, game_standings
from scorekeeping.services import (
    draft_current,
    draft_discard,
    draft_hand,
    draft_record,
    draft_start,
    draft_status,
    game_create,
    game_token_replace,
    game_undo,
    round_record,
    round_replace,
)
from scorekeeping.services.document import INT
from scorekeeping.services.exchange import game_document, game_import

TOKEN = OpenApiParameter(
    "X-Game-Token", str, OpenApiParameter.HEADER, required=True, description="The game's edit token."
)
WRITE_ERRORS = {400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR, 429: ERROR}


def _base(request: Request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def _token(request: Request) -> str | None:
    return request.headers.get("X-Game-Token")


def _secret(response: Response) -> Response:
    """An answer that carries an edit token or the edit link: no cache may keep it."""
    add_never_cache_headers(response)
    patch_cache_control(response, no_store=True)
    return response


def _created(request: Request, game: Game, token: str) -> Response:
    """201 with the new game and its edit token."""
    body = game_data(game_get(game_id=game.pk), base_url=_base(request), token=token)
    return _secret(Response({**body, "edit_token": token}, status=status.HTTP_201_CREATED))


def _written(request: Request, game_id: str, status_code: int = status.HTTP_200_OK) -> Response:
    """The game after a write, with its edit link for the caller who sent the token."""
    body = game_data(game_get(game_id=game_id), base_url=_base(request), token=_token(request))
    return _secret(Response(body, status=status_code))


class GamesView(APIView):
    """Start a game."""

    class InputSerializer(InputSerializer):
        """A new game: the rules, the players in seat order, and how the first dealer is chosen."""

        class Meta:
            ref_name = "GameInput"

        ruleset = serializers.CharField(default=DEFAULT_RULESET, max_length=40)
        variants = serializers.ListField(child=serializers.CharField(max_length=40), default=list, max_length=10)
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
            )
        return _created(request, game, token)


class GameView(APIView):
    """A game: players, rounds with every score, the round to deal next, standings."""

    @extend_schema(responses={200: GameOutput, 404: ERROR})
    def get(self, request: Request, game_id: str) -> Response:
        game = game_get(game_id=game_id)
        known = token_if_valid(request, game, _token(request))
        response = Response(game_data(game, base_url=_base(request), token=known))
        return _secret(response) if known else response


def version_field(help_text: str) -> serializers.IntegerField:
    """The version a phone saw (optional): within its column, or 400 before anything is looked up."""
    return serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0, max_value=INT, help_text=help_text
    )


class RoundInput(InputSerializer):
    """A round's result: who went out, each other player's cards or typed points, buys, and the version."""

    number = serializers.IntegerField(min_value=1, max_value=100)
    winner = serializers.CharField(required=False, allow_null=True, default=None, max_length=200)
    hands = serializers.DictField(child=CardsField(), default=dict, help_text="Name -> the cards left in hand.")
    points = serializers.DictField(
        child=serializers.IntegerField(min_value=-1_000_000, max_value=1_000_000),
        default=dict,
        help_text="Name -> points typed instead of cards.",
    )
    buys = serializers.DictField(
        child=serializers.IntegerField(min_value=-1000, max_value=1000), default=dict, help_text="Name -> buys taken."
    )
    cut_bonus = serializers.BooleanField(default=False, help_text="Liverpool: the cutter cut exactly right (-50).")
    version = version_field("The game version this entry was based on.")


def _round_args(data: dict[str, Any]) -> dict[str, Any]:
    return {k: data[k] for k in ("winner", "hands", "points", "buys", "cut_bonus", "version")}


class RoundsView(APIView):
    """Record the next round."""

    @extend_schema(request=RoundInput, parameters=[TOKEN], responses={201: GameOutput, **WRITE_ERRORS})
    def post(self, request: Request, game_id: str) -> Response:
        game = game_get(game_id=game_id)
        check_token(request, game, _token(request))
        serializer = RoundInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        round_record(game=game, number=data["number"], **_round_args(data))
        return _written(request, game_id, status.HTTP_201_CREATED)


class RoundView(APIView):
    """Correct a recorded round."""

    class InputSerializer(RoundInput):
        """A corrected result for the round in the address."""

        class Meta:
            ref_name = "RoundCorrection"

        number = serializers.IntegerField(
            required=False, min_value=1, max_value=100, help_text="Ignored: the round is the one in the address."
        )

    @extend_schema(request=InputSerializer, parameters=[TOKEN], responses={200: GameOutput, **WRITE_ERRORS})
    def put(self, request: Request, game_id: str, number: int) -> Response:
        game = game_get(game_id=game_id)
        check_token(request, game, _token(request))
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_replace(game=game, number=number, **_round_args(serializer.validated_data))
        return _written(request, game_id)


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

    class InputSerializer(InputSerializer):
        """The version the undo was decided on, to refuse it if the game changed meanwhile."""

        class Meta:
            ref_name = "UndoInput"

        version = version_field("The game version the undo was decided on.")

    @extend_schema(request=InputSerializer, parameters=[TOKEN], responses={200: GameOutput, **WRITE_ERRORS})
    def post(self, request: Request, game_id: str) -> Response:
        game = game_get(game_id=game_id)
        check_token(request, game, _token(request))
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game_undo(game=game, version=serializer.validated_data["version"])
        return _written(request, game_id)


class EditTokenView(APIView):
    """Replace a leaked edit token: the old one, its edit link and every phone's right made from
    it stop working. Answers the game with the new ``edit_token`` (shown once)."""

    @extend_schema(request=None, parameters=[TOKEN], responses={201: NewGameOutput, 403: ERROR, 404: ERROR, 429: ERROR})
    def post(self, request: Request, game_id: str) -> Response:
        game = game_get(game_id=game_id)
        check_token(request, game, _token(request))
        token = game_token_replace(game=game)
        return _created(request, game, token)


class DraftInput(InputSerializer):
    """Start the round in progress, or change who went out."""

    number = serializers.IntegerField(min_value=1, max_value=100, help_text="The round to record next.")
    winner = serializers.CharField(allow_null=True, max_length=200, help_text="Who went out; null: no one did.")
    cut_bonus = serializers.BooleanField(
        required=False,
        default=None,
        allow_null=True,
        help_text="Liverpool: the cutter cut exactly right (-50); left as it is when absent.",
    )


class DraftHandInput(InputSerializer):
    """One player's hand for the round in progress: the cards left, or the points typed."""

    cards = CardsField(required=False, default=None, allow_null=True)
    points = serializers.IntegerField(required=False, default=None, allow_null=True, min_value=0, max_value=1_000_000)
    buys = serializers.IntegerField(required=False, default=None, allow_null=True, min_value=0, max_value=1000)
    number = serializers.IntegerField(
        required=False,
        default=None,
        allow_null=True,
        min_value=1,
        max_value=100,
        help_text="The round this hand is for: 409 once it is recorded.",
    )


class DraftRecordInput(InputSerializer):
    """The draft version the table looked at, to refuse the record if a hand changed since."""

    version = version_field("The draft version the table looked at.")


def _game_to_change(request: Request, game_id: str) -> Game:
    """The game's row (404), once the edit token says the caller may change it (403)."""
    game = get_object_or_404(Game, pk=game_id)
    check_token(request, game, _token(request))
    return game


def _draft(game: Game) -> Response:
    draft = draft_current(game)
    if draft is None:
        raise NotFound(_("no round is in progress"), "draft")
    return Response(draft_data(draft_status(game, draft)))


class DraftView(APIView):
    """The round in progress: each player's hand sent in on its own, recorded when all are in."""

    @extend_schema(responses={200: DraftOutput, 404: ERROR})
    def get(self, request: Request, game_id: str) -> Response:
        return _draft(get_object_or_404(Game, pk=game_id))

    @extend_schema(request=DraftInput, parameters=[TOKEN], responses={200: DraftOutput, **WRITE_ERRORS})
    def put(self, request: Request, game_id: str) -> Response:
        game = _game_to_change(request, game_id)
        serializer = DraftInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        draft_start(game=game, number=data["number"], winner=data["winner"], cut_bonus=data["cut_bonus"])
        return _draft(game)

    @extend_schema(parameters=[TOKEN], responses={204: None, 403: ERROR, 404: ERROR, 429: ERROR})
    def delete(self, request: Request, game_id: str) -> Response:
        game = _game_to_change(request, game_id)
        draft_discard(game=game)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DraftHandView(APIView):
    """Send in (or replace) one player's hand, checked as a recorded hand is."""

    @extend_schema(request=DraftHandInput, parameters=[TOKEN], responses={200: DraftOutput, **WRITE_ERRORS})
    def put(self, request: Request, game_id: str, name: str) -> Response:
        game = _game_to_change(request, game_id)
        serializer = DraftHandInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        draft_hand(
            game=game, name=name, cards=data["cards"], points=data["points"], buys=data["buys"], number=data["number"]
        )
        return _draft(game)


class DraftRecordView(APIView):
    """Record the round in progress from the hands sent in; 400 naming every hand still missing."""

    @extend_schema(request=DraftRecordInput, parameters=[TOKEN], responses={201: GameOutput, **WRITE_ERRORS})
    def post(self, request: Request, game_id: str) -> Response:
        game = _game_to_change(request, game_id)
        serializer = DraftRecordInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        draft_record(game=game, version=serializer.validated_data["version"])
        return _written(request, game_id, status.HTTP_201_CREATED)


class ExportView(APIView):
    """The game as a document that import restores exactly (no id, no token)."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: ERROR})
    def get(self, request: Request, game_id: str) -> Response:
        return Response(game_document(game_get(game_id=game_id)))


class ImportView(APIView):
    """Restore an exported game as a new game, with a new id and edit token."""

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: NewGameOutput, 400: ERROR, 429: ERROR})
    def post(self, request: Request) -> Response:
        with creating(request):
            game, token = game_import(document=request.data)
        return _created(request, game, token)
