"""What the pages of a game or a club night share: the game's row read once per request, and a
page that follows its game or night by push (the guards of the pages that write: ``guards``)."""

from __future__ import annotations

from typing import Any

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control

from scorekeeping import selectors
from scorekeeping.models import Game
from scorekeeping.webkit.htmx import HtmxHttpRequest


def game_head(request: HtmxHttpRequest, game_id: str) -> Game:
    """The game's row (``selectors.game_head``; 404), read once per request though both the ETag
    and the view ask."""
    head = getattr(request, "game_row", None)
    if not isinstance(head, Game) or head.pk != game_id:
        head = selectors.game_head(game_id=game_id)
        setattr(request, "game_row", head)  # noqa: B010 (an attribute of this request only)
    return head


def followed(request: HtmxHttpRequest, template: str, context: dict[str, Any], **cache: bool) -> HttpResponse:
    """A page that follows its game or night by push: whole, or its ``#content`` when the page's
    own fetch asks after an event; ``cache`` as ``patch_cache_control`` takes it."""
    response = render(request, f"{template}#content" if request.htmx else template, context)
    patch_cache_control(response, **cache)
    return response


def streamed(request: HtmxHttpRequest) -> bool:
    """Whether this server holds change streams: the start command's (ASGI) does; under WSGI
    (``runserver``, the test live server) the page asks every 5 s instead of opening one."""
    return isinstance(request, ASGIRequest)
