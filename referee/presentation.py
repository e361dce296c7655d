"""Cards as the pages show them: keypads and chips with spoken names."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .engine import JOKER, Card, Suit
from .engine.cards import RANKS


@dataclass(frozen=True)
class Key:
    value: str  # the card in notation: what a tap adds
    symbol: str  # what the button shows: 7♣
    name: str  # what a screen reader says: Seven of clubs
    suit: str  # C, D, H, S, or J for the joker (for colour)
    wild: bool
    joker: bool = False


def key_for(card: Card, wild_rank: int | None) -> Key:
    if card.is_joker:
        return Key("JK", "JK", "Joker", "J", True, joker=True)
    assert card.suit is not None
    return Key(str(card), card.symbol, card.name, card.suit.value, card.rank == wild_rank)


class Keypad(list[Key | None]):
    """The keys in order; ``cache_key`` names their markup, the same for every round with this wild rank."""

    cache_key: str = ""


def keypad(wild_rank: int | None) -> Keypad:
    """Each suit in two lines of seven (A-7, then 8-K and a gap; the joker fills the last gap).

    Seven keys a line keep every key 44 px wide on a 360 px screen. ``None`` is a gap.
    """
    cells: list[Key | None] = []
    for suit in Suit:
        cells += [key_for(Card(rank, suit), wild_rank) for rank in RANKS]
        cells.append(key_for(JOKER, wild_rank) if suit is Suit.SPADES else None)
    pad = Keypad(cells)
    pad.cache_key = str(wild_rank)
    return pad


@dataclass(frozen=True)
class Chip:
    index: int
    key: Key


def chips(cards: list[Card], wild_rank: int | None) -> list[Chip]:
    return [Chip(i, key_for(card, wild_rank)) for i, card in enumerate(cards)]


_CARD_CODE = re.compile(r"(?<![\w♣♦♥♠])(10|[2-9AJQK])([CDHS])(?![\w])")
_SUIT_SYMBOL = {suit.value: suit.symbol for suit in Suit}


def symbols(text: str) -> str:
    """A sentence with its cards as the page shows them: ``4H=7S`` becomes ``4♥=7♠``.

    The engine writes cards in notation (what the API and a typed meld use); the pages show
    the suit symbols of the keypad. Only whole card codes are replaced: a rank and a suit
    letter standing alone (``10S``, ``QH``), never letters inside a word.
    """
    return _CARD_CODE.sub(lambda m: m.group(1) + _SUIT_SYMBOL[m.group(2)], text)
