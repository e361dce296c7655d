"""The gunicorn worker the start command runs (``server.command``): uvicorn's, with slow clients
bounded at the connection level.

- Every connection must send its request's headers within ``HEADER_TIMEOUT`` seconds (10)
  of its first byte, or of the end of the previous response on a kept-alive connection; a
  slow sender is closed (uvicorn has no such deadline: a client sending one header line every
  few seconds held its socket for ever).
- One address may hold at most ``PENDING_PER_ADDRESS`` connections that are still sending
  their headers; a new one past it closes that address's oldest.
- A process holds at most ``capacity().connections`` sockets (its open-file limit, less what
  it needs besides); a new connection past it closes the oldest connection still sending
  its headers, so that the process never runs out of open files (asyncio would then stop
  accepting anyone for a second at a time). When every connection is busy with a request or a
  stream, a request is answered 503 (uvicorn's ``limit_concurrency``) rather than left waiting.
- The soft limit on open files is raised to the hard one when the worker starts.

What was closed is logged, at most once every 10 seconds. Behind a proxy (nginx, Caddy) the
proxy holds the slow clients and these limits rarely act: see docs/settings.md, "Deploying on the internet".
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, ClassVar

from django.conf import settings
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

from scorekeeping.capacity import BACKLOG, capacity, raise_open_files
from scorekeeping.serve import tls
from scorekeeping.serve.oneport import OnePort

log = logging.getLogger("scorekeeping.serve.worker")


class _Pending:
    """This process's connections that have not yet sent their request's headers, oldest first."""

    def __init__(self) -> None:
        self.all: dict[GuardedProtocol, None] = {}
        self.by_address: dict[str, dict[GuardedProtocol, None]] = {}
        self.closed: dict[str, int] = {"slow": 0, "address": 0, "full": 0}
        self.said = 0.0

    def add(self, protocol: GuardedProtocol) -> None:
        self.all[protocol] = None
        self.by_address.setdefault(protocol.address, {})[protocol] = None

    def remove(self, protocol: GuardedProtocol) -> None:
        self.all.pop(protocol, None)
        mine = self.by_address.get(protocol.address)
        if mine is not None:
            mine.pop(protocol, None)
            if not mine:
                del self.by_address[protocol.address]

    def oldest(self, address: str | None = None) -> GuardedProtocol | None:
        pool = self.all if address is None else self.by_address.get(address, {})
        return next(iter(pool), None)

    def close(self, protocol: GuardedProtocol, why: str) -> None:
        self.remove(protocol)
        protocol.transport.close()
        self.closed[why] += 1
        now = time.monotonic()
        if now - self.said >= 10:
            self.said = now
            counts = ", ".join(f"{n} {w}" for w, n in self.closed.items() if n)
            log.warning(
                "closed connections that had not sent their headers (%s): slow = over %.0f s, address = over %d"
                " from one address, full = the process at %d connections",
                counts,
                settings.HEADER_TIMEOUT,
                capacity().pending_per_address,
                capacity().connections,
            )
            self.closed = dict.fromkeys(self.closed, 0)


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol (httptools) with a deadline for the headers and the caps above."""

    pending: ClassVar[_Pending] = _Pending()

    address: str
    header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.address = self.client[0] if self.client else "?"
        caps = capacity()
        self._wait_for_headers()
        crowd = self.pending.by_address.get(self.address, {})
        if len(crowd) > caps.pending_per_address:
            oldest = self.pending.oldest(self.address)
            if oldest is not None and oldest is not self:
                self.pending.close(oldest, "address")
        if len(self.connections) > caps.connections:
            oldest = self.pending.oldest()
            if oldest is not None and oldest is not self:
                self.pending.close(oldest, "full")

    def _wait_for_headers(self) -> None:
        if self.transport.is_closing():
            return
        self.pending.add(self)
        if self.header_timer is None:
            self.header_timer = self.loop.call_later(settings.HEADER_TIMEOUT, self._too_slow)

    def _headers_in(self) -> None:
        self.pending.remove(self)
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def _too_slow(self) -> None:
        self.header_timer = None
        if self in self.pending.all:
            self.pending.close(self, "slow")

    def on_message_begin(self) -> None:
        self._wait_for_headers()  # the first bytes of a request (the next one, on a kept-alive connection)
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._headers_in()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._headers_in()
        super().connection_lost(exc)


class Worker(UvicornWorker):  # type: ignore[misc]
    """gunicorn's worker process: raises its open-file limit, then serves with ``GuardedProtocol``
    and a connection limit derived from that limit."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise_open_files()  # gunicorn makes the worker before it forks: the limit holds in the child too
        if settings.LAN_HTTPS:  # TLS and plain http on one port: see oneport
            files = tls.Files.kept_in(settings.TLS_DIR)
            OnePort.secure = GuardedProtocol
            OnePort.context, OnePort.names = files.server_context(), tls.names(files.cert)
        self.CONFIG_KWARGS = {
            **UvicornWorker.CONFIG_KWARGS,
            "http": OnePort if settings.LAN_HTTPS else GuardedProtocol,
            # asyncio's loop: uvloop reads a paused transport when TLS starts on it, taking the handshake
            **({"loop": "asyncio"} if settings.LAN_HTTPS else {}),
            # Past this many sockets a request is answered 503. The eviction above keeps the count
            # near ``connections``; closed sockets leave the count a loop iteration later, and one
            # iteration may accept up to BACKLOG, so the 503 is set that much higher.
            "limit_concurrency": capacity().connections + BACKLOG,
        }
        super().__init__(*args, **kwargs)
