import pytest

from scorekeeping.selectors import game_get
from scorekeeping.services import RoundEntry, game_create, round_record


@pytest.fixture
def make_game(db):
    def make(players=("Ana", "Ben", "Cy", "Dee"), ruleset="mexican", variants=(), first_dealer="Ana", **kwargs):
        game, token = game_create(
            ruleset=ruleset, variants=list(variants), players=list(players), first_dealer=first_dealer, **kwargs
        )
        game.token = token
        return game

    return make


@pytest.fixture
def game(make_game):
    """The issue's example: mexican, Ana, Ben, Cy, Dee, Ana deals first."""
    return make_game()


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
