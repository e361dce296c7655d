import pytest

from scorekeeping.services import game_create


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
