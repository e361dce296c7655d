"""What the benches make of their timings: one clock and one percentile, the same in every
bench's figures, and the statistics a built database is measured with."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TypeVar

from django.db import connection

T = TypeVar("T")


def ms_of(action: Callable[[], T]) -> tuple[float, T]:
    """How long ``action`` took, in milliseconds, and what it gave."""
    started = time.perf_counter()
    given = action()
    return (time.perf_counter() - started) * 1000, given


def analyzed() -> None:
    """PostgreSQL: the statistics autovacuum keeps on a running database, made now for the rows
    a bench has just written (its plans are a running server's)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def percentile(values: list[float], percent: float) -> float:
    """The ``percent``-th percentile (0 to 100) of ``values`` by nearest rank; NaN for no values."""
    if not values:
        return float("nan")
    rank = math.ceil(percent * len(values) / 100)  # 1-based: the smallest value at or above percent of them
    return sorted(values)[min(len(values), max(1, rank)) - 1]
