""" "Can I?": the solver against a brute-force search, and its answers against the checker."""

from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import (
    JOKER,
    Card,
    ImpossibleHand,
    Played,
    Suit,
    check_layout,
    find_rules,
    parse_cards,
    solve_go_out,
    solve_open,
)
from referee.engine.rules import Component, Kind, Round

SMALL_DECK = [Card(r, s) for s in (Suit.SPADES, Suit.HEARTS) for r in (1, 2, 3, 4, 5, 6, 7, 12, 13)]


def hands(size):
    """Hands from a small deck (two packs of it and up to 3 jokers), so melds are common."""
    return st.lists(
        st.sampled_from([*SMALL_DECK, *SMALL_DECK, JOKER, JOKER, JOKER]), min_size=size, max_size=size
    ).filter(lambda h: all(h.count(c) <= 2 for c in h) and h.count(JOKER) <= 3)


def brute_open(rules, number, hand):
    """Any disjoint components (minimum length or one more) that the checker accepts, one card kept back."""
    contract = rules.round(number).contract
    sizes = [[c.length] if rules.exact_opening else [c.length, c.length + 1] for c in contract]

    def rec(i, left, chosen):
        if i == len(contract):
            if not left:
                return False
            melds = [[Played(hand[j]) for j in meld] for meld in chosen]
            return check_layout(rules, number, melds, final=False).legal
        for size in sizes[i]:
            for meld in combinations(sorted(left), size):
                if rec(i + 1, left - set(meld), [*chosen, meld]):
                    return True
        return False

    return rec(0, set(range(len(hand))), [])


def brute_go_out(rules, number, hand):
    """Every way of splitting the hand into two runs, checked by the checker."""
    n = len(hand)
    for k in range(4, n - 3):
        for first in combinations(range(n), k):
            second = [j for j in range(n) if j not in first]
            melds = [[Played(hand[j]) for j in first], [Played(hand[j]) for j in second]]
            if check_layout(rules, number, melds, final=True).legal:
                return True
    return False


SOLVER_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@pytest.mark.parametrize(
    ("ruleset", "number", "size"),
    [("mexican", 1, 7), ("mexican", 2, 8), ("mexican", 3, 9), ("contract", 2, 8), ("contract", 3, 9)],
    ids=["mexican-2-books", "mexican-book-run", "mexican-2-runs", "contract-group-sequence", "contract-2-sequences"],
)
@pytest.mark.once  # engine only: the database does not matter
def test_solver_open_agrees_with_brute_force(ruleset, number, size):
    rules = find_rules(ruleset)

    @SOLVER_SETTINGS
    @given(hands(size))
    def check(hand):
        verdict = solve_open(rules, number, hand)
        assert verdict.legal == brute_open(rules, number, hand), (hand, verdict.reasons)
        if verdict.legal:
            melds = [[Played(p.card, p.identity if p.wild else None) for p in m.reading.cards] for m in verdict.melds]
            assert check_layout(rules, number, melds, final=False).legal
            used = sorted(
                [p.card for m in verdict.melds for p in m.reading.cards] + list(verdict.unused), key=Card.sort_key
            )
            assert used == sorted(hand, key=Card.sort_key)
            assert len(verdict.unused) >= 1

    check()


R4 = Component(Kind.RUN, 4)
TWO_RUN_FINAL = replace(find_rules("mexican"), rounds=(Round(1, 8, (R4, R4), final=True),), wild_ranks=(3,))
TWO_RUN_FINAL_NO_JOIN = replace(TWO_RUN_FINAL, runs_may_join=False)


@pytest.mark.parametrize("rules", [TWO_RUN_FINAL, TWO_RUN_FINAL_NO_JOIN], ids=["runs-may-join", "runs-may-not-join"])
@pytest.mark.once
def test_solver_go_out_agrees_with_brute_force(rules):
    @SOLVER_SETTINGS
    @given(hands(9))
    def check(hand):
        verdict = solve_go_out(rules, 1, hand)
        assert verdict.legal == brute_go_out(rules, 1, hand), (hand, verdict.reasons)
        if verdict.legal:
            laid = sorted((p.card for m in verdict.melds for p in m.reading.cards), key=Card.sort_key)
            assert laid == sorted(hand, key=Card.sort_key)

    check()


def test_solver_go_out_uses_ace_high_and_ace_low_and_the_nine_as_a_wild():
    hand = parse_cards("AS 2S 3S 4S JH QH KH AH 5D 6D 7D 8D 9D JK")
    verdict = solve_go_out(find_rules(), 7, hand)
    assert verdict.legal
    assert sorted(str(m.reading) for m in verdict.melds) == ["5D 6D 7D 8D", "AS 2S 3S 4S 9D=5S JK=6S", "JH QH KH AH"]


