"""Helpers the tests import (fixtures stay in the conftest files, which pytest loads itself)."""

from dataclasses import replace

from referee.engine.rules import Rules
from scorekeeping.selectors import game_get
from scorekeeping.services import RoundEntry, round_record


def record(game, number, winner, hands=None, points=None, buys=None, cut_bonus=False, version=None):
    entry = RoundEntry(winner=winner, hands=hands or {}, points=points or {}, buys=buys or {}, cut_bonus=cut_bonus)
    return round_record(game=game, number=number, entry=entry, version=version)


def thirteen(names):
    """Hands of 13 cards for those who did not go out in Mexican round 7 (nothing is laid down
    before going out there, so each holds exactly 13): a whole suit each, from two packs."""
    suits = ["C", "D", "H", "S"] * 2
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    return {name: " ".join(rank + suits[i] for rank in ranks) for i, name in enumerate(names)}


def fresh(game):
    return game_get(game_id=game.pk)


def same_play(first: Rules, second: Rules) -> bool:
    """Whether two ``Rules`` play alike (all but their slug, name, source and variants)."""
    counts = range(first.min_players, first.max_players + 1)
    return replace(first, slug="", name="", source="", variants=()) == replace(
        second, slug="", name="", source="", variants=()
    ) and [first.deck_for(n) for n in counts] == [second.deck_for(n) for n in counts]
