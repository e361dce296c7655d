"""This process's one listener for changes (PostgreSQL's LISTEN, or a tick on SQLite) and its streams
by game, with the caps they are held to; the package's docstring tells how a change travels."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections import Counter
from types import FrameType
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, connections

from scorekeeping.capacity import capacity
from scorekeeping.live.publish import CHANNEL, NIGHT_PREFIX
from scorekeeping.models import Game, Night

log = logging.getLogger(__name__)


class Channel:
    """One game's streams in this process: the newest version known, and ONE future that all of
    them wait on. A change resolves it (and puts a new one in its place): one wake-up per game
    per change, however many streams watch it, with no timer or task made per stream.

    Changes closer together than ``LIVE_COALESCE`` seconds (0.5) are told as one, at the end of
    that window: the first change of a quiet game goes out at once, and a game written five
    times a second wakes its streams twice a second, not five times. Each event names the newest
    version, and what a phone fetches then is the newest state, so nothing is lost."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.streams = 0
        self.loop = asyncio.get_running_loop()
        self.changed: asyncio.Future[str] = self.loop.create_future()
        self.told_at = -1e9  # when the streams were last woken for a change
        self.deferred: asyncio.TimerHandle | None = None

    def publish(self, version: int) -> None:
        if version <= self.version:
            return
        self.version = version
        if self.deferred is not None:
            return  # told with the change already waiting
        wait = self.told_at + settings.LIVE_COALESCE - self.loop.time()
        if wait <= 0:
            self.wake("change")
        else:
            self.deferred = self.loop.call_later(wait, self.wake, "change")

    def wake(self, why: str) -> None:
        """Wake every stream of the game: for a ``change``, a ``beat`` (keep-alive) or ``closing``."""
        if why == "change":
            self.told_at = self.loop.time()
            if self.deferred is not None:
                self.deferred.cancel()
                self.deferred = None
        changed, self.changed = self.changed, self.loop.create_future()
        changed.set_result(why)

    def close(self) -> None:
        if self.deferred is not None:
            self.deferred.cancel()


class Refused(Exception):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


