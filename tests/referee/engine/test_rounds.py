"""The engine scores a round from the table's entries, without a database."""

import pytest

from referee.engine import find_rules
from referee.engine.rounds import EntryField, RoundEntry, cutter_seat, dealer_seat, draw_for_dealer, score_round

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def score(ruleset="mexican", number=1, winner="Ana", hands=None, points=None, buys=None, cut_bonus=False, first=0):
    return score_round(
        find_rules(ruleset),
        number,
        names=NAMES,
        first_dealer_seat=first,
        entry=RoundEntry(winner=winner, hands=hands or {}, points=points or {}, buys=buys or {}, cut_bonus=cut_bonus),
    )


def test_a_round_scores_each_seat_with_its_breakdown():
    result = score(number=2, hands={"ben": "4S AH KC 2D", "Cy": "JK"}, points={"Dee": 15})
    assert result.ok and result.winner == 0 and result.dealer == 1
    assert [h.points for h in result.hands] == [0, 50, 20, 15]
    assert [c.points for c in result.hands[1].breakdown] == [20, 15, 10, 5]  # the worked example
    assert result.hands[3].typed and not result.hands[1].typed


def test_the_deal_passes_left_and_the_dealers_right_cuts():
    assert [dealer_seat(2, n, 4) for n in (1, 2, 3, 4)] == [2, 3, 0, 1]
    assert cutter_seat(0, 4) == 3
    result = score("liverpool", number=1, hands={"Ben": "4C", "Cy": "5C"}, points={"Dee": 10}, cut_bonus=True, first=1)
    assert result.ok and result.hands[0].adjustment == -50 and result.hands[0].points == -50


def test_every_problem_is_named_under_its_field():
    result = score(winner="Zed", hands={"Ben": "4X", "Cy": "4C 4C 4C"}, buys={"Dee": 1}, cut_bonus=True)
    assert set(result.errors) == {
        EntryField("winner"),
        EntryField("hands", "Ana"),
        EntryField("hands", "Ben"),
        EntryField("buys", "Dee"),
        EntryField("hands", "Dee"),
        EntryField("hands"),
        EntryField("cut_bonus"),
    }
    # ... each named to the API's clients as they always were, in the order they were found.
    wire = ["winner", "hands.Ana", "hands.Ben", "buys.Dee", "hands.Dee", "hands", "cut_bonus"]
    assert [key.wire for key in result.errors] == wire


def test_a_hand_short_of_the_cards_the_round_fixes_is_told_apart():
    """Mexican round 7 fixes every hand left at 13 cards: one short of them is how a hand still
    being tapped in looks (the page holds that back while it is typed); one over is not."""
    fourteen = "4C 5C 6C 7C 8C 9C 10C JC QC KC 2C 3C 7D 8D"
    result = score(number=7, hands={"Ben": "4C 5C", "Cy": fourteen}, points={"Dee": 65})
    assert [(f.field, f.short) for f in result.faults] == [
        (EntryField("hands", "Ben"), True),
        (EntryField("hands", "Cy"), False),
    ]
    assert "so Ben holds exactly 13 cards; 2 were entered" in result.errors[EntryField("hands", "Ben")][0]


@pytest.mark.parametrize(
    ("draw", "seat", "error"),
    [
        # Issue 23: the ace is low in the draw (001's ranking, "low to high: Ace, 2, ... K").
        ({"Ana": "KS", "Ben": "AS", "Cy": "2C", "Dee": "QD"}, 0, None),
        ({"Ana": "AS", "Ben": "2D", "Cy": "AC", "Dee": "3D"}, 3, None),
        ({"Ana": "KS", "Ben": "KD", "Cy": "2C", "Dee": "AD"}, None, "Ana and Ben tie with the highest card (kings)"),
        ({"Ana": "JK", "Ben": "AD", "Cy": "2C", "Dee": "QD"}, None, "Ana draws one card, not a joker"),
        ({"Ana": "KS"}, None, "Every player draws a card; missing: Ben, Cy, Dee"),
    ],
)
def test_the_draw_for_the_first_deal(draw, seat, error):
    found, errors = draw_for_dealer(NAMES, draw)
    assert found == seat
    assert (error is None and errors == {}) or any(error in m for ms in errors.values() for m in ms)
