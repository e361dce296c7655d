"""Who may change a game: the edit token, the limit on wrong tokens, and the limit on new games.

A presented token is compared first (its SHA-256 against the game's, in constant time). A
right one is let through whatever the address did before: a club evening puts a hundred
phones behind one address, and a stranger's wrong guesses there must not lock them out.
Only a wrong token is counted (one UPDATE, so right tokens write nothing and share no hot
row); past ``RATE_LIMIT_TOKEN`` wrong ones in the window the address is answered 429 with
Retry-After instead of 403, and a warning is logged once. Tokens are 256 random bits, so the
limit is defence in depth: it makes a scanner visible and stops a client that heeds 429.

New games are counted before they are made (``ratelimit.take``), so games asked for at once
cannot slip past the limit between a read and a write.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from django.http import HttpRequest
from django.utils.translation import gettext as _

from scorekeeping import ratelimit
from scorekeeping.errors import EditForbidden, TooManyRequests
from scorekeeping.models import Club, Game
from scorekeeping.services import game_token_valid
from scorekeeping.services.clubs import club_token_valid

log = logging.getLogger(__name__)


def _take(name: str, request: HttpRequest) -> tuple[ratelimit.Limit, str]:
    lim, key = ratelimit.limit(name), ratelimit.client_key(request)
    try:
        ratelimit.take(lim, key)
    except ratelimit.RateLimited as exc:
        raise TooManyRequests(str(exc), exc.retry_after) from None
    return lim, key


def check_token(request: HttpRequest, game: Game, token: str | None) -> None:
    """Let a right token through; refuse a missing one (403) and a wrong one (403, or 429 once the
    address presented more wrong tokens than the limit allows in the window).

    Only wrong tokens are counted, reads included: a right token is never refused and writes nothing.
    """
    if token and game_token_valid(game=game, token=token):
        return
    _count_wrong(request, token)
    raise EditForbidden(_("Changing this game needs its edit token (the edit link, or the X-Game-Token header)"))


def check_organiser(request: HttpRequest, club: Club, token: str | None) -> None:
    """As ``check_token``, for the organiser's token of a club (``X-Club-Token``)."""
    if token and club_token_valid(club=club, token=token):
        return
    _count_wrong(request, token)
    raise EditForbidden(_("Changing this club needs its organiser's token (the organiser link, or X-Club-Token)"))


def _count_wrong(request: HttpRequest, token: str | None) -> None:
    """A wrong token counts against its address (429 past the limit); a missing one does not."""
    if token:
        lim, key = ratelimit.limit("token"), ratelimit.client_key(request)
        count = ratelimit.hit(lim, key)
        if count > lim.count:
            if count == lim.count + 1:
                log.warning("more than %d wrong edit tokens from %s in %d s", lim.count, key, lim.seconds)
            exc = ratelimit.RateLimited(lim)
            raise TooManyRequests(str(exc), exc.retry_after)


def token_if_valid(request: HttpRequest, game: Game, token: str | None) -> str | None:
    """A token presented for reading: checked as for a write, but a missing or wrong one only means
    the caller reads what anyone may (a wrong one still counts; 429 past the limit)."""
    if not token:
        return None
    try:
        check_token(request, game, token)
    except EditForbidden:
        return None
    return token


@contextmanager
def creating(request: HttpRequest) -> Iterator[None]:
    """Count a new game before it is made (429 past the limit); one refused (a form, a document,
    a score sheet that makes no game) is uncounted: a refusal changes nothing."""
    lim, key = _take("create", request)
    try:
        yield
    except BaseException:
        ratelimit.give_back(lim, key)
        raise
