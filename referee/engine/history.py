"""The stories kept as the games finish: each finished game leaves one ``Line`` per player, and
every figure of ``stories`` (a profile, the players' list, the records) and of ``ladder`` is read
from the lines, never from the whole history folded again.

Pure Python, no Django: the selectors keep the lines in the database and hand them back here.

- ``stories.lines_of``: a finished game's lines: what the game alone says of each player (place, total,
  rounds, rounds gone out, the highest and lowest penalty in one round, the comeback).
- ``carry``: what runs along the played order, given what stood before the first of them
  (``Carry``): the win streak (any ruleset, and within the ruleset: the records'), and the
  rating after the game (OpenSkill's Plackett-Luce, one ``rate()`` a game, as ``ladder`` rates).
  A game finished last costs one step; a game corrected, undone or imported into the past is
  carried again from that game on, from the lines before it.
- ``stories.profile_from``, ``Sums`` and ``RECORD_ORDER`` read the figures from the lines: the
  same definitions ``stories`` folds games with (``stories.profile`` is ``profile_from`` over
  the lines of the games given).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()
CARRIED_FIELDS = ("streak", "ruleset_streak", "mu", "sigma")  # what ``carry`` fills in


@dataclass(frozen=True)
class Line:
    """One player's finished game, as every story counts it."""

    game: str
    position: str  # where the game stands in the played order (``position_of``): sorts as played
    player: str  # the player's key in the scope (a member's id, a name as compared)
    name: str  # as the game wrote it
    date: str  # the ISO date it was played
    ruleset: str
    seat: int
    place: int
    total: int
    rounds: tuple[tuple[int, int], ...]  # (round number, the player's penalty), in order
    out: int  # rounds gone out
    high: int  # the highest penalty in one round
    high_at: int  # the first round it came in
    low: int  # the lowest penalty in one round
    comeback: int  # the single winner's deficit overcome (after any round but the last), else 0
    comeback_at: int  # after which round it was largest (0: none)
    players: int  # at the table
    # Carried along the played order (``carry``):
    streak: int = 0  # games won in a row, after this one (every ruleset)
    ruleset_streak: int = 0  # the same within this game's ruleset (the records')
    mu: float | None = None  # the rating after this game in its ruleset (None: a game of one)
    sigma: float | None = None

    @property
    def won(self) -> bool:
        return self.place == 1

    @property
    def rated(self) -> bool:
        return self.mu is not None


def position_of(order: tuple[str, int, int, int], game: str) -> str:
    """The played order as one sortable text: ``order`` (an ISO date or time of one fixed width
    per scope, then three numbers) and the game's id to settle a tie."""
    when, a, b, c = order
    return f"{when}|{a:012d}|{b:06d}|{c:06d}|{game}"


@dataclass
class Carry:
    """What stood before a point of the played order: each player's win streak, their streak
    within each ruleset, and their rating in each ruleset (mu, sigma)."""

    streak: dict[str, int] = field(default_factory=dict)
    ruleset_streak: dict[tuple[str, str], int] = field(default_factory=dict)
    rating: dict[tuple[str, str], tuple[float, float]] = field(default_factory=dict)

    @classmethod
    def before(cls, last: Iterable[Line], last_in_ruleset: Iterable[Line]) -> Carry:
        """From each player's latest line before that point, and their latest in each ruleset."""
        carry = cls()
        for line in last:
            carry.streak[line.player] = line.streak
        for line in last_in_ruleset:
            carry.ruleset_streak[(line.ruleset, line.player)] = line.ruleset_streak
            if line.mu is not None and line.sigma is not None:
                carry.rating[(line.ruleset, line.player)] = (line.mu, line.sigma)
        return carry


def carry(lines: Sequence[Line], before: Carry | None = None) -> list[Line]:
    """``lines`` (whole games, in played order, each game's by seat) with what runs along the
    played order filled in, from ``before``."""
    state = before or Carry()
    found: list[Line] = []
    start = 0
    while start < len(lines):
        end = start
        while end < len(lines) and lines[end].game == lines[start].game:
            end += 1
        game = lines[start:end]
        ruleset = game[0].ruleset
        after: list[tuple[float | None, float | None]] = [(None, None)] * len(game)
        if len(game) >= 2:
            teams = []
            for line in game:
                held = state.rating.get((ruleset, line.player))
                rating = MODEL.rating(name=line.player) if held is None else MODEL.rating(mu=held[0], sigma=held[1])
                teams.append([rating])
            rated: list[list[PlackettLuceRating]] = MODEL.rate(teams, ranks=[float(line.place) for line in game])
            after = [(team[0].mu, team[0].sigma) for team in rated]
        for line, (mu, sigma) in zip(game, after, strict=True):
            streak = state.streak.get(line.player, 0) + 1 if line.won else 0
            in_ruleset = state.ruleset_streak.get((ruleset, line.player), 0) + 1 if line.won else 0
            state.streak[line.player] = streak
            state.ruleset_streak[(ruleset, line.player)] = in_ruleset
            if mu is not None and sigma is not None:
                state.rating[(ruleset, line.player)] = (mu, sigma)
            found.append(replace(line, streak=streak, ruleset_streak=in_ruleset, mu=mu, sigma=sigma))
        start = end
    return found


