"""The rulesets are data (issue 37, first part): nothing branches on a ruleset's name; a hint
about a variant is read from the variants' data; the words a ruleset speaks are checked when it
is built; a game's places and tie notes are the engine's."""

import re
from dataclasses import replace
from pathlib import Path

import pytest

from referee.engine import find_rules
from referee.engine.rulesets import RULESETS, no_cut_bonus, variant_allowing
from referee.engine.standings import Entrant, ranked, tie_notes

ROOT = Path(__file__).resolve().parents[3]
SLUGS = "|".join(RULESETS)
# A comparison with a ruleset's name written out: ``x == "mexican"``, ``"liverpool" in ...``.
BRANCH = re.compile(rf"""(==|!=|\bin\b)\s*[(\[]?\s*["']({SLUGS})["']|["']({SLUGS})["']\s*(==|!=|\bin\b)""")


def test_nothing_outside_the_rules_data_branches_on_a_rulesets_name():
    sources = [*ROOT.glob("referee/**/*.py"), *ROOT.glob("scorekeeping/**/*.py"), *ROOT.glob("templates/**/*.html")]
    data = ROOT / "referee" / "engine" / "rulesets.py"
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sources
        if path != data
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BRANCH.search(line)
    ]
    assert len(sources) > 100 and found == []


def test_a_variant_hint_comes_from_the_variants_data():
    mexican = find_rules("mexican")
    assert variant_allowing(mexican, lambda r: r.buys.allowed) == "“Buy the discard”"
    assert variant_allowing(mexican, lambda r: r.layoff_on_opening_turn) == "“Lay off on the opening turn”"
    assert variant_allowing(find_rules("mexican", ["buy-discard"]), lambda r: r.buys.allowed) is None  # chosen
    # A variant that cannot be combined with one chosen is no hint: Kings wild beside Twos wild.
    twos = find_rules("mexican", ["fixed-twos"])
    assert variant_allowing(twos, lambda r: r.wild_ranks[0] == 13) is None
    assert variant_allowing(find_rules("mexican"), lambda r: r.wild_ranks[0] == 13) == "“Kings wild”"
    # The same Mexican tables under another name have no variants, so no hint (no name is special).
    renamed = replace(mexican, slug="family")
    assert variant_allowing(renamed, lambda r: r.buys.allowed) is None
    assert no_cut_bonus(mexican) == "Mexican Rummy has no cut bonus (Liverpool Rummy has one)"


def test_the_words_a_ruleset_speaks_are_checked_when_it_is_built():
    with pytest.raises(ValueError, match="no plural for the word 'hand'"):
        replace(find_rules("mexican"), round_word="hand")
    with pytest.raises(ValueError, match="'meld'"):
        replace(find_rules("contract"), book_word="meld")


@pytest.mark.parametrize(
    ("ruleset", "places", "notes"),
    [
        (
            "mexican",  # equal totals: more rounds won first, then a shared place
            [("Cy", 1), ("Ana", 2), ("Ben", 2), ("Dee", 4)],
            [
                "Cy, Ana and Ben have 10 points each; most rounds won goes first (3 against 1 against 1).",
                "Ana and Ben share place 2: 10 points each and as many rounds won.",
            ],
        ),
        (
            "contract",  # equal totals share the place
            [("Ana", 1), ("Ben", 1), ("Cy", 1), ("Dee", 4)],
            ["Ana, Ben and Cy share place 1: 10 points each."],
        ),
    ],
)
def test_a_games_places_and_tie_notes_are_the_engines(ruleset, places, notes):
    rules = find_rules(ruleset)
    entrants = [Entrant(0, "Ana", 10, 1), Entrant(1, "Ben", 10, 1), Entrant(2, "Cy", 10, 3), Entrant(3, "Dee", 40, 0)]
    assert [(e.name, place) for e, place in ranked(entrants, rules)] == places
    assert tie_notes(entrants, rules, played=True) == notes
    assert tie_notes(entrants, rules, played=False) == []