def test_solver_go_out_says_when_there_is_none():
    hand = parse_cards("AS 2S 3S 4S JH QH KH AH 5D 6D 7D 8D KC 2C")
    verdict = solve_go_out(find_rules(), 7, hand)
    assert not verdict.legal
    assert verdict.reasons == ("these 14 cards cannot all be laid in 3 runs of 4+",)


def test_solver_go_out_checks_the_hand_size():
    verdict = solve_go_out(find_rules(), 7, parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"))
    assert verdict.reasons == ("going out in round 7 lays every card in hand: 14 after the draw; this layout has 13",)


def test_solver_open_finds_the_worked_example_and_keeps_a_discard():
    hand = parse_cards("7C 7D 4H 9S 10S JS QS KD 2C")
    verdict = solve_open(find_rules(), 2, hand)
    assert verdict.legal
    assert sorted(str(m.reading) for m in verdict.melds) == ["7C 7D 4H=7", "9S 10S JS QS"]
    assert sorted(str(c) for c in verdict.unused) == ["2C", "KD"]


def test_solver_open_lays_down_extra_cards_where_the_rules_allow():
    hand = parse_cards("7C 7D 7H 9S 10S JS QS KS 2C")
    verdict = solve_open(find_rules(), 2, hand)
    assert verdict.legal
    assert [str(c) for c in verdict.unused] == ["2C"]


def test_solver_open_keeps_exact_contracts_exact():
    hand = parse_cards("7C 7D 7H 7S 9S 10S JS QS KS 2C")
    verdict = solve_open(find_rules("contract"), 2, hand)
    assert verdict.legal
    assert [len(m.reading.cards) for m in verdict.melds] == [4, 3]


def test_solver_open_says_when_there_is_none():
    verdict = solve_open(find_rules(), 2, parse_cards("7C 7D 8H 9S 10S JS 3S KD 2C"))
    assert verdict.reasons == ("this hand holds no opening for round 2: 1 book of 3+ and 1 run of 4+",)


def test_solver_open_needs_a_card_left_to_discard():
    verdict = solve_open(find_rules(), 1, parse_cards("7C 7D 7H 8S 8D 8H"))
    assert "one more must stay in hand to discard" in verdict.reasons[0]


def test_solver_refuses_open_in_the_final_round():
    verdict = solve_open(find_rules(), 7, parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2H"))
    assert "nothing is laid down before going out" in verdict.reasons[0]


def test_solver_refuses_impossible_hands():
    with pytest.raises(ImpossibleHand, match="7C appears 3 times"):
        solve_open(find_rules(), 2, parse_cards("7C 7C 7C 9S 10S JS QS KD 2C"))


def test_solver_shanghai_deal_ten_three_runs_of_five():
    hand = parse_cards("2C 3C 4C 5C 6C 8D 9D 10D JD QD 4H 5H JK 7H 8H KS")
    verdict = solve_open(find_rules("shanghai"), 10, hand)
    assert verdict.legal
    assert [str(c) for c in verdict.unused] == ["KS"]
    assert all(len(m.reading.cards) == 5 for m in verdict.melds)


def test_solver_contract_deal_three_keeps_same_suit_runs_apart():
    # 3S-10S could be split into touching runs; the contract forbids it, so the solver overlaps or gaps.
    hand = parse_cards("3S 4S 5S 6S 7S 8S 9S 10S 10S KD")
    verdict = solve_open(find_rules("contract"), 3, hand)
    assert not verdict.legal
    with_gap = parse_cards("3S 4S 5S 6S 8S 9S 10S JS KD")
    assert solve_open(find_rules("contract"), 3, with_gap).legal


def test_solver_open_many_wilds_round_six():
    hand = parse_cards("JK JK JK JK 8C 8D 8H 8S 2C 7D KH QS AD")
    verdict = solve_open(find_rules(), 6, hand)
    assert verdict.legal
    assert Component(Kind.BOOK, 3) in find_rules().round(6).contract


def test_the_solver_stops_at_its_work_budget_and_says_why(monkeypatch):
    from referee.engine import budget

    hand = parse_cards("6C 10C 4D 5D 6D 7D 8D 9D JD 5H 7H 8H JK JK JK JK")
    searched = solve_open(find_rules("shanghai"), 10, hand)
    assert not searched.legal and searched.decided  # searched to the end: no opening
    monkeypatch.setattr(budget, "MAX_STEPS", 3)
    verdict = solve_open(find_rules("shanghai"), 10, hand)
    assert not verdict.legal and not verdict.decided
    assert "too many ways to check them all at once" in verdict.reasons[0]
    go_out = solve_go_out(
        find_rules("contract"), 7, parse_cards("AC 8C JC KC AH 3H 4H 4H 6H 7H 7H 9H JH JH QH AS QS KS JK")
    )
    assert not go_out.decided and "lay out the runs you have in mind" in go_out.reasons[0]
