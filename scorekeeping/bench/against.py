"""Page and API latency of this tree against another commit's, in one run (``bench --against REV``).

Issue 14 asked that pages and the API, served by the push's ASGI server, answer no slower than
1.5x of what they did before it, "as ratios in one run". Measuring each tree in a run of its
own would compare two days of this machine (its speed moves a quarter between runs), so both
servers run side by side and are asked in turn:

- REV's files (``git archive``) in a temporary folder, and this working tree, each on a new
  database of its own (PostgreSQL when ``DATABASE_URL`` names one, else SQLite files), migrated
  and with its static files collected by its own code;
- each served as its start command serves it (gunicorn, one uvicorn worker), both pinned to
  core 0, the client on core 1; requests go one at a time, alternating which tree goes first;
- the same game on each, made through its own API: four players, three rounds played;
- per request a new connection (as a phone on Wi-Fi opens one), the median of ``repeat``.

What is asked: the table page for a new phone (no cookie) and for a phone that has been there
(its session cookie), the fragment a phone fetches after a change (``/live/``, 200), and the
API's game. The databases are dropped (or deleted) at the end.
"""

from __future__ import annotations

import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.db import connection

from scorekeeping.bench.servers import ROOT, package, pinned_server, request_ms, run_async

NAMES = ["Ana", "Ben", "Cy", "Dee"]
TARGET = 1.5


@dataclass
class Side:
    """One tree, served: where it answers and the paths of its game."""

    label: str
    port: int
    paths: dict[str, tuple[str, str]]  # what is asked -> (path, cookie)


@contextmanager
def database(label: str, folder: Path) -> Iterator[str]:
    """A new, empty database for one tree: its URL; dropped afterwards."""
    if connection.vendor != "postgresql":
        yield f"sqlite:///{folder / f'{label}.sqlite3'}"
        return
    import psycopg

    name = f"bench_{label}_{secrets.token_hex(4)}"
    url = settings.DATABASE_URL
    parts = urlsplit(url)
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def checkout(commit: str, folder: Path) -> Path:
    """``commit``'s files (``git archive``) in ``folder``."""
    folder.mkdir()
    archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def short_commit(rev: str) -> str:
    return subprocess.run(
        ["git", "rev-parse", "--verify", "--short", f"{rev}^{{commit}}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def environment(tree: Path, database: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env |= {"DATABASE_URL": database, "SECRET_KEY": secrets.token_urlsafe(40), "DJANGO_DEBUG": "0"}
    env |= {"PYTHONPATH": str(tree), "DJANGO_SETTINGS_MODULE": f"{package(tree, 'config')}settings"}
    return env


def prepare(tree: Path, env: dict[str, str]) -> None:
    """What the start command does before it serves: catalogues, migrations, static files."""
    python = sys.executable
    steps = [
        [str(Path(python).parent / "pybabel"), "compile", "-d", "locale", "-D", "django", "--use-fuzzy"],
        [python, "manage.py", "migrate", "--noinput", "-v0"],
        [python, "manage.py", "collectstatic", "--noinput", "-v0"],
    ]
    for argv in steps:
        done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"{tree}: {' '.join(argv[1:3])} failed:\n{done.stderr[-2000:]}")
    found = subprocess.run(
        [python, "-c", "import scorekeeping; print(scorekeeping.__file__)"],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    if not Path(found).resolve().is_relative_to(tree.resolve()):
        raise RuntimeError(f"{tree} would run the code at {found}")


def _api(port: int, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json", **({"X-Game-Token": token} if token else {})}
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def _game(label: str, port: int) -> Side:
    """The same game on this side: four players, three rounds played; a phone that has been there."""
    game = _api(port, "/api/games/", {"players": NAMES, "first_dealer": "Ana"})
    for number in (1, 2, 3):
        body = {"number": number, "winner": "Ana", "hands": {"Ben": "5C", "Cy": "KD", "Dee": "JK"}}
        _api(port, f"/api/games/{game['id']}/rounds/", body, game["edit_token"])
    table = f"/g/{game['id']}/"
    _ms, head = run_async(request_ms(port, table))
    cookie = next(
        (
            line.split(b":", 1)[1].split(b";")[0].strip().decode()
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"set-cookie:") and (b"sessionid=" in line or b"games=" in line)
        ),
        "",
    )
    if not cookie:
        raise RuntimeError(f"{label}: the table page set no cookie")
    return Side(
        label,
        port,
        {
            "table page, a new phone": (table, ""),
            "table page, a phone that has been there": (table, cookie),
            "fragment after a change (/live/)": (f"{table}live/", cookie),
            "API game": (f"/api/games/{game['id']}/", ""),
        },
    )


async def _interleaved(sides: list[Side], repeat: int) -> dict[str, dict[str, float]]:
    times: dict[str, dict[str, list[float]]] = {s.label: {what: [] for what in s.paths} for s in sides}
    for round_number in range(repeat + 5):  # the first five warm both up
        order = sides if round_number % 2 else list(reversed(sides))
        for what in sides[0].paths:
            for side in order:
                path, cookie = side.paths[what]
                ms, head = await request_ms(side.port, path, cookie)
                status = head.partition(b"\r\n")[0].decode()
                if not status.startswith("HTTP/1.1 200"):
                    raise RuntimeError(f"{side.label} {path}: {status}")
                if round_number >= 5:
                    times[side.label][what].append(ms)
    return {label: {what: statistics.median(v) for what, v in found.items()} for label, found in times.items()}


def _measure(commit: str, repeat: int) -> tuple[dict[str, dict[str, float]], list[Side]]:
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        folder = Path(tmp)
        before = checkout(commit, folder / "before")
        sides = []
        for label, tree in ((f"before ({commit})", before), ("now (this tree)", ROOT)):
            env = environment(tree, stack.enter_context(database(label.split()[0], folder)))
            prepare(tree, env)
            port, _pids = stack.enter_context(pinned_server(0, tree=tree, env=env))
            sides.append(_game(label, port))
        medians = run_async(_interleaved(sides, repeat))
    return medians, sides


def against(rev: str, write: Callable[[str], Any], repeat: int = 200) -> list[str]:
    """Measure REV's tree and this one side by side; print each median and ratio; return what missed."""
    commit = short_commit(rev)
    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {1})  # the client on the other core than the servers
    try:
        medians, sides = _measure(commit, repeat)
    finally:
        os.sched_setaffinity(0, cores)
    old, new = (medians[s.label] for s in sides)
    write(f"Page and API latency, {sides[0].label} and now, side by side on {connection.vendor}; median of {repeat}:")
    missed = []
    for what in old:
        ratio = new[what] / old[what]
        ok = ratio <= TARGET
        if not ok:
            missed.append(f"{what} {ratio:.2f}x")
        mark = "ok  " if ok else "MISS"
        times = f"{old[what]:.2f} ms before, {new[what]:.2f} ms now"
        write(f"  {mark} {what}: {times} (ratio {ratio:.2f}; at most {TARGET})")
    return missed
