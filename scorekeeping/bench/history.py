"""The stories as the history grows (``manage.py bench --history``, issue 51): this server's games
grown to each size asked (500, 2,000, 10,000 finished games by default; twelve names, four at a
table), their lines made once by ``stories --rebuild`` (the games are written in bulk, as
``bench --stories`` writes them), then for ``/players/``, a profile, ``/records/``, the ladder's
page and its API, beside ``/healthz`` in the same run:

- the warm answer (p50, p95 of ``repeat``),
- the first answer after a round is recorded in a game still in progress elsewhere,
- the first answer after a game finishes (``repeat`` games finished, one before each),
- the first answer after the oldest game is corrected (carried on from the start: said, not a target),

and what keeping costs: a finishing write beside a plain one (the round before it, the same
game): the time it spends keeping the stories up is the difference; and the rows and bytes the
lines take per game. Targets (issue 51): p95 of the first answer after a game finishes under
100 ms at every size, and the keeping within twice a plain write.

It writes into the configured database and leaves it: run it on a database of its own.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from django.db import connection
from django.test import Client

from scorekeeping.bench.stats import ms_of, percentile
from scorekeeping.bench.stories import NAMES, finished_games
from scorekeeping.models import Game, StoryLine
from scorekeeping.selectors import game_get
from scorekeeping.services import RoundEntry, game_create, round_record, round_replace
from scorekeeping.services.history import rebuilt

FIRST_P95_MS = 100.0
PAGES = [
    ("/players/", "players"),
    ("/players/Ana/", "profile"),
    ("/records/", "records"),
    ("/ladder/", "ladder"),
    ("/api/ladder/", "ladder API"),
    ("/healthz", "healthz"),
]


def _ms(client: Client, path: str) -> float:
    return ms_of(lambda: client.get(path))[0]


def _entry(names: list[str], number: int, rng: random.Random) -> RoundEntry:
    winner = rng.choice(names)
    low = 13 if number == 7 else 1  # round 7: 13 cards a hand
    return RoundEntry(winner=winner, points={n: 5 * rng.randint(low, 20) for n in names if n != winner})


def _game(rng: random.Random, rounds: int) -> tuple[Game, list[str]]:
    names = rng.sample(NAMES, 4)
    game, _token = game_create(ruleset="mexican", variants=[], players=names, first_dealer=names[0])
    for number in range(1, rounds + 1):
        round_record(game=game_get(game_id=game.pk), number=number, entry=_entry(names, number, rng))
    return game, names


def _write_ms(game: Game, names: list[str], number: int, rng: random.Random) -> float:
    entry = _entry(names, number, rng)
    return ms_of(lambda: round_record(game=game_get(game_id=game.pk), number=number, entry=entry))[0]


def _line(write: Callable[[str], None], name: str, times: list[float]) -> float:
    p95 = percentile(times, 95)
    write(f"    {name:<11} p50 {statistics.median(times):6.1f} ms  p95 {p95:6.1f} ms")
    return p95


def history_bench(write: Callable[[str], None], *, sizes: list[int], repeat: int = 20, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    client = Client()
    missed = []
    for size in sizes:
        made = Game.objects.filter(club_table__isnull=True).count()
        built = finished_games(size - made, seed=seed + size) if made < size else 0.0
        started = time.perf_counter()
        rebuilt(write=True)
        folded = time.perf_counter() - started
        rows = StoryLine.objects.count()
        finished = rows // 4
        size_bytes = 0
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_total_relation_size('scorekeeping_storyline')")
                size_bytes = cursor.fetchone()[0]
        write(
            f"{connection.vendor}, {finished:,} finished games (built in {built:.1f} s; every line folded from the "
            f"games in {folded:.1f} s): {rows / max(finished, 1):.0f} lines a game"
            + (f", {size_bytes / max(finished, 1):,.0f} bytes a game with their indexes" if size_bytes else "")
        )
        going, going_names = _game(rng, 1)
        warm: dict[str, list[float]] = {name: [] for _p, name in PAGES}
        after_round: dict[str, list[float]] = {name: [] for _p, name in PAGES}
        after_finish: dict[str, list[float]] = {name: [] for _p, name in PAGES}
        plain, finishing = [], []
        for i in range(repeat):
            for path, name in PAGES:
                warm[name].append(_ms(client, path))
            number = 2 + i % 5  # a round of the game in progress, then each page's first answer
            if i % 5 == 0 and i:
                going, going_names = _game(rng, 1)
            round_record(game=game_get(game_id=going.pk), number=number, entry=_entry(going_names, number, rng))
            for path, name in PAGES:
                after_round[name].append(_ms(client, path))
            game, names = _game(rng, 5)
            plain.append(_write_ms(game, names, 6, rng))
            finishing.append(_write_ms(game, names, 7, rng))  # the game finishes
            for path, name in PAGES:
                after_finish[name].append(_ms(client, path))
        write("  warm (asked again, nothing changed):")
        for name, times in warm.items():
            _line(write, name, times)
        write("  the first answer after a round of a game in progress elsewhere:")
        for name, times in after_round.items():
            _line(write, name, times)
        write("  the first answer after a game finishes:")
        for name, times in after_finish.items():
            p95 = _line(write, name, times)
            if name != "healthz" and p95 >= FIRST_P95_MS:
                missed.append(f"{name} after a game finishes at {finished:,} games: p95 {p95:.1f} ms")
        plain_ms, finishing_ms = statistics.median(plain), statistics.median(finishing)
        keeping = finishing_ms - plain_ms
        mark = "ok " if keeping <= 2 * plain_ms else "MISS"
        write(
            f"  {mark} a finishing write {finishing_ms:.1f} ms (median) beside a plain write {plain_ms:.1f} ms: "
            f"keeping the stories {keeping:.1f} ms, {keeping / plain_ms:.2f}x a plain write (at most 2x)"
        )
        if keeping > 2 * plain_ms:
            missed.append(f"keeping at {finished:,} games: {keeping / plain_ms:.2f}x a plain write")
        oldest = StoryLine.objects.filter(scope="server").order_by("position").values_list("game_id", flat=True).first()
        if oldest:
            game = game_get(game_id=oldest)
            names = [p.name for p in game.players.order_by("seat")]
            corrected = ms_of(partial(round_replace, game=game, number=3, entry=_entry(names, 3, rng)))[0]
            firsts = ", ".join(f"{name} {_ms(client, path):.0f} ms" for path, name in PAGES)
            said = f"the write {corrected:,.0f} ms (every later game carried on)"
            write(f"  the oldest game corrected: {said}; then {firsts}")
    return missed
