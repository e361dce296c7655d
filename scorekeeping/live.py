"""Live tables by push: a game's change stream (server-sent events), and how a change reaches it.

``GET /g/<id>/events/`` answers ``text/event-stream``. Each change of the game (a round
recorded, corrected or undone; every write moves the game's version, ``history.log_change``)
and each step of a round in progress (a hand sent in, ``services.drafts``) moves the game's
``live_version``, and is an event whose ``id:`` is that number. A client that reconnects sends
``Last-Event-ID`` (the page's first connection sends ``?v=<version it shows>``); if the game
moved on meanwhile it gets the event at once. A comment goes out every ``LIVE_HEARTBEAT``
seconds (20) so that proxies keep the stream open; when the server shuts down every stream
ends cleanly and the browsers reconnect (to another process or machine).

How a change reaches the streams, with nothing kept in one process that another needs:

- PostgreSQL: the write's transaction sends ``NOTIFY scorekeeping_games, '<id> <version>'``
  (delivered at commit, to every listener on every machine). Each server process holds ONE
  listening connection and fans a notification out to its own streams in memory. After a
  (re)connection of that listener the versions of the games it watches are read once, so a
  notification missed while it was away is not lost.
- SQLite (one machine): each process reads the versions of the games that have open streams
  in one query per tick (``LIVE_TICK``, 0.2 s), whatever the number of phones.

The stream is an ASGI endpoint beside Django's handler (``scorekeeping.asgi`` routes the one
path here, as Channels' router would): it needs no session, CSRF, template or cookie, and
Django's synchronous middleware (WhiteNoise's) would hold a thread for every open stream.
Under WSGI (``runserver``, the test live server) Django answers the address 204, which tells
EventSource not to retry: the page then polls every 5 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from types import FrameType
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connection, connections

from .converters import GameIdConverter
from .models import Game

log = logging.getLogger(__name__)

CHANNEL = "scorekeeping_games"
HEARTBEAT = float(os.environ.get("LIVE_HEARTBEAT", "20"))
TICK = float(os.environ.get("LIVE_TICK", "0.2"))
RETRY_MS = 2000
# Open streams one client address may hold in one server process: a table behind one address
# (a café's network) has a few dozen phones at most; more is someone holding sockets.
PER_CLIENT = int(os.environ.get("LIVE_STREAMS_PER_CLIENT", "200"))
PATH = re.compile(rf"^/g/(?P<game>{GameIdConverter.regex})/events/$")

Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]


def announce(game: Game) -> None:
    """Tell every server process that ``game`` is at its new version; call it inside the write's
    transaction (PostgreSQL delivers the notification at commit, and never for a rollback)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{game.pk} {game.live_version}"])


@dataclass(eq=False)
class Watcher:
    """One open stream: the newest version known for its game, and a flag raised when it moves."""

    game_id: str
    latest: int
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class Hub:
    """This process's streams by game, and the one task that learns of changes for all of them."""

    def __init__(self) -> None:
        self.watchers: dict[str, set[Watcher]] = {}
        self.clients: Counter[str] = Counter()
        self.closing = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()  # PostgreSQL: the LISTEN is in place

    def start(self) -> None:
        if self.task is None:
            postgres = connections["default"].vendor == "postgresql"
            self.task = asyncio.get_running_loop().create_task(self._listen() if postgres else self._watch())
            _on_shutdown(self.closing)

    def subscribe(self, game_id: str, version: int) -> Watcher:
        watcher = Watcher(game_id, version)
        self.watchers.setdefault(game_id, set()).add(watcher)
        return watcher

    def unsubscribe(self, watcher: Watcher) -> None:
        group = self.watchers.get(watcher.game_id)
        if group is not None:
            group.discard(watcher)
            if not group:
                del self.watchers[watcher.game_id]

    def publish(self, game_id: str, version: int) -> None:
        for watcher in self.watchers.get(game_id, ()):
            if version > watcher.latest:
                watcher.latest = version
                watcher.changed.set()

    async def _resync(self) -> None:
        if self.watchers:
            for game_id, version in (await versions(list(self.watchers))).items():
                self.publish(game_id, version)

    async def _watch(self) -> None:
        """SQLite: one query per tick for every game with an open stream in this process."""
        while True:
            await asyncio.sleep(TICK)
            try:
                await self._resync()
            except Exception:  # the database away for a moment: the next tick tries again
                log.exception("live: reading versions failed")

    async def _listen(self) -> None:
        """PostgreSQL: one LISTEN connection for the process, reconnected when it drops."""
        import psycopg

        delay = 0.5
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(_conninfo(), autocommit=True) as listener:
                    await listener.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    delay = 0.5
                    await self._resync()
                    async for note in listener.notifies():
                        game_id, _sep, version = note.payload.partition(" ")
                        if version.isdigit():
                            self.publish(game_id, int(version))
            except (psycopg.Error, OSError):
                log.warning("live: the listening connection dropped; reconnecting in %.1f s", delay)
            self.listening.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10)


LIBPQ_OPTIONS = (
    "sslmode",
    "sslrootcert",
    "sslcert",
    "sslkey",
    "connect_timeout",
    "application_name",
    "options",
    "service",
    "target_session_attrs",
    "passfile",
)


