"""What a live table costs, measured as a person feels it (``manage.py bench --live``).

- A change's cost in one process: the table page and the fragment fetched after an event, for
  an 8-player Shanghai game with 9 deals (server time, queries, writes).
- The server as the README starts it, pinned to one core (``taskset -c 0``), one worker, on the
  configured database (PostgreSQL for the published numbers); the load generator pinned to the
  other core: N idle streams over N/4 games (the server's CPU while idle, its memory per
  stream), the delivery of one recorded round to 1,000 open streams (from the commit to each
  event), page and API latency with the streams open against an idle server, and, for
  comparison, phones polling once a second as the page did before.

It writes games into the configured database and leaves them (nothing in this app deletes a
game): run it on a database of its own.
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeping.models import Game
from scorekeeping.serve import server
from scorekeeping.services import game_create, round_record

ROOT = Path(__file__).resolve().parents[2]
SHANGHAI_HANDS = ["5C KD", "JK 2H", "7S", "AC AD", "9H 10H", "QS", "4D"]


def _shanghai(deals: int = 9) -> tuple[Game, str]:
    names = [f"P{i}" for i in range(1, 9)]
    game, token = game_create(ruleset="shanghai", variants=["more-players"], players=names, first_dealer=names[0])
    for number in range(1, deals + 1):
        hands = {name: SHANGHAI_HANDS[i % len(SHANGHAI_HANDS)] for i, name in enumerate(names[1:])}
        round_record(game=Game.objects.get(pk=game.pk), number=number, winner=names[0], hands=hands, points={})
    return Game.objects.get(pk=game.pk), token


# The phone that taps Record: its answer, including what it renders ahead for the other phones.
RECORD = "the phone that records: Record deal 9 to its answer"


@dataclass
class PageCost:
    name: str
    median_ms: float
    queries: int
    writes: int


@dataclass
class Table:
    """An 8-player Shanghai game after 8 deals, open on three phones: one that records, one more
    that may record, one that follows; each has loaded the table once."""

    game: Game
    recorder: Client
    second: Client
    follower: Client

    @classmethod
    def open(cls) -> Table:
        game, token = _shanghai(deals=8)
        table = cls(game, Client(), Client(), Client())
        for client in (table.recorder, table.second):
            client.get(f"/g/{game.pk}/join/{token}/")
        for client in (table.recorder, table.second, table.follower):
            client.get(f"/g/{game.pk}/")
        return table

    def record_deal_nine(self) -> None:
        """The phone that records taps Record for deal 9 (htmx, as the page does)."""
        data = {"number": "9", "version": str(self.game.version), "winner": "0", "op": "record"}
        data |= {f"hand-{seat}": SHANGHAI_HANDS[(seat - 1) % len(SHANGHAI_HANDS)] for seat in range(1, 8)}
        response = self.recorder.post(f"/g/{self.game.pk}/rounds/", data, headers={"hx-request": "true"})
        assert response.status_code == 200, response.status_code
        self.game.refresh_from_db()


def page_costs(repeat: int = 40) -> list[PageCost]:
    """Server time of the table page and of the fragment fetched after an event (8x9 Shanghai),
    for the first phone after a change recorded on a phone, for the phones after it, and cold."""
    steady = Table.open()
    steady.record_deal_nine()
    pk, version = steady.game.pk, steady.game.version
    table, live = f"/g/{pk}/", f"/g/{pk}/live/"
    stale = {"if-none-match": f'"v{version - 1}"'}
    fresh_form = {**stale, "x-entry-pristine": "1"}
    unchanged = {"if-none-match": f'"v{version}"'}

    def after_change(call: Callable[[Table], Any]) -> Callable[[], Callable[[], Any]]:
        """A new table each time, deal 9 recorded on its recording phone, then the timed call."""

        def setup() -> Callable[[], Any]:
            fresh = Table.open()
            fresh.record_deal_nine()
            return lambda: call(fresh)

        return setup

    def cold(call: Callable[[], Any]) -> Callable[[], Callable[[], Any]]:
        def setup() -> Callable[[], Any]:
            cache.clear()
            return call

        return setup

    def steady_call(call: Callable[[], Any]) -> Callable[[], Callable[[], Any]]:
        return lambda: call

    def record_setup() -> Callable[[], Any]:
        return Table.open().record_deal_nine

    first = "after a change recorded on a phone, "
    cases: list[tuple[str, Callable[[], Callable[[], Any]]]] = [
        (RECORD, record_setup),
        (
            first + "table page, the first phone that follows",
            after_change(lambda t: t.follower.get(f"/g/{t.game.pk}/")),
        ),
        ("table page, the other phones that follow", steady_call(lambda: steady.follower.get(table))),
        ("table page, a phone that records", steady_call(lambda: steady.second.get(table))),
        (
            first + "fragment after an event, the first phone that follows",
            after_change(lambda t: t.follower.get(f"/g/{t.game.pk}/live/", headers=stale)),
        ),
        (
            "fragment after an event, the other phones that follow",
            steady_call(lambda: steady.follower.get(live, headers=stale)),
        ),
        (
            first + "fragment after an event, the first other phone that records",
            after_change(lambda t: t.second.get(f"/g/{t.game.pk}/live/", headers=fresh_form)),
        ),
        (
            "fragment after an event, the other phones that record",
            steady_call(lambda: steady.second.get(live, headers=fresh_form)),
        ),
        ("cold: table page, a phone that follows", cold(lambda: steady.follower.get(table))),
        ("cold: fragment after an event, a phone that follows", cold(lambda: steady.follower.get(live, headers=stale))),
        (
            "cold: fragment after an event, a phone that records",
            cold(lambda: steady.second.get(live, headers=fresh_form)),
        ),
        ("nothing changed (304)", steady_call(lambda: steady.follower.get(live, headers=unchanged))),
    ]
    results = []
    for name, setup in cases:
        times = []
        for i in range(repeat + 3):
            call = setup()
            started = time.perf_counter()
            call()
            if i >= 3:  # the first few warm up the process
                times.append((time.perf_counter() - started) * 1000)
        call = setup()
        with CaptureQueriesContext(connection) as queries:
            call()
        writes = sum(1 for q in queries.captured_queries if q["sql"].lstrip().split(" ", 1)[0].upper() in _WRITES)
        results.append(PageCost(name, statistics.median(times), len(queries.captured_queries), writes))
    return results


_WRITES = {"INSERT", "UPDATE", "DELETE", "BEGIN", "SAVEPOINT"}


# --- the server, pinned, and a load generator on the other core --------------------------------


@contextmanager
def pinned_server(
    core: int = 0,
    *,
    tree: Path = ROOT,
    env: dict[str, str] | None = None,
    lift_caps: bool = True,
    open_files: int | None = None,
) -> Iterator[tuple[int, list[int]]]:
    """The start command's server with one worker on one core, serving ``tree`` (this one, or
    another commit's files, each with its own command) with ``env`` (this process's); yields its
    port and its pids. ``lift_caps``: the load comes from one address here, so the per-address and
    per-game stream caps are lifted; ``open_files``: the server's soft and hard limit on open files."""
    port = server.free_port()
    env = dict(os.environ if env is None else env)
    env |= {"SECRET_KEY": env.get("SECRET_KEY") or secrets.token_urlsafe(40), "DJANGO_DEBUG": "0"}
    if lift_caps:
        env |= {f"LIVE_STREAMS_PER_{cap}": "1000000" for cap in ("CLIENT", "ADDRESS", "GAME")}
    argv = ["taskset", "-c", str(core), *tree_command(tree, env, f"127.0.0.1:{port}")]

    def limit() -> None:
        if open_files:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    process = subprocess.Popen(
        argv, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=limit
    )
    try:
        server.wait_until_listening(port, process)
        time.sleep(1.0)  # the worker boots behind the master's socket
        children = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
        yield port, [process.pid, *map(int, children)]
    finally:
        process.terminate()
        process.wait(timeout=30)


