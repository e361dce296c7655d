"""Reading a list of cards as a book or a run: every way it fits, or every reason it cannot.

A reading fixes what each card counts as. Non-wild cards count as themselves; a card
of the round's wild rank counts as itself where it can (unless declared otherwise): of
all readings, those with the fewest cards acting as wilds are the ones kept. Jokers and
the other wilds take the missing places in the order they were given, unless declared
(``JK=8S``). Two readings differ when a wild stands for a different card: ``5S 6S 7S JK``
reads as 4S-7S or 5S-8S, and the verdict lists both.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import NamedTuple

from .budget import Budget
from .cards import ACE, RANKS, SUITS, Card, Identity, Played, Suit, format_cards, identity_of, rank_name, rank_plural
from .i18n import _, ngettext
from .rules import AceMode, BookPolicy, Kind, NaturalPolicy, Rules, RunPolicy, WildPolicy
from .words import names_and

HIGH_ACE = 14
MAX_RUN = 13
DISTINCT_BOOK = 4  # a book of distinct suits holds at most one card of each suit


@dataclass(frozen=True, slots=True)
class Shapes:
    """What a table asks of a meld beyond its cards' ranks and suits: a book's and a run's least
    size, books of distinct suits, where an ace stands, and the natural cards a meld holds."""

    books: BookPolicy = field(default_factory=BookPolicy)
    runs: RunPolicy = field(default_factory=RunPolicy)
    naturals: NaturalPolicy = field(default_factory=NaturalPolicy)
    # Whether a read meld is checked further (naturals, distinct suits): not in the built-ins.
    # Decided once: every reading of every meld asks.
    limits: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        limited = self.books.distinct_suits or self.naturals != NaturalPolicy()
        object.__setattr__(self, "limits", limited)


PLAIN = Shapes()
PLAIN_WILDS = WildPolicy()


@dataclass(frozen=True, slots=True)
class Wilds:
    """Which cards are wild in a round: jokers, the round's wild rank if any and the ranks wild in
    every round (``every``); whether such a card may stand for itself (``natural``); and what the
    table asks of a meld (``shapes``), which the reading of a meld follows.

    A joker is always read as a wild: where jokers are not wild the packs hold none, and a joker
    is refused as a card the packs do not hold (``checks.copy_reasons``)."""

    rank: int | None
    every: tuple[int, ...] = ()
    natural: bool = True
    jokers: bool = True
    shapes: Shapes = PLAIN

    @classmethod
    def of(cls, rules: Rules, number: int) -> Wilds:
        """What is wild in round ``number`` of ``rules``, and what its melds ask (kept per ruleset
        and round: every check asks, and comparing the knobs with their defaults is not free)."""
        key = (id(rules), number)
        known = _WILDS.get(key)
        if known is not None and known[0] is rules:
            return known[1]
        if len(_WILDS) >= _WILDS_KEPT:
            _WILDS.clear()
        wilds = cls._of(rules, number)
        _WILDS[key] = (rules, wilds)
        return wilds

    @classmethod
    def _of(cls, rules: Rules, number: int) -> Wilds:
        rank = rules.wild_rank(number)
        knobs = rules.wilds
        shapes = Shapes(rules.books, rules.runs, rules.naturals)
        if knobs == PLAIN_WILDS and shapes == PLAIN:
            return cls(rank)
        every = tuple(r for r in knobs.ranks if r != rank)
        return cls(rank, every, knobs.natural, knobs.jokers, PLAIN if shapes == PLAIN else shapes)

    def __call__(self, card: Card) -> bool:
        rank = card.rank  # a joker's is None (``Card.is_joker``, inlined: every card read asks this)
        return rank is None or rank == self.rank or rank in self.every

    @property
    def ranks(self) -> tuple[int, ...]:
        """Every wild rank of the round, the round's own first."""
        return ((self.rank,) if self.rank is not None else ()) + self.every

    def stands_as_itself(self, card: Card) -> bool:
        """Whether a card of a wild rank may count as itself (never a joker)."""
        return self.natural and not card.is_joker

    @property
    def words(self) -> str:
        ranks = self.ranks
        if not ranks:
            return _("only jokers are wild") if self.jokers else _("nothing is wild")
        if len(ranks) == 1 and self.jokers:
            return _("jokers and {ranks} are wild").format(ranks=rank_plural(ranks[0]))
        plural = names_and([rank_plural(r) for r in ranks])
        if not self.jokers:
            return _("{ranks} are wild").format(ranks=plural)
        return _("jokers, {ranks} are wild").format(ranks=plural)


