"""Who may change a game: the edit token, its rate limit, and the limit on new games.

Both limits count an attempt before deciding (``ratelimit.take``), so attempts sent at
once cannot slip past the limit between a read and a write.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.http import HttpRequest
from django.utils.translation import gettext as _

from . import ratelimit
from .errors import EditForbidden, TooManyRequests
from .models import Game
from .services import game_token_valid


def _take(name: str, request: HttpRequest) -> tuple[ratelimit.Limit, str]:
    lim, key = ratelimit.limit(name), ratelimit.client_key(request)
    try:
        ratelimit.take(lim, key)
    except ratelimit.RateLimited as exc:
        raise TooManyRequests(str(exc), exc.retry_after) from None
    return lim, key


def check_token(request: HttpRequest, game: Game, token: str | None) -> None:
    """Refuse a missing or wrong token (403), and every token once an address guessed too often (429).

    Every presented token is counted before it is compared, reads included; a right one is
    uncounted again, so only wrong guesses use up the address's allowance.
    """
    if token:
        lim, key = _take("token", request)
        if game_token_valid(game=game, token=token):
            ratelimit.give_back(lim, key)
            return
    raise EditForbidden(_("changing this game needs its edit token (the edit link, or the X-Game-Token header)"))


def token_if_valid(request: HttpRequest, game: Game, token: str | None) -> str | None:
    """A token presented for reading: checked and counted as for a write, but a missing or wrong
    one only means the caller reads what anyone may (a wrong one still counts; 429 past the limit)."""
    if not token:
        return None
    try:
        check_token(request, game, token)
    except EditForbidden:
        return None
    return token


@contextmanager
def creating(request: HttpRequest) -> Iterator[None]:
    """Count a new game before it is made (429 past the limit); a game refused as invalid is uncounted."""
    lim, key = _take("create", request)
    try:
        yield
    except BaseException:
        ratelimit.give_back(lim, key)
        raise
