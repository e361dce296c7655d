"""Penalty points for the cards left in a hand."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import ACE, Card, Suit
from .rules import Rules


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
    """A card's points and whether it is wild this round (a wild scored as its rank is wild all the same)."""
    table = rules.penalties
    if card.rank is None:
        return table.joker, True
    wild = card.rank == rules.wild_rank(number) or card.rank in rules.wilds.ranks
    if wild and table.wild is not None:
        return table.wild, True
    return rank_points(rules, card.rank), wild


def rank_points(rules: Rules, rank: int) -> int:
    """What a card of ``rank`` scores when it is not scored as a wild."""
    table = rules.penalties
    if table.by_rank is not None:
        return table.by_rank[rank - 1]
    if rank == ACE:
        return table.ace
    if rank >= 10:
        return table.ten_to_king
    return table.number if table.number is not None else rank


def score_hand(rules: Rules, number: int, cards: Sequence[Card], *, players: int | None = None) -> Penalty:
    """Points for ``cards`` left in hand in this round, card by card.

    Raises ``ImpossibleHand`` when the hand holds more copies than the packs do.
    """
    from .checks import check_copies

    check_copies(rules, cards, players)
    breakdown = tuple(card_score(rules, number, card) for card in cards)
    return Penalty(sum(c.points for c in breakdown), breakdown)


# --- what a hand left at the end of a round can hold and score -----------------------


@dataclass(frozen=True, slots=True)
class HandSize:
    """How many cards a player who did not go out holds when the round ends."""

    least: int
    most: int

    @property
    def fixed(self) -> bool:
        return self.least == self.most


def hand_left_size(rules: Rules, number: int, buys: int = 0) -> HandSize:
    """Cards left in a hand that did not go out: dealt, 2 more per buy, less what was laid down.

    In a round where nothing is laid down before going out (Mexican round 7, the final
    deal of the Contract family) that is exactly the deal plus 2 per buy; elsewhere at
    least one card (a player with none would have gone out) and at most that many. A table
    that goes out with no discard (``Rules.going_out_discard`` false) holds the same: a player
    ends every turn but the one they go out on with a discard, so a loser still holds at
    most the deal and the buys, and at least one card.
    """
    rnd = rules.round(number)
    most = rnd.dealt + 2 * buys
    return HandSize(most, most) if rnd.final else HandSize(1, most)


def _value_counts(rules: Rules, number: int, players: int | None) -> dict[int, int]:
    """Per point value, how many cards of the packs in play score it this round."""
    deck = rules.deck(players) if players is not None else rules.largest_deck
    counts: dict[int, int] = {}
    for rank in range(1, 14):
        for suit in Suit:
            value = card_points(rules, number, Card(rank, suit))
            counts[value] = counts.get(value, 0) + deck.packs
    if deck.jokers:
        value = card_points(rules, number, Card(None, None))
        counts[value] = counts.get(value, 0) + deck.jokers
    return counts


@lru_cache(maxsize=256)
def _totals(rules: Rules, number: int, players: int | None, most: int) -> tuple[int, ...]:
    """Per number of cards n (0..most), a bit set of every total n cards can score this round."""
    reach = [1] + [0] * most  # reach[n]: bit s set when n cards can score s
    for value, count in _value_counts(rules, number, players).items():
        new = list(reach)
        for n in range(most + 1):
            if not reach[n]:
                continue
            for k in range(1, min(count, most - n) + 1):
                new[n + k] |= reach[n] << (k * value)
        reach = new
    return tuple(reach)


def possible_total(rules: Rules, number: int, points: int, size: HandSize, players: int | None = None) -> bool:
    """Whether some hand of ``size.least``-``size.most`` cards scores ``points`` in this round."""
    if points < 0:
        return False
    reach = _totals(rules, number, players, size.most)
    return any(reach[n] >> points & 1 for n in range(size.least, size.most + 1))


def total_bounds(rules: Rules, number: int, size: HandSize, players: int | None = None) -> tuple[int, int]:
    """The lowest and highest total a hand of that size can score this round."""
    reach = _totals(rules, number, players, size.most)
    sums = [reach[n] for n in range(size.least, size.most + 1)]
    low = min((bits & -bits).bit_length() - 1 for bits in sums if bits)
    high = max(bits.bit_length() - 1 for bits in sums if bits)
    return low, high


def card_values(rules: Rules, number: int) -> list[int]:
    """The different points a card can score this round, lowest first."""
    return sorted(_value_counts(rules, number, None))


def step(rules: Rules, number: int) -> int:
    """The greatest common divisor of every card's points: every total is a multiple of it."""
    return math.gcd(*card_values(rules, number))
