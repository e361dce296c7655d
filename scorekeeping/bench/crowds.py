"""A crowd or an attacker on the same server, as the other tables feel it (``bench --crowds``).

The start command's server, one worker pinned to core 0 and the load on core 1, each scenario
on a new database of its own (PostgreSQL when ``DATABASE_URL`` names one, else SQLite):

- **streams**: ``streams`` change streams held on ONE game from ``addresses`` loopback addresses
  (127.0.0.2, ...), while that game is written ``per_second`` times a second (a hand sent in
  again, each one an event to every stream): once with the caps as configured (the defaults
  let 50 streams per address onto one game), once with every stream cap lifted, so that the
  process really holds them all and pays each change's wake-ups;
- **trickle**: ``trickle`` sockets from the same addresses sending a request's headers one line
  every 2 s, and opening a new one for each the server closes, under a soft and hard limit of
  1,024 open files (a desktop's usual soft limit);

and meanwhile, every 100 ms, another table's page and ``/healthz`` are asked on a new connection
each, as a phone would: their p50, p95 and worst, and every answer that was not 200. Targets:
the other table's page p95 within 500 ms, ``/healthz`` within 1 s, no 5xx and no failure for these
ordinary requests. ``--before REV`` measures REV's tree the same way first.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorekeeping.bench.against import checkout, database, environment, prepare, short_commit
from scorekeeping.bench.servers import ROOT, pinned_server, request_ms, run_async
from scorekeeping.capacity import raise_open_files

PAGE_P95_MS = 500.0
HEALTHZ_MS = 1000.0


@dataclass
class Probe:
    """What the other tables felt: milliseconds per answer, and every answer that was not 200."""

    page_ms: list[float] = field(default_factory=list)
    healthz_ms: list[float] = field(default_factory=list)
    bad: list[str] = field(default_factory=list)


@dataclass
class Scenario:
    name: str
    probe: Probe
    notes: str


def _api(port: int, method: str, path: str, body: dict[str, Any] | None = None, token: str = "") -> dict[str, Any]:
    headers = {"Content-Type": "application/json", **({"X-Game-Token": token} if token else {})}
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, headers, method=method)
    with urllib.request.urlopen(request, timeout=30) as answer:
        result: dict[str, Any] = json.loads(answer.read() or b"null")
        return result


def _games(port: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The busy game (a round in progress) and another table's (three rounds played)."""
    table = {"players": ["Ana", "Ben", "Cy", "Dee"], "first_dealer": "Ana"}
    busy, other = _api(port, "POST", "/api/games/", table), _api(port, "POST", "/api/games/", table)
    for number in (1, 2, 3):
        body = {"number": number, "winner": "Ana", "hands": {"Ben": "5C", "Cy": "KD", "Dee": "JK"}}
        _api(port, "POST", f"/api/games/{other['id']}/rounds/", body, other["edit_token"])
    _api(port, "PUT", f"/api/games/{busy['id']}/draft/", {"number": 1, "winner": "Ana"}, busy["edit_token"])
    return busy, other


async def _probe(port: int, page: str, seconds: float) -> Probe:
    found = Probe()
    stop = time.perf_counter() + seconds
    while time.perf_counter() < stop:
        for path, times in ((page, found.page_ms), ("/healthz", found.healthz_ms)):
            try:
                ms, head = await asyncio.wait_for(request_ms(port, path), 10)
            except (TimeoutError, OSError) as exc:
                times.append(10_000.0)
                found.bad.append(f"{path}: {type(exc).__name__}")
                continue
            times.append(ms)
            status = head.partition(b"\r\n")[0].decode(errors="replace")
            if " 200 " not in f"{status} ":
                found.bad.append(f"{path}: {status}")
        await asyncio.sleep(0.1)
    return found


async def _hold_streams(port: int, game_id: str, count: int, addresses: list[str]) -> tuple[list[Any], dict[str, int]]:
    """Open ``count`` streams on one game; the writers of those that were let in, and the statuses."""
    held: list[Any] = []
    statuses: dict[str, int] = {}

    async def one(i: int) -> None:
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(addresses[i % len(addresses)], 0)
            )
            writer.write(f"GET /g/{game_id}/events/ HTTP/1.1\r\nHost: b\r\nAccept: text/event-stream\r\n\r\n".encode())
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        except (OSError, TimeoutError, asyncio.IncompleteReadError) as exc:
            statuses[type(exc).__name__] = statuses.get(type(exc).__name__, 0) + 1
            return
        status = head.split(b" ", 2)[1].decode()
        statuses[status] = statuses.get(status, 0) + 1
        if status == "200":
            held.append((writer, asyncio.get_running_loop().create_task(_drain(reader))))
        else:
            writer.close()

    for start in range(0, count, 200):
        await asyncio.gather(*(one(i) for i in range(start, min(count, start + 200))))
    return held, statuses


async def _drain(reader: asyncio.StreamReader) -> None:
    try:
        while await reader.read(65536):
            pass
    except (OSError, asyncio.CancelledError):
        return


async def _write_often(port: int, game: dict[str, Any], per_second: float, seconds: float) -> dict[str, int]:
    statuses: dict[str, int] = {}
    path = f"/api/games/{game['id']}/draft/hands/Ben/"
    started = time.perf_counter()
    n = 0
    while time.perf_counter() < started + seconds:
        n += 1
        body = {"cards": "5C KH" if n % 2 else "6C KH"}
        try:
            await asyncio.to_thread(_api, port, "PUT", path, body, game["edit_token"])
            key = "200"
        except urllib.error.HTTPError as exc:
            key = str(exc.code)
        except OSError as exc:
            key = type(exc).__name__
        statuses[key] = statuses.get(key, 0) + 1
        await asyncio.sleep(max(0.0, started + n / per_second - time.perf_counter()))
    return statuses


