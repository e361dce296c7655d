"""A game played by a table's house rules: the scorer, the standings, the board and the stories
obey the saved document (the highest total winning, twos wild in every round, a joker's points)."""

import pytest

from referee.engine import find_rules
from referee.presentation import keypad
from referee.rulebook import rules_for
from scorekeeping.selectors import game_standings
from scorekeeping.selectors.folding import played
from scorekeeping.services.rulesets import house_rules_save
from scorekeeping.web.presentation import board_rows
from tests.helpers import fresh, record


@pytest.fixture
def highest(db):
    row, _created = house_rules_save(
        client="test",
        document={
            "name": "Highest wins",
            "based_on": "mexican",
            "lowest_wins": False,
            "wilds": {"ranks": ["2"]},
            "points": {"JK": 50},
        },
    )
    return row.slug


def test_the_highest_total_leads_where_the_house_rules_say_so(make_game, highest):
    game = make_game(ruleset=highest, players=("Ana", "Ben", "Cy"))
    record(game, 1, "Ana", hands={"Ben": "JK", "Cy": "5C"})  # Ben 50 (a joker), Cy 5
    standings = game_standings(game=fresh(game))
    assert [(r.player.name, r.total, r.place) for r in standings.rows] == [("Ben", 50, 1), ("Cy", 5, 2), ("Ana", 0, 3)]
    rows = board_rows(fresh(game), fresh(game).rules, standings, None)
    assert {r.player.name: r.behind for r in rows} == {"Ana": 50, "Ben": 0, "Cy": 45}


def test_a_card_of_a_rank_wild_in_every_round_scores_as_a_wild(make_game, highest):
    game = make_game(ruleset=highest, players=("Ana", "Ben", "Cy"))
    record(game, 1, "Ana", hands={"Ben": "2C", "Cy": "3C 4C"})  # round 1: threes and twos wild
    assert {r.player.name: r.total for r in game_standings(game=fresh(game)).rows} == {"Ana": 0, "Ben": 20, "Cy": 25}


def test_the_round_names_every_wild_rank_and_the_keypad_stars_them(make_game, highest):
    rules = fresh(make_game(ruleset=highest, players=("Ana", "Ben", "Cy"))).rules
    assert rules.wild_words(1) == "Threes, twos and jokers are wild"
    assert rules.wild_words(2) == "Fours, twos and jokers are wild"
    assert rules.in_words(1).wild_ranks == "Threes and twos"
    starred = {key.value for key in keypad(rules.wild_ranks_in(1)) if key is not None and key.wild}
    assert starred == {f"{rank}{suit}" for rank in "23" for suit in "CDHS"} | {"JK"}
    assert find_rules().wild_words(1) == "Threes and jokers are wild"  # the built-in says what it said


def test_without_jokers_the_round_says_so(db):
    row, _created = house_rules_save(
        client="test",
        document={
            "name": "No jokers",
            "based_on": "contract",
            "deck": {"packs": 2, "jokers": 0},
            "wilds": {"jokers": False, "ranks": ["2"]},
        },
    )
    assert rules_for(row.slug).wild_words(1) == "Twos are wild"


def test_the_stories_read_the_highest_total_as_the_best(make_game, highest):
    game = make_game(ruleset=highest, players=("Ana", "Ben", "Cy"))
    record(game, 1, "Ana", hands={"Ben": "JK", "Cy": "5C"})
    played_one = played(fresh(game))
    assert played_one.lowest_wins is False and played_one.places == {"Ben": 1, "Cy": 2, "Ana": 3}