# Wilds.of per (ruleset, round); the ruleset is kept beside its id so that a reused id is not mistaken.
_WILDS: dict[tuple[int, int], tuple[Rules, Wilds]] = {}
_WILDS_KEPT = 512


class Placed(NamedTuple):
    """A card in a read meld: what it counts as, and whether it stands in as a wild.

    A named tuple, not a dataclass: every window a meld is read in makes one for each of its
    cards, and a tuple is made in a third of the time."""

    card: Card
    identity: Identity
    wild: bool
    given: int = 0  # where the card stood in the cards as given

    def as_played(self, wilds: Wilds) -> Played:
        """The card with its identity pinned where it could read otherwise (any wild)."""
        return Played(self.card, self.identity if wilds(self.card) else None)

    def __str__(self) -> str:
        return f"{self.card}={self.identity}" if self.wild else str(self.card)


@dataclass(frozen=True, slots=True)
class Reading:
    kind: Kind
    cards: tuple[Placed, ...]  # books in the order given, runs from low to high
    suit: Suit | None = None  # runs
    low: int = 0  # runs: position of the lowest card (1 = ace low); books: the rank
    high: int = 0  # runs: position of the highest card (14 = ace high)

    @property
    def rank(self) -> int:
        return self.low

    @property
    def wilds(self) -> tuple[Placed, ...]:
        return tuple(p for p in self.cards if p.wild)

    def describe(self) -> str:
        """``a book of sevens``, ``a run 9S-QS``."""
        if self.kind is Kind.BOOK:
            return _("a book of {ranks}").format(ranks=rank_plural(self.low))
        return _("a run {low}-{high}").format(
            low=identity_at(self.low, self.suit), high=identity_at(self.high, self.suit)
        )

    def __str__(self) -> str:
        return " ".join(str(p) for p in self.cards)


@functools.cache
def identity_at(position: int, suit: Suit | None) -> Identity:
    """The card at a run position: 1 is the low ace, 14 the high ace, and past 14 (a run round the
    corner, ``AceMode.AROUND``) the ranks start again: 15 is a two."""
    return Identity((position - 1) % 13 + 1, suit)


def _is_self(played: Played, wilds: Wilds | None = None) -> bool:
    """A card declared as itself: it counts as itself (where a wild card may stand for itself)."""
    d = played.declared
    if d is None or d.rank != played.card.rank or d.suit not in (None, played.card.suit):
        return False
    return wilds is None or not wilds(played.card) or wilds.natural


def declaration_reasons(cards: Sequence[Played], wilds: Wilds) -> list[str]:
    """A non-wild card can only stand for itself."""
    return [
        _("{card} is not wild ({wilds}), so it cannot stand for {identity}").format(
            card=p.card, wilds=wilds.words, identity=p.declared
        )
        for p in cards
        if p.declared is not None and not wilds(p.card) and not _is_self(p)
    ]


# What reading a meld costs besides its candidates, per card: looking at each card and the words
# for what is wrong with it (``read_book``, ``read_run``).
READ_STEPS = 4


