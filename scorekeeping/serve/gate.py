"""One game's burst of writes never drains the database pool for the other tables.

A write waits for the game's row lock (``services.versioning.locked``) while holding one of the
process's database connections, so a burst of writes on one game could hold them all, and
every other table's requests would wait for a connection (then 503). This middleware lets
at most ``GAME_WRITES_IN_FLIGHT`` writes of one game into the process at once (a quarter of
the pool, at least 2); the next ones wait here, holding no connection, for up to
``WAIT`` seconds, then are answered 429 with Retry-After. Four phones sending their hands at
the same moment wait a few milliseconds; a game written faster than the database can take is
told to slow down, and nobody else notices. The semaphores are this process's admission
control, not state any other process needs.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from scorekeeping.converters import GameIdConverter
from scorekeeping.errors import is_api
from scorekeeping.webkit.errors import api_error

WAIT = 5.0  # seconds a write may wait for its game's turn
_WRITE = re.compile(rf"^/(?:api/games|g)/(?!import/)(?P<game>{GameIdConverter.regex})/")  # not the import's address
_SAFE = {"GET", "HEAD", "OPTIONS"}


def in_flight() -> int:
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool", {}).get("max_size", 0)
    return settings.GAME_WRITES_IN_FLIGHT or max(2, pool // 4)


class _Turns:
    """A semaphore per game with writes in flight in this process (dropped when none are)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.games: dict[str, tuple[threading.BoundedSemaphore, int]] = {}

    def enter(self, game_id: str) -> threading.BoundedSemaphore:
        with self.lock:
            turn, users = self.games.get(game_id) or (threading.BoundedSemaphore(in_flight()), 0)
            self.games[game_id] = (turn, users + 1)
        return turn

    def leave(self, game_id: str) -> None:
        with self.lock:
            turn, users = self.games[game_id]
            if users <= 1:
                del self.games[game_id]
            else:
                self.games[game_id] = (turn, users - 1)


class GameWriteGate:
    turns = _Turns()

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        found = _WRITE.match(request.path) if request.method not in _SAFE else None
        if found is None:
            return self.get_response(request)
        game_id = found["game"]
        turn = self.turns.enter(game_id)
        try:
            if not turn.acquire(timeout=WAIT):
                return _busy(request)
            try:
                return self.get_response(request)
            finally:
                turn.release()
        finally:
            self.turns.leave(game_id)


def _busy(request: HttpRequest) -> HttpResponse:
    message = _("This game is taking more changes at once than it can: try again in a second.")
    if is_api(request):
        response: HttpResponse = api_error(message, 429)
    else:
        response = HttpResponse(message, content_type="text/plain; charset=utf-8", status=429)
    response["Retry-After"] = "1"
    return response
