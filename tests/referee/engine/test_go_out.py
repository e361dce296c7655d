"""The final-round go-out: every card in the contract's runs at once, no discard."""

import pytest

from .verdicts import opening, shown


def go_out(ruleset, variants, number, *melds):
    return opening(ruleset, variants, number, *melds, final=True)


def test_go_out_mexican_round_seven_with_fourteen_cards():
    verdict = go_out("mexican", [], 7, "2S 3S 4S 5S 6S", "9H 10H JH QH KH", "AC 2C 3C 4C")
    assert verdict.legal
    assert verdict.notes == ("Round 7 is won: every card is laid, no discard.",)


def test_go_out_with_nines_and_jokers_naming_each_wild():
    verdict = go_out("mexican", [], 7, "2S 3S 9D 5S 6S", "9H 10H JK QH KH", "AC JK 3C 4C")
    assert verdict.legal
    assert shown(verdict) == ["2S 3S 9D=4S 5S 6S", "9H 10H JK=JH QH KH", "AC JK=2C 3C 4C"]


def test_go_out_three_runs_of_four_leave_two_cards_and_do_not_win():
    verdict = go_out("mexican", [], 7, "2S 3S 4S 5S", "9H 10H JH QH", "AC 2C 3C 4C")
    assert not verdict.legal
    assert verdict.reasons == ("going out in round 7 lays every card in hand: 14 after the draw; this layout has 12",)


def test_go_out_refuses_a_book():
    verdict = go_out("mexican", [], 7, "2S 3S 4S 5S 6S", "9H 10H JH QH KH", "4C 4D 4H 4S")
    assert not verdict.legal
    assert "meld 3 (4C 4D 4H 4S) is not a run of 4+" in verdict.reasons[0]


@pytest.mark.parametrize(("ruleset", "number"), [("mexican", 3), ("contract", 2), ("shanghai", 10), ("shanghai", 7)])
def test_go_out_only_in_a_final_round(ruleset, number):
    verdict = go_out(ruleset, [], number, "2S 3S 4S 5S", "9H 10H JH QH", "AC 2C 3C 4C")
    assert not verdict.legal
    assert "has no go-out layout" in verdict.reasons[0]


def test_go_out_mexican_single_deck_has_no_final_round():
    verdict = go_out("mexican", ["single-deck"], 5, "2S 3S 4S 5S", "9H 10H JH QH", "AC 2C 3C 4C")
    assert "has no go-out layout: it is won by laying down the contract" in verdict.reasons[0]


def test_go_out_contract_deal_seven_thirteen_cards_longer_runs_allowed():
    verdict = go_out("contract", [], 7, "2S 3S 4S 5S 6S", "9H 10H JK QH", "AC 2C 3C 4C")
    assert verdict.legal


@pytest.mark.parametrize(("variants", "legal"), [([], False), (["free-meld"], True)])
def test_go_out_contract_deal_seven_runs_may_not_join(variants, legal):
    verdict = go_out("contract", variants, 7, "2S 3S 4S 5S 6S", "7S 8S 9S 10S", "AC 2C 3C 4C")
    assert verdict.legal is legal
    if not legal:
        assert "join up into one sequence" in verdict.reasons[0]


def test_go_out_counts_two_more_cards_for_each_buy():
    # buy-discard: one buy gives 16 cards in round 7.
    melds = ("2S 3S 4S 5S 6S 7S", "9H 10H JH QH KH", "AC 2C 3C 4C 5C")
    assert go_out("mexican", ["buy-discard"], 7, *melds).legal
    refused = go_out("mexican", [], 7, *melds)
    assert refused.reasons == ("going out in round 7 lays every card in hand: 14 after the draw; this layout has 16",)


def test_go_out_buys_are_limited_by_the_ruleset():
    # 14 + 2 x 4 buys = 22 cards; buy-discard allows 3.
    melds = ("AS 2S 3S 4S 5S 6S 7S", "AH 2H 3H 4H 5H 6H 7H 8H", "AC 2C 3C 4C 5C 6C 7C")
    verdict = go_out("mexican", ["buy-discard"], 7, *melds)
    assert "14 after the draw (2 more for each buy); this layout has 22" in verdict.reasons[0]
