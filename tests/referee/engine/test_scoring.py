import pytest

from referee.engine import ImpossibleHand, find_rules, parse_cards, score_hand


@pytest.mark.parametrize(
    ("ruleset", "variants", "number", "cards", "points"),
    [
        ("mexican", [], 2, "4S AH KC 2D", 50),  # document 000's worked example
        ("mexican", [], 1, "JK", 20),
        ("mexican", [], 1, "3C", 20),  # the round's wild rank
        ("mexican", [], 2, "3C", 5),  # a three is not wild in round 2
        ("mexican", [], 7, "9H 9S", 40),
        ("mexican", [], 1, "AS", 15),
        ("mexican", [], 1, "10D JD QD KD", 40),
        ("mexican", [], 1, "2C 4C 5C 6C 7C 8C 9C", 35),
        ("mexican", ["fixed-twos"], 1, "2C 3C", 25),
        ("mexican", ["kings-wild"], 3, "KC 5C", 25),
        ("contract", [], 1, "KC 7H JK", 32),  # document 003's worked example
        ("contract", [], 1, "2C 9D 10H AS", 2 + 9 + 10 + 15),
        ("liverpool", [], 5, "JK QS", 25),
        ("shanghai", [], 1, "JK", 50),
        ("mexican", [], 1, "", 0),
    ],
)
def test_score_hand(ruleset, variants, number, cards, points):
    assert score_hand(find_rules(ruleset, variants), number, parse_cards(cards)).points == points


def test_score_hand_breaks_down_each_card():
    penalty = score_hand(find_rules(), 2, parse_cards("4S AH JK"))
    assert [(str(c.card), c.points, c.wild) for c in penalty.cards] == [
        ("4S", 20, True),
        ("AH", 15, False),
        ("JK", 20, True),
    ]


def test_score_hand_never_changes_for_a_later_wild_rank():
    # A nine scores 5 in round 1 and 20 only in round 7, where nines are wild.
    rules = find_rules()
    assert score_hand(rules, 1, parse_cards("9C")).points == 5
    assert score_hand(rules, 7, parse_cards("9C")).points == 20


@pytest.mark.parametrize(
    ("ruleset", "variants", "cards", "players", "message"),
    [
        ("mexican", [], "7C 7C 7C", None, "7C appears 3 times, but the 2 packs hold only 2"),
        ("mexican", [], "JK JK JK JK JK", None, "5 jokers appear, but the packs hold only 4"),
        ("mexican", ["single-deck"], "7C 7C", None, "7C appears 2 times, but one pack holds only 1"),
        ("contract", [], "JK JK JK", 3, "3 jokers appear, but the packs hold only 2"),
    ],
)
def test_score_hand_refuses_more_copies_than_the_packs_hold(ruleset, variants, cards, players, message):
    with pytest.raises(ImpossibleHand, match=message):
        score_hand(find_rules(ruleset, variants), 1, parse_cards(cards), players=players)