def read_book(cards: Sequence[Played], wilds: Wilds, budget: Budget) -> tuple[list[Reading], list[str]]:
    budget.take(READ_STEPS * len(cards))
    reasons = declaration_reasons(cards, wilds)
    books = wilds.shapes.books
    if len(cards) < books.least:
        reasons.append(
            _("a book needs at least {least} cards; {cards} has {n}").format(
                least=books.least, cards=_quote(cards), n=len(cards)
            )
        )
    if books.distinct_suits and len(cards) > DISTINCT_BOOK:
        reasons.append(
            _("a book of different suits holds at most 4 cards; {cards} has {n}").format(
                cards=_quote(cards), n=len(cards)
            )
        )
    natural = [p.card for p in cards if not wilds(p.card) or _is_self(p, wilds)]
    ranks = sorted({c.rank for c in natural if c.rank is not None})
    if len(ranks) > 1:
        groups = ", ".join(
            f"{_count_word(sum(c.rank == r for c in natural), r)} ({format_cards(c for c in natural if c.rank == r)})"
            for r in ranks
        )
        reasons.append(
            _("{cards} mixes ranks: {groups}; a book is cards of one rank").format(cards=_quote(cards), groups=groups)
        )
    if reasons:
        return [], reasons
    candidates = _book_ranks(cards, wilds, ranks)
    if not candidates:
        named = " ".join(f"{p}" for p in cards if p.declared is not None)
        return [], [_("{cards} stand for different ranks; a book is cards of one rank").format(cards=named)]
    return _book_readings(cards, wilds, candidates, budget, reasons)


def _book_ranks(cards: Sequence[Played], wilds: Wilds, ranks: list[int]) -> list[int]:
    """The ranks a book of these cards may be of: its naturals' one rank, the one rank its wilds are
    declared as, or (all wilds) any, a wild-rank card standing as itself read first; none where the
    wilds are declared as different ranks."""
    if ranks:
        return ranks
    declared = sorted({p.declared.rank for p in cards if p.declared is not None})
    if len(declared) > 1:
        return []
    own = next((p.card.rank for p in cards if wilds.stands_as_itself(p.card)), None)
    return declared or sorted(RANKS, key=lambda r: r != own)


def _book_readings(
    cards: Sequence[Played], wilds: Wilds, candidates: list[int], budget: Budget, reasons: list[str] | None = None
) -> tuple[list[Reading], list[str]]:
    """The cards read as a book of each candidate rank (the words for a misfit only given ``reasons``)."""
    readings: list[Reading] = []
    reasons = [] if reasons is None else reasons
    budget.take(len(candidates) * len(cards))  # each candidate rank places every card
    # What each card is whatever the rank: a natural (or a wild pinned to itself), or a wild.
    fixed = [not wilds(p.card) or _is_self(p, wilds) for p in cards]
    for rank in candidates:
        placed: list[Placed] = []
        stands_for = identity_of(rank, None)
        for i, p in enumerate(cards):
            if fixed[i] or (p.declared is None and p.card.rank == rank and wilds.natural):
                placed.append(Placed(p.card, Identity.of(p.card), wild=False, given=i))
            elif p.declared is None:
                placed.append(Placed(p.card, stands_for, wild=True, given=i))
            elif p.declared.rank == rank:
                placed.append(Placed(p.card, p.declared, wild=True, given=i))
            else:
                reasons.append(
                    _("{card} cannot stand for {identity} in a book of {ranks}").format(
                        card=p, identity=p.declared.name, ranks=rank_plural(rank)
                    )
                )
        if len(placed) == len(cards):
            readings.append(Reading(Kind.BOOK, tuple(placed), low=rank, high=rank))
    return readings, ([] if readings else reasons)


