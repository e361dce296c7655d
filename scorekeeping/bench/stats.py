"""What the benches make of their timings: one percentile, the same in every bench's figures."""

from __future__ import annotations

import math


def percentile(values: list[float], percent: float) -> float:
    """The ``percent``-th percentile (0 to 100) of ``values`` by nearest rank; NaN for no values."""
    if not values:
        return float("nan")
    rank = math.ceil(percent * len(values) / 100)  # 1-based: the smallest value at or above percent of them
    return sorted(values)[min(len(values), max(1, rank)) - 1]
