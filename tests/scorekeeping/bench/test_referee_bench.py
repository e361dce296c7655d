"""The benchmark's parts work end to end; its numbers are read by people (manage.py bench), not asserted."""

import math
import random
from collections import Counter

from referee.engine import check_copies, find_rules, parse_cards
from referee.engine.budget import MAX_STEPS
from scorekeeping.bench.referee import (
    _mutated,
    _pool,
    cases,
    check_throughput,
    engine_results,
    http_latency,
    write_house_side_by_side,
)


def test_every_solver_case_is_searched_and_its_worst_hand_is_one_the_rules_allow():
    results = engine_results(seconds=0.05, repeat=2, seed=7)
    assert [r.name for r in results] == [c.name for c in cases()]
    for case, result in zip(cases(), results, strict=True):
        hand = parse_cards(result.worst_hand)
        assert len(hand) == case.size
        check_copies(case.rules, hand)  # raises if the packs could not hold it
        assert result.steps < MAX_STEPS  # searched to the end, within the budget


def test_a_mutation_keeps_the_hand_within_the_copies_the_packs_hold():
    pool = Counter(_pool(find_rules("contract")))
    rng = random.Random(3)
    hand = rng.sample(list(pool.elements()), 19)
    for _ in range(200):
        hand = _mutated(rng, hand, list(pool.elements()))
        assert len(hand) == 19 and all(n <= pool[c] for c, n in Counter(hand).items())


def test_check_throughput_and_http_latency_run():
    rates = check_throughput(seconds=0.05)
    latencies = http_latency(requests=5)  # raises unless the real server answers 200
    assert all(math.isfinite(x) for x in (*rates, *latencies))


def test_the_house_side_by_side_prints_a_row_for_each_check_and_solve():
    lines: list[str] = []
    write_house_side_by_side(lines.append, repeat=2)
    rows = lines[1:]
    assert any("check_layout" in r for r in rows) and any("solve_open" in r for r in rows)
    assert all("mexican" in r and "house" in r for r in rows)
