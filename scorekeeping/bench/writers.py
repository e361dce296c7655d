"""How many tables the embedded default (SQLite in WAL mode) serves (``bench --writers``).

The start command's server on a new SQLite file, its default three workers on both cores, and
``tables`` tables writing unpaced at once from threads of this process, each on its own
keep-alive connection: a round recorded, then undone, again and again (each a real write: the
game locked, a change logged, the streams told). Reported: writes a second, each write's p50, p95
and worst, and every answer that was no success (429 "busy": a write that waited past
``SQLITE_BUSY_SECONDS``). A real table writes far less: at its busiest (four phones sending
their hands as a round ends, then Record) some five writes in ten seconds, so the writes a
second the server sustains, times two, is the number of tables it serves at that pace.
"""

from __future__ import annotations

import http.client
import json
import statistics
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeping.bench.against import environment, prepare
from scorekeeping.bench.servers import ROOT, pinned_server

BUSIEST_WRITES_A_SECOND = 0.5  # a table at a round's end: five writes in ten seconds


def _call(
    connection: http.client.HTTPConnection, path: str, body: dict[str, Any] | None, token: str = ""
) -> tuple[int, dict[str, Any]]:
    """POST ``body`` (GET with None): the status and the answer's JSON."""
    headers = {"Content-Type": "application/json", **({"X-Game-Token": token} if token else {})}
    connection.request("GET" if body is None else "POST", path, None if body is None else json.dumps(body), headers)
    answer = connection.getresponse()
    data = answer.read()
    try:
        return answer.status, json.loads(data)
    except ValueError:
        return answer.status, {}


def _table(
    port: int, until: float, times: list[float], statuses: Counter[int], reasons: Counter[str], lock: threading.Lock
) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    game: dict[str, Any] = {}
    while "id" not in game and time.monotonic() < until:  # a new game may be told "busy" too
        _status, game = _call(connection, "/api/games/", {"players": ["Ana", "Ben", "Cy"], "first_dealer": "Ana"})
    if "id" not in game:
        return
    path, token = f"/api/games/{game['id']}", game["edit_token"]
    while time.monotonic() < until:
        start = time.perf_counter()
        if game["rounds"]:
            status, answer = _call(connection, f"{path}/undo/", {"version": game["version"]}, token)
        else:
            body = {"number": 1, "winner": "Ana", "points": {"Ben": 5, "Cy": 10}}
            status, answer = _call(connection, f"{path}/rounds/", body, token)
        elapsed = (time.perf_counter() - start) * 1000
        with lock:
            times.append(elapsed)
            statuses[status] += 1
            if status >= 300:
                reasons[f"{status} {str(answer.get('detail', ''))[:70]}"] += 1
        game = answer if status in (200, 201) else _call(connection, path, None)[1] or game


def writers(write: Callable[[str], Any], *, tables: int = 80, seconds: float = 20.0) -> list[str]:
    """Unpaced tables against the start command's server on SQLite; returns the missed targets
    (none: this measures, its figure goes to docs/development.md)."""
    with tempfile.TemporaryDirectory() as folder:
        env = environment(ROOT, f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        env["RATE_LIMIT_CREATE"] = str(tables * 2)
        prepare(ROOT, env)
        with pinned_server(None, workers=3, env=env) as (port, _pids):
            times: list[float] = []
            statuses: Counter[int] = Counter()
            reasons: Counter[str] = Counter()
            lock = threading.Lock()
            until = time.monotonic() + seconds
            threads = [
                threading.Thread(target=_table, args=(port, until, times, statuses, reasons, lock))
                for _ in range(tables)
            ]
            started = time.monotonic()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            took = time.monotonic() - started
    writes = statuses[200] + statuses[201]
    rate = writes / took
    cuts = statistics.quantiles(times, n=100) if len(times) > 1 else [0.0] * 99
    write(f"SQLite (WAL), 3 workers, {tables} tables writing unpaced for {seconds:g} s:")
    write(
        f"  {rate:.0f} writes a second; a write p50 {cuts[49]:.0f} ms, p95 {cuts[94]:.0f} ms, worst {max(times):.0f} ms"
    )
    write(f"  answers: {dict(sorted(statuses.items()))}")
    for reason, n in reasons.most_common(5):
        write(f"    {n} x {reason}")
    write(
        f"  tables served at a round's end's pace ({BUSIEST_WRITES_A_SECOND} writes a second):"
        f" {rate / BUSIEST_WRITES_A_SECOND:.0f}"
    )
    return [f"{n} answers {status}" for status, n in statuses.items() if status >= 500]
