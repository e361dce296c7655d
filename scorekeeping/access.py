"""Who may change a game: the edit token, its rate limit, and the limit on new games."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _

from . import ratelimit
from .errors import EditForbidden, TooManyRequests
from .models import Game
from .services import game_token_valid


def check_token(request: HttpRequest, game: Game, token: str | None) -> None:
    """Refuse a missing or wrong token (403), and every token once an address guessed too often (429)."""
    lim = ratelimit.limit("token")
    key = ratelimit.client_key(request)
    if ratelimit.exceeded(lim, key):
        exc = ratelimit.RateLimited(lim)
        raise TooManyRequests(str(exc), exc.retry_after)
    if not game_token_valid(game=game, token=token):
        if token:
            ratelimit.hit(lim, key)
        raise EditForbidden(_("changing this game needs its edit token (the edit link, or the X-Game-Token header)"))


def check_can_create(request: HttpRequest) -> None:
    lim = ratelimit.limit("create")
    if ratelimit.exceeded(lim, ratelimit.client_key(request)):
        exc = ratelimit.RateLimited(lim)
        raise TooManyRequests(str(exc), exc.retry_after)


def count_created(request: HttpRequest) -> None:
    ratelimit.hit(ratelimit.limit("create"), ratelimit.client_key(request))
