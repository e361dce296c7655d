"""Opening checks against every contract, with the reasons a table would want to hear."""

import pytest

from referee.engine import Identity, Suit

from .verdicts import opening, shown

LEGAL_OPENINGS = [
    # ruleset, variants, round, melds, shown
    ("mexican", [], 1, ["7C 7D 7H", "KS KS JK"], ["7C 7D 7H", "KS KS JK=K"]),
    ("mexican", [], 2, ["7C 7D 4H", "9S 10S JS QS"], ["7C 7D 4H=7", "9S 10S JS QS"]),
    ("mexican", [], 2, ["9S 10S JS QS", "7C 7D 4H"], ["9S 10S JS QS", "7C 7D 4H=7"]),  # any order
    ("mexican", [], 2, ["7C 7D 4H", "QS JS 10S 9S"], ["7C 7D 4H=7", "9S 10S JS QS"]),  # cards in any order
    ("mexican", [], 2, ["AS 2S 3S 4S", "8C 8D 8H"], ["AS 2S 3S 4S", "8C 8D 8H"]),  # ace low
    ("mexican", [], 2, ["JH QH KH AH", "8C 8D 8H"], ["JH QH KH AH", "8C 8D 8H"]),  # ace high
    ("mexican", [], 3, ["3S 4S 5S 6S", "7S 8S 9S 10S"], ["3S 4S 5S 6S", "7S 8S 9S 10S"]),  # touching runs ok
    ("mexican", [], 3, ["3S 4S 5S 6S 7S", "6H 7H 5H=8H 9H"], ["3S 4S 5S 6S 7S", "6H 7H 5H=8H 9H"]),
    ("mexican", [], 4, ["2C 2D 2H", "6S 6S 6H", "JK JK JK"], ["2C 2D 2H", "6S 6S 6H", "JK=A JK=A JK=A"]),
    ("mexican", [], 5, ["QC QD QH QS", "AC AD JK", "7S 8S 9S 10S"], ["QC QD QH QS", "AC AD JK=A", "7S 8S 9S 10S"]),
    ("mexican", [], 6, ["KC KD 8S", "2H 3H 4H 5H", "9D 10D JD QD"], ["KC KD 8S=K", "2H 3H 4H 5H", "9D 10D JD QD"]),
    ("contract", [], 1, ["5C 5D 5H", "9S 9S 9H"], ["5C 5D 5H", "9S 9S 9H"]),
    ("contract", [], 2, ["5C 5D JK", "9S 10S JK QS"], ["5C 5D JK=5", "9S 10S JK=JS QS"]),
    ("contract", [], 3, ["3S 4S 5S 6S", "8S 9S 10S JS"], ["3S 4S 5S 6S", "8S 9S 10S JS"]),  # a gap
    ("contract", [], 3, ["3S 4S 5S 6S", "5S 6S 7S 8S"], ["3S 4S 5S 6S", "5S 6S 7S 8S"]),  # overlap
    ("contract", ["free-meld"], 3, ["3S 4S 5S 6S", "7S 8S 9S 10S JS"], ["3S 4S 5S 6S", "7S 8S 9S 10S JS"]),
    ("contract", ["free-meld"], 1, ["5C 5D 5H 5S", "9S 9S 9H"], ["5C 5D 5H 5S", "9S 9S 9H"]),
    ("liverpool", [], 4, ["2C 2D 2H", "3C 3D 3H", "4C 4D 4H"], ["2C 2D 2H", "3C 3D 3H", "4C 4D 4H"]),
    ("shanghai", [], 5, ["2C 2D 2H", "3H 4H 5H 6H 7H 8H 9H"], ["2C 2D 2H", "3H 4H 5H 6H 7H 8H 9H"]),
    ("shanghai", [], 8, ["KC KD KH", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"], ["KC KD KH", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"]),
    (
        "shanghai",
        [],
        10,
        ["2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H"],
        ["2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H"],
    ),
    ("mexican", ["kings-wild"], 1, ["7C 7D KH", "4S 4D 4H"], ["7C 7D KH=7", "4S 4D 4H"]),
    ("mexican", ["fixed-twos"], 2, ["7C 7D 2H", "9S 2C JS QS"], ["7C 7D 2H=7", "9S 2C=10S JS QS"]),
    ("mexican", [], 2, ["4C 4D 4H", "JK 10S JS QS"], ["4C 4D 4H", "JK=9S 10S JS QS"]),  # the wild rank as itself
]


