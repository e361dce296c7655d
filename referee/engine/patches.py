"""Changing a ruleset document: what ``based_on`` and a variant do to the document they change.

Objects merge key by key, deeply; anything else (a list, a number, null) is replaced whole.
``rounds`` may also be changed by ``{"first": n}`` (only the first n rounds are played) or
``{"each": {...}}`` (merged into every round). Pure data in, new data out: nothing is changed
in place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ROUND_CHANGES = frozenset({"first", "each"})


def merged(base: Any, change: Any) -> Any:
    """``change`` laid over ``base``: objects merged key by key, anything else replaced."""
    if not isinstance(base, Mapping) or not isinstance(change, Mapping):
        return change
    out = dict(base)
    for key, value in change.items():
        if key == "rounds" and isinstance(value, Mapping) and isinstance(base.get(key), list):
            out[key] = _rounds_changed(base[key], value)
        else:
            out[key] = merged(base[key], value) if key in base else value
    return out


def _rounds_changed(rounds: list[Any], change: Mapping[str, Any]) -> Any:
    if not set(change) <= ROUND_CHANGES:
        return change  # not a change of rounds: the reader says what is wrong with it
    kept = rounds[: change["first"]] if isinstance(change.get("first"), int) else rounds
    each = change.get("each")
    return [merged(r, each) for r in kept] if isinstance(each, Mapping) else list(kept)