def read_run(cards: Sequence[Played], wilds: Wilds, budget: Budget) -> tuple[list[Reading], list[str]]:
    budget.take(READ_STEPS * len(cards))
    fixed = _fixed(cards, wilds)
    reasons = declaration_reasons(cards, wilds)
    # Cards with a shape reason (too few or many, mixed suits, a card twice, too far apart,
    # round the ace) fit no window, so the shape is only explained when no reading is found.
    if not reasons:
        readings = _run_readings(cards, fixed, wilds, budget)
        if readings:
            return readings, []
    reasons += _run_shape_reasons(cards, fixed, wilds.shapes.runs)
    if reasons:
        return [], reasons
    undeclared = [Played(p.card) for p in cards]
    loose = _run_readings(undeclared, _fixed(undeclared, wilds), wilds, budget)
    declared = [str(p) for p in cards if p.declared is not None]
    if loose:
        options = "; ".join(r.describe() + f" ({r})" for r in loose[:3])
        message = ngettext(
            "the declaration {declared} does not fit any run these cards make: {options}",
            "the declarations {declared} do not fit any run these cards make: {options}",
            len(declared),
        )
        return [], [message.format(declared=" ".join(declared), options=options)]
    return [], [_("{cards} cannot be laid as one run").format(cards=_quote(cards))]


def _fixed(cards: Sequence[Played], wilds: Wilds) -> list[bool]:
    """Per card: True where it can only count as itself (not wild, or pinned to itself)."""
    return [not wilds(p.card) or _is_self(p, wilds) for p in cards]


def _run_shape_reasons(cards: Sequence[Played], fixed: list[bool], runs: RunPolicy = PLAIN.runs) -> list[str]:
    reasons: list[str] = []
    n = len(cards)
    if n < runs.least:
        reasons.append(
            _("a run needs at least {least} cards; {cards} has {n}").format(least=runs.least, cards=_quote(cards), n=n)
        )
    if n > MAX_RUN:
        reasons.append(
            _("a run holds at most 13 cards (ace to king); {cards} has {n}").format(cards=_quote(cards), n=n)
        )
    natural = [p.card for p, f in zip(cards, fixed, strict=True) if f]
    suits = [s for s in SUITS if any(c.suit is s for c in natural)]
    if len(suits) > 1:
        groups = ", ".join(f"{s.noun} ({format_cards(c for c in natural if c.suit is s)})" for s in suits)
        reasons.append(
            _("{cards} mixes suits: {groups}; a run is cards of one suit").format(cards=_quote(cards), groups=groups)
        )
        return reasons
    twice = [c for c, k in Counter(natural).items() if k > 1]
    if twice:
        message = ngettext(
            "{cards} appears twice; a run holds each card once",
            "{cards} appear twice; a run holds each card once",
            len(twice),
        )
        reasons.append(message.format(cards=format_cards(twice)))
        return reasons
    others = sorted(c.rank for c in natural if c.rank is not None and c.rank != ACE)
    has_ace = any(c.rank == ACE for c in natural)
    if not others or n > MAX_RUN:
        return reasons
    if runs.ace is AceMode.AROUND:
        ordered = _round_the_corner(natural)
        span = ordered[1]
        if span > n:
            reasons.append(_span_reason(cards, natural, span, n, ordered[0]))
        return reasons
    if not has_ace:
        span = others[-1] - others[0] + 1
        if span > n:
            reasons.append(_span_reason(cards, natural, span, n))
        return reasons
    low_span, high_span = others[-1], HIGH_ACE - others[0] + 1
    allowed = {AceMode.LOW: low_span, AceMode.HIGH: high_span}.get(runs.ace, min(low_span, high_span))
    if allowed <= n:
        return reasons
    wraps = others[0] <= n and others[-1] >= HIGH_ACE + 1 - n
    if runs.ace is AceMode.LOW and high_span <= n:
        reasons.append(
            _("{cards} would need a high ace (J-Q-K-A): here an ace is low only (A-2-3-4)").format(cards=_quote(cards))
        )
    elif runs.ace is AceMode.HIGH and low_span <= n:
        reasons.append(
            _("{cards} would need a low ace (A-2-3-4): here an ace is high only (J-Q-K-A)").format(cards=_quote(cards))
        )
    elif wraps and runs.ace is AceMode.LOW:
        reasons.append(
            _("{cards} would wrap round the ace (K-A-2): here an ace is low only (A-2-3-4)").format(cards=_quote(cards))
        )
    elif wraps and runs.ace is AceMode.HIGH:
        reasons.append(
            _("{cards} would wrap round the ace (K-A-2): here an ace is high only (J-Q-K-A)").format(
                cards=_quote(cards)
            )
        )
    elif wraps:
        reasons.append(
            _("{cards} would wrap round the ace (K-A-2): an ace is low (A-2-3-4) or high (J-Q-K-A), never both").format(
                cards=_quote(cards)
            )
        )
    else:
        reasons.append(_span_reason(cards, natural, allowed, n))
    return reasons


