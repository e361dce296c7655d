"""Reading a list of cards as a book or a run: every way it fits, or every reason it cannot.

A reading fixes what each card counts as. Non-wild cards count as themselves; a card
of the round's wild rank counts as itself where it can (unless declared otherwise): of
all readings, those with the fewest cards acting as wilds are the ones kept. Jokers and
the other wilds take the missing places in the order they were given, unless declared
(``JK=8S``). Two readings differ when a wild stands for a different card: ``5S 6S 7S JK``
reads as 4S-7S or 5S-8S, and the verdict lists both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import ACE, RANKS, SUITS, Card, Identity, Played, Suit, format_cards, rank_name, rank_plural
from .i18n import _, ngettext
from .rulesets import Kind

HIGH_ACE = 14
MAX_RUN = 13


@dataclass(frozen=True, slots=True)
class Wilds:
    """Which cards are wild in a round: jokers, and the round's wild rank if any."""

    rank: int | None

    def __call__(self, card: Card) -> bool:
        return card.is_joker or card.rank == self.rank

    @property
    def words(self) -> str:
        if self.rank is None:
            return _("only jokers are wild")
        return _("jokers and {ranks} are wild").format(ranks=rank_plural(self.rank))


@dataclass(frozen=True, slots=True)
class Placed:
    """A card in a read meld: what it counts as, and whether it stands in as a wild."""

    card: Card
    identity: Identity
    wild: bool
    index: int = 0  # where the card stood in the cards as given

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


def identity_at(position: int, suit: Suit | None) -> Identity:
    return Identity(ACE if position == HIGH_ACE else position, suit)


def _is_self(played: Played) -> bool:
    d = played.declared
    return d is not None and d.rank == played.card.rank and d.suit in (None, played.card.suit)


def declaration_reasons(cards: Sequence[Played], wilds: Wilds) -> list[str]:
    """A non-wild card can only stand for itself."""
    return [
        _("{card} is not wild ({wilds}), so it cannot stand for {identity}").format(
            card=p.card, wilds=wilds.words, identity=p.declared
        )
        for p in cards
        if p.declared is not None and not wilds(p.card) and not _is_self(p)
    ]


def read_book(cards: Sequence[Played], wilds: Wilds) -> tuple[list[Reading], list[str]]:
    reasons = declaration_reasons(cards, wilds)
    if len(cards) < 3:
        reasons.append(_("a book needs at least 3 cards; {cards} has {n}").format(cards=_quote(cards), n=len(cards)))
    natural = [p.card for p in cards if not wilds(p.card) or _is_self(p)]
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

    if ranks:
        candidates = ranks
    else:
        declared = sorted({p.declared.rank for p in cards if p.declared is not None})
        if len(declared) > 1:
            named = " ".join(f"{p}" for p in cards if p.declared is not None)
            return [], [_("{cards} stand for different ranks; a book is cards of one rank").format(cards=named)]
        # All wilds: any rank fits; a wild-rank card standing as itself is read first.
        own = wilds.rank if any(p.card.rank == wilds.rank for p in cards) else None
        candidates = declared or sorted(RANKS, key=lambda r: r != own)

    readings: list[Reading] = []
    for rank in candidates:
        placed: list[Placed] = []
        for i, p in enumerate(cards):
            if not wilds(p.card) or (p.declared is None and p.card.rank == rank) or _is_self(p):
                placed.append(Placed(p.card, Identity.of(p.card), wild=False, index=i))
            elif p.declared is None:
                placed.append(Placed(p.card, Identity(rank), wild=True, index=i))
            elif p.declared.rank == rank:
                placed.append(Placed(p.card, p.declared, wild=True, index=i))
            else:
                reasons.append(
                    _("{card} cannot stand for {identity} in a book of {ranks}").format(
                        card=p, identity=p.declared.name, ranks=rank_plural(rank)
                    )
                )
        if len(placed) == len(cards):
            readings.append(Reading(Kind.BOOK, tuple(placed), low=rank, high=rank))
    return readings, ([] if readings else reasons)


def read_run(cards: Sequence[Played], wilds: Wilds) -> tuple[list[Reading], list[str]]:
    fixed = _fixed(cards, wilds)
    reasons = declaration_reasons(cards, wilds)
    # Cards with a shape reason (too few or many, mixed suits, a card twice, too far apart,
    # round the ace) fit no window, so the shape is only explained when no reading is found.
    if not reasons:
        readings = _run_readings(cards, fixed)
        if readings:
            return readings, []
    reasons += _run_shape_reasons(cards, fixed)
    if reasons:
        return [], reasons
    undeclared = [Played(p.card) for p in cards]
    loose = _run_readings(undeclared, _fixed(undeclared, wilds))
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
    return [not wilds(p.card) or _is_self(p) for p in cards]


