"""Cards as the pages show them: keypads and chips with spoken names."""

from __future__ import annotations

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


def keypad(wild_rank: int | None) -> list[Key | None]:
    """Each suit in two lines of seven (A-7, then 8-K and a gap; the joker fills the last gap).

    Seven keys a line keep every key 44 px wide on a 360 px screen. ``None`` is a gap.
    """
    cells: list[Key | None] = []
    for suit in Suit:
        cells += [key_for(Card(rank, suit), wild_rank) for rank in RANKS]
        cells.append(key_for(JOKER, wild_rank) if suit is Suit.SPADES else None)
    return cells


@dataclass(frozen=True)
class Chip:
    index: int
    key: Key


def chips(cards: list[Card], wild_rank: int | None) -> list[Chip]:
    return [Chip(i, key_for(card, wild_rank)) for i, card in enumerate(cards)]
