"""The one work budget of a check or a solve: every candidate any search tries is charged first.

A stranger controls the cards and, with house rules, the ruleset, so no loop of the engine may
run for as long as its input makes it: reading a meld (each rank of a book, each window of a run),
fitting melds to a contract (each assignment of melds to its parts), keeping runs from joining
(each reading chosen), laying off, swapping, and the solver's searches (each window, each choice
of book ranks, each split of lengths and suits) all take their steps from one ``Budget`` before
they try a candidate. When it runs out the search stops with ``TooManyWays`` and the entry point
answers in words what the player can do instead (``checks.undecided``): never a verdict it did
not reach.

A step is one candidate tried, weighed by what it looks at (a microsecond or two of work on this
machine); the budget is sized by ``manage.py bench --worst``, which hill-climbs over house documents and hands for the
slowest check and solve (docs/performance.md), so that a request that spends it all still
answers within the referee's promise of a few milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The most steps one check or solve may take. Measured with ``manage.py bench --worst``: a budget
# spent to the end by the slowest cases its adversarial search found takes 5 to 12 ms here (a step
# 1 to 2 µs), while every built-in ruleset's worst hand is decided within half of it
# (docs/performance.md).
MAX_STEPS = 6_000


class TooManyWays(Exception):
    """A search ran out of its budget before it could decide."""


@dataclass(slots=True)
class Budget:
    """The steps left to one check or solve, and those taken (the bench and the tests read them)."""

    left: int = field(default_factory=lambda: MAX_STEPS)
    taken: int = 0

    def take(self, count: int = 1) -> None:
        """Charge ``count`` candidates before they are tried; ``TooManyWays`` once none is left."""
        self.left -= count
        self.taken += count
        if self.left < 0:
            raise TooManyWays
