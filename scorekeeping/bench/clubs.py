"""What a club night costs in one process (``manage.py bench --club``): a night of 40 tables of
four (160 members), three sittings, every game played to its end; then the night's standings
and the room screen, timed (median of ``repeat``) with their queries counted.

It writes a club into the configured database and leaves it: run it on a database of its own.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from referee.engine import find_rules
from scorekeeping.bench.stats import analyzed, ms_of
from scorekeeping.models import Club, Sitting
from scorekeeping.selectors.clubs import night_get, night_results
from scorekeeping.services import RoundEntry, round_record
from scorekeeping.services.clubs import club_create, night_create, night_present
from scorekeeping.services.sittings import sitting_draw

STANDINGS_MS = 20.0  # the target for the night's standings, 3 sittings, in process


def _night(tables: int, sittings: int) -> tuple[str, int, float]:
    started = time.perf_counter()
    club, token = club_create(name="Bench club")
    night = night_create(club=club, ruleset="mexican", sittings=sittings, table_size=4)
    night_present(night=night, names=[f"Player {i:03d}" for i in range(tables * 4)])
    for _sitting in range(sittings):
        play_out(sitting_draw(night=night, organiser_token=token))
    analyzed()
    return club.pk, night.pk, time.perf_counter() - started


def play_out(sitting: Sitting) -> None:
    """Every table of ``sitting`` plays its game to the end (through the service)."""
    last = find_rules("mexican", []).last_round
    for table in sitting.tables.select_related("game").prefetch_related("game__players"):
        names = [p.name for p in table.game.players.all()]
        for number in range(1, last):
            points = {n: 5 * (i + 1) for i, n in enumerate(names[1:])}
            round_record(game=table.game, number=number, entry=RoundEntry(winner=names[0], points=points))
        # The last round holds 13 cards a hand: the others type what such hands score.
        points = {n: 65 + 5 * i for i, n in enumerate(names[1:])}
        round_record(game=table.game, number=last, entry=RoundEntry(winner=names[0], points=points))


def club_bench(write: Callable[[str], None], *, tables: int = 40, sittings: int = 3, repeat: int = 20) -> list[str]:
    club_id, night_id, built = _night(tables, sittings)
    write(f"A club night of {tables} tables of 4, {sittings} sittings, every game played out (built in {built:.1f} s):")
    missed = []
    times, queries = [], 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            night = night_get(club=Club.objects.get(pk=club_id), night_id=night_id)
            times.append(ms_of(partial(night_results, night))[0])
        queries = len(captured.captured_queries)
    median = statistics.median(times)
    mark = "ok " if median < STANDINGS_MS else "MISS"
    write(f"  {mark} the night's standings: {median:.1f} ms median < {STANDINGS_MS:.0f} ms, {queries} queries")
    if median >= STANDINGS_MS:
        missed.append("the night's standings")
    client = Client()
    room = f"/c/{club_id}/nights/{night_id}/room/"
    times = []
    for _ in range(repeat):
        ms, answer = ms_of(lambda: client.get(room, headers={"HX-Request": "true"}))
        assert answer.status_code == 200
        times.append(ms)
    write(f"       the room screen's fragment (after an event): {statistics.median(times):.1f} ms median (no target)")
    return missed
