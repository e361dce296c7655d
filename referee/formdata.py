"""Values from form fields: whatever a person or a stale page posts, never a crash."""

from __future__ import annotations

from typing import TypeVar

from .engine import card_tokens

T = TypeVar("T")

MAX_DIGITS = 9


def form_int(value: str | None, default: T) -> int | T:
    """An ASCII whole number (optionally signed) of at most nine digits, else ``default``.

    ``int()`` alone takes '٣', '1_000' and '+7', and raises on '²' or on thousands of
    digits; a number field holds plain digits or it holds no number.
    """
    text = (value or "").strip()
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not (digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS):
        return default
    return int(text)


# --- the keypad without JavaScript ---------------------------------------------------------
# The pages' script does the same in the browser for instant feedback (static/js/app.js);
# these are the paths a posted form takes, for the referee's groups and the round entry's hands.


def tapped(cards: str, card: str) -> str:
    """A keypad tap: ``card`` added at the end of the cards typed so far."""
    return f"{cards} {card}".strip()


def untap_target(value: str | None) -> tuple[int, int] | None:
    """A chip's value ``"<group or seat>:<index>"``, or None when it is not one."""
    where, _sep, index = (value or "").partition(":")
    group, position = form_int(where, None), form_int(index, None)
    return None if group is None or position is None else (group, position)


def untapped(cards: str, index: int) -> str:
    """The cards without the one at ``index`` (a tap on its chip, numbered as the engine reads
    the cards: "7C,7D 4H" holds three); unchanged if there is none."""
    tokens = card_tokens(cards)
    if 0 <= index < len(tokens):
        del tokens[index]
    return " ".join(tokens)
