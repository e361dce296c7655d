"""Laying off onto exposed melds, and swapping a played wild for its natural card."""

import pytest

from .verdicts import layoff, shown, swap

LEGAL_LAYOFFS = [
    # ruleset, variants, round, target, cards, result
    ("mexican", [], 2, "7C 7D 4H=7S", "7H", ["7C 7D 4H=7S 7H"]),  # document 000, section 07
    ("mexican", ["buy-discard"], 2, "7C 7D 4H", "7H 7S JK", ["7C 7D 4H=7 7H 7S JK=7"]),  # 3 cards: bought ones
    ("mexican", [], 2, "9S 10S JS QS", "KS", ["9S 10S JS QS KS"]),
    ("mexican", [], 2, "9S 10S JS QS", "8S", ["8S 9S 10S JS QS"]),
    ("mexican", ["buy-discard"], 2, "9S 10S JS QS", "KS AS 8S", ["8S 9S 10S JS QS KS AS"]),  # both ends at once
    ("mexican", [], 2, "JS QS KS AS", "10S", ["10S JS QS KS AS"]),
    ("mexican", [], 2, "AS 2S 3S 4S", "5S", ["AS 2S 3S 4S 5S"]),
    ("mexican", [], 2, "9S 10S JS QS", "JK", ["JK=8S 9S 10S JS QS"]),  # a wild at an end: first choice shown
    ("mexican", [], 2, "9S 10S JS QS", "JK=KS", ["9S 10S JS QS JK=KS"]),
    ("mexican", [], 2, "5S 6S JK=7S 8S", "9S", ["5S 6S JK=7S 8S 9S"]),
    ("contract", [], 2, "5C 5D 5H", "5S 5S", ["5C 5D 5H 5S 5S"]),
    ("contract", [], 2, "9S 10S JK QS", "KS", ["9S 10S JK=JS QS KS"]),
]


@pytest.mark.parametrize(
    ("ruleset", "variants", "number", "target", "cards", "result"),
    LEGAL_LAYOFFS,
    ids=[f"{x[3]} + {x[4]}" for x in LEGAL_LAYOFFS],
)
def test_layoff_legal(ruleset, variants, number, target, cards, result):
    verdict = layoff(ruleset, variants, number, target, cards)
    assert verdict.reasons == ()
    assert shown(verdict) == result


ILLEGAL_LAYOFFS = [
    (
        "mexican",
        [],
        2,
        "7C 7D 4H",
        "8H",
        ["8H is not a seven: a book of sevens (7C 7D 4H=7) takes only sevens or wilds"],
    ),
    ("mexican", [], 2, "9S 10S JS QS", "10S", ["a run grows only at its ends, here 8S or KS"]),
    ("mexican", [], 2, "9S 10S JS QS", "KH", ["KH is not of spades", "here 8S or KS"]),
    ("mexican", [], 2, "9S 10S JS QS", "AS", ["here 8S or KS"]),  # not next to an end
    ("mexican", [], 2, "JS QS KS AS", "2S", ["here 10S"]),  # no wrap
    ("mexican", [], 2, "5S 6S 7S JK=8S", "8S", ["here 4S or 9S"]),  # wilds keep their identity
    ("mexican", [], 2, "7C 7D 4H=7S", "JK=8", ["JK=8 cannot go onto a book of sevens"]),
    ("mexican", [], 7, "2S 3S 4S 5S", "6S", ["nothing is on the table to add to"]),
    ("mexican", [], 2, "7C 8D 9H", "7H", ["the exposed meld 7C 8D 9H is not a meld", "mixes ranks"]),
    ("mexican", [], 2, "7C 7D 7H", "", ["no cards to lay off were given"]),
    ("mexican", [], 2, "7C 7C 7C", "7H", ["7C appears 3 times"]),
]


@pytest.mark.parametrize(
    ("ruleset", "variants", "number", "target", "cards", "reasons"),
    ILLEGAL_LAYOFFS,
    ids=[f"{x[3]} + {x[4]}" for x in ILLEGAL_LAYOFFS],
)
def test_layoff_illegal(ruleset, variants, number, target, cards, reasons):
    verdict = layoff(ruleset, variants, number, target, cards)
    assert not verdict.legal
    text = "\n".join(verdict.reasons)
    for reason in reasons:
        assert reason in text


