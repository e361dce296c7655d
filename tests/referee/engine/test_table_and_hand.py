"""Issue 23, classes 1 and 2, written from the rule texts: only the contract's melds are ever laid
(000: "no new melds after opening"; 003: "meld once per deal, exactly the contract"), so what can
be on the table follows the round's contract; and an opening lays at least the contract's cards
and every turn but the last ends with a discard, so what a hand can lay off later is bounded."""

import pytest

from referee.engine import RULESETS, Kind, find_rules, variants_for
from referee.engine.checks import layoff_size_reasons

from .verdicts import layoff, swap

ALL = [(slug, ()) for slug in RULESETS] + [(slug, (v.slug,)) for slug in RULESETS for v in variants_for(slug)]


def _rounds(slug, variants):
    rules = find_rules(slug, variants)
    return rules, [n for n in range(1, rules.last_round + 1) if not rules.round(n).final]


# --- 1. what can be on the table --------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "variants", "number", "target", "cards", "said"),
    [
        ("mexican", [], 1, "5S 6S 7S 8S", "9S", "in round 1 only books are on the table"),
        ("mexican", [], 3, "7C 7D 7H", "7S", "in round 3 only runs are on the table"),
        ("mexican", [], 4, "5S 6S 7S 8S", "9S", "in round 4 only books are on the table"),
        ("contract", [], 4, "5S 6S 7S 8S", "9S", "in deal 4 only groups are on the table"),
        ("contract", [], 1, "5S 6S 7S 8S", "4S", "in deal 1 only groups are on the table"),
        ("contract", [], 3, "7C 7D 7H", "7S", "in deal 3 only sequences are on the table"),
        ("shanghai", [], 4, "5S 6S 7S 8S", "9S", "in deal 4 only groups are on the table"),
        ("shanghai", [], 10, "7C 7D 7H", "7S", "in deal 10 only sequences are on the table"),
    ],
)
def test_a_layoff_onto_a_meld_the_contract_never_lays_is_refused(ruleset, variants, number, target, cards, said):
    verdict = layoff(ruleset, variants, number, target, cards, buys=0)
    assert not verdict.legal and any(r.startswith(said) for r in verdict.reasons), verdict.reasons


def test_a_swap_into_a_sequence_in_a_deal_of_groups_only_is_refused():
    verdict = swap("contract", [], 1, "5S JK 7S 8S", "6S")  # deal 1: exactly two groups, no sequence exists
    assert not verdict.legal and verdict.reasons[0].startswith("in deal 1 only groups are on the table")
    assert swap("contract", [], 2, "5S JK 7S 8S", "6S").legal  # deal 2 lays a sequence
    verdict = swap("mexican", ["wild-swap"], 1, "5S JK 7S 8S", "6S")
    assert not verdict.legal and verdict.reasons[0].startswith("in round 1 only books are on the table")
    assert swap("mexican", ["wild-swap"], 2, "5S JK 7S 8S", "6S").legal


@pytest.mark.parametrize(("ruleset", "variants"), ALL)
def test_every_round_refuses_the_kind_its_contract_lacks_and_takes_the_kind_it_has(ruleset, variants):
    rules, rounds = _rounds(ruleset, variants)
    book, run = rules.book_plural, rules.run_plural
    for number in rounds:
        kinds = {c.kind for c in rules.round(number).contract}
        on_run = layoff(ruleset, variants, number, "5H 6H 7H 8H", "9H")
        on_book = layoff(ruleset, variants, number, "KC KD KH", "KS")
        if layoff_size_reasons(rules, number, 1):  # Shanghai deal 10: whoever melds goes out at once
            assert not on_run.legal and not on_book.legal
            continue
        if Kind.RUN in kinds:
            assert on_run.legal, (number, on_run.reasons)
        else:
            assert on_run.reasons[-1].startswith(f"in {rules.round_name(number)} only {book} are on the table")
        if Kind.BOOK in kinds:
            assert on_book.legal, (number, on_book.reasons)
        else:
            assert on_book.reasons[-1].startswith(f"in {rules.round_name(number)} only {run} are on the table")


# --- 2. what a hand can lay off after its opening ---------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "variants", "number", "buys", "most"),
    [
        ("mexican", [], 1, None, 1),  # 8 after the draw, 6 laid: 2 held, one to discard
        ("mexican", [], 3, None, 1),  # 10 after the draw, 8 laid
        ("mexican", ["open-turn-layoff"], 1, None, 1),  # on the opening turn too: 8 - 6 = 2, one to discard
        ("mexican", ["buy-discard"], 3, 1, 3),  # a buy brings 2 more cards
        ("contract", [], 6, 0, 1),  # 13 after the draw, 11 melded: 2 held
        ("contract", [], 1, 0, 4),  # 11 after the draw, 6 melded: 5 held
        ("shanghai", [], 10, None, 0),  # 16 at most (2 "May I?"s), 15 melded: whoever melds goes out
        ("shanghai", [], 10, 0, 0),
    ],
)
def test_a_layoff_is_bounded_by_what_the_hand_holds_after_its_opening(ruleset, variants, number, buys, most):
    rules = find_rules(ruleset, variants)
    kinds = {c.kind for c in rules.round(number).contract}  # a book where the contract lays books, else a run
    if Kind.BOOK in kinds:
        target, extra = "KC KD KH", ["KS", "KC", "KD", "KH", "KS"]
    else:
        target, extra = "5H 6H 7H 8H", ["9H", "10H", "JH", "QH", "4H"]
    for n in range(1, 6):
        verdict = layoff(ruleset, variants, number, target, " ".join(extra[:n]), buys=buys)
        size = [r for r in verdict.reasons if r.startswith("after laying down the contract")]
        assert bool(size) == (n > most), (n, verdict.reasons)
        if n <= most:
            assert verdict.legal, (n, verdict.reasons)


def test_the_bound_is_lifted_by_buys_the_check_api_is_told_of(client):
    body = {
        "ruleset": "mexican",
        "variants": ["buy-discard"],
        "round": 3,
        "action": "layoff",
        "target": "5H 6H 7H 8H",
        "cards": "9H 10H JH",
        "buys": 0,
    }
    refused = client.post("/api/referee/check/", body, content_type="application/json").json()
    assert refused["legal"] is False and "at most 1 can be laid off, not 3" in refused["reasons"][0]
    body["buys"] = 1
    assert client.post("/api/referee/check/", body, content_type="application/json").json()["legal"] is True


@pytest.mark.parametrize(("ruleset", "variants"), ALL)
def test_in_every_round_a_layoff_keeps_to_what_the_opening_left(ruleset, variants):
    """Without buys: after the draw a hand that has laid down its contract holds dealt + 1 less the
    contract's cards; one of them is the discard. One card more than that is refused, and the bound
    grows by 2 with each buy."""
    rules, rounds = _rounds(ruleset, variants)
    for number in rounds:
        rnd = rules.round(number)
        held = rnd.dealt + 1 - sum(c.length for c in rnd.contract)  # 0 in Shanghai deal 7: no layoff at all
        assert layoff_size_reasons(rules, number, max(held, 1), buys=0), (number, held)
        assert held - 1 < 1 or not layoff_size_reasons(rules, number, held - 1, buys=0), (number, held)
        if rules.buys.allowed and held > 0:
            assert not layoff_size_reasons(rules, number, held, buys=1), number