def _streams(port: int, streams: int, addresses: list[str], per_second: float, seconds: float) -> Scenario:
    busy, other = _games(port)

    async def run() -> Scenario:
        held, opened = await _hold_streams(port, busy["id"], streams, addresses)
        writes = asyncio.ensure_future(_write_often(port, busy, per_second, seconds))
        probe = await _probe(port, f"/g/{other['id']}/", seconds)
        written = await writes
        for writer, task in held:
            task.cancel()
            writer.close()
        notes = f"streams asked {streams}: {opened}; writes on the busy game: {written}"
        return Scenario(
            f"{streams} streams on one game from {len(addresses)} addresses, written {per_second:g}/s", probe, notes
        )

    return run_async(run())


def _trickle(port: int, sockets: int, addresses: list[str], seconds: float) -> Scenario:
    _busy, other = _games(port)

    async def run() -> Scenario:
        open_: list[asyncio.StreamWriter] = []
        made = closed = failed = 0

        async def connect(i: int) -> None:
            nonlocal made, failed
            try:
                _reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(addresses[i % len(addresses)], 0)
                )
                writer.write(b"GET /healthz HTTP/1.1\r\nHost: b\r\n")
                open_.append(writer)
                made += 1
            except OSError:
                failed += 1

        async def attack(stop: float) -> None:
            nonlocal closed
            line = 0
            while time.perf_counter() < stop:
                missing = sockets - len(open_)
                for start in range(0, missing, 200):
                    await asyncio.gather(*(connect(i) for i in range(start, min(missing, start + 200))))
                line += 1
                alive = []
                for writer in open_:
                    if writer.is_closing() or writer.transport.get_extra_info("socket") is None:
                        closed += 1
                        continue
                    try:
                        writer.write(f"X-Trickle-{line}: 1\r\n".encode())
                        alive.append(writer)
                    except OSError:
                        closed += 1
                open_[:] = alive
                await asyncio.sleep(2)

        stop = time.perf_counter() + seconds
        attacker = asyncio.ensure_future(attack(stop))
        await asyncio.sleep(2)  # the sockets are open and trickling
        probe = await _probe(port, f"/g/{other['id']}/", seconds - 2)
        await attacker
        for writer in open_:
            writer.close()
        notes = f"sockets opened {made} ({failed} refused at connect), seen closed by the server {closed}"
        name = f"{sockets} sockets trickling headers from {len(addresses)} addresses, 1,024 open files"
        return Scenario(name, probe, notes)

    return run_async(run())


def _report(write: Callable[[str], Any], label: str, scenario: Scenario) -> list[str]:
    probe = scenario.probe
    page = sorted(probe.page_ms)
    p95 = page[min(len(page) - 1, int(0.95 * len(page)))]
    worst_health = max(probe.healthz_ms)
    missed = []
    if p95 > PAGE_P95_MS:
        missed.append(f"{label}, {scenario.name}: page p95 {p95:.0f} ms")
    if worst_health > HEALTHZ_MS:
        missed.append(f"{label}, {scenario.name}: /healthz {worst_health:.0f} ms")
    if probe.bad:
        missed.append(f"{label}, {scenario.name}: {len(probe.bad)} answers not 200")
    mark = "MISS" if missed else "ok  "
    write(f"  {mark} {label}: {scenario.name}")
    write(
        f"       another table's page: p50 {statistics.median(page):.1f} ms, p95 {p95:.1f} ms, worst {page[-1]:.1f} ms"
        f" (target p95 {PAGE_P95_MS:.0f}); /healthz worst {worst_health:.1f} ms (target {HEALTHZ_MS:.0f});"
        f" {len(page)} of each asked, {len(probe.bad)} not 200 {sorted(set(probe.bad))[:4]}"
    )
    write(f"       {scenario.notes}")
    return missed


def crowds(
    write: Callable[[str], Any],
    *,
    before: str | None = None,
    streams: int = 3000,
    trickle: int = 3000,
    addresses: int = 15,
    per_second: float = 5.0,
    seconds: float = 20.0,
) -> list[str]:
    """Run both scenarios on this tree (and first on ``before``'s); print the figures; return what missed."""
    raise_open_files()  # the load generator holds thousands of sockets too
    sources = [f"127.0.0.{i}" for i in range(2, 2 + addresses)]
    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {1})
    missed: list[str] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            trees = (
                [(f"before ({short_commit(before)})", checkout(short_commit(before), folder / "before"))]
                if before
                else []
            )
            trees.append(("now", ROOT))
            write(f"Crowds on the start command's server, one worker on core 0, load on core 1, {seconds:g} s each:")
            for label, tree in trees:
                for kind in ("streams", "streams, caps lifted", "trickle"):
                    with ExitStack() as stack:
                        name = f"{label.split()[0]}_{kind.split(',')[0]}"
                        env = environment(tree, stack.enter_context(database(name, folder)))
                        prepare(tree, env)
                        files = 1024 if kind == "trickle" else None
                        lift = kind.endswith("lifted")
                        port, _pids = stack.enter_context(
                            pinned_server(0, tree=tree, env=env, lift_caps=lift, open_files=files)
                        )
                        if kind.startswith("streams"):
                            scenario = _streams(port, streams, sources, per_second, seconds)
                            scenario.name += " (every stream cap lifted)" if lift else " (the caps as configured)"
                        else:
                            scenario = _trickle(port, trickle, sources, seconds)
                        failed = _report(write, label, scenario)
                        missed += failed if label == "now" else []
    finally:
        os.sched_setaffinity(0, cores)
    return missed
