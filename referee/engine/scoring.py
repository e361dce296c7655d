"""Penalty points for the cards left in a hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import ACE, Card
from .rulesets import Rules


@dataclass(frozen=True, slots=True)
class CardPoints:
    card: Card
    points: int
    wild: bool


@dataclass(frozen=True, slots=True)
class Penalty:
    points: int
    cards: tuple[CardPoints, ...]


def card_points(rules: Rules, number: int, card: Card) -> int:
    return _points(rules, number, card)[0]


def card_score(rules: Rules, number: int, card: Card) -> CardPoints:
    """One card's points in this round, and whether it counted as wild."""
    return CardPoints(card, *_points(rules, number, card))


def _points(rules: Rules, number: int, card: Card) -> tuple[int, bool]:
    table = rules.penalties
    if card.rank is None:
        return table.joker, True
    if card.rank == rules.wild_rank(number) and table.wild is not None:
        return table.wild, True
    if card.rank == ACE:
        return table.ace, False
    if card.rank >= 10:
        return table.ten_to_king, False
    return (table.number if table.number is not None else card.rank), False


def score_hand(rules: Rules, number: int, cards: Sequence[Card], *, players: int | None = None) -> Penalty:
    """Points for ``cards`` left in hand in this round, card by card.

    Raises ``ImpossibleHand`` when the hand holds more copies than the packs do.
    """
    from .checks import check_copies

    check_copies(rules, cards, players)
    breakdown = tuple(card_score(rules, number, card) for card in cards)
    return Penalty(sum(c.points for c in breakdown), breakdown)
