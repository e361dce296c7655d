"""The ASGI application the start command serves (gunicorn with uvicorn workers, ``server.py``).

Connections are read asynchronously, so a client that trickles its headers or its body
holds a socket, not a worker: slow clients cannot starve the others. A body that stalls
for ``BODY_TIMEOUT`` seconds between two pieces is answered 408 and dropped.

A body is bounded before Django spools it (to memory, then to disk): a ``Content-Length`` over
the route's limit (``body_limit``) is answered 413 at once, unread, and a chunked body (no
``Content-Length``) is counted as it comes, 413 the moment it passes the limit; one within it
is read whole and handed to Django with its length (Django reads no body it has no length for).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.conf import settings
from django.core.asgi import get_asgi_application
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeping.config.settings")
django_application = get_asgi_application()

from scorekeeping.api.rulesets import MAX_DOCUMENT, RULESET_PATHS  # noqa: E402
from scorekeeping.errors import API_PREFIX  # noqa: E402
from scorekeeping.live import stream as live  # noqa: E402  (needs the apps loaded by get_asgi_application)
from scorekeeping.services.sheets import MAX_BYTES as SHEET_BYTES  # noqa: E402

BODY_TIMEOUT = settings.BODY_TIMEOUT
# A score sheet's file, with room for the form's other fields and the multipart framing.
SHEET_UPLOAD = SHEET_BYTES + 64 * 1024
SHEET_PATHS = ("/api/games/import/sheet/", "/games/import/sheet/")

Message = dict[str, Any]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]


def body_limit(path: str) -> int:
    """The most a request body to ``path`` may hold: a score sheet's upload, a house ruleset's
    document, or what Django reads into memory for any other form or JSON body
    (``DATA_UPLOAD_MAX_MEMORY_SIZE``)."""
    if path in SHEET_PATHS:
        return SHEET_UPLOAD
    if path in RULESET_PATHS:
        return MAX_DOCUMENT
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)


def _header(scope: dict[str, Any], name: bytes) -> bytes | None:
    return next((value for key, value in scope.get("headers", []) if key.lower() == name), None)


def _language(scope: dict[str, Any]) -> str:
    """The language the answer is said in, chosen as LocaleMiddleware would: the cookie, then the browser."""
    cookie = (_header(scope, b"cookie") or b"").decode("latin-1")
    for part in cookie.split(";"):
        key, _eq, value = part.strip().partition("=")
        if key == settings.LANGUAGE_COOKIE_NAME and translation.check_for_language(value):
            return value
    accept = (_header(scope, b"accept-language") or b"").decode("latin-1")[:200]
    for code, _q in parse_accept_lang_header(accept):
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


async def _too_large(scope: dict[str, Any], send: Send, limit: int) -> None:
    """413 in words, before Django (or a disk) sees the body."""
    with translation.override(_language(scope)):
        message = translation.gettext("The request is too large: at most {size} bytes are accepted.").format(
            size=f"{limit:,}"
        )
    await _refuse(scope, send, 413, message)


async def _refuse(scope: dict[str, Any], send: Send, status: int, message: str) -> None:
    """An answer before Django: JSON under /api/, text elsewhere; the connection closed."""
    if scope["path"].startswith(API_PREFIX):
        body, kind = json.dumps({"detail": message, "errors": {}}).encode(), b"application/json"
    else:
        body, kind = (message + "\n").encode(), b"text/plain; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


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

    limit = body_limit(scope["path"])
    length = _header(scope, b"content-length")
    if length is not None and len(length.strip()) > 15:  # "000…05": no number Django's int() takes
        await _refuse(scope, send, 400, "Bad Request: the Content-Length is no length.")
        return
    if length is not None and length.isdigit() and int(length) > limit:
        await _too_large(scope, send, limit)
        return
    body_done = False
    received = 0

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

    async def receive_counted() -> Message:
        nonlocal received
        message = await receive_in_time()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > limit:
                await _too_large(scope, send, limit)
                return {"type": "http.disconnect"}
        return message

    if length is None and scope.get("method") not in ("GET", "HEAD", "OPTIONS"):
        # A chunked body: read it whole within the limit, then give Django its length.
        pieces: list[bytes] = []
        while True:
            message = await receive_counted()
            if message["type"] != "http.request":
                return  # refused (413, 408) or gone
            pieces.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        whole = b"".join(pieces)
        scope = {**scope, "headers": [*scope.get("headers", []), (b"content-length", str(len(whole)).encode())]}
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": whole, "more_body": False}

        await django_application(scope, replay, send)
        return
    await django_application(scope, receive_counted, send)
