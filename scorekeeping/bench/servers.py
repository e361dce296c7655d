"""The benchmarks' servers: the start command's server pinned to one core (``taskset -c 0``), one
worker, on the configured database; the load generator on the other core (streams, requests).
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import secrets
import statistics
import subprocess
import sys
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from scorekeeping.serve import server

ROOT = Path(__file__).resolve().parents[2]


# --- the server, pinned, and a load generator on the other core --------------------------------


@contextmanager
def pinned_server(
    core: int | None = 0,
    *,
    workers: int = 1,
    tree: Path = ROOT,
    env: dict[str, str] | None = None,
    lift_caps: bool = True,
    open_files: int | None = None,
) -> Iterator[tuple[int, list[int]]]:
    """The start command's server with ``workers`` workers on one core (on every core with
    ``core=None``), serving ``tree`` (this one, or another commit's files, each with its own
    command) with ``env`` (this process's); yields its port and its pids. ``lift_caps``: the
    load comes from one address here, so the per-address and per-game stream caps are lifted;
    ``open_files``: the server's soft and hard limit on open files."""
    port = server.free_port()
    env = dict(os.environ if env is None else env)
    env |= {"SECRET_KEY": env.get("SECRET_KEY") or secrets.token_urlsafe(40), "DJANGO_DEBUG": "0"}
    if lift_caps:
        env |= {f"LIVE_STREAMS_PER_{cap}": "1000000" for cap in ("CLIENT", "ADDRESS", "GAME")}
    pinned = ["taskset", "-c", str(core)] if core is not None else []
    argv = [*pinned, *tree_command(tree, env, f"127.0.0.1:{port}", workers)]

    def limit() -> None:
        if open_files:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    process = subprocess.Popen(
        argv, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=limit
    )
    try:
        server.wait_until_listening(port, process)
        time.sleep(1.0 * workers)  # the workers boot behind the master's socket
        children = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
        yield port, [process.pid, *map(int, children)]
    finally:
        process.terminate()
        process.wait(timeout=30)


def package(tree: Path, name: str) -> str:
    """Where ``tree`` keeps what is now in ``scorekeeping/<name>/``: there, or (before the
    subpackages) in ``scorekeeping`` itself; e.g. ``scorekeeping.serve.`` or ``scorekeeping.``."""
    return f"scorekeeping.{name}." if (tree / "scorekeeping" / name).is_dir() else "scorekeeping."


def tree_command(tree: Path, env: dict[str, str], bind: str, workers: int = 1) -> list[str]:
    """The command ``tree``'s own start command runs (its ``server.command``)."""
    if tree == ROOT:
        return server.command(bind=bind, workers=workers, python=sys.executable)
    module = f"{package(tree, 'serve')}server"
    code = f"import json; from {module} import command; print(json.dumps(command(bind={bind!r}, workers=1)))"
    found = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, check=True, capture_output=True, text=True)
    argv: list[str] = json.loads(found.stdout)
    return argv


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def cpu_seconds(pids: list[int]) -> float:
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


class Streams:
    """Open event streams from this process, timing each event's arrival."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.writers: list[asyncio.StreamWriter] = []
        self.arrivals: dict[str, list[float]] = {}
        self.tasks: list[asyncio.Task[None]] = []

    async def open(self, game_id: str, opened: asyncio.Semaphore | None = None) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=2**16)
        self.writers.append(writer)
        writer.write(f"GET /g/{game_id}/events/ HTTP/1.1\r\nHost: b\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")
        await reader.readuntil(b"\n\n")  # retry: and where it stands
        self.tasks.append(asyncio.get_running_loop().create_task(self._read(game_id, reader)))

    async def _read(self, game_id: str, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                chunk = await reader.readuntil(b"\n\n")
                if b"event: change" in chunk:
                    self.arrivals.setdefault(game_id, []).append(time.perf_counter())
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            return

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for writer in self.writers:
            writer.close()


async def open_many(streams: Streams, games: list[str], count: int, batch: int = 200) -> None:
    for start in range(0, count, batch):
        await asyncio.gather(*(streams.open(games[i % len(games)]) for i in range(start, min(count, start + batch))))


async def request_ms(port: int, path: str, cookie: str = "") -> tuple[float, bytes]:
    """A GET on a new connection, as a phone on Wi-Fi opens one: milliseconds to the whole answer,
    and the answer's head."""
    ms, head, _body = await answer_ms(port, path, f"Cookie: {cookie}\r\n" if cookie else "")
    return ms, head


async def answer_ms(port: int, path: str, headers: str = "") -> tuple[float, bytes, bytes]:
    """A GET on a new connection with ``headers`` (whole lines): milliseconds to the whole
    answer, its head and its body."""
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: b\r\n{headers}Connection: close\r\n\r\n".encode())
    await writer.drain()
    answer = await reader.read()
    writer.close()
    head, _gap, body = answer.partition(b"\r\n\r\n")
    return (time.perf_counter() - started) * 1000, head, body


async def latency_ms(port: int, paths: list[str], repeat: int) -> dict[str, float]:
    found: dict[str, list[float]] = {p: [] for p in paths}
    for _ in range(5):
        for path in paths:
            await request_ms(port, path)
    for _ in range(repeat):
        for path in paths:
            found[path].append((await request_ms(port, path))[0])
    return {p: statistics.median(v) for p, v in found.items()}


T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: the caller may already run an event loop (a test
    session that drives a browser through Playwright's synchronous API does)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
