""" "Can I?": find an opening inside a whole hand, or a go-out that uses every card.

Exact: when a layout exists the solver finds one. Wilds are interchangeable for
feasibility (a card of the wild rank standing as itself is the same as a wild
standing for it), so the search is over the places of the runs; books take the
naturals that are left, largest groups first, which is optimal for a fixed set of runs.
Every layout found is handed to the checker before it is returned.

House rules (a ruleset read from a document): the runs' places follow the ace mode and
the runs' and books' least sizes, so the search stays exact for those knobs; books of
distinct suits take one card of a suit each. Where the table limits wilds (naturals per
meld, no more wilds than naturals, no two wilds side by side), the search prunes by the
limits before it builds anything: a window is tried only if the naturals it can take (and
the wild-rank cards that would stand in their own places) keep them, which places of it are
natural deciding adjacency; the books' ranks are chosen so that each book holds the naturals
the limits ask (two books may share a rank, each taking fewer than it could), the fewest
wilds over every choice; a wild-rank card in its own place is counted by one window only,
as the layout is built. Wilds are then interchangeable again for the limits, bar what the
checker settles: a wild-rank card standing for itself in a book (never counted as a natural
there, so a book of the wild rank is not planned). The layout found is handed
to the checker; if it refuses, the search goes round again handing it every candidate and
going on while it refuses (books of distinct suits do so from the start), so a layout it
returns always passes. Books of distinct suits without naturals limits keep the greedy choice of
ranks and may miss a layout where that choice was the obstacle. The go-out search tries
every split of lengths and suits but covers each suit one way only, and never places a run
round the corner (K-A-2): under ``AceMode.AROUND`` and under those limits it may answer
"cannot" for a hand that can.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import product

from .cards import ACE, RANKS, SUITS, Card, Identity, Played, Suit
from .checks import (
    Action,
    Verdict,
    buys_reasons,
    check_copies,
    check_layout,
    hand_capacity,
    hand_size_reasons,
    illegal,
    layout_size_reasons,
)
from .i18n import _
from .melds import HIGH_ACE, Wilds, identity_at, run_starts
from .rulesets import AceMode, Component, Kind, Rules
from .scoring import card_points

Window = tuple[Suit, int, int]  # suit, first position, last position (1..14)

# The most search steps one solve may take (a step: one window considered, about a
# microsecond). Measured with ``manage.py bench``: the slowest hands its adversarial search
# finds take about a tenth of it, and a hand that reaches it is answered in bounded time
# (docs/performance.md).
MAX_STEPS = 40_000
CHECK_STEPS = 50  # what handing a candidate layout to the checker costs, in steps (house rules only)


class TooManyWays(Exception):
    """The hand has more ways to lay out than the solver checks in one request."""


@dataclass(slots=True)
class Steps:
    """The search's work budget: every window tried costs one step."""

    left: int = field(default_factory=lambda: MAX_STEPS)
    taken: int = 0

    def take(self, count: int = 1) -> None:
        self.left -= count
        self.taken += count
        if self.left < 0:
            raise TooManyWays


def _too_many(action: str) -> Verdict:
    return illegal(
        action,
        [
            _(
                "this hand can be laid out in too many ways to check them all at once: "
                "lay out the melds you have in mind and check them instead"
            )
        ],
    )


@dataclass(slots=True)
class _Search:
    naturals: Counter[tuple[int, Suit]]
    wilds: int
    books: list[Component]
    runs: list[Component]
    run_lengths: list[list[int]]
    joins_allowed: bool
    ace: AceMode = AceMode.EITHER
    distinct: bool = False  # books of distinct suits
    # House rules that break the interchangeability of wilds: the checker's word on a candidate.
    accept: Callable[[list[Window], _Plan], bool] | None = None
    limits: _Limits | None = None  # the table's naturals limits, applied to each window and book