def _round_the_corner(natural: list[Card]) -> tuple[list[Card], int]:
    """The cards in run order on the circle of ranks (K-A-2 allowed), and the ranks they span:
    the run starts after the widest gap between two of them."""
    ranks = sorted({c.rank for c in natural if c.rank is not None})
    gaps = [(ranks[(i + 1) % len(ranks)] - r) % 13 or 13 for i, r in enumerate(ranks)]
    widest = max(range(len(ranks)), key=lambda i: gaps[i])
    start = ranks[(widest + 1) % len(ranks)]
    span = 13 - gaps[widest] + 1 if len(ranks) > 1 else 1
    ordered = sorted(natural, key=lambda c: (((c.rank or 0) - start) % 13, c.sort_key()))
    return ordered, span


def _span_reason(
    cards: Sequence[Played], natural: list[Card], span: int, n: int, ordered: list[Card] | None = None
) -> str:
    ordered = ordered or _in_run_order(natural, span)
    missing = span - len(natural)
    wild_count = n - len(natural)
    gaps = ngettext("{n} gap to fill", "{n} gaps to fill", missing).format(n=missing)
    wilds = ngettext("only {n} wild", "only {n} wilds", wild_count).format(n=wild_count) if wild_count else _("no wild")
    message = _(
        "{cards} spans {span} ranks ({low} to {high}), too far apart for a run of {n} cards: {gaps} but {wilds}"
    )
    return message.format(cards=_quote(cards), span=span, low=ordered[0], high=ordered[-1], n=n, gaps=gaps, wilds=wilds)


def _in_run_order(natural: list[Card], span: int) -> list[Card]:
    """The cards as the run would read them: an ace at the top where it spans fewer ranks high."""
    others = [c.rank for c in natural if c.rank is not None and c.rank != ACE]
    ace_high = bool(others) and HIGH_ACE - min(others) + 1 == span and max(others) != span

    def position(card: Card) -> int:
        assert card.rank is not None
        return HIGH_ACE if card.rank == ACE and ace_high else card.rank

    return sorted(natural, key=lambda c: (position(c), c.sort_key()))


def run_starts(n: int, ace: AceMode, first: int = 1, last: int = HIGH_ACE) -> list[int]:
    """Where a run of ``n`` cards may start (position 1 is the low ace, 14 the high ace), as the
    ace mode allows; ``first`` and ``last`` narrow the plain (not round the corner) starts."""
    top = HIGH_ACE - n + 1 if ace is not AceMode.LOW else HIGH_ACE - n
    starts = list(range(max(first, 2 if ace is AceMode.HIGH else 1), min(last, top) + 1))
    if ace is AceMode.AROUND:
        starts += range(max(2, HIGH_ACE + 2 - n), 14)  # the windows past the high ace: K-A-2
    return starts


