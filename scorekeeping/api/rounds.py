"""The API's rounds: record and correct a round whole, or score it hand by hand (the round in
progress, ``draft``), each write with the edit token in ``X-Game-Token``."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from referee.engine.rounds import RoundEntry
from referee.fields import CardsField
from scorekeeping.api.permissions import GameEditToken, game_of
from scorekeeping.api.representations import (
    DraftOutput,
    GameOutput,
    draft_data,
)
from scorekeeping.api.writes import (
    TOKEN,
    WRITE_ERRORS,
    version_field,
    written,
)
from scorekeeping.errors import NotFound
from scorekeeping.models import Game
from scorekeeping.selectors import game_filled, game_head
from scorekeeping.services import (
    draft_current,
    draft_discard,
    draft_hand,
    draft_record,
    draft_start,
    draft_status,
    round_record,
    round_replace,
)
from scorekeeping.webkit.errors import ERROR
from scorekeeping.webkit.serializers import FlagField, InputSerializer


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
    cut_bonus = FlagField(default=False, help_text="Liverpool: the cutter cut exactly right (-50).")
    version = version_field("The game version this entry was based on.")

    def to_entry(self) -> RoundEntry:
        """The round as the services take it, from the validated data (the round's own fields only)."""
        data = self.validated_data
        return RoundEntry(
            winner=data["winner"],
            hands=data["hands"],
            points=data["points"],
            buys=data["buys"],
            cut_bonus=data["cut_bonus"],
        )


class RoundsView(APIView):
    """Record the next round."""

    permission_classes = [GameEditToken]

    @extend_schema(request=RoundInput, parameters=[TOKEN], responses={201: GameOutput, **WRITE_ERRORS})
    def post(self, request: Request, game_id: str) -> Response:
        game = game_filled(game_of(self))
        serializer = RoundInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        round_record(game=game, number=data["number"], entry=serializer.to_entry(), version=data["version"])
        return written(request, game_id, status.HTTP_201_CREATED)


class RoundView(APIView):
    """Correct a recorded round."""

    permission_classes = [GameEditToken]

    class InputSerializer(RoundInput):
        """A corrected result for the round in the address."""

        class Meta:
            ref_name = "RoundCorrection"

        number = serializers.IntegerField(
            required=False, min_value=1, max_value=100, help_text="Ignored: the round is the one in the address."
        )

    @extend_schema(request=InputSerializer, parameters=[TOKEN], responses={200: GameOutput, **WRITE_ERRORS})
    def put(self, request: Request, game_id: str, number: int) -> Response:
        game = game_filled(game_of(self))
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry, version = serializer.to_entry(), serializer.validated_data["version"]
        round_replace(game=game, number=number, entry=entry, version=version)
        return written(request, game_id)


class DraftInput(InputSerializer):
    """Start the round in progress, or change who went out."""

    number = serializers.IntegerField(min_value=1, max_value=100, help_text="The round to record next.")
    winner = serializers.CharField(allow_null=True, max_length=200, help_text="Who went out; null: no one did.")
    cut_bonus = FlagField(
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


def _draft(game: Game) -> Response:
    draft = draft_current(game)
    if draft is None:
        raise NotFound(_("No round is in progress"), "draft")
    return Response(draft_data(draft_status(game, draft)))


class DraftView(APIView):
    """The round in progress: each player's hand sent in on its own, recorded when all are in."""

    permission_classes = [GameEditToken]

    @extend_schema(responses={200: DraftOutput, 404: ERROR})
    def get(self, request: Request, game_id: str) -> Response:
        return _draft(game_head(game_id=game_id))

    @extend_schema(request=DraftInput, parameters=[TOKEN], responses={200: DraftOutput, **WRITE_ERRORS})
    def put(self, request: Request, game_id: str) -> Response:
        game = game_of(self)
        serializer = DraftInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        draft_start(game=game, number=data["number"], winner=data["winner"], cut_bonus=data["cut_bonus"])
        return _draft(game)

    @extend_schema(parameters=[TOKEN], responses={204: None, 403: ERROR, 404: ERROR, 429: ERROR})
    def delete(self, request: Request, game_id: str) -> Response:
        game = game_of(self)
        draft_discard(game=game)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DraftHandView(APIView):
    """Send in (or replace) one player's hand, checked as a recorded hand is."""

    permission_classes = [GameEditToken]

    @extend_schema(request=DraftHandInput, parameters=[TOKEN], responses={200: DraftOutput, **WRITE_ERRORS})
    def put(self, request: Request, game_id: str, name: str) -> Response:
        game = game_of(self)
        serializer = DraftHandInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        draft_hand(
            game=game, name=name, cards=data["cards"], points=data["points"], buys=data["buys"], number=data["number"]
        )
        return _draft(game)


class DraftRecordView(APIView):
    """Record the round in progress from the hands sent in; 400 naming every hand still missing."""

    permission_classes = [GameEditToken]

    @extend_schema(request=DraftRecordInput, parameters=[TOKEN], responses={201: GameOutput, **WRITE_ERRORS})
    def post(self, request: Request, game_id: str) -> Response:
        game = game_of(self)
        serializer = DraftRecordInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        draft_record(game=game, version=serializer.validated_data["version"])
        return written(request, game_id, status.HTTP_201_CREATED)
