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

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeping.config.settings")
django_application = get_asgi_application()

from scorekeeping.live import stream as live  # noqa: E402  (needs the apps loaded by get_asgi_application)

BODY_TIMEOUT = settings.BODY_TIMEOUT

Message = dict[str, Any]


async def application(
    scope: dict[str, Any],
    receive: Callable[[], Awaitable[Message]],
    send: Callable[[Mapping[str, Any]], Awaitable[None]],
) -> None:
    if scope["type"] != "http":
        await django_application(scope, receive, send)
        return
    channel = live.channel_of(scope["path"])
    if channel:  # a game's or a club night's change stream: server-sent events, beside Django (scorekeeping.live)
        await live.stream(scope, receive, send, channel)
        return

    body_done = False

    async def receive_in_time() -> Message:
        # Only the body's pieces have a deadline: once it is in, a receive() waits for the
        # disconnect for as long as the response takes. asyncio.timeout, not wait_for: on
        # Python 3.11 wait_for can swallow the cancellation Django sends its disconnect
        # listener when a response is done, which surfaced as "Exception in ASGI application"
        # and closed keep-alive connections.
        nonlocal body_done
        if body_done:
            return await receive()
        try:
            async with asyncio.timeout(BODY_TIMEOUT):
                message = await receive()
        except TimeoutError:
            body = b"Request Timeout: the body stalled.\n"
            headers = [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 408, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return {"type": "http.disconnect"}
        if message["type"] != "http.request" or not message.get("more_body"):
            body_done = True
        return message

    await django_application(scope, receive_in_time, send)