@dataclass(frozen=True, slots=True)
class _Limits:
    """What a meld must hold besides wilds (``NaturalPolicy``), as the search applies it: a window
    or a book that breaks it is never tried. ``own``: the cards of a wild rank the hand holds that
    may stand for themselves, how many of each; a window counts their places as natural, and the
    search takes each such card once, window by window, as ``_build`` places them."""

    per_meld: int
    not_more: bool
    adjacent: bool
    own: Counter[tuple[int, Suit]] = field(default_factory=Counter)

    @property
    def active(self) -> bool:
        return self.per_meld > 0 or self.not_more or not self.adjacent

    def least(self, length: int) -> int:
        """The fewest naturals a meld of ``length`` cards holds."""
        return max(self.per_meld, (length + 1) // 2 if self.not_more else 0)

    def window_ok(self, pool: Counter[tuple[int, Suit]], window: Window, own: Counter[tuple[int, Suit]]) -> bool:
        """Whether the window's naturals (the pool's, or a wild-rank card left in its own place) keep the limits."""
        get, mine = pool.get, own.get
        naturals, wild_before = 0, False
        for ident in _positions(window):
            if get(ident, 0) > 0 or mine(ident, 0) > 0:
                naturals += 1
                wild_before = False
            elif wild_before and not self.adjacent:
                return False
            else:
                wild_before = True
        return naturals >= self.least(window[2] - window[1] + 1)

    @staticmethod
    def own_in(
        window: Window, pool: Counter[tuple[int, Suit]], own: Counter[tuple[int, Suit]]
    ) -> tuple[tuple[int, Suit], ...]:
        """The places of the window only a wild-rank card in its own place fills as a natural."""
        return tuple(i for i in _positions(window) if own.get(i, 0) > 0 and pool.get(i, 0) <= 0)


# A plan for the books: each book's rank, and the suits of the naturals it takes (None: as many
# as it can, as ``_build`` finds them).
_Plan = tuple[list[int], list[list[Suit]] | None]


@cache
def _positions(window: Window) -> tuple[tuple[int, Suit], ...]:
    """The cards a window holds, as (rank, suit): an ace at position 14 is the high ace."""
    suit, start, end = window
    return tuple(((pos - 1) % 13 + 1, suit) for pos in range(start, end + 1))


@cache
def _windows(length: int, ace: AceMode = AceMode.EITHER) -> tuple[Window, ...]:
    """Every place a run of ``length`` may take, as the ace mode allows (K-A-2 only round the corner)."""
    return tuple((suit, start, start + length - 1) for suit in SUITS for start in run_starts(length, ace))


def _joins(a: Window, b: Window) -> bool:
    return a[0] is b[0] and (a[2] + 1 == b[1] or b[2] + 1 == a[1])


def _book_deficit(
    naturals: Counter[tuple[int, Suit]], books: list[Component], distinct: bool = False
) -> tuple[int, list[int]]:
    """Wilds the books need when each takes the largest group of one rank left (of distinct
    suits, where books hold each suit once)."""
    if distinct:
        return _distinct_book_deficit(naturals, books)
    by_rank = Counter[int]()
    for (rank, _suit), count in naturals.items():
        by_rank[rank] += count
    deficit, ranks = 0, []
    for book in books:
        rank, count = max(by_rank.items(), key=lambda kv: (kv[1], kv[0]), default=(RANKS[-1], 0))
        used = min(book.length, count)
        by_rank[rank] -= used
        deficit += book.length - used
        ranks.append(rank)
    return deficit, ranks


def _book_plan(
    naturals: Counter[tuple[int, Suit]], books: list[Component], distinct: bool, limits: _Limits | None
) -> tuple[int, _Plan] | None:
    """The wilds the books need and their plan; None where no choice of ranks keeps the limits."""
    if limits is None or not books or not any(limits.least(b.length) for b in books):
        deficit, ranks = _book_deficit(naturals, books, distinct)
        return deficit, (ranks, None)
    return _limited_books(naturals, books, distinct, limits)


def _limited_books(
    naturals: Counter[tuple[int, Suit]], books: list[Component], distinct: bool, limits: _Limits
) -> tuple[int, _Plan] | None:
    """The fewest wilds over every choice of ranks for the books where each holds the naturals
    the limits ask; books may share a rank, each taking fewer than it could so the other keeps
    its share. Of distinct suits, a book takes one card of a suit."""
    need = [limits.least(b.length) for b in books]
    if len(books) == 1:
        return _one_book(naturals, books[0].length, need[0], distinct)
    suits_of: dict[int, Counter[Suit]] = {}
    for (rank, suit), count in naturals.items():
        if count > 0:
            suits_of.setdefault(rank, Counter())[suit] += count
    # the naturals of a rank one book could take (of distinct suits: one a suit)
    held = {rank: len(counts) if distinct else sum(counts.values()) for rank, counts in suits_of.items()}
    # Higher ranks first, as the greedy choice goes (dearer cards laid down on a tie).
    options = [[r for r in sorted(suits_of, reverse=True) if held[r] >= least] for least in need]
    best: tuple[int, _Plan] | None = None

    def choose(i: int, ranks: list[int]) -> None:
        nonlocal best
        if i == len(books):
            plan = _share(suits_of, books, need, ranks, distinct)
            if plan is not None and (best is None or plan[0] < best[0]):
                best = plan[0], (list(ranks), plan[1])
            return
        same = i > 0 and books[i] == books[i - 1]
        for rank in options[i]:
            if same and rank > ranks[-1]:
                continue  # alike books: each choice of ranks once, in order
            choose(i + 1, [*ranks, rank])
            if best is not None and best[0] == 0:
                return

    choose(0, [])
    return best


def _one_book(naturals: Counter[tuple[int, Suit]], length: int, least: int, distinct: bool) -> tuple[int, _Plan] | None:
    """One book: the rank it takes most naturals of (the higher on a tie, as the greedy goes)."""
    suits_of: dict[int, list[Suit]] = {}
    for (rank, suit), count in naturals.items():
        if count > 0:
            suits_of.setdefault(rank, []).extend([suit] if distinct else [suit] * count)
    best: tuple[int, int] | None = None
    for rank, suits in suits_of.items():
        took = min(length, len(suits))
        if len(suits) >= least and (best is None or (took, rank) > best):
            best = took, rank
    if best is None:
        return None
    took, rank = best
    return length - took, ([rank], [suits_of[rank][:took]])


def _share(
    suits_of: dict[int, Counter[Suit]], books: list[Component], need: list[int], ranks: list[int], distinct: bool
) -> tuple[int, list[list[Suit]]] | None:
    """The naturals each book takes (their suits) when these are their ranks: each its least
    first, then as many more as are left; None where the rank's cards do not go round."""
    left = {rank: Counter(suits_of[rank]) for rank in set(ranks)}
    takes: list[list[Suit]] = [[] for _ in books]

    def give(i: int, upto: int) -> None:
        counts = left[ranks[i]]
        while len(takes[i]) < upto:
            if distinct:
                suit = max(
                    (s for s, c in counts.items() if c > 0 and s not in takes[i]),
                    key=lambda s: counts[s],
                    default=None,
                )
            else:
                suit = max((s for s, c in counts.items() if c > 0), key=lambda s: counts[s], default=None)
            if suit is None:
                return
            counts[suit] -= 1
            takes[i].append(suit)

    for i in sorted(range(len(books)), key=lambda i: -need[i]):
        give(i, need[i])
        if len(takes[i]) < need[i]:
            return None
    for i, book in enumerate(books):
        give(i, book.length)
    return sum(b.length for b in books) - sum(map(len, takes)), takes


def _distinct_book_deficit(naturals: Counter[tuple[int, Suit]], books: list[Component]) -> tuple[int, list[int]]:
    suits_of: dict[int, Counter[Suit]] = {}
    for (rank, suit), count in naturals.items():
        if count > 0:
            suits_of.setdefault(rank, Counter())[suit] += count
    deficit, ranks = 0, []
    for book in books:
        rank, suits = max(
            suits_of.items(),
            key=lambda kv: (min(book.length, sum(1 for c in kv[1].values() if c > 0)), kv[0]),
            default=(RANKS[-1], Counter[Suit]()),
        )
        taken = [suit for suit, count in suits.most_common() if count > 0][: book.length]
        for suit in taken:
            suits[suit] -= 1
        deficit += book.length - len(taken)
        ranks.append(rank)
    return deficit, ranks


def _take(naturals: Counter[tuple[int, Suit]], window: Window) -> int:
    """Take the window's naturals out of the pool; return how many places need a wild."""
    deficit = 0
    for ident in _positions(window):
        if naturals[ident] > 0:
            naturals[ident] -= 1
        else:
            deficit += 1
    return deficit


def _open_search(s: _Search, steps: Steps) -> tuple[list[Window], _Plan] | None:
    limits = s.limits
    books_first = _book_plan(s.naturals, s.books, s.distinct, limits)
    if books_first is None:
        return None  # no books keep the limits even with every natural of the hand
    book_floor = books_first[0]
    run_floor = [0]  # the wilds each later run needs at least: the first run's is never asked
    for lengths in s.run_lengths[1:]:
        deficits = [
            _deficit(s.naturals, w)
            for ln in lengths
            for w in _windows(ln, s.ace)
            if limits is None or not limits.active or limits.window_ok(s.naturals, w, limits.own)
        ]
        if not deficits:
            return None  # no window for this run keeps the limits
        run_floor.append(min(deficits))

    def dfs(
        i: int,
        pool: Counter[tuple[int, Suit]],
        spent: int,
        chosen: list[Window],
        min_index: int,
        own: Counter[tuple[int, Suit]],
    ) -> tuple[list[Window], _Plan] | None:
        if i == len(s.runs):
            planned = _book_plan(pool, s.books, s.distinct, limits)
            if planned is None or spent + planned[0] > s.wilds:
                return None
            if s.accept is not None:
                steps.take(CHECK_STEPS)
                if not s.accept(list(chosen), planned[1]):
                    return None
            return list(chosen), planned[1]
        budget = s.wilds - spent - book_floor - sum(run_floor[i + 1 :])
        same_as_before = i > 0 and s.runs[i] == s.runs[i - 1]
        candidates: list[tuple[int, int, Window, tuple[tuple[int, Suit], ...]]] = []
        seen: set[tuple[tuple[tuple[int, Suit], ...], int, tuple[tuple[int, Suit], ...]]] = set()
        windows = [w for ln in s.run_lengths[i] for w in _windows(ln, s.ace)]
        steps.take(len(windows))
        suits_held = {suit for (_rank, suit), count in pool.items() if count > 0}
        for index, window in enumerate(windows):
            if window[2] - window[1] + 1 > budget and window[0] not in suits_held:
                continue  # a suit with no card left needs a wild in every place
            if same_as_before and index < min_index:
                continue
            if not s.joins_allowed and any(_joins(window, c) for c in chosen):
                continue
            deficit = _deficit(pool, window)
            if deficit > budget:
                continue
            if (
                limits is not None
                and limits.active
                and (deficit or limits.per_meld > window[2] - window[1] + 1)
                and not limits.window_ok(pool, window, own)
            ):
                continue
            mine = _Limits.own_in(window, pool, own) if own else ()
            if s.joins_allowed:
                # Windows taking the same naturals, of one length, are alike for what follows
                # (under limits: once both keep them, and fill the same own places).
                key = (tuple(ident for ident in _positions(window) if pool[ident] > 0), window[2] - window[1], mine)
                if key in seen:
                    continue
                seen.add(key)
            candidates.append((deficit, index, window, mine))
        for deficit, index, window, mine in sorted(candidates):
            rest = pool.copy()
            _take(rest, window)
            rest_own = own
            if mine:
                rest_own = own.copy()
                rest_own.subtract(mine)
            found = dfs(i + 1, rest, spent + deficit, [*chosen, window], index, rest_own)
            if found is not None:
                return found
        return None

    return dfs(0, s.naturals.copy(), 0, [], 0, limits.own if limits is not None else Counter())


def _deficit(pool: Counter[tuple[int, Suit]], window: Window) -> int:
    """Places of the window the pool cannot fill: each needs a wild."""
    get = pool.get
    return sum(1 for ident in _positions(window) if get(ident, 0) <= 0)


def _split(rules: Rules, number: int, hand: Sequence[Card]) -> tuple[Counter[tuple[int, Suit]], list[Card], list[Card]]:
    wild = Wilds.of(rules, number)
    naturals: Counter[tuple[int, Suit]] = Counter()
    natural_cards: list[Card] = []
    wild_cards: list[Card] = []
    for card in hand:
        if wild(card):
            wild_cards.append(card)
        else:
            assert card.rank is not None and card.suit is not None
            naturals[card.rank, card.suit] += 1
            natural_cards.append(card)
    # Spend the cheapest wilds first: wild-rank cards before jokers, as points go.
    wild_cards.sort(key=lambda c: (c.is_joker, c.sort_key()))
    return naturals, natural_cards, wild_cards


def _build(
    rules: Rules,
    number: int,
    runs: list[Window],
    plan: _Plan,
    books: list[Component],
    natural_cards: list[Card],
    wild_cards: list[Card],
    *,
    place_all: bool,
) -> list[list[Played]]:
    """Turn windows and a plan of the books into melds of real cards, wilds declared."""
    book_ranks, takes = plan
    left = list(natural_cards)
    wilds = list(wild_cards)
    melds: list[list[Played]] = []

    distinct = rules.books.distinct_suits

    def pull(ident: tuple[int, Suit] | None, rank: int | None = None, avoid: Sequence[Card] = ()) -> Card | None:
        for j, card in enumerate(left):
            if (ident is not None and (card.rank, card.suit) == ident) or (
                ident is None and card.rank == rank and not (distinct and any(card.suit is a.suit for a in avoid))
            ):
                return left.pop(j)
        return None

    run_slots: list[list[Played | None]] = []
    for window in runs:
        slots: list[Played | None] = []
        for ident in _positions(window):
            card = pull(ident)
            slots.append(Played(card) if card is not None else None)
        run_slots.append(slots)
    book_slots: list[list[Played | None]] = []
    for b, (book, rank) in enumerate(zip(books, book_ranks, strict=True)):
        slots = []
        planned = takes[b] if takes is not None else None
        for place in range(book.length):
            if planned is None:
                card = pull(None, rank, [p.card for p in slots if p is not None])
            else:
                card = pull((rank, planned[place])) if place < len(planned) else None
            slots.append(Played(card) if card is not None else None)
        book_slots.append(slots)
    # A card of the wild rank fills its own place as itself before anything else does.
    for window, slots in zip(runs, run_slots, strict=True):
        if not rules.wilds.natural:
            break
        for k, ident in enumerate(_positions(window)):
            own = next((c for c in wilds if (c.rank, c.suit) == ident), None)
            if slots[k] is None and own is not None:
                wilds.remove(own)
                slots[k] = Played(own)
    for window, slots in zip(runs, run_slots, strict=True):
        suit, start, _end = window
        melds.append(
            [p if p is not None else Played(wilds.pop(0), identity_at(start + k, suit)) for k, p in enumerate(slots)]
        )
    for rank, slots in zip(book_ranks, book_slots, strict=True):
        melds.append([p if p is not None else Played(wilds.pop(0), Identity(rank)) for p in slots])
    if place_all:
        assert not left and not wilds, "a go-out layout places every card"
    return melds


def solve_open(
    rules: Rules,
    number: int,
    hand: Sequence[Card],
    *,
    players: int | None = None,
    buys: int | None = None,
    steps: Steps | None = None,
) -> Verdict:
    """An opening for the round's contract inside ``hand``, or the reason there is none."""
    rnd = rules.round(number)
    check_copies(rules, hand, players)
    if rnd.final:
        return check_layout(rules, number, [[Played(c) for c in hand]], final=False, players=players)
    if buys_reasons(rules, number, buys, players):
        return illegal(Action.OPEN, buys_reasons(rules, number, buys, players))
    if len(hand) > hand_capacity(rules, number, buys=buys, players=players):
        return illegal(Action.OPEN, layout_size_reasons(rules, number, len(hand), buys=buys, players=players))
    naturals, natural_cards, wild_cards = _split(rules, number, hand)
    books = [c for c in rnd.contract if c.kind is Kind.BOOK]
    runs = sorted((c for c in rnd.contract if c.kind is Kind.RUN), key=lambda c: c.length)
    lengths = [_lengths(rules, c, exact=rules.exact_opening) for c in runs]
    # The round is won by a discard, so an opening keeps at least one card back.
    need = sum(c.length for c in rnd.contract)
    if not rules.going_out_discard and len(hand) < need:
        return illegal(
            Action.OPEN,
            [
                _("{contract} takes {need} cards; the hand has {n}").format(
                    contract=rules.contract_words(number), need=need, n=len(hand)
                )
            ],
        )
    if rules.going_out_discard and len(hand) < need + 1:
        return illegal(
            Action.OPEN,
            [
                _("{contract} takes {need} cards and one more must stay in hand to discard; the hand has {n}").format(
                    contract=rules.contract_words(number), need=need, n=len(hand)
                )
            ],
        )
    limits = _limits(rules, number, wild_cards) if _house(rules, number) else None

    def accept(windows: list[Window], plan: _Plan) -> bool:
        melds = _build(rules, number, windows, plan, books, natural_cards, wild_cards, place_all=False)
        return check_layout(rules, number, melds, final=False, players=players, buys=buys).legal

    def search(checked: bool) -> tuple[list[Window], _Plan] | None:
        shape = _Search(
            naturals,
            len(wild_cards),
            books,
            runs,
            lengths,
            rules.runs_may_join,
            rules.runs.ace,
            rules.books.distinct_suits,
            accept if checked else None,
            limits,
        )
        return _open_search(shape, budget)

    def lay(found: tuple[list[Window], _Plan]) -> tuple[list[Card], Verdict]:
        windows, plan = found
        melds = _build(rules, number, windows, plan, books, natural_cards, wild_cards, place_all=False)
        unused = _remove(hand, [p.card for m in melds for p in m])
        if not rules.exact_opening:
            melds, unused = _extend(rules, number, melds, unused)
        return unused, check_layout(rules, number, melds, final=False, players=players, buys=buys)

    budget = steps if steps is not None else Steps()
    # Under the naturals limits the search decides by counts, so the first layout found passes but
    # where books of distinct suits or wild-rank cards in their own places (one counted by two
    # windows) were the obstacle: books of distinct suits ask the checker as the search goes, and
    # a layout the checker refuses sends the search round again, asking it of each candidate.
    checked = limits is not None and rules.books.distinct_suits
    try:
        found = search(checked)
        laid = lay(found) if found is not None else None
        if laid is not None and not laid[1].legal and limits is not None and not checked:
            found = search(True)
            laid = lay(found) if found is not None else None
    except TooManyWays:
        return _too_many(Action.OPEN)
    if laid is None:
        return illegal(
            Action.OPEN,
            [
                _("this hand holds no opening for {where}: {contract}").format(
                    where=rules.round_name(number), contract=rules.contract_words(number)
                )
            ],
        )
    unused, verdict = laid
    assert verdict.legal, f"solver produced an illegal opening: {verdict.reasons}"
    return Verdict(
        verdict.action,
        True,
        melds=verdict.melds,
        notes=_keep_note(rules, number, unused) + verdict.notes,
        unused=tuple(unused),
    )


def _house(rules: Rules, number: int) -> bool:
    """Whether wilds stop being interchangeable (the solver then asks the checker as it goes)."""
    wilds = Wilds.of(rules, number)
    return wilds.shapes.limits or not wilds.natural


def _limits(rules: Rules, number: int, wild_cards: Sequence[Card]) -> _Limits:
    """The table's naturals limits for the search, with the wild-rank cards that may stand as themselves."""
    policy = rules.naturals
    own = Counter(
        (c.rank, c.suit) for c in wild_cards if rules.wilds.natural and c.rank is not None and c.suit is not None
    )
    return _Limits(policy.per_meld, policy.not_more_wilds, policy.adjacent_wilds, own)


def _lengths(rules: Rules, component: Component, *, exact: bool) -> list[int]:
    # A longer run holds a minimal one, so the minimum suffices unless same-suit runs must
    # not join (shrinking two overlapping runs could make them join): then try every length.
    if exact or rules.runs_may_join:
        return [component.length]
    return list(range(component.length, 14))


def _remove(hand: Sequence[Card], used: Sequence[Card]) -> list[Card]:
    left = list(hand)
    for card in used:
        left.remove(card)
    return left


def _extend(
    rules: Rules, number: int, melds: list[list[Played]], unused: list[Card]
) -> tuple[list[list[Played]], list[Card]]:
    """Lay down more of the hand where it fits, dearest cards first, keeping one to discard."""
    from .melds import read

    wild = Wilds.of(rules, number)
    keep = 1 if rules.going_out_discard else 0  # the card kept to discard
    melds = [list(m) for m in melds]
    kinds = [(read(m, wild, Kind.RUN)[0] and Kind.RUN) or Kind.BOOK for m in melds]
    for card in sorted(unused, key=lambda c: -card_points(rules, number, c)):
        if len(unused) <= keep:
            break
        for m, kind in zip(melds, kinds, strict=True):
            got = read([*m, Played(card)], wild, kind)[0]
            if got:
                m[:] = [p.as_played(wild) for p in got[0].cards]
                unused.remove(card)
                break
    return melds, unused


def _keep_note(rules: Rules, number: int, unused: list[Card]) -> tuple[str, ...]:
    if not unused:
        return ()
    cards = " ".join(str(c) for c in sorted(unused, key=lambda c: c.sort_key()))
    return (_("Left in hand: {cards}.").format(cards=cards),)


def solve_go_out(
    rules: Rules,
    number: int,
    hand: Sequence[Card],
    *,
    players: int | None = None,
    buys: int | None = None,
    steps: Steps | None = None,
) -> Verdict:
    """Every card of ``hand`` in the final round's runs, or the reason it cannot be done."""
    rnd = rules.round(number)
    check_copies(rules, hand, players)
    if not rnd.final:
        return check_layout(rules, number, [[Played(c) for c in hand]], final=True, players=players)
    where = rules.round_name(number)
    size = buys_reasons(rules, number, buys, players) or hand_size_reasons(rules, number, len(hand), where, buys)
    if size:
        return illegal(Action.GO_OUT, size)
    naturals, natural_cards, wild_cards = _split(rules, number, hand)
    runs = list(rnd.contract)
    try:
        accept = None
        if _house(rules, number):

            def accept(windows: list[Window]) -> bool:
                melds = _build(rules, number, windows, ([], None), [], natural_cards, wild_cards, place_all=True)
                return check_layout(rules, number, melds, final=True, players=players, buys=buys).legal

        found = _go_out_search(
            naturals,
            runs,
            len(hand),
            rules.runs_may_join,
            steps if steps is not None else Steps(),
            rules.runs.ace,
            accept,
        )
    except TooManyWays:
        return _too_many(Action.GO_OUT)
    if found is None:
        return illegal(
            Action.GO_OUT,
            [
                _("these {n} cards cannot all be laid in {contract}").format(
                    n=len(hand), contract=rules.contract_words(number, final_note=False)
                )
            ],
        )
    melds = _build(rules, number, found, ([], None), [], natural_cards, wild_cards, place_all=True)
    verdict = check_layout(rules, number, melds, final=True, players=players, buys=buys)
    assert verdict.legal, f"solver produced an illegal go-out: {verdict.reasons}"
    return verdict


def _go_out_search(
    naturals: Counter[tuple[int, Suit]],
    runs: list[Component],
    total: int,
    joins_allowed: bool,
    steps: Steps,
    ace: AceMode = AceMode.EITHER,
    accept: Callable[[list[Window]], bool] | None = None,
) -> list[Window] | None:
    needed_suits = {suit for (_rank, suit), count in naturals.items() if count > 0}
    if len(needed_suits) > len(runs):
        return None
    covered: dict[tuple[Suit, tuple[int, ...]], tuple[Window, ...] | None] = {}
    # Runs that ask for the same minimum are interchangeable: try each multiset of
    # (length, suit) once, in order, not in every permutation.
    alike = len({c.length for c in runs}) == 1
    order = {suit: i for i, suit in enumerate(SUITS)}
    for lengths in _length_splits([c.length for c in runs], total):
        if alike and any(lengths[i] > lengths[i + 1] for i in range(len(lengths) - 1)):
            continue
        for suits in product(SUITS, repeat=len(runs)):
            if not needed_suits <= set(suits):
                continue
            if alike and any(
                lengths[i] == lengths[i + 1] and order[suits[i]] > order[suits[i + 1]] for i in range(len(runs) - 1)
            ):
                continue
            placement: list[Window | None] = [None] * len(runs)
            ok = True
            for suit in set(suits):
                idx = [i for i, s in enumerate(suits) if s is suit]
                asked = (suit, tuple(lengths[i] for i in idx))
                if asked not in covered:  # the same suit and lengths recur across splits
                    covered[asked] = _cover_suit(naturals, suit, list(asked[1]), joins_allowed, steps, ace)
                windows = covered[asked]
                if windows is None:
                    ok = False
                    break
                for i, w in zip(idx, windows, strict=True):
                    placement[i] = w
            if ok:
                found = [w for w in placement if w is not None]
                if accept is None:
                    return found
                steps.take(CHECK_STEPS)
                if accept(found):
                    return found
    return None


def _length_splits(minimums: list[int], total: int) -> Iterator[tuple[int, ...]]:
    def rec(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == len(minimums) - 1:
            if minimums[i] <= left <= 13:
                yield (left,)
            return
        for ln in range(minimums[i], min(13, left - sum(minimums[i + 1 :])) + 1):
            for rest in rec(i + 1, left - ln):
                yield (ln, *rest)

    return rec(0, total)


def _cover_suit(
    naturals: Counter[tuple[int, Suit]],
    suit: Suit,
    lengths: list[int],
    joins_allowed: bool,
    steps: Steps,
    ace: AceMode = AceMode.EITHER,
) -> tuple[Window, ...] | None:
    """Windows of these lengths in one suit that hold every natural card of that suit.

    An ace goes low (position 1) or high (14): each split of the aces is tried. Then the
    lowest place still to cover must lie in one of the windows not yet placed, which
    bounds the branching to a window's length at each step. An ace only low (or only high)
    takes that place alone; round the corner is not placed (see the module's docstring).
    """
    counts = {rank: c for (rank, s), c in naturals.items() if s is suit and c > 0}
    aces = counts.pop(ACE, 0)
    splits = {AceMode.LOW: [aces], AceMode.HIGH: [0]}.get(ace, range(aces, -1, -1))
    bounds = (2 if ace is AceMode.HIGH else 1, HIGH_ACE - 1 if ace is AceMode.LOW else HIGH_ACE)
    for low in splits:
        need = dict(counts)
        if low:
            need[1] = low
        if aces - low:
            need[HIGH_ACE] = aces - low
        found = _place(need, sorted(lengths), [], suit, joins_allowed, steps, bounds)
        if found is not None:
            # Put the windows back in the order of the lengths asked for.
            ordered: list[Window] = []
            pool = list(found)
            for ln in lengths:
                w = next(w for w in pool if w[2] - w[1] + 1 == ln)
                pool.remove(w)
                ordered.append(w)
            return tuple(ordered)
    return None


def _place(
    need: dict[int, int],
    lengths: list[int],
    placed: list[Window],
    suit: Suit,
    joins_allowed: bool,
    steps: Steps,
    bounds: tuple[int, int] = (1, HIGH_ACE),
) -> list[Window] | None:
    steps.take()
    if not lengths:
        return placed if not need else None
    if sum(need.values()) > sum(lengths) or (need and max(need.values()) > len(lengths)):
        return None
    if not need:
        # Nothing left to cover: the rest may stand anywhere that does not join.
        for start in range(bounds[0], bounds[1] - lengths[0] + 2):
            window = (suit, start, start + lengths[0] - 1)
            if joins_allowed or not any(_joins(window, w) for w in placed):
                found = _place(need, lengths[1:], [*placed, window], suit, joins_allowed, steps, bounds)
                if found is not None:
                    return found
        return None
    lowest = min(need)
    for i, ln in enumerate(lengths):
        if ln in lengths[:i]:
            continue  # the same length was tried already
        for start in range(max(bounds[0], lowest - ln + 1), min(lowest, bounds[1] - ln + 1) + 1):
            window = (suit, start, start + ln - 1)
            if 1 in need and HIGH_ACE in need and start == 1 and window[2] == HIGH_ACE:
                continue
            if not joins_allowed and any(_joins(window, w) for w in placed):
                continue
            rest = {p: c - (start <= p <= window[2]) for p, c in need.items()}
            rest = {p: c for p, c in rest.items() if c > 0}
            found = _place(rest, lengths[:i] + lengths[i + 1 :], [*placed, window], suit, joins_allowed, steps, bounds)
            if found is not None:
                return found
    return None
