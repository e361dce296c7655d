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
    """The cards without the one at ``index`` (a tap on its chip); unchanged if there is none."""
    tokens = cards.split()
    if 0 <= index < len(tokens):
        del tokens[index]
    return " ".join(tokens)
