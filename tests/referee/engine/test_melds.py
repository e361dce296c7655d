"""Reading cards as a run: the shape reasons and the readings never disagree."""

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import JOKER, Card, Played, Suit
from referee.engine.budget import Budget
from referee.engine.melds import Wilds, _fixed, _run_readings, _run_shape_reasons, read_run

CARDS = [Card(r, s) for s in (Suit.SPADES, Suit.HEARTS) for r in range(1, 14)] + [JOKER]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(CARDS), min_size=1, max_size=15), st.sampled_from([None, 2, 9, 13]))
def test_cards_with_a_shape_reason_fit_no_run(cards, wild_rank):
    # read_run looks for readings first and explains the shape only when there is none;
    # that is only right if a shape reason always means no reading.
    played = [Played(c) for c in cards]
    wilds = Wilds(wild_rank)
    fixed = _fixed(played, wilds)
    if _run_shape_reasons(played, fixed):
        assert _run_readings(played, fixed, wilds, Budget()) == []
    readings, reasons = read_run(played, wilds, Budget())
    assert bool(readings) != bool(reasons)