# --- the figures, read from the lines -------------------------------------------------------------


@dataclass(frozen=True)
class Sums:
    """A player's lines of one ruleset summed (what a database keeps and adds to): games, wins,
    rounds, rounds gone out, the penalties, the lowest and highest penalty in one round, the
    lowest and highest game total, the longest win streak reached, and each round number's
    rounds played and penalties (the profile's best and worst round)."""

    games: int
    wins: int
    rounds: int
    out: int
    points: int
    low: int | None
    high: int | None
    total_low: int | None = None
    total_high: int | None = None
    streak: int = 0
    by_round: tuple[tuple[int, int, int], ...] = ()  # (round number, rounds played, their penalties)

    @classmethod
    def of(cls, lines: Sequence[Line]) -> Sums:
        by_round: dict[int, tuple[int, int]] = {}
        for line in lines:
            for number, points in line.rounds:
                played, summed = by_round.get(number, (0, 0))
                by_round[number] = (played + 1, summed + points)
        return cls(
            len(lines),
            sum(1 for line in lines if line.won),
            sum(len(line.rounds) for line in lines),
            sum(line.out for line in lines),
            sum(line.total for line in lines),
            min((line.low for line in lines if line.rounds), default=None),
            max((line.high for line in lines if line.rounds), default=None),
            min((line.total for line in lines), default=None),
            max((line.total for line in lines), default=None),
            max((line.streak for line in lines), default=0),
            tuple((n, played, summed) for n, (played, summed) in sorted(by_round.items())),
        )

    def plus(self, line: Line) -> Sums:
        """With one more line (a game finished last): what ``of`` gives with it, at the cost of one."""
        by_round = {n: (played, summed) for n, played, summed in self.by_round}
        for number, points in line.rounds:
            played, summed = by_round.get(number, (0, 0))
            by_round[number] = (played + 1, summed + points)
        return Sums(
            self.games + 1,
            self.wins + int(line.won),
            self.rounds + len(line.rounds),
            self.out + line.out,
            self.points + line.total,
            _least(self.low, line.low if line.rounds else None),
            _most(self.high, line.high if line.rounds else None),
            _least(self.total_low, line.total),
            _most(self.total_high, line.total),
            max(self.streak, line.streak),
            tuple((n, played, summed) for n, (played, summed) in sorted(by_round.items())),
        )


def _least(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def _most(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else max(a, b)


@dataclass(frozen=True)
class Meeting:
    """A player's finished games against one opponent, summed: how many, how often the player
    placed ahead and behind, and the opponent's totals less the player's."""

    games: int = 0
    ahead: int = 0
    behind: int = 0
    difference: int = 0

    def plus(self, me: Line, other: Line) -> Meeting:
        order = (other.place > me.place) - (other.place < me.place)  # 1: the player ahead
        return Meeting(
            self.games + 1,
            self.ahead + int(order > 0),
            self.behind + int(order < 0),
            self.difference + other.total - me.total,
        )


def meetings_of(mine: Iterable[Line], games: Iterable[Line]) -> dict[tuple[str, str], Meeting]:
    """Each (player, opponent) of ``mine``'s players: their meetings in the games of ``mine``,
    whose every line is in ``games``."""
    by_game: dict[str, list[Line]] = {}
    for line in games:
        by_game.setdefault(line.game, []).append(line)
    found: dict[tuple[str, str], Meeting] = {}
    for me in mine:
        for other in by_game.get(me.game, []):
            if other.player != me.player:
                key = (me.player, other.player)
                found[key] = found.get(key, Meeting()).plus(me, other)
    return found


# Each record: which lines may hold it, and the order that finds its holder (the best value, then
# the first to set it: the game played first, the round, the seat). A field of ``Line``; "-" for
# the highest first. ``stories.records`` reads them so.
RECORD_ORDER: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "lowest game total": (None, ("total", "position", "seat")),
    "highest single-round penalty": (None, ("-high", "position", "high_at", "seat")),
    "most rounds gone out in one game": ("out", ("-out", "position", "seat")),
    "longest win streak": ("ruleset_streak", ("-ruleset_streak", "position", "seat")),
    "biggest comeback": ("comeback", ("-comeback", "position", "seat")),
}
RECORD_VALUE = {
    "lowest game total": "total",
    "highest single-round penalty": "high",
    "most rounds gone out in one game": "out",
    "longest win streak": "ruleset_streak",
    "biggest comeback": "comeback",
}


def record_holder(title: str, lines: Sequence[Line]) -> Line | None:
    """The line holding ``title`` among ``lines`` (of one ruleset), as ``RECORD_ORDER`` says."""
    needs, order = RECORD_ORDER[title]
    eligible = [line for line in lines if needs is None or getattr(line, needs) > 0]

    def key(line: Line) -> tuple[object, ...]:
        parts: list[object] = []
        for name in order:
            value = getattr(line, name.lstrip("-"))
            parts.append(-value if name.startswith("-") else value)
        return tuple(parts)

    return min(eligible, key=key, default=None)