def package(tree: Path, name: str) -> str:
    """Where ``tree`` keeps what is now in ``scorekeeping/<name>/``: there, or (before the
    subpackages) in ``scorekeeping`` itself; e.g. ``scorekeeping.serve.`` or ``scorekeeping.``."""
    return f"scorekeeping.{name}." if (tree / "scorekeeping" / name).is_dir() else "scorekeeping."


def tree_command(tree: Path, env: dict[str, str], bind: str) -> list[str]:
    """The command ``tree``'s own start command runs (its ``server.command``)."""
    if tree == ROOT:
        return server.command(bind=bind, workers=1, python=sys.executable)
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


async def _open_many(streams: Streams, games: list[str], count: int, batch: int = 200) -> None:
    for start in range(0, count, batch):
        await asyncio.gather(*(streams.open(games[i % len(games)]) for i in range(start, min(count, start + batch))))


async def request_ms(port: int, path: str, cookie: str = "") -> tuple[float, bytes]:
    """A GET on a new connection, as a phone on Wi-Fi opens one: milliseconds to the whole answer,
    and the answer's head."""
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    sends = f"Cookie: {cookie}\r\n" if cookie else ""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: b\r\n{sends}Connection: close\r\n\r\n".encode())
    await writer.drain()
    answer = await reader.read()
    writer.close()
    return (time.perf_counter() - started) * 1000, answer.partition(b"\r\n\r\n")[0]


