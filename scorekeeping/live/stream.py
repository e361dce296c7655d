"""A game's change stream, the ASGI endpoint the phones hold open (server-sent events); the
package's docstring tells how a change travels."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import parse_qs

from scorekeeping.converters import GameIdConverter
from scorekeeping.live.hub import Channel, Hub, Refused, hub
from scorekeeping.live.publish import night_key

RETRY_MS = 2000


PATH = re.compile(rf"^/g/(?P<game>{GameIdConverter.regex})/events/$")
NIGHT_PATH = re.compile(rf"^/c/(?P<club>{GameIdConverter.regex})/nights/(?P<night>[0-9]{{1,9}})/events/$")

Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]


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


def channel_of(path: str) -> str | None:
    """The channel a stream's address follows: a game's id, or a club night's key."""
    found = PATH.match(path)
    if found:
        return found["game"]
    found = NIGHT_PATH.match(path)
    return night_key(found["club"], int(found["night"])) if found else None


async def stream(scope: Mapping[str, Any], receive: Receive, send: Send, game_id: str) -> None:
    """The ASGI endpoint of ``/g/<id>/events/`` (a game) and ``/c/<club>/nights/<n>/events/`` (a
    club night: its version moves with every change of the night and of its tables' games)."""
    if scope["method"] not in ("GET", "HEAD"):
        await _answer(send, 405, "Method Not Allowed: this address takes GET.\n", (b"allow", b"GET, HEAD"))
        return
    center = hub()
    client = str((scope.get("client") or ("?",))[0])
    try:
        channel = await center.join(game_id, client)
    except Refused as exc:
        extra = [(b"retry-after", b"30")] if exc.status in (429, 503) else []
        await _answer(send, exc.status, str(exc), *extra)
        return
    try:
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
            first += f"id: {channel.version}\n\n".encode()  # where the client stands; no event
            seen = channel.version
        elif seen < channel.version:
            first += event(channel.version)
            seen = channel.version
        await send({"type": "http.response.body", "body": first, "more_body": True})
        await _follow(center, channel, seen, receive, send)
    finally:
        center.leave(game_id, client)


async def _follow(center: Hub, channel: Channel, seen: int, receive: Receive, send: Send) -> None:
    """Send each change (and each heartbeat) until the client leaves or the server stops. The
    stream waits on its game's one future only; a task of its own watches for the client leaving
    and cancels it."""
    me = asyncio.current_task()
    assert me is not None

    async def watch() -> None:
        await _disconnected(receive)
        me.cancel()

    gone = asyncio.ensure_future(watch())
    try:
        while True:
            if center.closing.is_set():
                # The server is stopping: say when to come back, and end (the browser reconnects).
                await send({"type": "http.response.body", "body": b": closing\nretry: 500\n\n", "more_body": False})
                return
            if channel.version > seen and channel.deferred is None:
                seen = channel.version
                await send({"type": "http.response.body", "body": event(seen), "more_body": True})
                continue
            # Shielded: this stream's cancellation (its client left) must not cancel the one
            # future every other stream of the game waits on.
            why = await asyncio.shield(channel.changed)
            if why == "beat":
                await send({"type": "http.response.body", "body": b": keep-alive\n\n", "more_body": True})
    except asyncio.CancelledError:
        if not gone.done():
            raise  # not the client leaving: the server's own cancellation
        me.uncancel()
    except OSError:
        return  # the client went away mid-write
    finally:
        gone.cancel()


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
