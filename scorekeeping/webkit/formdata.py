"""Values from form fields: whatever a person or a stale page posts, never a crash."""

from __future__ import annotations

from typing import TypeVar

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