def _run_readings(cards: Sequence[Played], fixed: list[bool], wilds: Wilds, budget: Budget) -> list[Reading]:
    n = len(cards)
    runs = wilds.shapes.runs
    natural_wilds = wilds.natural
    if not runs.least <= n <= MAX_RUN:
        return []
    natural = [p.card for p, f in zip(cards, fixed, strict=True) if f]
    known = {c.suit for c in natural} | {p.declared.suit for p in cards if p.declared is not None and p.declared.suit}
    suits = [s for s in SUITS if s in known] if known else list(SUITS)
    # Every window must hold the natural cards and declared wilds other than aces: start no later
    # than the lowest of them, end no earlier than the highest (round the corner: any start).
    ranks = [c.rank for c in natural if c.rank not in (None, ACE)]
    ranks += [p.declared.rank for p in cards if p.declared is not None and p.declared.rank != ACE]
    first = max(1, max(ranks, default=1) - n + 1)
    last = min(min(ranks, default=HIGH_ACE), HIGH_ACE - n + 1)
    starts: Sequence[int]
    if runs.ace is AceMode.EITHER:
        starts = range(first, last + 1)
    elif runs.ace is AceMode.AROUND:
        starts = range(first, last + 1)  # as run_starts: the plain starts, then those round the corner
        # A window round the corner (K-A-2) holds each natural at its rank or 13 past it: each rank
        # is high (from the window's start) or low (to its end, past the ace).
        if not ranks or min(ranks) >= HIGH_ACE + 2 - n or min(ranks) <= n - 1:
            corner = [
                s for s in range(max(2, HIGH_ACE + 2 - n), 14) if all(r >= s or r + 13 <= s + n - 1 for r in ranks)
            ]
            if corner:
                starts = [*starts, *corner]
    else:
        starts = run_starts(n, runs.ace, first, last)
    readings: list[Reading] = []
    budget.take(len(suits) * len(starts) * n)  # each window places every card
    for suit in suits:
        for start in starts:
            reading = _fit_window(cards, fixed, suit, start, start + n - 1, natural_wilds)
            if reading is not None:
                readings.append(reading)
    return readings


def _position(rank: int, start: int, end: int) -> int | None:
    if start <= rank <= end:
        return rank
    rank += 13  # the high ace (14), or a rank past it round the corner
    return rank if start <= rank <= end else None


def _fit_window(
    cards: Sequence[Played], fixed: list[bool], suit: Suit, start: int, end: int, natural: bool = True
) -> Reading | None:
    # First the places, as numbers (most windows fail here); the placed cards only for a fit.
    at: dict[int, int] = {}  # position -> the card's index
    declared: set[int] = set()
    loose_wild_rank: list[int] = []
    loose: list[int] = []
    for i, p in enumerate(cards):
        card = p.card
        if fixed[i]:
            assert card.rank is not None
            pos = _position(card.rank, start, end)
            if card.suit is not suit or pos is None or pos in at:
                return None
            at[pos] = i
        elif p.declared is not None:
            pos = _position(p.declared.rank, start, end)
            if p.declared.suit not in (None, suit) or pos is None or pos in at:
                return None
            at[pos] = i
            declared.add(i)
        elif card.suit is suit and natural:
            loose_wild_rank.append(i)
        else:
            loose.append(i)
    own: set[int] = set()
    # A card of the wild rank counts as itself where its own place is free.
    for i in loose_wild_rank:
        rank = cards[i].card.rank
        assert rank is not None
        pos = _position(rank, start, end)
        if pos is not None and pos not in at:
            at[pos] = i
            own.add(i)
        else:
            loose.append(i)
    free = [pos for pos in range(start, end + 1) if pos not in at]
    for pos, i in zip(free, sorted(loose), strict=True):
        at[pos] = i
    placed: list[Placed] = []
    for pos in range(start, end + 1):
        i = at[pos]
        card = cards[i].card
        if fixed[i] or i in own:
            placed.append(Placed(card, Identity.of(card), wild=False, given=i))
        else:  # a wild: declared, or standing in a free place
            placed.append(Placed(card, identity_at(pos, suit), wild=True, given=i))
    return Reading(Kind.RUN, tuple(placed), suit, start, end)


