"""A ruleset as a document (issue 37): every built-in ruleset and every allowed set of its
variants written as a document and read back plays as it does; a document's faults are said by
key, all at once; what cannot be played (a contract meld below books.min, jokers in a deck where they are not
wild...) is refused in words, naming the key."""

import itertools
import json

import pytest

from referee.engine import find_rules
from referee.engine.documents import DocumentError, document_of, rules_from_document
from referee.engine.errors import UnknownVariant
from referee.engine.rulesets import RULESETS, variants_for
from tests.helpers import same_play


def _every_table():
    for slug in RULESETS:
        offered = [v.slug for v in variants_for(slug)]
        for n in range(len(offered) + 1):
            for chosen in itertools.combinations(offered, n):
                try:
                    yield find_rules(slug, chosen)
                except UnknownVariant:  # variants that cannot be combined
                    continue


def test_every_built_in_table_round_trips_through_its_document():
    tables = list(_every_table())
    assert len(tables) > 20
    for rules in tables:
        document = json.loads(json.dumps(document_of(rules)))  # as JSON carries it
        read = rules_from_document(document, slug="house")
        assert same_play(rules, read), rules.title
        assert document_of(read) == document


def test_a_document_based_on_a_ruleset_changes_only_what_it_names():
    read = rules_from_document(
        {"name": "Grandma's", "based_on": "mexican", "points": {**document_of(find_rules())["points"], "JK": 50}},
        slug="grandma",
    )
    assert read.name == "Grandma's" and read.penalties.joker == 50
    assert read.rounds == find_rules().rounds and read.wild_ranks == find_rules().wild_ranks


@pytest.mark.parametrize(
    ("change", "key", "said"),
    [
        ({"colour": "red"}, "document.colour", "is not a key here"),
        ({"players": {"min": 1, "max": 4}}, "players.min", "from 2 to 10, not 1"),
        ({"players": {"min": 5, "max": 4}}, "players", "max (4) is below min (5)"),
        ({"deck": {"packs": 9, "jokers": 4}}, "deck.packs", "from 1 to 4, not 9"),
        (
            {"rounds": [{"dealt": 5, "contract": [{"meld": "run", "size": 4}] * 2}]},
            "rounds.1",
            "needs 8 cards; a hand holds at most 6",
        ),
        ({"rounds": [{"dealt": 20, "contract": [{"meld": "book", "size": 3}]}]}, "rounds.1", "the deck holds 108"),
        (
            {"rounds": [{"dealt": 7, "contract": [{"meld": "run", "size": 2}]}]},
            "rounds.1.contract.1.size",
            "from 4 to 13",
        ),
        (
            {"rounds": [{"dealt": 7, "contract": [{"meld": "book", "size": 3}], "wild_rank": "1"}]},
            "rounds.1.wild_rank",
            "a rank",
        ),
        ({"points": {**document_of(find_rules())["points"], "JK": 500}}, "points.JK", "from 0 to 100"),
        ({"runs": {"ace": "sideways"}}, "runs.ace", "must be one of low, high, either, around, not sideways"),
        ({"naturals": {"per_meld": 3}}, "naturals.per_meld", "from 0 to 2, not 3"),
        ({"lowest_wins": "yes"}, "lowest_wins", "must be one of true, false, not yes"),
        ({"books": {"min": 4}}, "rounds.1.contract.1.size", "3 is smaller than books.min (4): must be from 4 to 8"),
        (
            {"books": {"suits": "distinct"}, "rounds": [{"dealt": 9, "contract": [{"meld": "book", "size": 5}]}]},
            "rounds.1.contract.1.size",
            "a book of 5 cannot hold each suit once: there are 4 suits",
        ),
        ({"wilds": {"jokers": False}}, "wilds.jokers", "the deck for 2 players holds 4 jokers: give it none"),
        ({"wilds": {"ranks": ["2", "2"]}}, "wilds.ranks.2", "2 is listed twice"),
        ({"wilds": {"ranks": ["1"]}}, "wilds.ranks.1", "must be a rank (A, 2,"),
        ({"going_out": {"discard": 0}}, "going_out.discard", "must be one of true, false, not 0"),
        ({"name": ""}, "name", "1 to 60 characters"),
        ({"based_on": "poker"}, "based_on", "must be one of mexican"),
    ],
)
def test_each_fault_is_said_by_its_key(change, key, said):
    with pytest.raises(DocumentError) as refused:
        rules_from_document({"based_on": "mexican", **change} if "based_on" not in change else change, slug="x")
    assert any(k == key and said in why for k, why in refused.value.faults), refused.value.faults


def test_faults_are_said_all_at_once_and_cut():
    hostile = {"based_on": "mexican", **{f"k{i}": i for i in range(100)}, "players": {"min": "a", "max": None}}
    with pytest.raises(DocumentError) as refused:
        rules_from_document(hostile, slug="x")
    faults = refused.value.faults
    assert 3 <= len(faults) <= 25 and ("players.min", "must be a whole number from 2 to 10, not a") in faults
    with pytest.raises(DocumentError):
        rules_from_document(["not", "an", "object"], slug="x")


@pytest.mark.parametrize(
    ("deck", "key", "said"),
    [
        ([{"players": [-7, 0, 999], "packs": 2, "jokers": 2}], "deck.0.players", "-7 is no number of players here"),
        ([{"players": [3, 4, 5, 6], "packs": 2, "jokers": 2}], "deck.0.players", "6 is no number of players here"),
        ([{"players": [n], "packs": 2, "jokers": 2} for n in (3, 4, 5)] * 4, "deck", "must be 1 to 3 decks"),
        ([{"players": list(range(3, 6)) * 5, "packs": 2, "jokers": 2}], "deck.0.players", "a list of player counts"),
    ],
)
def test_every_deck_entry_and_player_count_is_read_and_bounded(deck, key, said):
    with pytest.raises(DocumentError) as refused:
        rules_from_document({"based_on": "contract", "name": "Decks", "deck": deck}, slug="decks")
    assert any(k == key and said in why for k, why in refused.value.faults), refused.value.faults