async def _latency(port: int, paths: list[str], repeat: int) -> dict[str, float]:
    found: dict[str, list[float]] = {p: [] for p in paths}
    for _ in range(5):
        for path in paths:
            await request_ms(port, path)
    for _ in range(repeat):
        for path in paths:
            found[path].append((await request_ms(port, path))[0])
    return {p: statistics.median(v) for p, v in found.items()}


@dataclass
class LiveReport:
    streams: int
    rss_idle_mb: float
    rss_open_mb: float
    idle_cpu_percent: float
    open_seconds: float
    delivery_p50_ms: float
    delivery_p99_ms: float
    delivered: int
    expected: int
    latency_idle: dict[str, float]
    latency_open: dict[str, float]


def _games(count: int) -> list[Game]:
    return [
        game_create(ruleset="mexican", variants=[], players=["Ana", "Ben", "Cy", "Dee"], first_dealer="Ana")[0]
        for _ in range(count)
    ]


def live_capacity(
    streams: int = 5000, delivery_streams: int = 1000, idle_seconds: float = 10.0, repeat: int = 100
) -> LiveReport:
    """Idle streams per core, delivery of one round to 1,000 streams, latency with streams open."""
    delivery_streams = min(delivery_streams, streams)  # a smaller run opens no more than it was asked
    os.sched_setaffinity(0, {1})  # the load generator on the other core
    games = _games(max(2, streams // 4))
    target = games[0]  # the game that changes (delivery)
    # Latency is measured on a game that does not change during the run (three rounds played),
    # idle and with the streams open alike: the same answer to the same question, only the
    # server's load differs. (Measured on the game that changes, the second answer was bigger.)
    probe = games[-1]
    for number in (1, 2, 3):
        _record(probe.pk, ["Ana", "Ben", "Cy", "Dee"], number)
    page_paths = [f"/g/{probe.pk}/", f"/api/games/{probe.pk}/"]
    with pinned_server(core=0) as (port, pids):
        latency_idle = asyncio.run(_latency(port, page_paths, repeat))
        rss_idle = rss_mb(pids)

        async def run() -> LiveReport:
            # Delivery: 1,000 streams, a fifth of them on the game that changes.
            near = Streams(port)
            others = [g.pk for g in games[1:]] or [target.pk]
            await _open_many(near, [target.pk], delivery_streams // 5)
            await _open_many(near, others, delivery_streams - delivery_streams // 5)
            await asyncio.sleep(1.0)
            names = ["Ana", "Ben", "Cy", "Dee"]
            write = await asyncio.to_thread(lambda: _record(target.pk, names, 1))
            await asyncio.sleep(2.0)
            times = sorted((t - write) * 1000 for t in near.arrivals.get(target.pk, []))
            # Capacity: the rest of the streams, idle.
            started = time.perf_counter()
            rest = Streams(port)
            await _open_many(rest, [g.pk for g in games], streams - delivery_streams)
            opened = time.perf_counter() - started
            await asyncio.sleep(2.0)
            rss_open = rss_mb(pids)
            cpu_before = cpu_seconds(pids)
            await asyncio.sleep(idle_seconds)
            idle_cpu = (cpu_seconds(pids) - cpu_before) / idle_seconds * 100
            latency_open = await _latency(port, page_paths, repeat)
            await near.close()
            await rest.close()
            return LiveReport(
                streams=streams,
                rss_idle_mb=rss_idle,
                rss_open_mb=rss_open,
                idle_cpu_percent=idle_cpu,
                open_seconds=opened,
                delivery_p50_ms=_percentile(times, 50),
                delivery_p99_ms=_percentile(times, 99),
                delivered=len(times),
                expected=delivery_streams // 5,
                latency_idle=latency_idle,
                latency_open=latency_open,
            )

        return asyncio.run(run())


def _record(game_id: str, names: list[str], number: int) -> float:
    """Record a round through the service (its own transaction); the moment after its commit."""
    round_record(
        game=Game.objects.get(pk=game_id),
        number=number,
        winner=names[0],
        hands=dict(zip(names[1:], ["5C", "KD", "JK"], strict=True)),
        points={},
    )
    return time.perf_counter()


def _percentile(values: list[float], percent: float) -> float:
    if not values:
        return float("nan")
    index = min(len(values) - 1, max(0, round(percent / 100 * len(values) + 0.5) - 1))
    return sorted(values)[index]


@dataclass
class PollReport:
    phones: int
    polls_per_second: float
    median_ms: float
    p99_ms: float
    cpu_percent: float


def polling(phones: int = 400, seconds: float = 10.0) -> PollReport:
    """The page before this change: every phone asks once a second whether its game changed (304)."""
    os.sched_setaffinity(0, {1})
    games = _games(max(1, phones // 4))
    with pinned_server(core=0) as (port, pids):

        async def phone(game: Game, times: list[float], stop: float) -> None:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            request = (
                f'GET /g/{game.pk}/live/ HTTP/1.1\r\nHost: b\r\nIf-None-Match: "v{game.version}"\r\n\r\n'
            ).encode()
            await asyncio.sleep(secrets.randbelow(1000) / 1000)
            while time.perf_counter() < stop:
                started = time.perf_counter()
                writer.write(request)
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    (int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")),
                    0,
                )
                if length:
                    await reader.readexactly(length)
                times.append((time.perf_counter() - started) * 1000)
                await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - started)))
            writer.close()

        async def run() -> PollReport:
            times: list[float] = []
            stop = time.perf_counter() + seconds + 1
            cpu_before = cpu_seconds(pids)
            await asyncio.gather(*(phone(games[i % len(games)], times, stop) for i in range(phones)))
            cpu = (cpu_seconds(pids) - cpu_before) / (seconds + 1) * 100
            return PollReport(phones, len(times) / (seconds + 1), statistics.median(times), _percentile(times, 99), cpu)

        return asyncio.run(run())


def live_bench(write: Callable[[str], Any], *, streams: int, phones: int) -> None:
    """Run every live measurement and print it with its target (``manage.py bench --live``)."""
    from django.core.management.base import CommandError

    missed: list[str] = []

    def check(ok: bool, what: str) -> str:
        if not ok:
            missed.append(what)
        return "ok  " if ok else "MISS"

    write(f"Database: {connection.vendor}. A change's cost in one process, 8-player Shanghai after 9 deals:")
    for cost in page_costs():
        # Cold: a process that rendered nothing of this version yet (the change came through the
        # API, or another process answered the phone that recorded) renders once per version
        # and language; no target, reported as what it is.
        kind = None if cost.name.startswith("cold") else "table page" if "table page" in cost.name else cost.name
        target = 10.0 if kind == "table page" else 5.0 if kind and "fragment" in kind else None
        mark = check(cost.median_ms < target, cost.name) if target else "    "
        goal = f"< {target:.0f} ms" if target else "        "
        write(f"  {mark} {cost.median_ms:6.2f} ms {goal}  {cost.name}: {cost.queries} queries, {cost.writes} writes")
        if cost.name != RECORD:  # a GET never writes
            check(cost.writes == 0, f"{cost.name} writes")
    write(f"The start command's server, 1 worker pinned to core 0; the load on core 1; {streams:,} streams:")
    report = live_capacity(streams=streams)
    per_stream_kb = (report.rss_open_mb - report.rss_idle_mb) * 1024 / max(1, streams)
    write(
        f"  {check(report.rss_open_mb < 1024, 'memory')} memory {report.rss_idle_mb:.0f} MB idle, "
        f"{report.rss_open_mb:.0f} MB with {streams:,} streams ({per_stream_kb:.1f} KB a stream; < 1 GB)"
    )
    write(
        f"  {check(report.idle_cpu_percent < 5, 'idle cpu')} idle CPU with the streams open: "
        f"{report.idle_cpu_percent:.1f}% of a core (< 5%); "
        f"the last {streams - report.expected * 5:,} streams opened in {report.open_seconds:.1f} s"
    )
    write(
        f"  {check(report.delivery_p99_ms < 300 and report.delivered == report.expected, 'delivery')} delivery, "
        f"commit to event on {report.delivered}/{report.expected} streams of the game ({report.expected * 5:,} open): "
        f"p50 {report.delivery_p50_ms:.1f} ms, p99 {report.delivery_p99_ms:.1f} ms (< 300 ms)"
    )
    for path, idle in report.latency_idle.items():
        busy = report.latency_open[path]
        label = "table page" if "/api/" not in path else "API game"
        write(
            f"  {check(busy <= 2 * idle, label + ' latency')} {label}: {idle:.2f} ms idle, {busy:.2f} ms with "
            f"{streams:,} streams open (ratio {busy / idle:.2f}; at most 2)"
        )
    poll = polling(phones=phones)
    write(
        f"  for comparison, {poll.phones} phones polling once a second (the page before): {poll.polls_per_second:.0f} "
        f"polls/s, median {poll.median_ms:.1f} ms, p99 {poll.p99_ms:.1f} ms, "
        f"server CPU {poll.cpu_percent:.0f}% of a core"
    )
    if missed:
        raise CommandError("missed targets: " + "; ".join(missed))
