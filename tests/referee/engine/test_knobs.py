"""The knobs of a ruleset document, declared once (``referee.engine.knobs``): the reader keeps
each one's bounds and values, every scalar key the writer writes is declared, and docs/rules.md's
table of house-rule knobs is the one the declaration makes."""

from pathlib import Path

import pytest

from referee.engine import RULESETS
from referee.engine.documents import DocumentError, document_of, rules_from_document
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
