"""A club night's rules: how the present players are split into tables for a sitting, who sits
out, who sits with whom, and how the night and a season are scored.

Pure Python, no Django: the services map names to rows and call these.

- ``table_sizes``: the tables for ``n`` players within the ruleset's limits, as close to the
  preferred size as possible (the least sum of squared differences, then the fewest tables),
  with nobody sitting out when tables of other allowed sizes avoid it, else as few as can be.
- ``draw``: who sits out (those who sat out least tonight, drawn among equals), then who sits
  with whom: random, improved by swapping players between tables while that lowers the number
  of pairs who already shared a table tonight (then how often they did), best of several starts.
- ``night_standings``: "percentage", as bridge clubs score a match: at their table a player gets
  1 for every player they finished ahead of and ½ for every tie, divided by (table size − 1),
  as a percentage; the night's figure is the average over the sittings played. "rank": a fixed
  pot per seat paid by place, ties sharing their places' points. Tie-break: the average of
  (table's average total − own total) per sitting (rummy's lower total is better).
- ``running_totals``: before any table of the night has finished, every player of the tables
  under way ranked by their game's total so far, as a table ranks them (the lower total first,
  ties as the ruleset breaks them).
- ``night_lines``: each player's own night, sitting by sitting: the table, who they sat with,
  their place and total there and what the place earned.
- ``season_standings``: each player's best N nights (all by default), a minimum number of
  nights for the title, and how many more nights each still needs for it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TypeVar

from .errors import RefereeError
from .i18n import _, ngettext
from .rules import Rules
from .standings import standing_key

SCORINGS = ("percentage", "rank")
# What each place earns with the "rank" scoring, by table size (the club's pot per seat). The
# sizes the issue gives (3 to 6) are extended by the same pattern: first place earns the table
# size + 7, each later place less, the last two places 2.
RANK_POINTS: dict[int, tuple[int, ...]] = {
    2: (9, 2),
    3: (10, 6, 2),
    4: (11, 7, 4, 2),
    5: (12, 8, 5, 3, 2),
    6: (13, 9, 6, 4, 2, 2),
    7: (14, 10, 7, 5, 3, 2, 2),
    8: (15, 11, 8, 6, 4, 3, 2, 2),
}
STARTS = 24  # random starts of the draw's improvement; the best is kept
REPEAT = 1000  # a repeated pair's cost, beside how often the pair met (at most a few times a night)


class CannotSeat(RefereeError):
    """Too few players for one table of the ruleset."""


@cache
def table_sizes(players: int, low: int, high: int, preferred: int) -> tuple[int, ...]:
    """The tables' sizes for ``players`` (largest first), at most ``players`` seats: nobody sits
    out if the limits allow it, else as few as can. Raises ``CannotSeat`` below ``low``."""
    if players < low:
        raise CannotSeat(
            ngettext(
                "{n} player present: a table of this game needs at least {low}",
                "{n} players present: a table of this game needs at least {low}",
                players,
            ).format(n=players, low=low)
        )
    for seated in range(players, low - 1, -1):
        best = _split(seated, low, high, preferred)
        if best is not None:
            return best
    raise AssertionError("a table of `low` players always fits")  # pragma: no cover (players >= low)


@cache
def _split(n: int, low: int, high: int, preferred: int) -> tuple[int, ...] | None:
    """The split of exactly ``n`` into parts in ``[low, high]`` with the least cost, or None."""
    if n == 0:
        return ()
    best: tuple[int, ...] | None = None
    best_cost: tuple[int, int] | None = None
    for part in range(min(high, n), low - 1, -1):
        rest = _split(n - part, low, high, preferred)
        if rest is None:
            continue
        split = tuple(sorted((part, *rest), reverse=True))
        cost = (sum((p - preferred) ** 2 for p in split), len(split))
        if best_cost is None or cost < best_cost:
            best, best_cost = split, cost
    return best


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class Draw:
    tables: tuple[tuple[str, ...], ...]  # each table's players in seat order
    sitting_out: tuple[str, ...]
    repeated_pairs: int  # pairs at one table who already shared a table tonight


def repeated(tables: Sequence[Sequence[str]], met: Mapping[tuple[str, str], int]) -> int:
    return sum(1 for table in tables for a, b in itertools.combinations(table, 2) if met.get(pair(a, b), 0))


def _cost(table: Sequence[str], met: Mapping[tuple[str, str], int]) -> int:
    """What a table costs: each pair who already met, by far first (the number of repeated pairs
    is what the draw minimises and reports), then how often they met (a pair who met twice is
    kept apart before one who met once)."""
    return sum(REPEAT + times for a, b in itertools.combinations(table, 2) if (times := met.get(pair(a, b), 0)))


def draw(
    present: Sequence[str],
    sizes: Sequence[int],
    met: Mapping[tuple[str, str], int],
    sat_out: Mapping[str, int],
    rng: random.Random,
) -> Draw:
    """One sitting's tables for ``present`` (each name once) at tables of ``sizes``: who sits
    out, then who sits with whom, seats shuffled within each table."""
    seats = sum(sizes)
    players = list(present)
    rng.shuffle(players)
    players.sort(key=lambda name: -sat_out.get(name, 0))  # who sat out least sits out next; stable: drawn among equals
    out = tuple(sorted(players[seats:]))
    playing = players[:seats]
    best: list[list[str]] | None = None
    best_cost = -1
    for _start in range(STARTS):
        rng.shuffle(playing)
        tables, at = [], 0
        for size in sizes:
            tables.append(playing[at : at + size])
            at += size
        cost = _improve(tables, met)
        if best is None or cost < best_cost:
            best, best_cost = [list(t) for t in tables], cost
        if cost == 0:
            break
    assert best is not None
    for table in best:
        rng.shuffle(table)
    return Draw(tuple(tuple(t) for t in best), out, repeated(best, met))


def _improve(tables: list[list[str]], met: Mapping[tuple[str, str], int]) -> int:
    """Swap players between tables while a swap lowers the cost (a local optimum); the cost."""
    costs = [_cost(t, met) for t in tables]
    improved = True
    while improved and any(costs):
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                new_i, new_j = _cost(tables[i], met), _cost(tables[j], met)
                if new_i + new_j < costs[i] + costs[j]:
                    costs[i], costs[j] = new_i, new_j
                    improved = True
                else:
                    tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
    return sum(costs)


@dataclass(frozen=True)
class Seat:
    """One player's result at one table of a sitting: their final place and game total."""

    player: str
    place: int
    total: int


