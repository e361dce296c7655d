"""Lists in words, in the active language: ``Ana, Ben and Cy``, ``5, 10, 15 or 20``; and what a
player's name is, kept and compared."""

from __future__ import annotations

import unicodedata
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


MAX_NAME = 30  # a player's name at most, in characters (the name columns are as wide)


def clean_name(text: str) -> str:
    """A player's name as it is kept: white space folded, composed (NFC), so "é" typed either way is one name."""
    return unicodedata.normalize("NFC", " ".join(text.split()))


def name_key(text: str) -> str:
    """What two names must share to be the same player: kept as above, then compared under
    compatibility and case folding (NFKC, case folded: "ANA" and the fullwidth "Ａna" are Ana)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", clean_name(text)).casefold())


_JOINER = "\u200d"  # joins emoji into one ("👩‍🦰"): allowed between two symbols only


def invisible_in(text: str) -> str | None:
    """The first invisible formatting character in a name (Unicode's Cf: a zero-width space, a
    right-to-left override...), as ``U+200B``; None if it holds none. Such characters make one
    name look like another ("Ana" and "Ana\u200b"), so a name may not hold them."""
    for i, ch in enumerate(text):
        if unicodedata.category(ch) != "Cf":
            continue
        if ch == _JOINER and 0 < i < len(text) - 1:
            before, after = unicodedata.category(text[i - 1]), unicodedata.category(text[i + 1])
            if before in ("So", "Mn", "Sk") and after == "So":
                continue
        return f"U+{ord(ch):04X}"
    return None
