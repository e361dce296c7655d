"""A club night's rules: the tables of a sitting, the draw, and the night's and a season's standings."""

import itertools
import random
from collections import Counter

import pytest

from referee.engine import find_rules
from referee.engine.clubs import (
    CannotSeat,
    Seat,
    draw,
    night_standings,
    pair,
    repeated,
    season_standings,
    table_scores,
    table_sizes,
)


@pytest.mark.parametrize(
    ("players", "low", "high", "preferred", "sizes"),
    [
        (13, 2, 6, 4, (5, 4, 4)),
        (12, 2, 6, 4, (4, 4, 4)),
        (6, 2, 6, 4, (3, 3)),
        (7, 3, 5, 4, (4, 3)),
        (2, 2, 6, 4, (2,)),
        (4, 3, 3, 3, (3,)),  # only tables of three: one sits out
        (5, 3, 3, 3, (3,)),
        (7, 2, 3, 3, (3, 2, 2)),
    ],
    ids=["13 at fours", "12 at fours", "6 at threes", "contract 7", "two", "one out", "two out", "7 by threes"],
)
def test_the_tables_are_as_close_to_the_size_asked_for_as_the_limits_allow(players, low, high, preferred, sizes):
    assert table_sizes(players, low, high, preferred) == sizes


@pytest.mark.parametrize("ruleset", ["mexican", "contract", "liverpool", "shanghai"])
def test_every_count_from_the_rulesets_minimum_to_sixty_is_seated_within_its_limits(ruleset):
    rules = find_rules(ruleset, [])
    low, high = rules.min_players, rules.max_players
    for players in range(low, 61):
        for preferred in range(low, high + 1):
            sizes = table_sizes(players, low, high, preferred)
            assert all(low <= size <= high for size in sizes), (players, sizes)
            assert sum(sizes) <= players
            # Nobody sits out when tables of allowed sizes seat everyone.
            # (k tables of low to high players seat any number from k * low to k * high)
            seatable = any(k * low <= players <= k * high for k in range(1, players // low + 1))
            assert (sum(sizes) == players) == seatable, (players, sizes)


def test_too_few_players_for_a_table_is_said_in_words():
    with pytest.raises(CannotSeat, match="2 players present: a table of this game needs at least 3"):
        table_sizes(2, 3, 5, 4)


def test_everyone_is_seated_once_and_who_sits_out_rotates():
    names = [f"P{i}" for i in range(7)]
    rng = random.Random(5)
    sat_out: Counter[str] = Counter()
    met: Counter[tuple[str, str]] = Counter()
    outs = []
    for _sitting in range(7):
        result = draw(names, (3, 3), met, sat_out, rng)
        seated = [name for table in result.tables for name in table]
        assert sorted(seated + list(result.sitting_out)) == sorted(names)
        assert len(result.sitting_out) == 1
        outs.append(result.sitting_out[0])
        sat_out.update(result.sitting_out)
        for table in result.tables:
            met.update(pair(a, b) for a, b in itertools.combinations(table, 2))
    assert sorted(outs) == sorted(names)  # seven sittings: each player sat out once


def test_the_draw_keeps_pairs_apart_better_than_chance():
    names = [f"P{i}" for i in range(16)]
    met: Counter[tuple[str, str]] = Counter()
    first = draw(names, (4, 4, 4, 4), met, {}, random.Random(1))
    for table in first.tables:
        met.update(pair(a, b) for a, b in itertools.combinations(table, 2))
    second = draw(names, (4, 4, 4, 4), met, {}, random.Random(2))
    assert second.repeated_pairs == 0  # sixteen players at fours can always avoid a repeat once
    chance = []
    rng = random.Random(3)
    for _ in range(200):
        shuffled = names[:]
        rng.shuffle(shuffled)
        chance.append(repeated([shuffled[i : i + 4] for i in range(0, 16, 4)], met))
    assert sum(chance) / len(chance) > 1  # a random draw repeats 24 of 120 pairs' worth: about 4.8


def test_a_table_scores_as_a_bridge_club_scores_a_match():
    # Ana first, Ben and Cy tied second, Dee last: 4 players, so each beaten player is 1/3.
    table = [Seat("Ana", 1, 40), Seat("Ben", 2, 80), Seat("Cy", 2, 80), Seat("Dee", 4, 200)]
    scores = table_scores(table)
    average = (40 + 80 + 80 + 200) / 4  # 100
    assert scores["Ana"] == (100.0, 11.0, average - 40)
    assert scores["Ben"] == (pytest.approx(50.0), 5.5, average - 80)  # 1 beaten + half a tie, of 3; (7 + 4) / 2
    assert scores["Dee"] == (0.0, 2.0, average - 200)


def test_the_night_averages_the_sittings_played_and_breaks_ties_by_the_totals():
    sitting_1 = [[Seat("Ana", 1, 10), Seat("Ben", 2, 50), Seat("Cy", 3, 90)]]
    sitting_2 = [[Seat("Ben", 1, 20), Seat("Ana", 2, 30), Seat("Dee", 3, 100)]]
    rows = night_standings(sitting_1 + sitting_2)
    by_name = {r.player: r for r in rows}
    assert by_name["Ana"].percent == 75.0 and by_name["Ana"].sittings == 2  # (100 + 50) / 2
    assert by_name["Ben"].percent == 75.0  # (50 + 100) / 2
    # Tie-break: Ana (50 - 10 = 40, 50 - 30 = 20: 30) before Ben (0, 30: 15).
    assert by_name["Ana"].tiebreak == 30.0 and by_name["Ben"].tiebreak == 15.0
    assert [r.player for r in rows] == ["Ana", "Ben", "Cy", "Dee"] and [r.place for r in rows] == [1, 2, 3, 4]
    assert by_name["Cy"].sittings == 1 and by_name["Cy"].percent == 0.0
    ranked = night_standings(sitting_1 + sitting_2, scoring="rank")
    assert {r.player: r.points for r in ranked} == {"Ana": 16.0, "Ben": 16.0, "Cy": 2.0, "Dee": 2.0}


def test_a_season_counts_each_players_best_nights_and_a_minimum_for_the_title():
    nights = [{"Ana": 80.0, "Ben": 50.0, "Cy": 90.0}, {"Ana": 40.0, "Ben": 70.0}, {"Ana": 60.0, "Ben": 60.0}]
    rows = season_standings(nights, best=2, minimum=2)
    assert [(r.player, r.percent, r.nights, r.counted, r.qualified, r.place) for r in rows] == [
        ("Ana", 70.0, 3, 2, True, 1),
        ("Ben", 65.0, 3, 2, True, 2),
        ("Cy", 90.0, 1, 1, False, 3),
    ]
    assert [r.percent for r in season_standings(nights)] == [90.0, 60.0, 60.0]


def test_the_draw_keeps_thirteen_players_apart_better_than_any_of_200_random_draws():
    """Twenty seeded evenings of 12 then 13 players (tables of 4, 4, 4; then 5, 4, 4 twice): each
    later draw repeats no more pairs than the best of 200 random draws of the same tables, and on
    average less than half as many as a random draw."""
    ours, chance_means = [], []
    for evening in range(20):
        rng, chance_rng = random.Random(evening), random.Random(1000 + evening)
        names = [f"p{i}" for i in range(13)]
        met: dict[tuple[str, str], int] = {}
        for sizes in ((4, 4, 4), (5, 4, 4), (5, 4, 4)):
            present = names[: sum(sizes)]
            drawn = draw(present, sizes, met, {}, rng)
            if met:
                chance = []
                for _ in range(200):
                    shuffled = list(present)
                    chance_rng.shuffle(shuffled)
                    bounds = list(itertools.accumulate(sizes, initial=0))
                    chance.append(repeated([shuffled[a:b] for a, b in itertools.pairwise(bounds)], met))
                assert drawn.repeated_pairs <= min(chance), (evening, drawn.repeated_pairs, min(chance))
                ours.append(drawn.repeated_pairs)
                chance_means.append(sum(chance) / len(chance))
            for table in drawn.tables:
                for a, b in itertools.combinations(table, 2):
                    met[pair(a, b)] = met.get(pair(a, b), 0) + 1
    assert sum(ours) < 0.5 * sum(chance_means), (sum(ours), sum(chance_means))
