"""The benchmark command runs end to end (its numbers are read by people, not asserted here)."""

import math

from referee.benchmarks import check_throughput, engine_results, http_latency


def test_engine_results_cover_every_worst_case():
    results = engine_results(hands=3, repeat=2, seed=7)
    assert [r.name.split(",")[0] for r in results] == [
        "mexican round 7 go-out solver",
    ] * 3 + ["mexican round 6 opening solver"] * 3 + ["shanghai deal 10 opening solver"] * 3
    assert all(math.isfinite(r.median_ms) and r.median_ms > 0 for r in results)
    assert all(len(r.worst_hand.split()) in (13, 14, 16) for r in results)


def test_check_throughput_counts_checks():
    legal, illegal = check_throughput(seconds=0.05)
    assert legal > 0 and illegal > 0


def test_http_latency_measures_a_real_server():
    health, check = http_latency(requests=5)
    assert health > 0 and check > 0
