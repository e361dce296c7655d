"""The referee bounded under any house rules (issue 48): every search charges one budget before it
tries a candidate, and a budget spent is answered in words, never with a verdict not reached.

The cases that held a core before the budget are fixed examples: on the code before it, the first
took 42 s in process, the second 69 s, the third 25 s and the fourth 15 s."""

import json

import pytest

from referee.engine import budget as budget_module
from referee.engine import check_layoff, check_layout, find_rules, parse_cards, parse_played, solve_go_out, solve_open
from referee.engine.budget import MAX_STEPS, Budget
from referee.engine.checks import MAX_REASONS
from referee.engine.documents import rules_from_document
from scorekeeping.bench.trials import CHECKS, CORE_CASES, SOLVES, Trial
from scorekeeping.bench.worst import climb, work


def house(document):
    return rules_from_document({**document, "name": "House"}, slug="house")


@pytest.mark.parametrize("name", list(CORE_CASES), ids=list(CORE_CASES))
def test_a_case_that_held_a_core_is_decided_within_a_part_of_the_budget(name):
    document, action, cards = CORE_CASES[name]
    cost = work(Trial(document, 1, action, tuple(cards)))
    assert cost.verdict == "illegal"  # decided: none of them is legal
    assert cost.steps < MAX_STEPS * 2 // 3, cost


def test_runs_that_join_are_refused_by_name_and_read_apart_where_they_can_be():
    document, _action, melds = CORE_CASES["joins: two runs that join and three all-wild melds"]
    rules = house(document)
    verdict = check_layout(rules, 1, [parse_played(m) for m in melds], final=False)
    assert verdict.decided and not verdict.legal
    assert verdict.reasons == (
        "meld 1 (6H 7H 8H 9H) and meld 2 (10H JH QH KH) join up into one sequence; "
        "in House same-suit sequences in the meld must overlap or leave a gap",
    )
    apart = ["6H 7H 8H 9H", "JH QH KH 2C", "2C 3C 4C 5C", "2D 3D 4D 5D", "JK JK JK JK"]
    verdict = check_layout(rules, 1, [parse_played(m) for m in apart], final=False)
    assert verdict.legal
    runs = [(m.reading.suit, m.reading.low, m.reading.high) for m in verdict.melds]
    for i, (suit, low, high) in enumerate(runs):  # no two chosen readings meet end to end
        for other_suit, other_low, other_high in runs[i + 1 :]:
            assert suit is not other_suit or (high + 1 != other_low and other_high + 1 != low)


def test_runs_round_the_corner_join_across_the_ace():
    rules = house(
        {
            "based_on": "contract",
            "runs": {"min": 4, "ace": "around"},
            "rounds": [{"dealt": 10, "contract": [{"meld": "run", "size": 4}] * 2, "wild_rank": None}],
        }
    )
    verdict = check_layout(rules, 1, [parse_played("QS KS AS 2S"), parse_played("3S 4S 5S 6S")], final=False)
    assert not verdict.legal and "join up into one sequence" in verdict.reasons[0]
    gap = check_layout(rules, 1, [parse_played("QS KS AS 2S"), parse_played("4S 5S 6S 7S")], final=False)
    assert gap.legal


def test_a_layout_no_hand_holds_is_refused_by_count_and_its_answer_is_short():
    rules = house({"based_on": "contract", "deck": {"packs": 4, "jokers": 12}, "table": {"buys": {"limit": 10}}})
    suits = "CDHS"
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    melds = [" ".join(f"{r}{suits[i % 4]}" for r in ranks) for i in range(8)]
    verdict = check_layout(rules, 7, [parse_played(m) for m in melds], final=True)
    assert not verdict.legal and verdict.decided
    assert "104 cards" in verdict.reasons[0] or "this layout has 104" in verdict.reasons[0]
    assert len(verdict.reasons) <= MAX_REASONS
    assert len(json.dumps(verdict.reasons)) < 8_000


def test_a_refusal_with_more_reasons_than_it_says_counts_the_rest():
    melds = ["2C 9H", "3D 10S", "4H JC", "5S QD", "6C KH", "7D AS", "8H 2S", "9S 3C"]
    verdict = check_layout(find_rules("mexican"), 1, [parse_played(m) for m in melds], final=False)
    assert len(verdict.reasons) == MAX_REASONS
    assert verdict.reasons[-1].startswith("… and ") and verdict.reasons[-1].endswith("more reasons")


def test_a_spent_budget_is_said_in_words_and_decides_nothing(monkeypatch):
    monkeypatch.setattr(budget_module, "MAX_STEPS", 40)
    document, _action, melds = CORE_CASES["joins: two runs that join and three all-wild melds"]
    verdict = check_layout(house(document), 1, [parse_played(m) for m in melds], final=False)
    assert not verdict.legal and not verdict.decided
    assert verdict.reasons == (
        "these cards can be read in too many ways to check them all at once: "
        "name what each wild stands for (as in JK=7S) and check again",
    )
    layoff = check_layoff(house(document), 1, parse_played("JK JK JK JK"), parse_played("JK"))
    assert not layoff.decided and "name what each wild stands for" in layoff.reasons[0]


def test_a_final_round_of_books_goes_out_with_books():
    rules = house(
        {
            "based_on": "mexican",
            "rounds": [{"dealt": 7, "contract": [{"meld": "book", "size": 3}] * 2, "wild_rank": "3", "final": True}],
        }
    )
    verdict = solve_go_out(rules, 1, parse_cards("7C 7D 7H 8C 8D 8H 8S JK"))
    assert verdict.legal and sorted(len(m.reading.cards) for m in verdict.melds) == [3, 5]
    assert not solve_go_out(rules, 1, parse_cards("7C 7D 7H 8C 8D 8H 8S 9C")).legal
    runs = solve_go_out(rules, 1, parse_cards("5C 6C 7C 8C 8D 9D 10D JD"))
    assert not runs.legal and runs.decided  # runs are no books: refused, not a server error


def test_an_opening_lengthened_never_joins_runs_that_may_not_join():
    rules = house({"based_on": "liverpool", "contract_sizes": "minimum"})
    hand = parse_cards("JK JK 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2D")
    verdict = solve_open(rules, 7 - 4, hand)
    assert verdict.legal, verdict.reasons


def test_the_search_answers_for_its_budget_as_it_finds_an_opening():
    contract = find_rules("contract")
    hand = parse_cards("3S 4S 5S 6S 8S 9S 10S JS KD")
    spent = Budget()
    assert solve_open(contract, 3, hand, budget=spent).legal
    assert 0 < spent.taken < MAX_STEPS


def test_no_search_works_more_than_it_counts():
    """A short, seeded climb over house documents and cards for the most Python calls per step
    counted: a loop that tries candidates it does not charge shows as calls outrunning steps."""

    def score(trial):
        cost = work(trial, count_calls=True)
        return cost.calls / (cost.steps + 200)

    worst = climb((*CHECKS, *SOLVES), score, seed=48, tries=240, keep=5, starts_count=12)
    for ratio, trial in worst:
        cost = work(trial)
        assert cost.steps <= MAX_STEPS + 200  # a step past the budget is the one that ends it
        assert ratio < 14, (ratio, trial.key)