def _run_shape_reasons(cards: Sequence[Played], fixed: list[bool]) -> list[str]:
    reasons: list[str] = []
    n = len(cards)
    if n < 4:
        reasons.append(_("a run needs at least 4 cards; {cards} has {n}").format(cards=_quote(cards), n=n))
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
    if not has_ace:
        span = others[-1] - others[0] + 1
        if span > n:
            reasons.append(_span_reason(cards, natural, span, n))
        return reasons
    low_span, high_span = others[-1], HIGH_ACE - others[0] + 1
    if min(low_span, high_span) <= n:
        return reasons
    if others[0] <= n and others[-1] >= HIGH_ACE + 1 - n:
        reasons.append(
            _("{cards} would wrap round the ace (K-A-2): an ace is low (A-2-3-4) or high (J-Q-K-A), never both").format(
                cards=_quote(cards)
            )
        )
    else:
        reasons.append(_span_reason(cards, natural, min(low_span, high_span), n))
    return reasons


def _span_reason(cards: Sequence[Played], natural: list[Card], span: int, n: int) -> str:
    ordered = _in_run_order(natural, span)
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


def _run_readings(cards: Sequence[Played], fixed: list[bool]) -> list[Reading]:
    n = len(cards)
    if not 4 <= n <= MAX_RUN:
        return []
    natural = [p.card for p, f in zip(cards, fixed, strict=True) if f]
    known = {c.suit for c in natural} | {p.declared.suit for p in cards if p.declared is not None and p.declared.suit}
    suits = [s for s in SUITS if s in known] if known else list(SUITS)
    # Every window must hold the natural cards other than aces: start no later than the
    # lowest of them, end no earlier than the highest.
    ranks = [c.rank for c in natural if c.rank not in (None, ACE)]
    first = max(1, max(ranks, default=1) - n + 1)
    last = min(min(ranks, default=HIGH_ACE), HIGH_ACE - n + 1)
    readings: list[Reading] = []
    for suit in suits:
        for start in range(first, last + 1):
            reading = _fit_window(cards, fixed, suit, start, start + n - 1)
            if reading is not None:
                readings.append(reading)
    return readings


def _position(rank: int, start: int, end: int) -> int | None:
    if rank == ACE:
        return 1 if start == 1 else HIGH_ACE if end == HIGH_ACE else None
    return rank if start <= rank <= end else None


def _fit_window(cards: Sequence[Played], fixed: list[bool], suit: Suit, start: int, end: int) -> Reading | None:
    slots: dict[int, Placed] = {}
    loose_wild_rank: list[int] = []
    loose: list[int] = []
    for i, p in enumerate(cards):
        card = p.card
        if fixed[i]:
            assert card.rank is not None
            pos = _position(card.rank, start, end)
            if card.suit is not suit or pos is None or pos in slots:
                return None
            slots[pos] = Placed(card, Identity.of(card), wild=False, index=i)
        elif p.declared is not None:
            pos = _position(p.declared.rank, start, end)
            if p.declared.suit not in (None, suit) or pos is None or pos in slots:
                return None
            slots[pos] = Placed(card, Identity(p.declared.rank, suit), wild=True, index=i)
        elif card.suit is suit:
            loose_wild_rank.append(i)
        else:
            loose.append(i)
    # A card of the wild rank counts as itself where its own place is free.
    for i in loose_wild_rank:
        card = cards[i].card
        assert card.rank is not None
        pos = _position(card.rank, start, end)
        if pos is not None and pos not in slots:
            slots[pos] = Placed(card, Identity.of(card), wild=False, index=i)
        else:
            loose.append(i)
    free = [pos for pos in range(start, end + 1) if pos not in slots]
    if len(free) != len(loose):
        return None
    for pos, i in zip(free, sorted(loose), strict=True):
        slots[pos] = Placed(cards[i].card, identity_at(pos, suit), wild=True, index=i)
    return Reading(Kind.RUN, tuple(slots[p] for p in range(start, end + 1)), suit, start, end)


def read(cards: Sequence[Played], wilds: Wilds, kind: Kind) -> tuple[list[Reading], list[str]]:
    """Every most natural reading of the cards as ``kind``, or every reason there is none.

    Of the readings that fit, only those where the fewest cards act as wilds are kept: a
    card of the wild rank stands as itself wherever it can ("between a 4 and a 6 it works
    as a 5", but an 8 at the top of 5-6-7-8 is an eight), and an exposed meld read again
    for a layoff or a swap keeps what its wilds stood for. A declaration still decides.
    Equally natural readings (a joker at either end of a run) all remain, as choices.
    """
    readings, reasons = read_book(cards, wilds) if kind is Kind.BOOK else read_run(cards, wilds)
    return most_natural(readings), reasons


def most_natural(readings: list[Reading]) -> list[Reading]:
    if len(readings) < 2:
        return readings
    fewest = min(len(r.wilds) for r in readings)
    return [r for r in readings if len(r.wilds) == fewest]


def runs_join(a: Reading, b: Reading) -> bool:
    """Two same-suit runs that would make one longer run end to end (3S-6S and 7S-10S)."""
    return a.suit is b.suit and (a.high + 1 == b.low or b.high + 1 == a.low)


def _count_word(count: int, rank: int) -> str:
    return rank_plural(rank) if count > 1 else rank_name(rank)


def _quote(cards: Sequence[Played]) -> str:
    return " ".join(str(p) for p in cards) or _("(no cards)")
