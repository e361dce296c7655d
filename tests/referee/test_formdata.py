import pytest

from referee.formdata import form_int


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
