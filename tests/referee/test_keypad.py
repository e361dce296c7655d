"""One keypad for every page without JavaScript: the referee's groups and the round entry's hands."""

import pytest

from referee.keypad import press, pressed


def test_a_tap_adds_the_card_to_the_active_slot_only():
    cards = {0: "7C", 1: "4H"}
    assert press({"tap": "KD"}, cards, 1) == 1
    assert cards == {0: "7C", 1: "4H KD"}


def test_a_chip_removes_its_card_as_the_engine_numbers_them_and_makes_its_slot_active():
    cards = {0: "", 1: "7C,7D 4H"}
    assert press({"untap": "1:1"}, cards, 0) == 1
    assert cards == {0: "", 1: "7C 4H"}  # 7D, not 4H: commas separate cards as spaces do


def test_a_step_moves_a_count_by_one_and_never_below_zero():
    cards, counts = {0: "", 2: "5S"}, {0: "", 2: "1"}
    assert press({"step": "2:-1"}, cards, 0, counts) == 2
    assert press({"step": "2:-1"}, cards, 0, counts) == 2
    assert counts == {0: "", 2: "0"}
    assert press({"step": "0:1"}, cards, 2, counts) == 0 and counts[0] == "1"


@pytest.mark.parametrize(
    "post",
    [{"untap": "9:0"}, {"untap": "x"}, {"untap": "1:-0x"}, {"step": "1:2"}, {"step": "7:1"}, {"tap": "KD"}],
    ids=["no such slot", "not a chip", "not a number", "a step of two", "a step on no slot", "no slot active"],
)
def test_a_key_that_names_no_slot_changes_nothing(post):
    cards, counts = {0: "7C", 1: "4H 5H"}, {0: "", 1: "1"}
    active = None if "tap" in post else 0
    assert press(post, cards, active, counts) == active
    assert cards == {0: "7C", 1: "4H 5H"} and counts == {0: "", 1: "1"}


def test_only_the_three_keys_are_keys():
    assert pressed({"tap": ""}) and pressed({"untap": "0:0"}) and pressed({"step": "0:1"})
    assert not pressed({"op": "check"}) and not pressed({"preview": "1"})
