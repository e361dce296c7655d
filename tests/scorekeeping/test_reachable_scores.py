"""Issue 11, class 3: only scores that a hand could make, and hands of the size the round fixes."""

import pytest

from referee.engine import RULESETS, find_rules, variants_for
from referee.engine.scoring import hand_left_size, possible_total, step
from scorekeeping.errors import InvalidInput
from scorekeeping.models import Round
from tests.helpers import record, thirteen


def _every_rules():
    return list(_rules_params())


def _rules_params():
    for slug in RULESETS:
        for variants in [[], *[[v.slug] for v in variants_for(slug)]]:
            yield pytest.param(slug, variants, id="-".join([slug, *variants]))


@pytest.mark.parametrize(("slug", "variants"), _every_rules())
def test_every_round_of_every_ruleset_knows_its_possible_totals(slug, variants):
    rules = find_rules(slug, variants)
    for rnd in rules.rounds:
        size = hand_left_size(rules, rnd.number)
        assert size.fixed == rnd.final
        assert not possible_total(rules, rnd.number, 0, size)  # who did not go out holds a card
        assert not possible_total(rules, rnd.number, step(rules, rnd.number) * 1000 + 1, size)
        cheapest = min(rules.penalties.ace, rules.penalties.ten_to_king, rules.penalties.number or 2)
        if not rnd.final:
            assert possible_total(rules, rnd.number, cheapest, size)


@pytest.mark.parametrize(
    ("ruleset", "players", "number", "dealt"),
    [("mexican", 4, 7, 13), ("contract", 4, 7, 12), ("liverpool", 4, 7, 12)],
)
def test_a_final_round_fixes_the_size_of_every_hand_left(make_game, ruleset, players, number, dealt):
    names = ["Ana", "Ben", "Cy", "Dee"][:players]
    game = make_game(players=names, ruleset=ruleset)
    for n in range(1, number):
        record(game, n, "Ana", points={name: 10 for name in names[1:]})
    with pytest.raises(InvalidInput) as refused:
        record(game, number, "Ana", {"Ben": "2C 3C 4C", "Cy": "5D"}, {"Dee": 10})
    message = refused.value.message
    assert f"so Ben holds exactly {dealt} cards; 3 were entered" in message
    assert f"so Cy holds exactly {dealt} cards; 1 was entered" in message
    assert "Dee holds exactly" in message and "10 is not a total they can make" in message
    assert Round.objects.filter(game=game, number=number).count() == 0


def test_round_7_with_thirteen_cards_each_is_recorded(make_game):
    game = make_game()
    for n in range(1, 7):
        record(game, n, "Ana", points={"Ben": 5, "Cy": 5, "Dee": 5})
    record(game, 7, "Ana", thirteen(["Ben", "Cy"]), {"Dee": 65})
    assert Round.objects.get(game=game, number=7).scores.get(player__name="Dee").points == 65


def test_no_one_went_out_of_a_final_round_so_every_hand_is_whole(make_game):
    game = make_game()
    for n in range(1, 7):
        record(game, n, "Ana", points={"Ben": 5, "Cy": 5, "Dee": 5})
    with pytest.raises(InvalidInput, match="so Ana holds exactly 13 cards; 1 was entered"):
        record(game, 7, None, {"Ana": "5C", **thirteen(["Ben", "Cy", "Dee"])})


def test_buys_add_two_cards_to_a_fixed_hand(make_game):
    game = make_game(ruleset="contract")
    for n in range(1, 7):
        record(game, n, "Ana", points={"Ben": 10, "Cy": 10, "Dee": 10})
    with pytest.raises(InvalidInput, match="so Ben holds exactly 14 cards; 12 were entered"):
        record(game, 7, "Ana", {"Ben": "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"}, {"Cy": 24, "Dee": 24}, buys={"Ben": 1})


@pytest.mark.parametrize(
    ("ruleset", "number", "points", "message"),
    [
        ("mexican", 1, 7, "In round 1 every card scores 5, 10, 15 or 20: 7 is not a possible total"),
        ("mexican", 7, 10, "In round 7 Ben holds exactly 13 cards, which score from 65 to 255: 10 is not a total"),
        ("mexican", 1, 145, "In round 1 Ben holds 1 to 7 cards, which score from 5 to 140: 145 is not a total"),
        ("shanghai", 1, 1, "In deal 1 Ben holds 1 to 11 cards, which score from 2 to"),
    ],
)
def test_typed_points_must_be_a_possible_total(make_game, ruleset, number, points, message):
    game = make_game(ruleset=ruleset)
    for n in range(1, number):
        record(game, n, "Ana", points={"Ben": 10, "Cy": 10, "Dee": 10})
    others = {"Cy": "10C" if number < 7 else None, "Dee": "10D" if number < 7 else None}
    hands = {k: v for k, v in others.items() if v} if number < 7 else thirteen(["Cy", "Dee"])
    with pytest.raises(InvalidInput) as refused:
        record(game, number, "Ana", hands, {"Ben": points})
    assert message in refused.value.message