def read(cards: Sequence[Played], wilds: Wilds, kind: Kind, budget: Budget) -> tuple[list[Reading], list[str]]:
    """Every most natural reading of the cards as ``kind``, or every reason there is none.

    Of the readings that fit, only those where the fewest cards act as wilds are kept: a
    card of the wild rank stands as itself wherever it can ("between a 4 and a 6 it works
    as a 5", but an 8 at the top of 5-6-7-8 is an eight), and an exposed meld read again
    for a layoff or a swap keeps what its wilds stood for. A declaration still decides.
    Equally natural readings (a joker at either end of a run) all remain, as choices.
    Where the table limits wilds or asks books of distinct suits (``Shapes.limits``), a
    reading that breaks a limit is dropped first; if none is left, its reasons are the verdict.
    """
    readings, reasons = read_book(cards, wilds, budget) if kind is Kind.BOOK else read_run(cards, wilds, budget)
    if readings and wilds.shapes.limits:
        budget.take(len(readings) * len(cards))  # each reading's cards counted against the limits
        readings, reasons = allowed(readings, wilds)
    return most_natural(readings), reasons


def fits(cards: Sequence[Played], wilds: Wilds, kind: Kind, budget: Budget) -> list[Reading]:
    """The readings ``read`` keeps, without the words for why there is none: what a search asks of
    a meld it may not keep (the solver lengthening an opening). Each card looked at once, each
    candidate as ``read`` charges it."""
    budget.take(len(cards))
    fixed = _fixed(cards, wilds)
    if any(p.declared is not None and not wilds(p.card) and not _is_self(p) for p in cards):
        return []
    if kind is Kind.BOOK:
        books = wilds.shapes.books
        if len(cards) < books.least or (books.distinct_suits and len(cards) > DISTINCT_BOOK):
            return []
        ranks = sorted({p.card.rank for p, f in zip(cards, fixed, strict=True) if f and p.card.rank is not None})
        if len(ranks) > 1:
            return []
        candidates = _book_ranks(cards, wilds, ranks)
        readings = _book_readings(cards, wilds, candidates, budget)[0] if candidates else []
    else:
        readings = _run_readings(cards, fixed, wilds, budget)
    if readings and wilds.shapes.limits:
        budget.take(len(readings) * len(cards))
        readings = [r for r in readings if _keeps(r, wilds.shapes)]
    return most_natural(readings)


def allowed(readings: list[Reading], wilds: Wilds) -> tuple[list[Reading], list[str]]:
    """The readings the table's limits allow; where none is, why (for the first three readings)."""
    shapes = wilds.shapes
    for reading in readings:
        if not _keeps(reading, shapes):
            break
    else:
        return readings, []  # the common case: no words are made
    kept = [reading for reading in readings if _keeps(reading, shapes)]
    if kept:
        return kept, []
    why: list[str] = []
    for reading in readings[:3]:  # the words for the first few readings the limits refuse
        why += [w for w in limit_reasons(reading, shapes) if w not in why]
    return kept, why


def _keeps(reading: Reading, shapes: Shapes) -> bool:
    """Whether a read meld keeps the table's limits (``limit_reasons`` says why not, in words)."""
    if shapes.books.distinct_suits and reading.kind is Kind.BOOK:
        suits = [p.card.suit for p in reading.cards if not p.wild]
        if len(suits) != len(set(suits)):
            return False
    policy = shapes.naturals
    cards = reading.cards
    wild = sum(1 for p in cards if p.wild)
    naturals = len(cards) - wild
    if naturals < policy.per_meld or (policy.not_more_wilds and wild > naturals):
        return False
    if reading.kind is Kind.RUN and wild > 1 and not policy.adjacent_wilds:
        return not any(a.wild and b.wild for a, b in pairwise(cards))
    return True


