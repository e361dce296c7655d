"""The card keypad without JavaScript: what one posted key does to the cards typed so far.

The referee's groups and the round entry's hands are both "slots" of cards (a group, a seat),
one of them active. A form posts one key: ``tap`` (a card added to the active slot), ``untap``
(``"<slot>:<index>"``: the card at that index removed, numbered as the engine reads the cards,
so "7C,7D 4H" holds three) or ``step`` (``"<slot>:1"`` or ``"<slot>:-1"``: a count such as buys
moved by one, never below 0). The pages' script does the same in the browser for instant
feedback (``static/js/entry.js``); this is the path a posted form takes, and the one tested.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping

from scorekeeping.webkit.formdata import form_int

from .engine import card_tokens

KEYS = ("tap", "untap", "step")


def tapped(cards: str, card: str) -> str:
    """A keypad tap: ``card`` added at the end of the cards typed so far."""
    return f"{cards} {card}".strip()


def untapped(cards: str, index: int) -> str:
    """The cards without the one at ``index``; unchanged if there is none."""
    tokens = card_tokens(cards)
    if 0 <= index < len(tokens):
        del tokens[index]
    return " ".join(tokens)


def _target(value: str | None) -> tuple[int, int] | None:
    """A chip's or a stepper's value ``"<slot>:<number>"``, or None when it is not one."""
    where, _sep, number = (value or "").partition(":")
    slot, n = form_int(where, None), form_int(number, None)
    return None if slot is None or n is None else (slot, n)


def press(
    post: Mapping[str, str],
    cards: MutableMapping[int, str],
    active: int | None,
    counts: MutableMapping[int, str] | None = None,
) -> int | None:
    """Carry out the key ``post`` holds on ``cards`` (slot -> cards; only its slots are touched)
    and ``counts`` (slot -> a count, for ``step``); return the slot active afterwards (the one
    an untap or a step touched). A key that names no slot changes nothing."""
    if "tap" in post:
        if active is not None and active in cards:
            cards[active] = tapped(cards[active], post.get("tap", ""))
        return active
    if "untap" in post:
        target = _target(post.get("untap"))
        if target is None or target[0] not in cards:
            return active
        cards[target[0]] = untapped(cards[target[0]], target[1])
        return target[0]
    target = _target(post.get("step"))
    if counts is None or target is None or target[0] not in cards or target[1] not in (1, -1):
        return active
    slot, change = target
    counts[slot] = str(max(0, form_int(counts.get(slot), 0) + change))
    return slot


def pressed(post: Mapping[str, str]) -> bool:
    """Whether ``post`` is a key of the keypad (rather than a check, a record or a preview)."""
    return any(key in post for key in KEYS)
