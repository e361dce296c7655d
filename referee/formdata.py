"""Values from form fields: whatever a person or a stale page posts, never a crash."""

from __future__ import annotations

from typing import TypeVar

from django.http import QueryDict

from .engine import DEFAULT_RULESET, RULESETS, variants_for

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


def form_ruleset(data: QueryDict) -> str:
    """The ruleset a form names, or the default when it names none we know."""
    ruleset = data.get("ruleset", DEFAULT_RULESET)
    return ruleset if ruleset in RULESETS else DEFAULT_RULESET


def form_variants(data: QueryDict, ruleset: str) -> list[str]:
    """The variants a form ticks that belong to ``ruleset``, in the order given."""
    allowed = {v.slug for v in variants_for(ruleset)}
    return [v for v in data.getlist("variant") if v in allowed]