@dataclass(frozen=True)
class Standing:
    player: str
    percent: float  # the average percentage over the sittings played
    points: float  # the sum of rank points
    sittings: int
    tiebreak: float  # the average of (table's average total - own total)
    place: int
    exact: float = 0.0  # the percentage unrounded, for a season's average (no rounding twice)


def table_scores(table: Sequence[Seat], *, lowest_wins: bool = True) -> dict[str, tuple[float, float, float]]:
    """Each player's (percentage, rank points, tie-break) at one finished table; the tie-break is
    how far the player's total is better than the table's average (below it, or above it where
    the highest total wins)."""
    size = len(table)
    average = sum(s.total for s in table) / size
    pot = RANK_POINTS.get(size) or RANK_POINTS[max(RANK_POINTS)]
    scores = {}
    for seat in table:
        ahead = sum(1 for other in table if other.place > seat.place)
        tied = sum(1 for other in table if other.place == seat.place) - 1
        percent = 100 * (ahead + tied / 2) / (size - 1) if size > 1 else 100.0
        shared = [pot[min(p, len(pot)) - 1] for p in range(seat.place, seat.place + tied + 1)]
        better = average - seat.total if lowest_wins else seat.total - average
        scores[seat.player] = (percent, sum(shared) / len(shared), better)
    return scores


def night_standings(
    tables: Sequence[Sequence[Seat]], scoring: str = "percentage", *, lowest_wins: bool = True
) -> list[Standing]:
    """The night's standings from every finished table of every sitting, best first."""
    percents: dict[str, list[float]] = {}
    points: dict[str, float] = {}
    breaks: dict[str, list[float]] = {}
    for table in tables:
        for player, (percent, rank, margin) in table_scores(table, lowest_wins=lowest_wins).items():
            percents.setdefault(player, []).append(percent)
            points[player] = points.get(player, 0.0) + rank
            breaks.setdefault(player, []).append(margin)
    rows = []
    for player, figures in percents.items():
        average, tiebreak = sum(figures) / len(figures), sum(breaks[player]) / len(figures)
        rows.append(Standing(player, round(average, 2), points[player], len(figures), round(tiebreak, 2), 0, average))

    def figure(row: Standing) -> float:
        return row.percent if scoring == "percentage" else row.points

    rows.sort(key=lambda r: (-figure(r), -r.tiebreak, r.player.casefold()))
    return _placed(rows, lambda r: (figure(r), r.tiebreak))


