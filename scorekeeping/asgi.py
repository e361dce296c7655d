"""The ASGI application the start command serves (gunicorn with uvicorn workers, ``server.py``).

Connections are read asynchronously, so a client that trickles its headers or its body
holds a socket, not a worker: slow clients cannot starve the others. A body that stalls
for ``BODY_TIMEOUT`` seconds between two pieces is answered 408 and dropped.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeping.settings")
django_application = get_asgi_application()

from scorekeeping import live  # noqa: E402  (needs the apps loaded by get_asgi_application)

BODY_TIMEOUT = float(os.environ.get("BODY_TIMEOUT", "20"))

Message = dict[str, Any]


async def application(
    scope: dict[str, Any],
    receive: Callable[[], Awaitable[Message]],
    send: Callable[[Mapping[str, Any]], Awaitable[None]],
) -> None:
    if scope["type"] != "http":
        await django_application(scope, receive, send)
        return
    found = live.PATH.match(scope["path"])
    if found:  # a game's change stream: server-sent events, served beside Django (scorekeeping.live)
        await live.stream(scope, receive, send, found["game"])
        return

    async def receive_in_time() -> Message:
        try:
            return await asyncio.wait_for(receive(), BODY_TIMEOUT)
        except TimeoutError:
            body = b"Request Timeout: the body stalled.\n"
            headers = [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 408, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return {"type": "http.disconnect"}

    await django_application(scope, receive_in_time, send)