@pytest.mark.parametrize(
    ("ruleset", "variants", "number", "melds", "expected"),
    LEGAL_OPENINGS,
    ids=[" / ".join(x[3]) for x in LEGAL_OPENINGS],
)
def test_open_legal(ruleset, variants, number, melds, expected):
    verdict = opening(ruleset, variants, number, *melds)
    assert verdict.reasons == ()
    assert verdict.legal
    assert shown(verdict) == expected


def test_open_worked_example_names_what_the_wild_stands_for():
    # Document 000, section 07: round 2, fours wild, 4H declared as the seven of spades.
    verdict = opening("mexican", [], 2, "7C 7D 4H=7S", "9S 10S JS QS")
    assert verdict.legal
    book = verdict.melds[0].reading
    assert [(str(p.card), p.identity, p.wild) for p in book.cards] == [
        ("7C", Identity(7, Suit.CLUBS), False),
        ("7D", Identity(7, Suit.DIAMONDS), False),
        ("4H", Identity(7, Suit.SPADES), True),
    ]


ILLEGAL_OPENINGS = [
    # ruleset, variants, round, melds, every reason (substrings, in order)
    ("mexican", [], 2, ["7C 7D 4H", "QS KS AS 2S"], ["meld 2 (QS KS AS 2S) is not a run of 4+", "K-A-2"]),
    (
        "mexican",
        [],
        2,
        ["7C 7D 4H"],
        ["the contract of round 2 is 1 book of 3+ and 1 run of 4+: 2 melds, but 1 was laid", "missing: a run of 4+"],
    ),
    (
        "mexican",
        [],
        1,
        ["3S 3H 3D", "7S 7D 7H", "8S 8D 8H"],
        ["2 melds, but 3 were laid", "meld 3 (8S 8D 8H) is one meld more than the contract"],
    ),
    ("mexican", [], 2, ["7C 8D 9H", "9S 10S JS QS"], ["meld 1 (7C 8D 9H) is not a book of 3+", "mixes ranks"]),
    (
        "mexican",
        [],
        2,
        ["7C 7D", "9S 10S JS QS"],
        ["meld 1 (7C 7D) is not a book of 3+: a book needs at least 3 cards"],
    ),
    (
        "mexican",
        [],
        2,
        ["7C 7D 7H", "9S 10S JS"],
        ["meld 2 (9S 10S JS) is not a run of 4+: a run needs at least 4 cards"],
    ),
    (
        "mexican",
        [],
        2,
        ["7C 7D 7H", "9S 10S JD QS"],
        ["meld 2 (9S 10S JD QS) is not a run of 4+", "mixes suits: diamonds (JD), spades (9S 10S QS)"],
    ),
    ("mexican", [], 2, ["7C 7D 7H", "9S 10S KS AS"], ["spans", "too far apart"]),
    ("mexican", [], 2, ["7C 7D 7H", "9S 10S 10S JS"], ["10S appears twice; a run holds each card once"]),
    ("mexican", [], 2, ["7C 7D 7H", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"], ["at most 13 cards"]),
    (
        "mexican",
        [],
        2,
        ["7C 7D 8H=7S", "9S 10S JS QS"],
        ["8H is not wild (jokers and fours are wild), so it cannot stand for 7S"],
    ),
    ("mexican", [], 2, ["7C 7D JK=8", "9S 10S JS QS"], ["JK=8 cannot stand for an eight in a book of sevens"]),
    ("mexican", [], 2, ["7C 7D 7H", "9S 10S JS JK=7S"], ["the declaration JK=7S does not fit any run"]),
    ("mexican", [], 2, ["7C 7D 7H", "9S 10S JS JK=QH"], ["the declaration JK=QH does not fit any run"]),
    ("mexican", [], 1, ["7C 7C 7C", "8S 8D 8H"], ["7C appears 3 times, but the 2 packs hold only 2"]),
    ("mexican", [], 1, ["JK JK JK", "JK JK 8H"], ["5 jokers appear, but the packs hold only 4"]),
    ("mexican", ["single-deck"], 1, ["7C 7C 7D", "8S 8D 8H"], ["7C appears 2 times, but one pack holds only 1"]),
    (
        "mexican",
        [],
        7,
        ["2S 3S 4S 5S", "2H 3H 4H 5H", "2C 3C 4C 5C"],
        ["in round 7 nothing is laid down before going out"],
    ),
    (
        "contract",
        [],
        1,
        ["5C 5D 5H 5S", "9S 9S 9H"],
        ["meld 1 (5C 5D 5H 5S) has 4 cards; the contract asks for a group of exactly 3"],
    ),
    (
        "contract",
        [],
        3,
        ["3S 4S 5S 6S", "7S 8S 9S 10S"],
        ["meld 1 (3S 4S 5S 6S) and meld 2 (7S 8S 9S 10S) join up into one sequence"],
    ),
    (
        "contract",
        [],
        3,
        ["3S 4S 5S 6S 7S", "9S 10S JS QS"],
        ["has 5 cards; the contract asks for a sequence of exactly 4"],
    ),
    ("contract", [], 2, ["5C 5D 4H", "9S 10S JS QS"], ["mixes ranks"]),  # only jokers are wild
    ("shanghai", [], 5, ["2C 2D 2H", "3H 4H 5H 6H"], ["has 4 cards; the contract asks for a sequence of exactly 7"]),
    ("mexican", [], 2, [], ["no melds were given"]),
]


@pytest.mark.parametrize(
    ("ruleset", "variants", "number", "melds", "reasons"),
    ILLEGAL_OPENINGS,
    ids=[" / ".join(x[3]) or "none" for x in ILLEGAL_OPENINGS],
)
def test_open_illegal_lists_every_reason(ruleset, variants, number, melds, reasons):
    verdict = opening(ruleset, variants, number, *melds)
    assert not verdict.legal
    assert verdict.melds == ()
    text = "\n".join(verdict.reasons)
    for reason in reasons:
        assert reason in text


def test_open_reports_every_problem_not_just_the_first():
    verdict = opening("mexican", [], 2, "7C 8D 7C 7C", "QS KS AS 2S", "9H 9D 9C")
    text = "\n".join(verdict.reasons)
    assert "7C appears 3 times" in text
    assert "2 melds, but 3 were laid" in text
    assert "K-A-2" in text
    assert len(verdict.reasons) >= 4


def test_open_with_a_joker_at_the_end_lists_both_choices():
    verdict = opening("mexican", [], 2, "5S 6S 7S JK", "9H 9D 9C")
    assert verdict.legal
    run = verdict.melds[0]
    assert run.ambiguous
    joker = run.reading.wilds[0]
    assert [str(i) for i in run.choices(joker)] == ["4S", "8S"]


def test_open_with_a_declared_joker_is_not_ambiguous():
    verdict = opening("mexican", [], 2, "5S 6S 7S JK=8S", "9H 9D 9C")
    assert verdict.legal
    assert not verdict.melds[0].ambiguous
    assert shown(verdict)[0] == "5S 6S 7S JK=8S"


def test_open_a_meld_of_wilds_alone_is_legal_with_every_rank_a_choice():
    verdict = opening("mexican", [], 1, "JK JK JK", "8S 8D 8H")
    assert verdict.legal
    book = verdict.melds[0]
    assert book.ambiguous
    assert len(book.readings) == 13


def test_open_a_card_of_the_wild_rank_with_jokers_stands_as_itself():
    verdict = opening("mexican", [], 1, "JK JK 3C", "8S 8D 8H")
    assert verdict.legal
    book = verdict.melds[0]
    assert not book.ambiguous
    assert book.reading.describe() == "a book of threes"
    assert [p.wild for p in book.reading.cards] == [True, True, False]


def test_open_players_limit_copies_to_the_deck_in_play():
    # Contract Rummy with 3 players brings 2 jokers.
    verdict = opening("contract", [], 1, "5C 5D JK", "9S JK JK", players=3)
    assert not verdict.legal
    assert "3 jokers appear, but the packs hold only 2" in verdict.reasons[0]
    assert opening("contract", [], 1, "5C 5D JK", "9S JK JK", players=4).legal


def test_open_contract_keeps_same_suit_runs_apart_even_with_wilds():
    # The joker could make either run touch the other; the reading that leaves a gap is chosen.
    verdict = opening("contract", [], 3, "3S 4S 5S JK", "8S 9S 10S JS")
    assert verdict.legal
    assert shown(verdict) == ["JK=2S 3S 4S 5S", "8S 9S 10S JS"]


def test_open_notes_say_when_laying_off_may_start():
    assert "No laying off on this turn" in opening("mexican", [], 1, "7C 7D 7H", "8S 8D 8H").notes[0]
    assert "lay off on this turn too" in opening("mexican", ["open-turn-layoff"], 1, "7C 7D 7H", "8S 8D 8H").notes[0]
