"""What the pages of a game or a club night share: the game's row read once per request, the
guard of every page that changes a game, and a page that follows its game or night by push."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_cache_control

from scorekeeping.errors import Conflict
from scorekeeping.models import Game
from scorekeeping.selectors import game_get
from scorekeeping.web import session as phone
from scorekeeping.webkit.htmx import HtmxHttpRequest, refused


def game_head(request: HtmxHttpRequest, game_id: str) -> Game:
    """The game's row, or 404: one query per request, though both the ETag and the view ask."""
    head = getattr(request, "game_row", None)
    if not isinstance(head, Game) or head.pk != game_id:
        head = get_object_or_404(Game, pk=game_id)
        setattr(request, "game_row", head)  # noqa: B010 (an attribute of this request only)
    return head


def forbidden(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    return render(request, "scorekeeping/forbidden.html", {"game": game}, status=refused(request, 403))


View = Callable[..., HttpResponse]


def _guard(allowed: Callable[[HtmxHttpRequest, Game], bool]) -> Callable[[View], View]:
    def decorate(view: View) -> View:
        @wraps(view)
        def guarded(request: HtmxHttpRequest, game_id: str, *args: Any, **kwargs: Any) -> HttpResponse:
            game = game_get(game_id=game_id)
            if not allowed(request, game):
                return forbidden(request, game)
            try:
                return view(request, game, *args, **kwargs)
            except Conflict as exc:  # what a view does not answer itself: a closed club table, say
                context = {"game": game, "refusal": exc.message}
                return render(request, "scorekeeping/forbidden.html", context, status=refused(request, exc.status))

        return guarded

    return decorate


editing = _guard(phone.can_edit)
"""A page that changes the game: its row (404 for no such game), and the page that says how to
get the edit link (403) unless this phone may record (the edit right, or a club night's "I am"
at this table now). The view gets the game."""

holding_token = _guard(phone.holds_token)
"""A page that mints or replaces the game's edit token: as ``editing``, for a phone that holds the
edit right itself (a right that came from "I am" at a club table never does)."""


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
