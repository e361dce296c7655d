"""One port for https and for a phone that typed ``http://``: with ``LAN_HTTPS=1`` the server's
port speaks TLS, and plain http to it is answered with a redirect to the same address over
https instead of an empty reply.

A connection's first byte says which it is: a TLS handshake starts with 0x16, an HTTP request
with a letter. The byte is looked at without being taken (``MSG_PEEK`` on a second descriptor
of the socket, while the transport does not read), so that TLS then starts on the untouched
stream with asyncio's ``loop.start_tls`` and uvicorn's protocol gets the secure transport as if
uvicorn had wrapped it. A plain request is read up to the end of its headers (with httptools,
as uvicorn reads it) and answered 308 to ``https://<its Host><its path>`` when the certificate
is for that host and it is one of ``ALLOWED_HOSTS``, 400 otherwise. A connection that sends nothing is closed after
``HEADER_TIMEOUT`` seconds, as a slow one is once it is HTTP.
"""

from __future__ import annotations

import asyncio
import os
import socket
import ssl
from typing import Any, ClassVar, cast

import httptools
from django.conf import settings
from django.http.request import split_domain_port, validate_host

TLS_HANDSHAKE = 0x16
MOST_HEADERS = 8192  # the most of a plain request read before it is answered 400


class _Early(asyncio.Protocol):
    """Holds what the secure transport delivers before uvicorn's protocol is connected to it:
    asyncio reads the first request as soon as the handshake ends, before ``start_tls`` returns."""

    def __init__(self) -> None:
        self.data: list[bytes] = []
        self.eof = False
        self.lost: tuple[Exception | None] | None = None

    def data_received(self, data: bytes) -> None:
        self.data.append(data)

    def eof_received(self) -> bool | None:
        self.eof = True
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = (exc,)

    def hand_over(self, transport: asyncio.Transport, protocol: asyncio.Protocol) -> None:
        protocol.connection_made(transport)
        transport.set_protocol(protocol)
        for data in self.data:
            protocol.data_received(data)
        if self.eof and not protocol.eof_received():
            transport.close()
        if self.lost is not None:
            protocol.connection_lost(self.lost[0])


class OnePort(asyncio.Protocol):
    """The protocol uvicorn makes for each connection (its ``http`` setting): TLS goes on to
    ``secure`` (the worker's uvicorn protocol) over ``context``; plain http is redirected."""

    secure: ClassVar[type[asyncio.Protocol]]
    context: ClassVar[ssl.SSLContext]
    names: ClassVar[set[str]]  # the hosts the certificate is for: a redirect elsewhere would fail anyway

    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = kwargs  # uvicorn's config and state, for the protocol that serves the request
        self.loop = kwargs.get("_loop") or asyncio.get_event_loop()
        self.transport: asyncio.Transport | None = None
        self.peeking: socket.socket | None = None
        self.parser: httptools.HttpRequestParser | None = None
        self.read = 0
        self.host = b""
        self.url = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport = cast(asyncio.Transport, transport)  # uvloop's transports are not asyncio's classes
        self.transport = transport
        self.timer = self.loop.call_later(settings.HEADER_TIMEOUT, transport.close)
        transport.pause_reading()
        raw = transport.get_extra_info("socket")
        self.peeking = socket.socket(fileno=os.dup(raw.fileno()))
        self.loop.add_reader(self.peeking.fileno(), self._first_byte)

    def _stop_peeking(self) -> None:
        if self.peeking is not None:
            self.loop.remove_reader(self.peeking.fileno())
            self.peeking.close()
            self.peeking = None

    def _first_byte(self) -> None:
        assert self.peeking is not None and self.transport is not None
        try:
            first = self.peeking.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            return
        except OSError:
            first = b""
        self._stop_peeking()
        if not first:
            self.transport.close()
        elif first[0] == TLS_HANDSHAKE:
            self.timer.cancel()  # the handshake has its own deadline, then uvicorn's protocol its own
            self.loop.create_task(self._secure(self.transport))
        else:
            self.parser = httptools.HttpRequestParser(self)
            self.transport.resume_reading()

    async def _secure(self, transport: asyncio.Transport) -> None:
        early = _Early()
        try:
            tls = await self.loop.start_tls(
                transport, early, self.context, server_side=True, ssl_handshake_timeout=settings.HEADER_TIMEOUT
            )
        except (OSError, ssl.SSLError, TimeoutError, ConnectionError):
            transport.close()  # a failed handshake: the phone says why (an untrusted certificate)
            return
        if tls is None:  # the connection ended during the handshake
            transport.close()
            return
        early.hand_over(tls, self.secure(**self.kwargs))

    # Plain http: httptools calls these while data_received feeds it.

    def data_received(self, data: bytes) -> None:
        assert self.parser is not None and self.transport is not None
        self.read += len(data)
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError:
            self._answer(400)
        if self.read > MOST_HEADERS and not self.transport.is_closing():
            self._answer(400)

    def on_url(self, url: bytes) -> None:
        self.url += url  # httptools may give it in pieces

    def on_header(self, name: bytes, value: bytes) -> None:
        if name.lower() == b"host":
            self.host = value

    def on_headers_complete(self) -> None:
        host = self.host.decode("latin-1")
        path = self.url.decode("latin-1") if self.url.startswith(b"/") else "/"
        domain, _port = split_domain_port(host)
        known = domain in self.names and validate_host(domain, settings.ALLOWED_HOSTS)
        if not known or not path.isprintable():
            self._answer(400)
        else:
            self._answer(308, f"https://{host}{path}")

    def _answer(self, status: int, location: str | None = None) -> None:
        assert self.transport is not None
        if self.transport.is_closing():
            return
        reason = {308: "Permanent Redirect", 400: "Bad Request"}[status]
        body = f"This address speaks https: {location}\n" if location else "This address speaks https.\n"
        head = [f"HTTP/1.1 {status} {reason}", "Content-Type: text/plain; charset=utf-8"]
        head += [f"Location: {location}"] if location else []
        head += [f"Content-Length: {len(body)}", "Connection: close", "", ""]
        self.transport.write("\r\n".join(head).encode("latin-1") + body.encode())
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_peeking()
        self.timer.cancel()
