"""What one server process can hold, derived from a resource: its open-file limit.

Every socket is an open file. A process that runs out of them can accept nobody (asyncio
then stops accepting for a second at a time, and every client waits), so the caps are set
below the limit, with room left for ordinary requests:

- ``open_files``: the soft limit, raised to the hard one when the server starts
  (``raise_open_files``; a desktop's usual soft limit is 1,024, its hard one far more).
- ``connections``: the sockets one process holds at most, ``open_files`` less what the process
  needs besides (its database connections, log files, the listening socket, and room for the
  connections asyncio accepts at once, ``BACKLOG``). A new connection
  past it closes the oldest one still sending its headers (``scorekeeping.serve.worker``); when there
  is none, the request is answered 503 (uvicorn's ``limit_concurrency``).
- ``streams``: change streams (``scorekeeping.live``) at most: three quarters of
  ``connections``, so that a quarter is always left to pages and the API. Past it a new stream
  is answered 503 with Retry-After, and the page polls instead.
- ``streams_per_game``, ``streams_per_address``, ``streams_per_address_game``: one game's crowd,
  and one address, take at most these (429 with Retry-After past them).
- ``pending_per_address``: connections one address may hold while sending its headers; past
  it the oldest of them is closed.
"""

from __future__ import annotations

import functools
import resource
from dataclasses import dataclass

from django.conf import settings

RESERVE = 64  # files a process needs besides its clients' sockets: logs, pipes, the listener, libraries
# Connections the kernel queues for the server (gunicorn's --backlog): asyncio accepts up to this
# many in one go, before the server can close any, so that many files are kept free for them.
BACKLOG = 128
MOST_OPEN_FILES = 1_048_576


def raise_open_files() -> int:
    """Raise this process's soft limit on open files to its hard limit; return the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = MOST_OPEN_FILES if hard == resource.RLIM_INFINITY else min(hard, MOST_OPEN_FILES)
    if soft == resource.RLIM_INFINITY or soft >= target:
        return MOST_OPEN_FILES if soft == resource.RLIM_INFINITY else soft
    resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return target


@dataclass(frozen=True)
class Capacity:
    open_files: int
    connections: int
    streams: int
    streams_per_game: int
    streams_per_address: int
    streams_per_address_game: int
    pending_per_address: int


def derive(open_files: int) -> Capacity:
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool", {}).get("max_size", 0)
    connections = max(32, open_files - RESERVE - BACKLOG - 2 * pool)
    streams = max(1, connections * 3 // 4)
    if settings.LIVE_STREAMS_MAX:
        streams = min(streams, settings.LIVE_STREAMS_MAX)
    return Capacity(
        open_files=open_files,
        connections=connections,
        streams=streams,
        streams_per_game=min(streams, settings.LIVE_STREAMS_PER_GAME),
        streams_per_address=min(streams, settings.LIVE_STREAMS_PER_ADDRESS or max(1, streams // 4)),
        streams_per_address_game=min(streams, settings.LIVE_STREAMS_PER_CLIENT),
        pending_per_address=settings.PENDING_PER_ADDRESS,
    )


@functools.cache
def capacity() -> Capacity:
    """This process's caps, from its open-file limit as it is now (computed once per process)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return derive(MOST_OPEN_FILES if soft == resource.RLIM_INFINITY else soft)
