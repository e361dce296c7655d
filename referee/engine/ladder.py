"""A ladder: every player rated from their finished games with OpenSkill's Plackett-Luce model.

Pure Python, no Django: the selectors give the games (``stories.PlayedGame``) and call these.

- Each finished game of the ruleset is rated once, in the order the games were played
  (``stories.in_played_order``), with the game's final places as its ranks: place 1 is the best,
  and a shared place is a tie. A player is a team of one.
- The model is ``openskill.models.PlackettLuce`` with its default parameters (a new player: mu 25,
  sigma 25/3). The rating shown is the conservative one, ``mu - 3 * sigma`` (OpenSkill's
  "ordinal"): a figure the player is very likely above, which grows as games make the model surer.
  Every new player starts at 0.
- A player needs ``MINIMUM_GAMES`` rated games for a place on the ladder; until then they are
  listed apart with the games they have.
- Places go by the rating rounded to 2 decimals, highest first; equal ratings share a place (then
  the name orders them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .history import Line
from .stories import PlayedGame, folded_lines

MINIMUM_GAMES = 3  # rated games before a place on the ladder
HISTORY_SHOWN = 100  # the latest rated games a rating's history is told for (a chart a phone can show)


@dataclass(frozen=True)
class Rated:
    """A player on the ladder: the conservative rating with its parts, the plain figures, the place."""

    name: str
    rating: float  # mu - 3 sigma, rounded to 2 decimals
    mu: float
    sigma: float
    games: int
    wins: int
    place: int


@dataclass(frozen=True)
class Unrated:
    name: str
    games: int
    to_go: int = 0  # finished games still needed before a rating shows


@dataclass(frozen=True)
class Step:
    """A player's rating after one rated game."""

    game: str
    rating: float


@dataclass(frozen=True)
class Ladder:
    ruleset: str
    players: list[Rated]
    unrated: list[Unrated]
    history: dict[str, list[Step]]  # every player's rating after each of their rated games, oldest first

    def rating_of(self, name: str) -> Rated | None:
        return next((r for r in self.players if r.name == name), None)


def most_played_of(counts: Mapping[str, int]) -> str | None:
    """The ruleset of the most finished games (``counts``: by ruleset; on a tie, the first by
    name): a ladder's default."""
    return min(counts, key=lambda r: (-counts[r], r)) if counts else None


def most_played(games: Sequence[PlayedGame]) -> str | None:
    counts: dict[str, int] = {}
    for game in games:
        if game.finished:
            counts[game.ruleset] = counts.get(game.ruleset, 0) + 1
    return most_played_of(counts)


def _conservative(mu: float, sigma: float) -> float:
    return round(mu - 3 * sigma, 2)


@dataclass(frozen=True)
class Standing:
    """A player's latest rating in a ruleset, with their rated games and wins (from the lines)."""

    name: str
    mu: float
    sigma: float
    games: int
    wins: int


def ladder_of(
    ruleset: str, standings: Sequence[Standing], history: dict[str, list[Step]], minimum: int = MINIMUM_GAMES
) -> Ladder:
    """The ladder from each player's latest rating: those with ``minimum`` rated games placed, the
    others apart; each history cut to its latest ``HISTORY_SHOWN`` games."""
    ranked = sorted(
        (s for s in standings if s.games >= minimum), key=lambda s: (-_conservative(s.mu, s.sigma), s.name.casefold())
    )
    players: list[Rated] = []
    for index, s in enumerate(ranked):
        value = _conservative(s.mu, s.sigma)
        place = players[-1].place if players and players[-1].rating == value else index + 1
        players.append(Rated(s.name, value, round(s.mu, 2), round(s.sigma, 2), s.games, s.wins, place))
    unrated = sorted(
        (Unrated(s.name, s.games, minimum - s.games) for s in standings if s.games < minimum),
        key=lambda u: (-u.games, u.name.casefold()),
    )
    return Ladder(ruleset, players, unrated, {name: steps[-HISTORY_SHOWN:] for name, steps in history.items()})


def standings_of(lines: Sequence[Line], ruleset: str) -> tuple[list[Standing], dict[str, list[Step]]]:
    """From the rated lines of ``ruleset`` (in played order): each player's latest rating with
    their rated games and wins, and every player's rating after each rated game."""
    latest: dict[str, Line] = {}
    counts: dict[str, list[int]] = {}
    steps: dict[str, list[Step]] = {}
    for line in lines:
        if line.ruleset != ruleset or line.mu is None or line.sigma is None:
            continue
        latest[line.player] = line
        count = counts.setdefault(line.player, [0, 0])
        count[0] += 1
        count[1] += line.won
        steps.setdefault(line.name, []).append(Step(line.game, _conservative(line.mu, line.sigma)))
    standings = [
        Standing(line.name, line.mu or 0.0, line.sigma or 0.0, counts[key][0], counts[key][1])
        for key, line in latest.items()
    ]
    return standings, steps


def ladder(games: Sequence[PlayedGame], ruleset: str, minimum: int = MINIMUM_GAMES) -> Ladder:
    """The ladder of ``ruleset`` over ``games`` (others, and unfinished ones, are left out): each
    finished game rated once, in the order played (``history.carry``)."""
    standings, steps = standings_of(folded_lines(games), ruleset)
    return ladder_of(ruleset, standings, steps, minimum)