def limit_reasons(reading: Reading, shapes: Shapes) -> list[str]:
    """Every limit of the table a read meld breaks: distinct suits in a book, the natural cards
    a meld holds, wilds outnumbering naturals, two wilds side by side in a run. Adjacency is a
    run's matter only: a book's cards have no order."""
    wild = reading.wilds
    naturals = len(reading.cards) - len(wild)
    policy = shapes.naturals
    if not shapes.books.distinct_suits or reading.kind is not Kind.BOOK:
        # the common case, a meld that keeps every limit: no words are made for it
        adjacent = reading.kind is Kind.RUN and not policy.adjacent_wilds
        if (
            naturals >= policy.per_meld
            and not (policy.not_more_wilds and len(wild) > naturals)
            and not (adjacent and any(a.wild and b.wild for a, b in pairwise(reading.cards)))
        ):
            return []
    meld = f"{reading.describe()} ({reading})"
    said = " ".join(str(p) for p in wild)
    reasons: list[str] = []
    if reading.kind is Kind.BOOK and shapes.books.distinct_suits:
        suits = Counter(p.card.suit for p in reading.cards if not p.wild and p.card.suit is not None)
        for suit in [s for s in SUITS if suits[s] > 1]:
            twice = format_cards(p.card for p in reading.cards if not p.wild and p.card.suit is suit)
            message = _("{meld} holds {suit} more than once ({cards}); here a book holds each suit once at most")
            reasons.append(message.format(meld=meld, suit=suit.noun, cards=twice))
    if naturals < policy.per_meld:
        message = ngettext(
            "{meld} holds {n} natural card beside the wilds {wilds}; here a meld holds at least {least}",
            "{meld} holds {n} natural cards beside the wilds {wilds}; here a meld holds at least {least}",
            naturals,
        )
        reasons.append(message.format(meld=meld, n=naturals, wilds=said, least=policy.per_meld))
    if policy.not_more_wilds and len(wild) > naturals:
        message = ngettext(
            "{meld} holds more wilds ({wilds}) than natural cards ({n}); here a meld holds no more wilds than naturals",
            "{meld} holds more wilds ({wilds}) than natural cards ({n}); here a meld holds no more wilds than naturals",
            naturals,
        )
        reasons.append(message.format(meld=meld, wilds=said, n=naturals))
    if reading.kind is Kind.RUN and not policy.adjacent_wilds:
        cards = reading.cards
        for a, b in pairwise(cards):
            if a.wild and b.wild:
                message = _("{meld}: the wilds {first} and {second} stand side by side; here no two wilds are adjacent")
                reasons.append(message.format(meld=meld, first=a, second=b))
    return reasons


def most_natural(readings: list[Reading]) -> list[Reading]:
    if len(readings) < 2:
        return readings
    wild = [sum(p.wild for p in r.cards) for r in readings]
    fewest = min(wild)
    return [r for r, n in zip(readings, wild, strict=True) if n == fewest]


def runs_join(a: Reading, b: Reading, *, around: bool = False) -> bool:
    """Two same-suit runs that would make one longer run end to end (3S-6S and 7S-10S; where an
    ace goes round the corner, also QS-AS and 2S-5S)."""
    return a.suit is b.suit and ends_meet(a.low, a.high, b.low, b.high, around=around)


def ends_meet(low: int, high: int, other_low: int, other_high: int, *, around: bool) -> bool:
    """Whether two runs of one suit, by their positions, would make one longer run end to end:
    one starts just above where the other stops; round the corner (``around``) by rank, K-A-2
    included, where the two together hold no more than a run can."""
    if high + 1 == other_low or other_high + 1 == low:
        return True
    if not around or (high - low + 1) + (other_high - other_low + 1) > MAX_RUN:
        return False
    return high % 13 + 1 == (other_low - 1) % 13 + 1 or other_high % 13 + 1 == (low - 1) % 13 + 1


def _count_word(count: int, rank: int) -> str:
    return rank_plural(rank) if count > 1 else rank_name(rank)


def _quote(cards: Sequence[Played]) -> str:
    return " ".join(str(p) for p in cards) or _("(no cards)")