def _conninfo() -> str:
    from psycopg.conninfo import make_conninfo

    settings = connections["default"].settings_dict
    parts = {"dbname": settings["NAME"], "user": settings.get("USER"), "password": settings.get("PASSWORD")}
    parts |= {"host": settings.get("HOST"), "port": str(settings.get("PORT") or "")}
    # The libpq parameters DATABASE_URL's query string may set (sslmode, say) hold for the listener too.
    options = settings.get("OPTIONS") or {}
    parts |= {k: str(options[k]) for k in LIBPQ_OPTIONS if k in options}
    return make_conninfo(**{k: v for k, v in parts.items() if v})


def _on_shutdown(closing: asyncio.Event) -> None:
    """End the streams when the server is asked to stop (the signal still reaches the server)."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            previous = signal.getsignal(sig)
        except ValueError:
            return

        def handler(number: int, frame: FrameType | None, previous: Any = previous) -> None:
            loop.call_soon_threadsafe(closing.set)
            if callable(previous):
                previous(number, frame)

        with contextlib.suppress(ValueError):  # not the main thread: no signals to follow
            signal.signal(sig, handler)


def _versions(ids: list[str]) -> dict[str, int]:
    close_old_connections()  # what Django does around a request: drop a connection that went bad
    return dict(Game.objects.filter(pk__in=ids).values_list("pk", "live_version"))


versions = sync_to_async(_versions, thread_sensitive=False)

_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def hub() -> Hub:
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = Hub()
    _hubs[loop].start()
    return _hubs[loop]


def event(version: int) -> bytes:
    return f"id: {version}\nevent: change\ndata: {version}\n\n".encode()


def last_seen(scope: Mapping[str, Any]) -> int | None:
    """The version the client has: its Last-Event-ID (a reconnection), else ``?v=`` (the page's)."""
    headers = dict(scope.get("headers") or [])
    raw = headers.get(b"last-event-id", b"").decode("latin-1").strip()
    if not raw:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        raw = (query.get("v") or [""])[0]
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else None  # "٣" is a digit too


async def _answer(send: Send, status: int, text: str, *extra: tuple[bytes, bytes]) -> None:
    body = text.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    headers += extra
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def stream(scope: Mapping[str, Any], receive: Receive, send: Send, game_id: str) -> None:
    """The ASGI endpoint of ``/g/<id>/events/``."""
    if scope["method"] not in ("GET", "HEAD"):
        await _answer(send, 405, "Method Not Allowed: this address takes GET.\n", (b"allow", b"GET, HEAD"))
        return
    center = hub()
    client = str((scope.get("client") or ("?",))[0])
    if center.clients[client] >= PER_CLIENT:
        message = f"Too Many Requests: at most {PER_CLIENT} open streams from one address.\n"
        await _answer(send, 429, message, (b"retry-after", b"30"))
        return
    center.clients[client] += 1
    watcher = center.subscribe(game_id, -1)  # first, so that no change slips between read and wait
    try:
        found = await versions([game_id])
        if game_id not in found:
            await _answer(send, 404, "Not Found: no game at this address.\n")
            return
        current = found[game_id]
        watcher.latest = max(watcher.latest, current)
        headers = [
            (b"content-type", b"text/event-stream; charset=utf-8"),
            (b"cache-control", b"no-cache"),
            (b"x-accel-buffering", b"no"),  # nginx: pass each event on at once
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        if scope["method"] == "HEAD":
            await send({"type": "http.response.body", "body": b""})
            return
        seen = last_seen(scope)
        first = f"retry: {RETRY_MS}\n\n".encode()
        if seen is None:
            first += f"id: {watcher.latest}\n\n".encode()  # where the client stands; no event
            seen = watcher.latest
        elif seen < watcher.latest:
            first += event(watcher.latest)
            seen = watcher.latest
        await send({"type": "http.response.body", "body": first, "more_body": True})
        await _follow(center, watcher, seen, receive, send)
    finally:
        center.unsubscribe(watcher)
        center.clients[client] -= 1
        if center.clients[client] <= 0:
            del center.clients[client]


async def _follow(center: Hub, watcher: Watcher, seen: int, receive: Receive, send: Send) -> None:
    gone = asyncio.ensure_future(_disconnected(receive))
    closing = asyncio.ensure_future(center.closing.wait())
    try:
        while True:
            watcher.changed.clear()
            if watcher.latest > seen:
                seen = watcher.latest
                await send({"type": "http.response.body", "body": event(seen), "more_body": True})
                continue
            changed = asyncio.ensure_future(watcher.changed.wait())
            done, _pending = await asyncio.wait(
                {changed, gone, closing}, timeout=HEARTBEAT, return_when="FIRST_COMPLETED"
            )
            changed.cancel()
            if gone in done:
                return
            if closing in done:
                # The server is stopping: say when to come back, and end (the browser reconnects).
                await send({"type": "http.response.body", "body": b": closing\nretry: 500\n\n", "more_body": False})
                return
            if not done:
                await send({"type": "http.response.body", "body": b": keep-alive\n\n", "more_body": True})
    except OSError:
        return  # the client went away mid-write
    finally:
        gone.cancel()
        closing.cancel()


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
