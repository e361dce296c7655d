"""A ruleset in words, and what a house ruleset changes from its base (issue 49: the saved
house-rules page never mentioned "ace around", the table's key difference)."""

from dataclasses import replace

import pytest

from referee.engine import find_rules
from referee.engine.rules import AceMode
from referee.engine.rulesets import RULESETS
from referee.engine.summary import GENERAL, differences, rule_lines


@pytest.mark.parametrize("slug", sorted(RULESETS))
def test_every_ruleset_is_said_in_one_sentence_per_aspect(slug):
    rules = RULESETS[slug]
    lines = rule_lines(rules)
    keys = [line.key for line in lines]
    assert len(keys) == len(set(keys))  # an aspect is said once
    assert set(GENERAL) - {"cut"} <= set(keys)
    assert [k for k in keys if k.startswith("round-")] == [f"round-{n}" for n in range(1, rules.last_round + 1)]
    assert not any(line.text.lstrip('"')[0].islower() for line in lines)  # sentences, each
    assert differences(rules, rules) == []  # the same rules differ in nothing


def test_ace_around_is_the_difference_said():
    base = find_rules("mexican")
    house = replace(base, runs=replace(base.runs, ace=AceMode.AROUND))
    said = differences(base, house)
    assert len(said) == 1
    assert "round the corner (K-A-2)" in said[0]
    assert "not round the corner" in next(line.text for line in rule_lines(base) if line.key == "runs")


def test_a_round_dropped_and_a_bonus_gone_are_said():
    base = find_rules("liverpool")  # deals, and a bonus for the cut
    house = replace(base, rounds=base.rounds[:5], cut_bonus=0)
    said = differences(base, house)
    assert {"Deal 6 is not played.", "Deal 7 is not played."} <= set(said)
    assert "No bonus for cutting exactly the cards needed." in said
    assert "5 deals." in said


def test_every_variant_differs_from_its_ruleset_in_words():
    """A variant changes a rule: its page can say which, in words (none changes nothing)."""
    from referee.engine.rulesets import variants_for

    for slug in RULESETS:
        for variant in variants_for(slug):
            assert differences(find_rules(slug), find_rules(slug, [variant.slug])), (slug, variant.slug)
