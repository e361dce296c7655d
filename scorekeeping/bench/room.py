"""A club night as the room feels it (``manage.py bench --club-room``): 40 tables of four, the
start command's server with two processes on the configured database (PostgreSQL for the
published figures), 160 phones and a room screen, each holding its stream as the pages do.

Two sittings are played out before (the standings hold 80 finished tables), the third is drawn;
then its tables record rounds over HTTP with their edit links, one every ``pace`` seconds across
the room (a real room records one every 10 to 20 seconds). At each round's event the table's
four phones fetch their live fragment, and the room screen, whose night stream hears every
table, fetches its own (one fetch at a time, the last one queued: ``hx-sync="this:queue last"``).
Measured: from sending a round to the room screen's fragment showing it (p50, p99, max); and
the phones' fetches after an event.

It writes a club into the configured database and leaves it: run it on a database of its own.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from referee.engine import find_rules
from scorekeeping.bench.clubs import play_out
from scorekeeping.bench.servers import answer_ms, pinned_server, request_ms
from scorekeeping.bench.stats import percentile
from scorekeeping.links import night_events_path
from scorekeeping.models import ClubTable
from scorekeeping.services.clubs import club_create, night_create, night_present
from scorekeeping.services.sittings import sitting_draw, table_token

ROOM_P99_MS = 300.0  # the target: the room screen's update after a recorded round, p99
CARD = re.compile(r"<h3>Table (\d+)</h3>.*?round (\d+) of \d+ played", re.S)


@dataclass
class Room:
    """The room screen: what its last fragment showed, and the rounds it is waiting to show."""

    path: str
    port: int
    shown: dict[int, int] = field(default_factory=dict)  # table -> rounds played, as last shown
    waiting: dict[tuple[int, int], float] = field(default_factory=dict)  # (table, round) -> sent at
    seen_ms: list[float] = field(default_factory=list)
    fetches: int = 0
    busy: bool = False
    again: bool = False

    async def changed(self) -> None:
        """An event: fetch the fragment now, or once more after the fetch in flight."""
        if self.busy:
            self.again = True
            return
        self.busy = True
        try:
            while True:
                self.again = False
                _ms, _head, body = await answer_ms(self.port, self.path, "HX-Request: true\r\n")
                now = time.perf_counter()
                self.fetches += 1
                self.shown.update({int(t): int(n) for t, n in CARD.findall(body.decode())})
                for (table, number), sent in list(self.waiting.items()):
                    if self.shown.get(table, 0) >= number:
                        self.seen_ms.append((now - sent) * 1000)
                        del self.waiting[(table, number)]
                if not self.again:
                    return
        finally:
            self.busy = False


async def follow(
    port: int, path: str, on_change: Callable[[], Coroutine[Any, Any, None]], tasks: set[asyncio.Task[None]]
) -> None:
    """Hold an event stream open as a page does; at each change, run ``on_change`` (not awaited
    here: the stream is read on while the fetch runs)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**16)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: b\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    await reader.readuntil(b"\r\n\r\n")
    await reader.readuntil(b"\n\n")  # retry: and where it stands

    async def read() -> None:
        try:
            while True:
                chunk = await reader.readuntil(b"\n\n")
                if b"event: change" in chunk:
                    task = asyncio.get_running_loop().create_task(on_change())
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            writer.close()

    task = asyncio.get_running_loop().create_task(read())
    tasks.add(task)


async def post_json(port: int, path: str, body: object, token: str) -> int:
    data = json.dumps(body).encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: b\r\nContent-Type: application/json\r\nX-Game-Token: {token}\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    )
    writer.write(head.encode() + data)
    await writer.drain()
    answer = await reader.read()
    writer.close()
    return int(answer.split(b" ", 2)[1])


def _night(tables: int) -> tuple[str, int, str, list[ClubTable]]:
    """A night of three sittings at ``tables`` tables of four: two played out, the third drawn."""
    club, token = club_create(name="Bench club room")
    night = night_create(club=club, ruleset="mexican", sittings=3, table_size=4)
    night_present(night=night, names=[f"Player {i:03d}" for i in range(tables * 4)])
    for _sitting in range(2):
        play_out(sitting_draw(night=night, organiser_token=token))
    third = sitting_draw(night=night, organiser_token=token)
    return club.pk, night.pk, token, list(third.tables.select_related("sitting").prefetch_related("game__players"))


def room_bench(write: Callable[[str], None], *, tables: int = 40, rounds: int = 3, pace: float = 0.5) -> list[str]:
    club_id, night_id, organiser, drawn = _night(tables)
    last = find_rules("mexican", []).last_round
    assert rounds < last
    write(
        f"A club night of {tables} tables of 4 ({tables * 4} phones and a room screen), the start command's server"
        f" with 2 processes; sittings 1 and 2 played out, {rounds} rounds of sitting 3 recorded, one every"
        f" {pace:g} s across the room:"
    )
    with pinned_server(core=None, workers=2) as (port, _pids):

        async def run() -> tuple[Room, list[float], int]:
            tasks: set[asyncio.Task[None]] = set()
            room = Room(f"/c/{club_id}/nights/{night_id}/room/", port)
            await follow(port, night_events_path(club_id, night_id), room.changed, tasks)
            phone_ms: list[float] = []

            def phone(game_id: str) -> Callable[[], Coroutine[Any, Any, None]]:
                async def fetch() -> None:
                    ms, _head = await request_ms(port, f"/g/{game_id}/live/")
                    phone_ms.append(ms)

                return fetch

            for table in drawn:
                for _seat in range(4):
                    await follow(port, f"/g/{table.game_id}/events/", phone(table.game_id), tasks)
            await room.changed()  # the screen as it opens
            statuses = []
            for number in range(1, rounds + 1):
                for table in random.sample(drawn, len(drawn)):
                    names = [p.name for p in table.game.players.all()]
                    winner = names[(number + table.number) % 4]
                    points = {n: 5 * (i + 1) for i, n in enumerate(n for n in names if n != winner)}
                    token = table_token(organiser, table)
                    room.waiting[(table.number, number)] = time.perf_counter()
                    body = {"number": number, "winner": winner, "points": points}
                    statuses.append(await post_json(port, f"/api/games/{table.game_id}/rounds/", body, token))
                    await asyncio.sleep(pace)
            deadline = time.perf_counter() + 10
            while room.waiting and time.perf_counter() < deadline:
                await asyncio.sleep(0.05)
            for task in list(tasks):
                task.cancel()
            return room, phone_ms, sum(1 for s in statuses if s != 201)

        room, phone_ms, refused = asyncio.run(run())
    missed = []
    seen = sorted(room.seen_ms)
    p99 = percentile(seen, 99) if seen else float("inf")
    mark = "ok " if p99 <= ROOM_P99_MS and not room.waiting and not refused else "MISS"
    write(
        f"  {mark} the room screen shows a recorded round: p50 {percentile(seen, 50):.0f} ms, p99 {p99:.0f} ms"
        f" <= {ROOM_P99_MS:.0f} ms, max {max(seen, default=0):.0f} ms ({len(seen)} of {tables * rounds} rounds seen,"
        f" {room.fetches} fetches, {refused} rounds refused)"
    )
    if mark != "ok ":
        missed.append("the room screen's update")
    phone_ms.sort()
    write(
        f"       the phones' fetch after their table's event: p50 {percentile(phone_ms, 50):.0f} ms,"
        f" p99 {percentile(phone_ms, 99):.0f} ms ({len(phone_ms)} fetches; no target)"
    )
    return missed
