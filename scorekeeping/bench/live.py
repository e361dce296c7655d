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
import os
import secrets
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connection

from scorekeeping.bench.pages import RECORD, page_costs
from scorekeeping.bench.servers import (
    Streams,
    cpu_seconds,
    latency_ms,
    open_many,
    pinned_server,
    rss_mb,
)
from scorekeeping.bench.stats import percentile
from scorekeeping.models import Game
from scorekeeping.services import RoundEntry, game_create, round_record


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
        latency_idle = asyncio.run(latency_ms(port, page_paths, repeat))
        rss_idle = rss_mb(pids)

        async def run() -> LiveReport:
            # Delivery: 1,000 streams, a fifth of them on the game that changes.
            near = Streams(port)
            others = [g.pk for g in games[1:]] or [target.pk]
            await open_many(near, [target.pk], delivery_streams // 5)
            await open_many(near, others, delivery_streams - delivery_streams // 5)
            await asyncio.sleep(1.0)
            names = ["Ana", "Ben", "Cy", "Dee"]
            write = await asyncio.to_thread(lambda: _record(target.pk, names, 1))
            await asyncio.sleep(2.0)
            times = sorted((t - write) * 1000 for t in near.arrivals.get(target.pk, []))
            # Capacity: the rest of the streams, idle.
            started = time.perf_counter()
            rest = Streams(port)
            await open_many(rest, [g.pk for g in games], streams - delivery_streams)
            opened = time.perf_counter() - started
            await asyncio.sleep(2.0)
            rss_open = rss_mb(pids)
            cpu_before = cpu_seconds(pids)
            await asyncio.sleep(idle_seconds)
            idle_cpu = (cpu_seconds(pids) - cpu_before) / idle_seconds * 100
            latency_open = await latency_ms(port, page_paths, repeat)
            await near.close()
            await rest.close()
            return LiveReport(
                streams=streams,
                rss_idle_mb=rss_idle,
                rss_open_mb=rss_open,
                idle_cpu_percent=idle_cpu,
                open_seconds=opened,
                delivery_p50_ms=percentile(times, 50),
                delivery_p99_ms=percentile(times, 99),
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
        entry=RoundEntry(winner=names[0], hands=dict(zip(names[1:], ["5C", "KD", "JK"], strict=True))),
    )
    return time.perf_counter()


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
            return PollReport(phones, len(times) / (seconds + 1), statistics.median(times), percentile(times, 99), cpu)

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
