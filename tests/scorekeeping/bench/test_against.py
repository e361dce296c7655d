"""``bench --against REV`` serves REV's files and this tree side by side and asks both the same
questions; its numbers are read by people, not asserted. What is asserted: both trees answered
every request (a 200 each, or it raises), each from its own code, and nothing is left behind."""

import math
import os
import re

import pytest
from django.db import connection

from scorekeeping.bench.against import against

pytestmark = [pytest.mark.once, pytest.mark.alone, pytest.mark.django_db]  # pinned servers: once in CI, alone


def bench_databases() -> list[str]:
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE 'bench\\_%%'")
        return [row[0] for row in cursor.fetchall()]


def test_against_a_commit_measures_both_trees_and_leaves_nothing_behind():
    cores = os.sched_getaffinity(0)
    databases = bench_databases()
    lines: list[str] = []
    missed = against("HEAD", lines.append, repeat=3)
    assert lines[0].startswith("Page and API latency, before (") and len(lines) == 5
    asked = [line.split(":")[0].split(maxsplit=1)[1] for line in lines[1:]]
    assert asked == [
        "table page, a new phone",
        "table page, a phone that has been there",
        "fragment after a change (/live/)",
        "API game",
    ]
    for line in lines[1:]:
        before, now = map(float, re.search(r": ([\d.]+) ms before, ([\d.]+) ms now \(ratio", line).groups())
        assert math.isfinite(before) and before > 0 and math.isfinite(now) and now > 0
    assert len(missed) == sum("MISS" in line for line in lines)
    assert bench_databases() == databases  # its own databases dropped
    assert os.sched_getaffinity(0) == cores  # this process runs where it ran before
