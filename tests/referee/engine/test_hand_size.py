"""Issue 11, class 2: a layout cannot use more cards than the hand holds, nor the final discard."""

import pytest

from referee.engine import RULESETS, find_rules, parse_cards, solve_open, variants_for
from referee.engine.checks import hand_capacity, layout_size_reasons, most_buys

from .verdicts import layoff, opening


def _every_rules():
    return list(_rules_params())


def _rules_params():
    for slug in RULESETS:
        for variants in [[], *[[v.slug] for v in variants_for(slug)]]:
            yield pytest.param(find_rules(slug, variants), id="-".join([slug, *variants]))


@pytest.mark.parametrize("rules", _every_rules())
def test_every_non_final_round_keeps_a_card_back_for_the_discard(rules):
    for rnd in rules.rounds:
        if rnd.final:
            continue
        cap = hand_capacity(rules, rnd.number)
        assert cap == rnd.dealt + 1 + 2 * most_buys(rules, rnd.number)
        assert layout_size_reasons(rules, rnd.number, cap - 1) == []
        (empty,) = layout_size_reasons(rules, rnd.number, cap)
        assert "leaving none to discard" in empty
        (over,) = layout_size_reasons(rules, rnd.number, cap + 1)
        assert f"at most {cap} after the draw" in over


@pytest.mark.parametrize(
    ("melds", "message"),
    [
        (["7C 7D 7H 7S", "8S 8D 8H 8C"], "8 cards are every card a hand holds in round 1 after the draw"),
        (["7C 7D 7H 7S 7C", "8S 8D 8H 8C"], "9 cards are more than a hand holds in round 1: at most 8"),
        (["7C 7D 7H 7S 7C 7D 7H 7S", "8S 8D 8H 8C 8S 8D 8H 8C"], "16 cards are more than a hand holds"),
    ],
)
def test_the_issues_openings_are_refused(melds, message):
    verdict = opening("mexican", [], 1, *melds)
    assert not verdict.legal
    assert any(message in r for r in verdict.reasons), verdict.reasons


def test_an_opening_that_leaves_one_card_says_discarding_it_goes_out():
    verdict = opening("mexican", [], 1, "7C 7D 7H 7S", "8S 8D 8H")
    assert verdict.legal
    assert verdict.notes == ("This leaves one card in hand: discard it and you are out.",)
    shorter = opening("mexican", [], 1, "7C 7D 7H", "8S 8D 8H")
    assert "from your next turn you may add" in shorter.notes[0]


def test_buys_count_two_cards_each_where_the_rules_allow_them():
    # buy-discard: at most 3 buys, so round 1 holds 7 + 1 + 6 = 14 after the draw.
    assert hand_capacity(find_rules("mexican", ["buy-discard"]), 1) == 14
    assert hand_capacity(find_rules("mexican", ["buy-discard"]), 1, buys=1) == 10
    # Not told how many: the most the rules allow, so 8 cards may leave some in hand.
    assert opening("mexican", ["buy-discard"], 1, "7C 7D 7H 7S", "8S 8D 8H 8C").legal
    from referee.engine import check_layout, parse_played

    rules = find_rules("mexican", ["buy-discard"])
    melds = [parse_played("7C 7D 7H 7S"), parse_played("8S 8D 8H 8C")]
    refused = check_layout(rules, 1, melds, final=False, buys=0)
    assert not refused.legal and "leaving none to discard" in refused.reasons[0]
    too_many = check_layout(rules, 1, melds, final=False, buys=4)
    assert "4 buys are more than Mexican Rummy allows in a round: at most 3" in too_many.reasons


def test_the_solver_refuses_a_hand_bigger_than_the_round_allows():
    verdict = solve_open(find_rules(), 2, parse_cards("7C 7D 7H 7S 9S 10S JS QS KS 2C"))
    assert not verdict.legal
    assert verdict.reasons == (
        "10 cards are more than a hand holds in round 2: at most 9 after the draw (8 dealt, 1 drawn)",
    )


def test_laying_off_keeps_a_card_back_too():
    # Round 1: 8 cards after the draw, at least 6 laid down to open: 2 left, one to discard.
    verdict = layoff("mexican", [], 1, "7C 7D 7H", "7S JK")
    assert not verdict.legal
    assert verdict.reasons == (
        "after laying down the contract (6 or more of its cards) a hand in round 1 holds at most 2 cards "
        "after the draw, one of them kept to discard: at most 1 can be laid off, not 2",
    )
    assert layoff("mexican", [], 1, "7C 7D 7H", "7S").legal


def test_the_check_api_takes_buys(client):
    body = {
        "ruleset": "mexican",
        "variants": ["buy-discard"],
        "round": 1,
        "action": "open",
        "melds": ["7C 7D 7H 7S", "8S 8D 8H 8C"],
        "buys": 0,
    }
    answer = client.post("/api/referee/check/", body, content_type="application/json").json()
    assert answer["legal"] is False and "leaving none to discard" in answer["reasons"][0]
    body["buys"] = 1
    assert client.post("/api/referee/check/", body, content_type="application/json").json()["legal"] is True
