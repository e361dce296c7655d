"""Cards as the pages show them: keypads and chips with spoken names, and the points they cost."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property

from django.utils.translation import gettext as _

from .engine import JOKER, Card, Suit
from .engine.cards import RANKS
from .engine.documents import RANK_KEYS


@dataclass(frozen=True)
class Key:
    value: str  # the card in notation: what a tap adds
    symbol: str  # what the button shows: 7♣
    name: str  # what a screen reader says: Seven of clubs
    suit: str  # C, D, H, S, or J for the joker (for colour)
    wild: bool
    joker: bool = False


def key_for(card: Card, wild_ranks: tuple[int, ...]) -> Key:
    if card.is_joker:
        return Key("JK", "JK", "Joker", "J", True, joker=True)
    assert card.suit is not None
    return Key(str(card), card.symbol, card.name, card.suit.value, card.rank in wild_ranks)


class Keypad:
    """Each suit in two lines of seven (A-7, then 8-K and a gap; the joker fills the last gap).

    Seven keys a line keep every key 44 px wide on a 360 px screen. ``None`` is a gap. The keys
    (with their spoken names) are made only when iterated: a page whose keypad markup is cached
    (``cache_key`` names it, the same for every round with these wild ranks) never needs them.
    """

    def __init__(self, wild_ranks: tuple[int, ...]) -> None:
        self.wild_ranks = wild_ranks
        self.cache_key = "-".join(map(str, wild_ranks)) or "None"

    @cached_property
    def keys(self) -> list[Key | None]:
        cells: list[Key | None] = []
        for suit in Suit:
            cells += [key_for(Card(rank, suit), self.wild_ranks) for rank in RANKS]
            cells.append(key_for(JOKER, self.wild_ranks) if suit is Suit.SPADES else None)
        return cells

    def __iter__(self) -> Iterator[Key | None]:
        return iter(self.keys)


def keypad(wild_ranks: tuple[int, ...]) -> Keypad:
    """The keypad of a round whose wild ranks are ``wild_ranks`` (``Rules.wild_ranks_in``)."""
    return Keypad(wild_ranks)


@dataclass(frozen=True)
class Chip:
    index: int
    key: Key


def chips(cards: list[Card], wild_ranks: tuple[int, ...]) -> list[Chip]:
    return [Chip(i, key_for(card, wild_ranks)) for i, card in enumerate(cards)]


_CARD_CODE = re.compile(r"(?<![\w♣♦♥♠])(10|[2-9AJQK])([CDHS])(?![\w])")
_SUIT_SYMBOL = {suit.value: suit.symbol for suit in Suit}


def symbols(text: str) -> str:
    """A sentence with its cards as the page shows them: ``4H=7S`` becomes ``4♥=7♠``.

    The engine writes cards in notation (what the API and a typed meld use); the pages show
    the suit symbols of the keypad. Only whole card codes are replaced: a rank and a suit
    letter standing alone (``10S``, ``QH``), never letters inside a word.
    """
    return _CARD_CODE.sub(lambda m: m.group(1) + _SUIT_SYMBOL[m.group(2)], text)


@dataclass(frozen=True)
class PointsRow:
    cards: str  # "Joker", "Ace", "2 to 9", "10, J, Q, K"
    points: str  # "20", "face value"


def _face(rank: str, points: Mapping[str, int | None]) -> bool:
    """Whether a number card scores its face value beside a neighbour that does too (a lone 5 worth
    5 among cards worth 5 is worth five points, not "face value")."""

    def own(r: str) -> bool:
        return r in points and len(r) == 1 and r.isdigit() and points[r] == int(r)

    n = RANK_KEYS.index(rank)
    return own(rank) and any(own(r) for r in RANK_KEYS[max(n - 1, 0) : n + 2] if r != rank)


def penalty_rows(points: Mapping[str, int | None]) -> list[PointsRow]:
    """The penalty table of a ruleset's document (``points``: a rank, ``JK`` or ``wild`` to points),
    ranks side by side that cost alike (the same points, or their face value) said in one row."""
    rows = [PointsRow(_("Joker"), str(points["JK"]))]
    if points.get("wild") is not None:
        rows.append(PointsRow(_("A card of the round's wild rank"), str(points["wild"])))
    groups: list[tuple[object, list[str]]] = []
    for rank in RANK_KEYS:
        cost: object = "face" if _face(rank, points) else points[rank]
        if groups and groups[-1][0] == cost:
            groups[-1][1].append(rank)
        else:
            groups.append((cost, [rank]))
    for cost, ranks in groups:
        if ranks == ["A"]:
            said = _("Ace")
        elif len(ranks) > 2 and all(r.isdigit() for r in ranks):
            said = _("{first} to {last}").format(first=ranks[0], last=ranks[-1])
        else:
            said = ", ".join(ranks)
        rows.append(PointsRow(said, _("face value") if cost == "face" else str(cost)))
    return rows
