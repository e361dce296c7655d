import pytest

from scorekeeping.selectors import game_get
from scorekeeping.services import game_create, round_record


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


def record(game, number, winner, hands=None, points=None, **kwargs):
    return round_record(game=game, number=number, winner=winner, hands=hands or {}, points=points or {}, **kwargs)


def fresh(game):
    return game_get(game_id=game.pk)
