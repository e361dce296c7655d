"""What the API's writes share: the edit token presented in ``X-Game-Token``, and how a write answers
(the game as it is now, never kept by a cache when it carries a token)."""

from __future__ import annotations

from django.utils.cache import add_never_cache_headers, patch_cache_control
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from referee.engine import DEFAULT_RULESET
from scorekeeping.api.representations import (
    game_data,
)
from scorekeeping.models import Game
from scorekeeping.selectors import game_get
from scorekeeping.services.document import INT
from scorekeeping.webkit.errors import ERROR
from scorekeeping.webkit.serializers import InputSerializer

TOKEN = OpenApiParameter(
    "X-Game-Token", str, OpenApiParameter.HEADER, required=True, description="The game's edit token."
)


WRITE_ERRORS = {400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR, 429: ERROR}


def share_base_of(request: Request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def presented_token(request: Request) -> str | None:
    return request.headers.get("X-Game-Token")


def secret(response: Response) -> Response:
    """An answer that carries an edit token or the edit link: no cache may keep it."""
    add_never_cache_headers(response)
    patch_cache_control(response, no_store=True)
    return response


def created(request: Request, game: Game, token: str) -> Response:
    """201 with the new game and its edit token."""
    body = game_data(game_get(game_id=game.pk), base_url=share_base_of(request), token=token)
    return secret(Response({**body, "edit_token": token}, status=status.HTTP_201_CREATED))


def written(request: Request, game_id: str, status_code: int = status.HTTP_200_OK) -> Response:
    """The game after a write, with its edit link for the caller who sent the token."""
    body = game_data(game_get(game_id=game_id), base_url=share_base_of(request), token=presented_token(request))
    return secret(Response(body, status=status_code))


def version_field(help_text: str) -> serializers.IntegerField:
    """The version a phone saw (optional): within its column, or 400 before anything is looked up."""
    return serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0, max_value=INT, help_text=help_text
    )


class RulesInput(InputSerializer):
    """What a new game or a club night is played by: the ruleset and its variants."""

    ruleset = serializers.CharField(default=DEFAULT_RULESET, max_length=40)
    variants = serializers.ListField(child=serializers.CharField(max_length=40), default=list, max_length=10)
