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

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from .stories import PlayedGame, in_played_order

MINIMUM_GAMES = 3  # rated games before a place on the ladder


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


def most_played(games: Sequence[PlayedGame]) -> str | None:
    """The ruleset of the most finished games (on a tie, the first by name): a ladder's default."""
    counts: dict[str, int] = {}
    for game in games:
        if game.finished:
            counts[game.ruleset] = counts.get(game.ruleset, 0) + 1
    return min(counts, key=lambda r: (-counts[r], r)) if counts else None


def _conservative(rating: PlackettLuceRating) -> float:
    return round(rating.mu - 3 * rating.sigma, 2)


def ladder(games: Sequence[PlayedGame], ruleset: str, minimum: int = MINIMUM_GAMES) -> Ladder:
    """The ladder of ``ruleset`` over ``games`` (others, and unfinished ones, are left out)."""
    model = PlackettLuce()
    ratings: dict[str, PlackettLuceRating] = {}
    counts: dict[str, list[int]] = {}  # name -> games, wins
    history: dict[str, list[Step]] = {}
    for game in in_played_order(games):
        if game.ruleset != ruleset or len(game.players) < 2:
            continue
        teams = [[ratings.get(name) or model.rating(name=name)] for name in game.players]
        rated = model.rate(teams, ranks=[float(game.places[name]) for name in game.players])
        for name, (after,) in zip(game.players, rated, strict=True):
            ratings[name] = after
            count = counts.setdefault(name, [0, 0])
            count[0] += 1
            count[1] += game.places[name] == 1
            history.setdefault(name, []).append(Step(game.game, _conservative(after)))
    ranked = sorted(
        (name for name in ratings if counts[name][0] >= minimum),
        key=lambda n: (-_conservative(ratings[n]), n.casefold()),
    )
    players: list[Rated] = []
    for index, name in enumerate(ranked):
        value = _conservative(ratings[name])
        place = players[-1].place if players and players[-1].rating == value else index + 1
        r = ratings[name]
        players.append(Rated(name, value, round(r.mu, 2), round(r.sigma, 2), counts[name][0], counts[name][1], place))
    unrated = sorted(
        (Unrated(name, counts[name][0], minimum - counts[name][0]) for name in ratings if counts[name][0] < minimum),
        key=lambda u: (-u.games, u.name.casefold()),
    )
    return Ladder(ruleset, players, unrated, history)
