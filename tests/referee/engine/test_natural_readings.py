"""Issue 11, class 1: a card of the wild rank stands as itself wherever it can, in every check."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import RULESETS, Kind, Played, Suit, check_layoff, check_swap, find_rules, variants_for
from referee.engine.budget import Budget
from referee.engine.cards import ACE, Card
from referee.engine.melds import Wilds, read

from .verdicts import layoff, opening, shown, swap

SUITS = list(Suit)


def _rules_with_wild_ranks():
    """Every ruleset and variant (alone) whose rounds have a wild rank besides jokers."""
    found = []
    for slug in RULESETS:
        for variants in [[], *[[v.slug] for v in variants_for(slug)]]:
            rules = find_rules(slug, variants)
            rounds = [r.number for r in rules.rounds if rules.wild_rank(r.number) is not None]
            if rounds:
                found.append(pytest.param(rules, rounds, id="-".join([slug, *variants])))
    return found


def _card(rank, suit):
    return Card.parse(f"{'A' if rank in (1, 14) else {11: 'J', 12: 'Q', 13: 'K'}.get(rank, rank)}{suit.value}")


def _run(low, high, suit):
    return [Played(_card(rank, suit)) for rank in range(low, high + 1)]


@pytest.mark.parametrize(("rules", "rounds"), _rules_with_wild_ranks())
def test_a_wild_rank_card_at_the_top_of_a_run_is_itself_when_laying_off(rules, rounds):
    for number in rounds:
        if rules.round(number).final or all(c.kind is not Kind.RUN for c in rules.round(number).contract):
            continue  # no run on the table to lay off onto
        wild = rules.wild_rank(number)
        top = 14 if wild == ACE else wild
        if top < 6:
            continue
        target = _run(top - 3, top, Suit.HEARTS)  # e.g. 5H 6H 7H 8H with eights wild
        below = [Played(_card(top - 5, Suit.HEARTS))]  # 3H: it does not touch the run
        verdict = check_layoff(rules, number, target, below)
        assert not verdict.legal, (number, [str(p) for p in target], verdict)
        fits = [Played(_card(top - 4, Suit.HEARTS))]  # 4H: it does
        assert check_layoff(rules, number, target, fits).legal


@pytest.mark.parametrize(("rules", "rounds"), _rules_with_wild_ranks())
def test_a_wild_rank_card_standing_as_itself_frees_nothing_in_a_swap(rules, rounds):
    rules = find_rules(rules.slug, [*rules.variants, "wild-swap"]) if "wild-swap" not in rules.variants else rules
    for number in rounds:
        if rules.round(number).final:
            continue
        top = 14 if rules.wild_rank(number) == ACE else rules.wild_rank(number)
        if top < 6:
            continue
        target = _run(top - 3, top, Suit.HEARTS)
        verdict = check_swap(rules, number, target, [Played(_card(top - 4, Suit.HEARTS))])
        assert not verdict.legal and verdict.freed is None


@pytest.mark.parametrize(("rules", "rounds"), _rules_with_wild_ranks())
def test_a_legal_opening_is_explained_with_the_natural_reading(rules, rounds):
    for number in rounds:
        rnd = rules.round(number)
        wild = rules.wild_rank(number)
        if rnd.final or Kind.RUN not in [c.kind for c in rnd.contract]:
            continue
        top = 14 if wild == ACE else wild
        low = top - 3 if top >= 5 else top
        run = _run(low, low + 3, Suit.SPADES)
        reading = read(run, Wilds(wild), Kind.RUN, Budget())[0]
        assert len(reading) == 1 and not reading[0].wilds, (number, [str(p) for p in run])


def test_the_issues_examples():
    assert not layoff("mexican", [], 6, "5H 6H 7H 8H", "3H").legal
    assert not layoff("mexican", ["kings-wild"], 3, "10S JS QS KS", "8S").legal
    assert not swap("mexican", ["wild-swap"], 6, "5H 6H 7H 8H", "4H").legal
    verdict = opening("mexican", [], 5, "4S 5S 6S 7S", "9C 9D 9H", "KC KD KH")
    assert verdict.legal and shown(verdict)[0] == "4S 5S 6S 7S"
    assert verdict.melds[0].reading.describe() == "a run 4S-7S"
    assert not verdict.melds[0].ambiguous


def test_a_declaration_still_decides():
    verdict = layoff("mexican", [], 6, "5H 6H 7H 8H=4H", "3H")
    assert verdict.legal and shown(verdict) == ["3H 8H=4H 5H 6H 7H"]


def test_equally_natural_readings_remain_choices():
    verdict = opening("mexican", [], 2, "5S 6S 7S JK", "9H 9D 9C")
    assert verdict.melds[0].ambiguous
    assert [r.describe() for r in verdict.melds[0].readings] == ["a run 4S-7S", "a run 5S-8S"]


@settings(max_examples=300, deadline=None)
@given(
    number=st.integers(min_value=1, max_value=6),
    suit=st.sampled_from(SUITS),
    length=st.integers(min_value=4, max_value=9),
    start=st.integers(min_value=1, max_value=11),
    jokers=st.sets(st.integers(min_value=0, max_value=8), max_size=3),
    seed=st.integers(min_value=0, max_value=2**16),
    variant=st.sampled_from([[], ["kings-wild"], ["fixed-twos"]]),
)
def test_every_wild_rank_card_that_could_stand_as_itself_does(number, suit, length, start, jokers, seed, variant):
    """Random legal runs: natural cards, some replaced by jokers, in any order; every card of
    the wild rank that stands at its own place in the run is read as itself."""
    rules = find_rules("mexican", variant)
    wild = rules.wild_rank(number)
    start = min(start, 15 - length)
    ranks = list(range(start, start + length))
    cards = [
        Played(Card.parse("JK")) if i in jokers and len(jokers) < length else Played(_card(rank, suit))
        for i, rank in enumerate(ranks)
    ]
    random.Random(seed).shuffle(cards)
    readings, reasons = read(cards, Wilds(wild), Kind.RUN, Budget())
    assert readings, reasons
    for reading in readings:
        wild_rank_cards = [p for p in reading.cards if not p.card.is_joker and p.card.rank == wild]
        assert all(not p.wild for p in wild_rank_cards), [str(p) for p in reading.cards]
        assert len(reading.wilds) == sum(p.card.is_joker for p in cards)
