import pytest

from referee.keypad import untapped
from scorekeeping.webkit.formdata import form_int


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7", 7), (" 12 ", 12), ("-3", -3), ("+4", 4), ("0", 0), ("123456789", 123456789),
        (None, None), ("", None), ("  ", None), ("-", None), ("1_000", None), ("٣", None), ("²", None),
        ("1e3", None), ("7.0", None), ("1234567890", None), ("9" * 5000, None), ("--1", None), ("seven", None),
    ],
)  # fmt: skip
def test_form_int_takes_plain_digits_only(text, expected):
    assert form_int(text, None) == expected


@pytest.mark.parametrize(
    ("cards", "index", "expected"),
    [
        ("7C,7D 4H", 1, "7C 4H"),  # the chip "Seven of diamonds": commas separate cards as spaces do
        ("7C;7D  4H", 2, "7C 7D"),
        ("7C, 7D,4H", 0, "7D 4H"),
        ("7C 7D", 5, "7C 7D"),
    ],
)
def test_a_chip_tap_takes_out_the_card_the_chip_shows(cards, index, expected):
    assert untapped(cards, index) == expected