class Hub:
    """This process's streams by game, the caps they are held to, and the one task that learns of
    changes for all of them (and beats the heartbeat for all of them)."""

    def __init__(self) -> None:
        self.channels: dict[str, Channel] = {}
        self.loading: dict[str, asyncio.Future[int | None]] = {}
        # Games whose first stream is reading their version, and the newest version told of each
        # meanwhile: a change committed after that read must reach the channel made from it.
        self.opening: Counter[str] = Counter()
        self.early: dict[str, int] = {}
        self.streams = 0
        self.clients: Counter[str] = Counter()
        self.client_games: Counter[tuple[str, str]] = Counter()
        self.closing = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.beat_task: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()  # PostgreSQL: the LISTEN is in place

    def start(self) -> None:
        if self.task is None:
            postgres = connections["default"].vendor == "postgresql"
            loop = asyncio.get_running_loop()
            self.task = loop.create_task(self._listen() if postgres else self._watch())
            self.beat_task = loop.create_task(self._beat())
            _on_shutdown(self.closing)

    async def join(self, game_id: str, client: str) -> Channel:
        """A place for one more stream of ``game_id``: refused past a cap (``Refused``), 404 for no game."""
        caps = capacity()
        if self.streams >= caps.streams:
            raise Refused(503, f"Service Unavailable: this server holds {caps.streams} open streams.\n")
        channel = self.channels.get(game_id)
        if channel is not None and channel.streams >= caps.streams_per_game:
            raise Refused(429, f"Too Many Requests: at most {caps.streams_per_game} open streams on one game.\n")
        if self.clients[client] >= caps.streams_per_address:
            most = caps.streams_per_address
            raise Refused(429, f"Too Many Requests: at most {most} open streams from one address.\n")
        # A club night's phones all sit behind the club's one router: the night is held to its own
        # cap (as a game is), not to one address's share of a game.
        if not game_id.startswith(NIGHT_PREFIX) and self.client_games[client, game_id] >= caps.streams_per_address_game:
            most = caps.streams_per_address_game
            raise Refused(429, f"Too Many Requests: at most {most} open streams on one game from one address.\n")
        # Counted before the first read, so that streams opened at once cannot pass a cap together.
        self.streams += 1
        self.clients[client] += 1
        self.client_games[client, game_id] += 1
        try:
            if channel is None:
                channel = await self._channel(game_id)
        except BaseException:
            self._uncount(client, game_id)
            raise
        channel.streams += 1
        return channel

    def leave(self, game_id: str, client: str) -> None:
        self._uncount(client, game_id)
        channel = self.channels.get(game_id)
        if channel is not None:
            channel.streams -= 1
            if channel.streams <= 0:
                channel.close()
                del self.channels[game_id]

    def _uncount(self, client: str, game_id: str) -> None:
        self.streams -= 1
        self.clients[client] -= 1
        if self.clients[client] <= 0:
            del self.clients[client]
        self.client_games[client, game_id] -= 1
        if self.client_games[client, game_id] <= 0:
            del self.client_games[client, game_id]

    async def _channel(self, game_id: str) -> Channel:
        """The game's channel: its version read once from the database for the first stream of the
        game in this process (streams opened at once share that one read), 404 without a game. A
        change told while the version is read (after the read, before the channel is made) is
        kept in ``early`` and counts: the stream starts from it, not one change behind."""
        self.opening[game_id] += 1
        try:
            pending = self.loading.get(game_id)
            if pending is None:
                pending = self.loading[game_id] = asyncio.ensure_future(_version(game_id))
                pending.add_done_callback(lambda _f: self._read(game_id))
            version = await asyncio.shield(pending)
            if version is None:
                raise Refused(404, "Not Found: no game at this address.\n")
            version = max(version, self.early.get(game_id, version))
            channel = self.channels.get(game_id)
            if channel is None:
                channel = self.channels[game_id] = Channel(version)
            channel.publish(version)
            return channel
        finally:
            self.opening[game_id] -= 1
            if self.opening[game_id] <= 0:
                del self.opening[game_id]
                if game_id not in self.loading:
                    self.early.pop(game_id, None)

    def _read(self, game_id: str) -> None:
        """A game's version has been read. Its streams take ``early`` when they resume; if every
        one of them left meanwhile, nothing will, and a later stream reads the version anew."""
        self.loading.pop(game_id, None)
        if game_id not in self.opening:
            self.early.pop(game_id, None)

    def publish(self, game_id: str, version: int) -> None:
        channel = self.channels.get(game_id)
        if channel is not None:
            channel.publish(version)
        elif game_id in self.opening or game_id in self.loading:  # being opened: kept for it
            self.early[game_id] = max(version, self.early.get(game_id, version))

    async def _resync(self) -> None:
        """Read the versions of every game watched, or being opened, here (after the listener's
        (re)connection, and each SQLite tick): a change missed meanwhile is told now."""
        keys = list({*self.channels, *self.opening, *self.loading})
        if keys:
            for game_id, version in (await versions(keys)).items():
                self.publish(game_id, version)

    async def _beat(self) -> None:
        """One timer for every stream of the process: each beat, they all send a keep-alive comment;
        when the server stops, they all end."""
        closing = asyncio.ensure_future(self.closing.wait())
        while True:
            done, _pending = await asyncio.wait({closing}, timeout=settings.LIVE_HEARTBEAT)
            for channel in list(self.channels.values()):
                channel.wake("closing" if done else "beat")
            if done:
                return

    async def _watch(self) -> None:
        """SQLite: one query per tick for every game with an open stream in this process."""
        while True:
            await asyncio.sleep(settings.LIVE_TICK)
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
                        if version.isascii() and version.isdigit():
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


def _versions(keys: list[str]) -> dict[str, int]:
    """The live versions of the games and club nights (``publish.night_key``) named."""
    close_old_connections()  # what Django does around a request: drop a connection that went bad
    found = dict(Game.objects.filter(pk__in=[k for k in keys if ":" not in k]).values_list("pk", "live_version"))
    for key in keys:
        if key.startswith("night:"):
            _night, club, night = key.split(":", 2)
            version = Night.objects.filter(club_id=club, pk=int(night)).values_list("version", flat=True).first()
            if version is not None:
                found[key] = version
    return found


versions = sync_to_async(_versions, thread_sensitive=False)


async def _version(game_id: str) -> int | None:
    return (await versions([game_id])).get(game_id)


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def hub() -> Hub:
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = Hub()
    _hubs[loop].start()
    return _hubs[loop]
