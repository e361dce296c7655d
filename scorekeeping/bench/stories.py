"""The players' stories under repeated asking (``manage.py bench --stories``): this server's
games (in no club), 2,000 of them finished, as a home server holds them after a few years of a
family's evenings (twelve names, four at a table); then ``/players/``, ``/records/``, a
player's profile and an unknown name, each asked ``repeat`` times by one process's test
client: the first answer (nothing kept yet), p50 and p95 of the others, with their queries.
Target: p95 under 100 ms for each.

The games are made by ``game_create``; their rounds and scores are written as
``round_record`` writes them, in bulk (each game's version moved as its seven changes would),
so that 14,000 rounds take seconds, not minutes. No change history is kept: nothing here reads it.

It writes into the configured database and leaves it: run it on a database of its own.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext

from referee.engine import find_rules
from scorekeeping.bench.stats import analyzed, ms_of, percentile
from scorekeeping.models import Game, Player, Round, Score
from scorekeeping.services import game_create

STORIES_P95_MS = 100.0
NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]
PAGES = [
    ("/players/", "the players' list"),
    ("/records/", "the records"),
    ("/players/Ana/", "a player's profile"),
    ("/players/Nobody/", "an unknown name (404)"),
]


def play_in_bulk(game: Game, rng: random.Random) -> None:
    """Every round of ``game`` written at once as ``round_record`` writes it (a random player out,
    the others a random possible penalty), its version moved as its changes would."""
    rules = find_rules(game.ruleset, game.variants)
    last = rules.last_round
    players = list(Player.objects.filter(game=game).order_by("seat"))
    rounds = []
    for number in range(1, last + 1):
        words = rules.in_words(number)
        dealer = players[(game.first_dealer_seat + number - 1) % len(players)]
        winner = rng.choice(players)
        rounds.append(
            Round(
                game=game,
                number=number,
                winner=winner,
                dealer=dealer,
                dealt=words.dealt,
                wild_rank=words.wild_rank or "",
            )
        )
    Round.objects.bulk_create(rounds)
    scores = []
    for rnd in rounds:
        for player in players:
            points = 0 if player == rnd.winner else 5 * rng.randint(13 if rnd.number == last else 1, 40)
            scores.append(Score(round=rnd, player=player, typed=True, penalty=points, points=points))
    Score.objects.bulk_create(scores)
    Game.objects.filter(pk=game.pk).update(version=F("version") + last, live_version=F("live_version") + last)


def finished_games(count: int, seed: int = 1) -> float:
    """``count`` finished Mexican games of four of ``NAMES``; the seconds it took."""
    started = time.perf_counter()
    rng = random.Random(seed)
    for _game in range(count):
        names = rng.sample(NAMES, 4)
        with transaction.atomic():
            game, _token = game_create(ruleset="mexican", variants=[], players=names, first_dealer=names[0])
            play_in_bulk(game, rng)
    analyzed()
    return time.perf_counter() - started


def timed(client: Client, path: str) -> tuple[float, int, int]:
    with CaptureQueriesContext(connection) as captured:
        ms, answer = ms_of(lambda: client.get(path))
        status = answer.status_code
    return ms, status, len(captured.captured_queries)


def stories_bench(write: Callable[[str], None], *, games: int = 2000, repeat: int = 50, cold: int = 5) -> list[str]:
    made = Game.objects.filter(club_table__isnull=True).count()
    built = finished_games(games - made) if made < games else 0.0
    write(
        f"The players' stories on {connection.vendor}: {games:,} finished games in no club (built in {built:.1f} s), "
        f"each page asked {repeat} times in one process:"
    )
    client = Client()
    missed = []
    for path, name in PAGES:
        cache.clear()
        first_ms, status, first_queries = timed(client, path)
        times, queries = [], 0
        for _ in range(repeat):
            ms, status, queries = timed(client, path)
            times.append(ms)
        p50, p95 = statistics.median(times), percentile(times, 95)
        mark = "ok " if p95 < STORIES_P95_MS else "MISS"
        write(
            f"  {mark} {name} ({path}, {status}): p50 {p50:.1f} ms, p95 {p95:.1f} ms < {STORIES_P95_MS:.0f} ms, "
            f"{queries} queries; the first {first_ms:.1f} ms, {first_queries} queries"
        )
        if p95 >= STORIES_P95_MS:
            missed.append(name)
        unkept = []
        for _ in range(cold):
            cache.clear()
            unkept.append(timed(client, path)[0])
        median = statistics.median(unkept)
        write(f"       nothing kept (the cache cleared before each): median of {cold} {median:.1f} ms")
    return missed