@pytest.mark.parametrize(("variants", "legal"), [([], False), (["open-turn-layoff"], True)])
def test_layoff_on_the_opening_turn_only_with_the_variant(variants, legal):
    verdict = layoff("mexican", variants, 2, "7C 7D 7H", "7S", opened_this_turn=True)
    assert verdict.legal is legal
    if not legal:
        assert "only on turns after the one the contract was laid down" in verdict.reasons[0]
        assert "the variant “Lay off on the opening turn” allows it" in verdict.reasons[0]


def test_layoff_onto_an_ambiguous_run_says_which_reading_it_used():
    verdict = layoff("mexican", [], 2, "5S 6S 7S JK", "8S")
    assert verdict.legal
    assert shown(verdict) == ["JK=4S 5S 6S 7S 8S"]
    assert verdict.notes == ("Read as a run 4S-7S: JK=4S 5S 6S 7S.",)


LEGAL_SWAPS = [
    # ruleset, variants, round, target, card, result, freed
    ("mexican", ["wild-swap"], 2, "5S 6S 7S JK=8S", "8S", ["5S 6S 7S 8S"], "JK"),
    ("mexican", ["wild-swap"], 2, "7C 7D 4H", "7S", ["7C 7D 7S"], "4H"),  # a book's wild: any seven
    ("mexican", ["wild-swap"], 2, "7C 7D 4H=7S", "7S", ["7C 7D 7S"], "4H"),
    ("mexican", ["wild-swap"], 2, "9S 4H 11S=JS QS".replace("11S=", ""), "10S", ["9S 10S JS QS"], "4H"),
    ("contract", [], 2, "9S 10S JK QS", "JS", ["9S 10S JS QS"], "JK"),
    ("shanghai", [], 3, "JK 3H 4H 5H", "2H", ["2H 3H 4H 5H"], "JK"),
]


@pytest.mark.parametrize(
    ("ruleset", "variants", "number", "target", "card", "result", "freed"),
    LEGAL_SWAPS,
    ids=[f"{x[3]} <- {x[4]}" for x in LEGAL_SWAPS],
)
def test_swap_legal(ruleset, variants, number, target, card, result, freed):
    verdict = swap(ruleset, variants, number, target, card)
    assert verdict.reasons == ()
    assert shown(verdict) == result
    assert str(verdict.freed) == freed


ILLEGAL_SWAPS = [
    (
        "mexican",
        [],
        2,
        "5S 6S 7S JK=8S",
        "8S",
        ["Mexican Rummy fixes wilds once played", "the house rule “Wild swap” allows it"],
    ),
    (
        "mexican",
        ["wild-swap"],
        2,
        "5S 6S 7S JK=8S",
        "9S",
        ["no wild in 5S 6S 7S JK=8S stands for nine of spades: JK stands for eight of spades"],
    ),
    ("mexican", ["wild-swap"], 2, "7C 7D 4H=7S", "7H", ["no wild in 7C 7D 4H=7S stands for seven of hearts"]),
    ("mexican", ["wild-swap"], 2, "7C 7D 7H", "7S", ["holds no wild that could be replaced"]),
    ("mexican", ["wild-swap"], 2, "5S 6S 7S JK=8S", "JK", ["not a joker"]),
    ("mexican", ["wild-swap"], 2, "5S 6S 7S JK=8S", "8S 9S", ["exactly one natural card; 2 were given"]),
    ("mexican", ["wild-swap"], 7, "5S 6S 7S JK=8S", "8S", ["nothing is on the table"]),
    ("contract", [], 2, "5C 5D JK", "5S", ["a joker in a group is dead"]),
]


@pytest.mark.parametrize(
    ("ruleset", "variants", "number", "target", "card", "reasons"),
    ILLEGAL_SWAPS,
    ids=[f"{x[3]} <- {x[4]}" for x in ILLEGAL_SWAPS],
)
def test_swap_illegal(ruleset, variants, number, target, card, reasons):
    verdict = swap(ruleset, variants, number, target, card)
    assert not verdict.legal
    text = "\n".join(verdict.reasons)
    for reason in reasons:
        assert reason in text


def test_swap_in_contract_needs_a_meld_on_an_earlier_turn():
    verdict = swap("contract", [], 2, "9S 10S JK QS", "JS", opened_this_turn=True)
    assert not verdict.legal
    assert "melded on an earlier turn" in verdict.reasons[0]
