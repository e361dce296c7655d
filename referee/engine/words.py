"""Lists in words, in the active language: ``Ana, Ben and Cy``, ``5, 10, 15 or 20``."""

from __future__ import annotations

from collections.abc import Sequence

from .i18n import _


def names_and(names: Sequence[str]) -> str:
    """``Ana``, ``Ana and Ben``, ``Ana, Ben and Cy``."""
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def values_or(values: Sequence[object]) -> str:
    """``5``, ``5 or 10``, ``5, 10, 15 or 20``."""
    words = [str(v) for v in values]
    if len(words) == 1:
        return words[0]
    return _("{values} or {last}").format(values=", ".join(words[:-1]), last=words[-1])
