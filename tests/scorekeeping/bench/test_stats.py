import math

from scorekeeping.bench.stats import percentile


def test_percentile_is_the_nearest_rank():
    twenty = [float(n) for n in range(20, 0, -1)]  # any order
    assert percentile(twenty, 95) == 19  # rank ceil(0.95 * 20) = 19
    assert percentile(twenty, 50) == 10
    assert percentile(twenty, 99) == 20
    assert percentile(twenty, 0) == 1
    assert percentile([7.0], 99) == 7
    assert math.isnan(percentile([], 50))