def scoring_words(scoring: str, sizes: Sequence[int] = ()) -> list[str]:
    """The night's scoring said as a person would, for the table sizes played (``sizes``)."""
    if scoring == "rank":
        lines = [_("At each table every place earns points; ties share their places' points. The night adds them up.")]
        for size in sorted(set(sizes)):
            pot = RANK_POINTS.get(size) or RANK_POINTS[max(RANK_POINTS)]
            places = ", ".join(f"{place}: {points}" for place, points in enumerate(pot[:size], 1))
            lines.append(_("A table of {n}: {places}.").format(n=size, places=places))
    else:
        lines = [
            _(
                "At each table a player scores the share of the others they finished ahead of (a tie counts half),"
                " as a percentage; the night averages the sittings played."
            )
        ]
    lines.append(_("Equal figures: the player who finished further ahead of their tables' average total goes first."))
    return lines


@dataclass(frozen=True)
class Sat:
    """One sitting of a player's night: the table, the others there (in seat order), the place
    and total, and what the place earned (the percentage and the rank points)."""

    sitting: int
    table: int
    others: tuple[str, ...]
    place: int
    total: int
    percent: float
    points: float


def night_lines(tables: Sequence[tuple[int, int, Sequence[Seat]]], *, lowest_wins: bool = True) -> dict[str, list[Sat]]:
    """Each player's finished tables of the night (``tables``: sitting, table number, seats in seat
    order), in the order given (sitting, then table)."""
    lines: dict[str, list[Sat]] = {}
    for sitting, number, seats in tables:
        scores = table_scores(seats, lowest_wins=lowest_wins)
        for seat in seats:
            percent, points, _margin = scores[seat.player]
            others = tuple(s.player for s in seats if s.player != seat.player)
            sat = Sat(sitting, number, others, seat.place, seat.total, round(percent, 2), points)
            lines.setdefault(seat.player, []).append(sat)
    return lines


@dataclass(frozen=True)
class Running:
    """One player's game so far at a table still playing: the total and rounds won, with places
    (``place``) once ``running_totals`` ranked them across the room."""

    player: str
    table: int  # the table's number in its sitting
    total: int
    round_wins: int
    place: int = 0


def running_totals(players: Sequence[Running], rules: Rules) -> list[Running]:
    """Every player of the tables under way, across the room, as ``rules`` ranks a table: the lower
    total first, equal totals by rounds won where the ruleset breaks ties so, else sharing a
    place; then by table and name. A guide while no table has finished, not the night's scoring."""

    def key(row: Running) -> tuple[int, int]:
        return standing_key(rules, row.total, row.round_wins)

    rows = sorted(players, key=lambda r: (*key(r), r.table, r.player.casefold()))
    return _placed(rows, key)


@dataclass(frozen=True)
class SeasonStanding:
    player: str
    nights: int
    counted: int
    percent: float
    qualified: bool
    place: int
    to_go: int = 0  # the nights still needed for the title


Ranked = TypeVar("Ranked", Standing, SeasonStanding, Running)


def _placed(rows: Sequence[Ranked], key: Callable[[Ranked], object]) -> list[Ranked]:
    """``rows`` (sorted, best first) with their places: equal keys share a place."""
    placed: list[Ranked] = []
    for index, row in enumerate(rows):
        same = bool(placed) and key(placed[-1]) == key(row)
        placed.append(replace(row, place=placed[-1].place if same else index + 1))
    return placed


def season_standings(
    nights: Sequence[Mapping[str, float]], best: int | None = None, minimum: int = 1
) -> list[SeasonStanding]:
    """A season from each night's figure per player (percent): each player's best ``best`` nights
    averaged (all by default); players with fewer than ``minimum`` nights are ranked after those
    with enough (they cannot take the title)."""
    played: dict[str, list[float]] = {}
    for night in nights:
        for player, figure in night.items():
            played.setdefault(player, []).append(figure)
    rows = []
    for player, figures in played.items():
        counted = sorted(figures, reverse=True)[: best or len(figures)]
        average = round(sum(counted) / len(counted), 2)
        short = max(0, minimum - len(figures))
        rows.append(SeasonStanding(player, len(figures), len(counted), average, not short, 0, short))
    rows.sort(key=lambda r: (not r.qualified, -r.percent, r.player.casefold()))
    return _placed(rows, lambda r: (r.qualified, r.percent))
