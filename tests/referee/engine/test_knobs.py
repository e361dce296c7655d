"""The knobs of a ruleset document, declared once (``referee.engine.knobs``): the reader keeps
each one's bounds and values, every scalar key the writer writes is declared, every field of the
engine's rules a document sets is a knob's (``rule``) or read by its own code, each knob is read
back into the field it was written from, and docs/rules.md's table of house-rule knobs is the one
the declaration makes."""

import dataclasses
from pathlib import Path

import pytest

from referee.engine import RULESETS
from referee.engine.documents import POLICIES, DocumentError, document_of, rules_from_document
from referee.engine.knobs import KNOB, KNOBS, knob_rows
from referee.engine.patches import merged

ROOT = Path(__file__).resolve().parents[3]
# Keys that hold more than one value, read by their own code: a deck (or one a player count), the
# rounds, the ranks wild in every round, the points of every rank.
STRUCTURED = ("name", "deck", "rounds", "wilds.ranks", "points")


def leaves(document, prefix=""):
    for key, value in document.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and path not in STRUCTURED:
            yield from leaves(value, path + ".")
        else:
            yield path


def nested(key, value):
    for part in reversed(key.split(".")):
        value = {part: value}
    return value


def faults(key, value):
    document = merged({"based_on": "contract", "name": "House"}, nested(key, value))
    with pytest.raises(DocumentError) as refused:
        rules_from_document(document, slug="house")
    return dict(refused.value.faults)


def test_every_scalar_key_the_writer_writes_is_a_declared_knob():
    for slug, rules in RULESETS.items():
        written = set(leaves(document_of(rules)))
        assert written - set(STRUCTURED) <= set(KNOB), slug
    assert {knob.key for knob in KNOBS if knob.key not in STRUCTURED} <= {
        key for rules in RULESETS.values() for key in leaves(document_of(rules))
    }


@pytest.mark.parametrize("knob", [k for k in KNOBS if k.low is not None and k.key not in STRUCTURED], ids=str)
def test_the_reader_keeps_each_numbers_bounds(knob):
    for value in (knob.low - 1, knob.high + 1):
        said = faults(knob.key, value)
        assert said.get(knob.key) == f"must be a whole number from {knob.low} to {knob.high}, not {value}"


@pytest.mark.parametrize("knob", [k for k in KNOBS if k.values], ids=str)
def test_the_reader_keeps_each_choices_values(knob):
    said = faults(knob.key, "nothing like it")
    assert said.get(knob.key, "").startswith("must be one of ")


def test_docs_rules_table_of_house_rule_knobs_is_the_declared_one():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text.split("| key | what it does |\n|---|---|\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert table == knob_rows()


# Fields of ``Rules`` a document does not set through a knob: who it is, the deck, the rounds and
# their wild ranks, the points, what the reader fills in, and the ranks wild in every round.
OWN_CODE = {"slug", "name", "source", "variants", "deck_for", "rounds", "wild_ranks", "penalties", "catalogued"}
OWN_CODE |= {"largest_deck", "wilds.ranks"}


def rule_fields():
    rules = next(iter(RULESETS.values()))
    for field in dataclasses.fields(rules):
        if field.name in POLICIES:
            yield from (f"{field.name}.{inner.name}" for inner in dataclasses.fields(getattr(rules, field.name)))
        else:
            yield field.name


def test_every_field_of_the_rules_a_document_sets_is_one_knobs():
    """A field added to ``Rules`` (or a policy) for a new knob is read and written once its knob
    names it (``rule``): none is left without a place in the document."""
    ruled = [knob.rule for knob in KNOBS if knob.rule]
    assert len(ruled) == len(set(ruled))
    assert set(rule_fields()) - OWN_CODE == set(ruled)


@pytest.mark.parametrize("slug", sorted(RULESETS))
def test_each_knob_is_read_back_into_the_field_it_was_written_from(slug):
    rules = RULESETS[slug]
    again = rules_from_document(document_of(rules), slug=slug)
    for knob in KNOBS:
        if knob.rule:
            value = again
            expected = rules
            for name in knob.rule.split("."):
                value, expected = getattr(value, name), getattr(expected, name)
            assert value == expected, knob.key
