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
ranks and may miss a layout where that choice was the obstacle.

Going out (``_GoOut``): each suit its natural cards are of takes a group of the runs, the rest
go all wild to a suit no natural is of; each group's fewest cards are placed and lengthened by
wilds to the hand's size. Runs round the corner are placed with the suit's circle cut before
each rank in turn; where runs together go all round a suit, or the checker refuses a placement
under the naturals limits (one placement per set of lengths is tried), a search that finds
nothing answers undecided rather than "cannot". A final round with books in its contract (a
house rule) searches as the opening does, every run length tried, the books taking every card
left (``_book_whole``).

Every candidate is charged to the request's ``Budget`` before it is tried (``budget.py``); a
budget spent is answered in words (``_too_many``), never with a verdict not reached.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache

from .budget import Budget, TooManyWays
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
    layout_holds,
    layout_size_reasons,
    undecided,
)
from .i18n import _
from .melds import HIGH_ACE, MAX_RUN, Reading, Wilds, ends_meet, fits, identity_at, run_starts
from .rules import AceMode, Component, Kind, Rules
from .scoring import card_points

Window = tuple[Suit, int, int]  # suit, first position, last position (1..14)


def _too_many(action: str) -> Verdict:
    if action == Action.GO_OUT:
        message = _(
            "this hand can be laid out in too many ways to check them all at once: "
            "lay out the runs you have in mind and check them as go out"
        )
    else:
        message = _(
            "this hand can be laid out in too many ways to check them all at once: "
            "lay out the melds you have in mind and check them instead"
        )
    return undecided(action, message)


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
    whole: bool = False  # going out: the books take every card the runs leave (``_book_whole``)


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


# A plan for the books: each book's rank, the suits of the naturals it takes (None: as many
# as it can, as ``_build`` finds them).
_Plan = tuple[list[int], list[list[Suit]] | None, list[int] | None]


@cache
def _positions(window: Window) -> tuple[tuple[int, Suit], ...]:
    """The cards a window holds, as (rank, suit): an ace at position 14 is the high ace."""
    suit, start, end = window
    return tuple(((pos - 1) % 13 + 1, suit) for pos in range(start, end + 1))


@cache
def _windows(length: int, ace: AceMode = AceMode.EITHER) -> tuple[Window, ...]:
    """Every place a run of ``length`` may take, as the ace mode allows (K-A-2 only round the corner)."""
    return tuple((suit, start, start + length - 1) for suit in SUITS for start in run_starts(length, ace))


def _window_steps(length: int, limits: _Limits | None) -> int:
    """What trying a window for a run costs, in steps: one, and where the table limits wilds, its
    places counted against them (half a step each)."""
    return 1 + length // 2 if limits is not None and limits.active else 1


def _joins(a: Window, b: Window, around: bool = False) -> bool:
    if a[0] is not b[0]:
        return False
    if a[2] + 1 == b[1] or b[2] + 1 == a[1]:  # the plain case first: asked for every window tried
        return True
    return around and ends_meet(a[1], a[2], b[1], b[2], around=True)


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
    naturals: Counter[tuple[int, Suit]],
    books: list[Component],
    distinct: bool,
    limits: _Limits | None,
    budget: Budget,
) -> tuple[int, _Plan] | None:
    """The wilds the books need and their plan; None where no choice of ranks keeps the limits."""
    if limits is None or not books or not any(limits.least(b.length) for b in books):
        deficit, ranks = _book_deficit(naturals, books, distinct)
        return deficit, (ranks, None, None)
    return _limited_books(naturals, books, distinct, limits, budget)


def _limited_books(
    naturals: Counter[tuple[int, Suit]], books: list[Component], distinct: bool, limits: _Limits, budget: Budget
) -> tuple[int, _Plan] | None:
    """The fewest wilds over every choice of ranks for the books where each holds the naturals
    the limits ask; books may share a rank, each taking fewer than it could so the other keeps
    its share. Of distinct suits, a book takes one card of a suit.

    Ranks are interchangeable but for the cards of each the hand holds, so the choice is made
    rank by rank (highest first: dearer cards are laid down on a tie), over which books each rank
    takes: the best plan for every set of books placed so far is kept, so the work is at most 13
    ranks times 3 to the number of books (243 for five books), each charged to the budget, where
    trying every choice of ranks was 13 to the number of books."""
    need = [limits.least(b.length) for b in books]
    if len(books) == 1:
        budget.take(len(naturals))
        return _one_book(naturals, books[0].length, need[0], distinct)
    suits_of: dict[int, Counter[Suit]] = {}
    for (rank, suit), count in naturals.items():
        if count > 0:
            suits_of.setdefault(rank, Counter())[suit] += count
    # the naturals of a rank one book could take (of distinct suits: one a suit)
    held = {rank: len(counts) if distinct else sum(counts.values()) for rank, counts in suits_of.items()}
    ranks = [r for r in sorted(suits_of, reverse=True) if held[r] >= min(need)]
    every = (1 << len(books)) - 1
    budget.take(len(naturals) + 4 * every)  # the ranks' naturals counted, each set of books' needs summed
    members = [[i for i in range(len(books)) if group >> i & 1] for group in range(every + 1)]
    need_of = [sum(need[i] for i in group) for group in members]
    length_of = [sum(books[i].length for i in group) for group in members]
    values: dict[tuple[tuple[int, ...], int], int | None] = {}

    def value(rank: int, group: int) -> int | None:
        """The naturals the books of ``group`` take between them from ``rank``; None if not their least."""
        if not distinct:
            return None if need_of[group] > held[rank] else min(held[rank], length_of[group])
        key = (tuple(sorted(suits_of[rank].values())), group)  # suits are alike to a book of distinct suits
        if key not in values:
            them = members[group]
            budget.take(SHARE_STEPS * len(them))  # the books' naturals shared out, suit by suit
            shared = _share(suits_of, [books[i] for i in them], [need[i] for i in them], [rank] * len(them), True)
            values[key] = None if shared is None else length_of[group] - shared[0]
        return values[key]

    # the most naturals taken, and by which (rank, books) pairs, for each set of books placed
    best: dict[int, tuple[int, tuple[tuple[int, int], ...]]] = {0: (0, ())}
    total = length_of[every]
    for rank in ranks:
        # each (set placed, books the rank takes) is a look-up and an addition: four to a step
        budget.take((every + sum(1 << bin(every & ~placed).count("1") for placed in best)) // 4 + 1)
        took = [value(rank, group) for group in range(every + 1)]
        grown = dict(best)
        for placed, (taken, plan) in best.items():
            free = every & ~placed
            group = free
            while group:
                got = took[group]
                if got is not None:
                    now = placed | group
                    known = grown.get(now)
                    if known is None or taken + got > known[0]:
                        grown[now] = (taken + got, (*plan, (rank, group)))
                group = (group - 1) & free
        best = grown
        if every in best and best[every][0] == total:
            break  # every book holds only naturals: no plan needs fewer wilds
    if every not in best:
        return None
    book_ranks = [0] * len(books)
    takes: list[list[Suit]] = [[] for _ in books]
    for rank, group in best[every][1]:
        them = members[group]
        budget.take(SHARE_STEPS * len(them))
        shared = _share(suits_of, [books[i] for i in them], [need[i] for i in them], [rank] * len(them), distinct)
        assert shared is not None
        for i, suits in zip(them, shared[1], strict=True):
            book_ranks[i], takes[i] = rank, suits
    return sum(b.length for b in books) - best[every][0], (book_ranks, takes, None)


SHARE_STEPS = 12  # what sharing one book's naturals out costs (``_share``), in steps


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
    return length - took, ([rank], [suits_of[rank][:took]], None)


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


def _book_whole(pool: Counter[tuple[int, Suit]], books: list[Component], wilds: int, distinct: bool) -> _Plan | None:
    """Books that take every natural card the runs left (the most of one rank to the book asking
    most) and every wild left, going out: None where more ranks are left than books, or too few
    wilds. Of distinct suits a book holds 4 cards at most; a rank held twice in a suit is laid in
    one book all the same, and the checker refuses it (the go-out search then says it could not
    try every way)."""
    suits_of: dict[int, list[Suit]] = {}
    for (rank, suit), count in pool.items():
        if count > 0:
            suits_of.setdefault(rank, []).extend([suit] * count)
    groups = sorted(suits_of.items(), key=lambda g: (-len(g[1]), -g[0]))
    if len(groups) > len(books):
        return None
    order = sorted(range(len(books)), key=lambda i: -books[i].length)
    ranks, sizes = [RANKS[-1]] * len(books), [0] * len(books)
    takes: list[list[Suit]] = [[] for _ in books]
    for place, i in enumerate(order):
        if place < len(groups):
            ranks[i], takes[i] = groups[place][0], list(groups[place][1])
        sizes[i] = max(books[i].length, len(takes[i]))
    extra = wilds - sum(sizes[i] - len(takes[i]) for i in range(len(books)))
    for i in order:
        grow = min(extra, max(0, 4 - sizes[i])) if distinct else extra
        sizes[i] += grow
        extra -= grow
    if extra != 0:
        return None
    return ranks, takes, sizes


def _take(naturals: Counter[tuple[int, Suit]], window: Window) -> int:
    """Take the window's naturals out of the pool; return how many places need a wild."""
    deficit = 0
    for ident in _positions(window):
        if naturals[ident] > 0:
            naturals[ident] -= 1
        else:
            deficit += 1
    return deficit


def _open_search(s: _Search, budget: Budget) -> tuple[list[Window], _Plan] | None:
    limits = s.limits
    around = s.ace is AceMode.AROUND
    books_first = _book_plan(s.naturals, s.books, s.distinct, limits, budget)
    if books_first is None:
        return None  # no books keep the limits even with every natural of the hand
    book_floor = books_first[0]
    run_floor = [0]  # the wilds each later run needs at least: the first run's is never asked
    for lengths in s.run_lengths[1:]:
        budget.take(sum(len(_windows(ln, s.ace)) * _window_steps(ln, limits) for ln in lengths))
        gaps = _Gaps(s.naturals)
        deficits = [
            gaps(w)
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
            budget.take(len(pool) + len(s.books) * 4)  # the books planned over what the runs left
            if s.whole:  # the books take every card the runs left: their naturals and the wilds
                whole = _book_whole(pool, s.books, s.wilds - spent, s.distinct)
                planned = None if whole is None else (0, whole)
            else:
                planned = _book_plan(pool, s.books, s.distinct, limits, budget)
            if planned is None or spent + planned[0] > s.wilds:
                return None
            if s.accept is not None and not s.accept(list(chosen), planned[1]):  # the checker charges its reading
                return None
            return list(chosen), planned[1]
        spare = s.wilds - spent - book_floor - sum(run_floor[i + 1 :])
        same_as_before = i > 0 and s.runs[i] == s.runs[i - 1]
        candidates: list[tuple[int, int, Window, tuple[tuple[int, Suit], ...]]] = []
        seen: set[tuple[tuple[tuple[int, Suit], ...], int, tuple[tuple[int, Suit], ...]]] = set()
        windows = [w for ln in s.run_lengths[i] for w in _windows(ln, s.ace)]
        budget.take(sum(len(_windows(ln, s.ace)) * _window_steps(ln, limits) for ln in s.run_lengths[i]))
        suits_held = {suit for (_rank, suit), count in pool.items() if count > 0}
        gaps = _Gaps(pool)
        for index, window in enumerate(windows):
            if window[2] - window[1] + 1 > spare and window[0] not in suits_held:
                continue  # a suit with no card left needs a wild in every place
            if same_as_before and index < min_index:
                continue
            if not s.joins_allowed and any(_joins(window, c, around) for c in chosen):
                continue
            deficit = gaps(window)
            if deficit > spare:
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


MAX_POSITION = HIGH_ACE + MAX_RUN - 1  # the last place a window may reach (round the corner: 26)


class _Gaps:
    """What each window of a pool lacks, in one subtraction: per suit, how many of the places up to
    each position the pool cannot fill (a window's deficit is the difference at its two ends).
    Made once per node of the search, where every window of every length is asked."""

    __slots__ = ("_before",)

    def __init__(self, pool: Counter[tuple[int, Suit]]) -> None:
        get = pool.get
        self._before: dict[Suit, list[int]] = {}
        for suit in SUITS:
            counted, total = [0], 0
            for position in range(1, MAX_POSITION + 1):
                total += get(((position - 1) % 13 + 1, suit), 0) <= 0
                counted.append(total)
            self._before[suit] = counted

    def __call__(self, window: Window) -> int:
        before = self._before[window[0]]
        return before[window[2]] - before[window[1] - 1]


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
    book_ranks, takes, sizes = plan
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
        for place in range(sizes[b] if sizes is not None else book.length):
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
    budget: Budget | None = None,
) -> Verdict:
    """An opening for the round's contract inside ``hand``, or the reason there is none; where the
    search spends its budget (``budget``, by default one of its own) first, what to do instead."""
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
        return layout_holds(rules, number, melds, final=False, players=players, buys=buys, budget=work)

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
        return _open_search(shape, work)

    def lay(found: tuple[list[Window], _Plan]) -> tuple[list[Card], Verdict]:
        windows, plan = found
        melds = _build(rules, number, windows, plan, books, natural_cards, wild_cards, place_all=False)
        unused = _remove(hand, [p.card for m in melds for p in m])
        verdict = check_layout(rules, number, melds, final=False, players=players, buys=buys, budget=work)
        if verdict.legal and not rules.exact_opening:
            # more of the hand laid where it fits, if the checker still takes the whole and the
            # budget lasts: the opening found stands either way
            longer, left = _extend(rules, number, melds, list(unused), work)
            try:
                fuller = check_layout(rules, number, longer, final=False, players=players, buys=buys, budget=work)
            except TooManyWays:
                return unused, verdict
            if fuller.legal:
                return left, fuller
        return unused, verdict

    work = budget if budget is not None else Budget()
    # Under the naturals limits the search decides by counts, so the first layout found passes but
    # where books of distinct suits or wild-rank cards in their own places (one counted by two
    # windows) were the obstacle: books of distinct suits ask the checker as the search goes, and
    # a layout the checker refuses sends the search round again, asking it of each candidate.
    checked = limits is not None and rules.books.distinct_suits
    try:
        found = search(checked)
        laid = lay(found) if found is not None else None
        if laid is not None and not laid[1].legal and not checked:
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
    rules: Rules, number: int, melds: list[list[Played]], unused: list[Card], budget: Budget
) -> tuple[list[list[Played]], list[Card]]:
    """Lay down more of the hand where it fits, dearest cards first, keeping one to discard. A card
    is read onto a meld only where it could go (a wild; the book's rank; the run's suit, at or
    beside the ranks it spans): a hand of a hundred cards asks few readings. A nicety, not the
    answer: it takes at most ``EXTEND_SHARE`` of what is left of the budget, and when that is
    spent the melds stay as lengthened so far."""
    wild = Wilds.of(rules, number)
    keep = 1 if rules.going_out_discard else 0  # the card kept to discard
    melds = [list(m) for m in melds]
    share = Budget(left=int(budget.left * EXTEND_SHARE))
    try:
        readings: list[Reading | None] = []
        for m in melds:
            found = fits(m, wild, Kind.RUN, share) or fits(m, wild, Kind.BOOK, share)
            readings.append(found[0] if found else None)
        for card in sorted(unused, key=lambda c: -card_points(rules, number, c)):
            if len(unused) <= keep:
                break
            share.take(len(melds))
            for j, m in enumerate(melds):
                reading = readings[j]
                if reading is None or not _may_take(reading, card, wild):
                    continue
                got = fits([*m, Played(card)], wild, reading.kind, share)
                if got:
                    readings[j] = got[0]
                    m[:] = [p.as_played(wild) for p in got[0].cards]
                    unused.remove(card)
                    break
    except TooManyWays:
        pass
    budget.take(min(share.taken, budget.left))  # the share's work, charged to the one budget
    return melds, unused


def _may_take(reading: Reading, card: Card, wild: Wilds) -> bool:
    """Whether ``card`` could be read onto the meld read so (a necessary test, not a sufficient one)."""
    if wild(card):
        return True
    if reading.kind is Kind.BOOK:
        return card.rank == reading.rank
    if card.suit is not reading.suit:
        return False
    return any(identity_at(p, reading.suit).rank == card.rank for p in range(max(1, reading.low - 1), reading.high + 2))


EXTEND_SHARE = 0.25  # of the budget left, what lengthening an opening found may take


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
    budget: Budget | None = None,
) -> Verdict:
    """Every card of ``hand`` in the final round's runs, or the reason it cannot be done; where the
    search spends its budget (``budget``, by default one of its own) first, what to do instead."""
    rnd = rules.round(number)
    check_copies(rules, hand, players)
    if not rnd.final:
        return check_layout(rules, number, [[Played(c) for c in hand]], final=True, players=players)
    where = rules.round_name(number)
    size = buys_reasons(rules, number, buys, players) or hand_size_reasons(rules, number, len(hand), where, buys)
    if size:
        return illegal(Action.GO_OUT, size)
    if any(c.kind is Kind.BOOK for c in rnd.contract):
        return _go_out_with_books(rules, number, hand, players, buys, budget)
    naturals, natural_cards, wild_cards = _split(rules, number, hand)
    if len(hand) > MAX_RUN * len(rnd.contract):  # refused by counting: no run holds more than 13
        return _cannot_go_out(rules, number, len(hand))
    work = budget if budget is not None else Budget()
    search = _GoOut(naturals, [c.length for c in rnd.contract], len(hand), rules.runs_may_join, rules.runs.ace, work)
    if _house(rules, number):

        def accept(windows: list[Window]) -> bool:
            melds = _build(rules, number, windows, ([], None, None), [], natural_cards, wild_cards, place_all=True)
            return layout_holds(rules, number, melds, final=True, players=players, buys=buys, budget=work)

        search.accept = accept
    try:
        found = search.run()
    except TooManyWays:
        return _too_many(Action.GO_OUT)
    contract = rules.contract_words(number, final_note=False)
    if found is None and search.untried:
        message = _(
            "no way was found to lay these {n} cards in {contract}, but not every way was tried "
            "(runs that go all round a suit, or other places for the wilds the table's limits ask): "
            "lay out the melds you have in mind and check them as go out"
        )
        return undecided(Action.GO_OUT, message.format(n=len(hand), contract=contract))
    if found is None:
        return _cannot_go_out(rules, number, len(hand))
    melds = _build(rules, number, found, ([], None, None), [], natural_cards, wild_cards, place_all=True)
    verdict = check_layout(rules, number, melds, final=True, players=players, buys=buys, budget=Budget())
    assert verdict.legal, f"solver produced an illegal go-out: {verdict.reasons}"
    return verdict


def _cannot_go_out(rules: Rules, number: int, n: int) -> Verdict:
    message = _("these {n} cards cannot all be laid in {contract}")
    return illegal(Action.GO_OUT, [message.format(n=n, contract=rules.contract_words(number, final_note=False))])


def _go_out_with_books(
    rules: Rules, number: int, hand: Sequence[Card], players: int | None, buys: int | None, budget: Budget | None
) -> Verdict:
    """A final round whose contract holds books (a house rule): the opening's search over the
    runs' places, every length tried, the books taking every card the runs leave; each layout
    found is the checker's to accept (the wilds' places in the books are not searched)."""
    rnd = rules.round(number)
    naturals, natural_cards, wild_cards = _split(rules, number, hand)
    books = [c for c in rnd.contract if c.kind is Kind.BOOK]
    runs = sorted((c for c in rnd.contract if c.kind is Kind.RUN), key=lambda c: c.length)
    # Refused by counting: the runs hold at most 13 natural cards each, the books the natural
    # cards of as many ranks as there are books (of distinct suits, four cards a book in all).
    by_rank = sorted(Counter(r for (r, _suit), c in naturals.items() for _ in range(c)).values(), reverse=True)
    in_books = 4 * len(books) if rules.books.distinct_suits else sum(by_rank[: len(books)])
    if len(natural_cards) > MAX_RUN * len(runs) + in_books or (
        rules.books.distinct_suits and len(hand) > MAX_RUN * len(runs) + 4 * len(books)
    ):
        return _cannot_go_out(rules, number, len(hand))
    work = budget if budget is not None else Budget()
    refused = False

    def accept(windows: list[Window], plan: _Plan) -> bool:
        nonlocal refused
        melds = _build(rules, number, windows, plan, books, natural_cards, wild_cards, place_all=True)
        legal = layout_holds(rules, number, melds, final=True, players=players, buys=buys, budget=work)
        refused = refused or not legal
        return legal

    shape = _Search(
        naturals,
        len(wild_cards),
        books,
        runs,
        [list(range(c.length, MAX_RUN + 1)) for c in runs],
        rules.runs_may_join,
        rules.runs.ace,
        rules.books.distinct_suits,
        accept,
        _limits(rules, number, wild_cards) if _house(rules, number) else None,
        whole=True,
    )
    try:
        found = _open_search(shape, work)
    except TooManyWays:
        return _too_many(Action.GO_OUT)
    contract = rules.contract_words(number, final_note=False)
    if found is None and refused:
        message = _(
            "no way was found to lay these {n} cards in {contract}, but not every way was tried "
            "(runs that go all round a suit, or other places for the wilds the table's limits ask): "
            "lay out the melds you have in mind and check them as go out"
        )
        return undecided(Action.GO_OUT, message.format(n=len(hand), contract=contract))
    if found is None:
        return _cannot_go_out(rules, number, len(hand))
    melds = _build(rules, number, found[0], found[1], books, natural_cards, wild_cards, place_all=True)
    verdict = check_layout(rules, number, melds, final=True, players=players, buys=buys, budget=Budget())
    assert verdict.legal, f"solver produced an illegal go-out: {verdict.reasons}"
    return verdict


@dataclass(slots=True)
class _GoOut:
    """The go-out search: every card of the hand in runs of at least the lengths asked.

    Natural cards of one suit are laid only in that suit's runs, so the search first gives each
    suit the natural cards are of a group of the runs (runs asking the same length are alike:
    each group of them is tried once), and any run left over goes, all wild, to a suit no natural
    card is of, where runs overlapping at one end never join. Then each suit's runs get lengths
    that together make the hand's size: for one suit and its group of runs, each length tried is
    a placement of windows that holds its natural cards (``_cover_suit``, remembered), and where
    runs may join, a placement of a total found is lengthened by wilds to any greater total
    (a run grows at an end while it is under 13 cards). Every group, total and set of lengths
    tried is charged to the budget."""

    naturals: Counter[tuple[int, Suit]]
    minimums: list[int]  # each run's least length, in the contract's order
    total: int
    joins_allowed: bool
    ace: AceMode
    budget: Budget
    accept: Callable[[list[Window]], bool] | None = None
    untried: bool = False  # a layout may have been left out (see solve_go_out): "cannot" is not said
    _covers: dict[tuple[Suit, tuple[int, ...]], tuple[Window, ...] | None] = field(default_factory=dict)
    _least: dict[tuple[Suit, tuple[int, ...]], tuple[int | None, int]] = field(default_factory=dict)
    _held: dict[Suit | None, int] = field(default_factory=dict)

    @property
    def bounds(self) -> tuple[int, int]:
        return (2 if self.ace is AceMode.HIGH else 1, HIGH_ACE - 1 if self.ace is AceMode.LOW else HIGH_ACE)

    def run(self) -> list[Window] | None:
        held = [s for s in SUITS if self._held_in(s)]
        if len(held) > len(self.minimums):
            return None
        spare = next((s for s in SUITS if s not in held), None)
        order = sorted(range(len(self.minimums)), key=lambda i: self.minimums[i])
        mins = [self.minimums[i] for i in order]
        # a run's target: a suit held (its index in ``held``), or past them the spare suit
        targets = len(held) + (spare is not None)
        for assigned in self._groups(mins, targets, len(held)):
            for windows in self._lengths(mins, assigned, held, spare):
                placed: list[Window] = list(windows)
                for j, i in enumerate(order):
                    placed[i] = windows[j]
                if self.accept is None:
                    return placed
                if self.accept(placed):
                    return placed
                self.untried = True  # one placement per set of lengths is tried, not every one
        return None

    def _groups(self, mins: list[int], targets: int, held: int) -> Iterator[tuple[int, ...]]:
        """Each run's target (a suit held, by its index, or ``held``: the spare suit), every suit
        held given a run; runs of one least length take their targets in order, so each grouping
        is tried once."""
        k = len(mins)

        def give(j: int, chosen: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
            self.budget.take(2)
            if j == k:
                yield chosen
                return
            if sum(1 for t in range(held) if t not in chosen) > k - j:
                return  # too few runs left for the suits held without one
            first = chosen[-1] if j > 0 and mins[j] == mins[j - 1] else 0
            for t in range(first, targets):
                yield from give(j + 1, (*chosen, t))

        return give(0, ())

    def _lengths(
        self, mins: list[int], assigned: tuple[int, ...], held: list[Suit], spare: Suit | None
    ) -> Iterator[list[Window]]:
        """Placements of every run for this grouping whose lengths make the hand's size, in the order of ``mins``."""
        self.budget.take(2 * len(mins))
        pairs = list(zip(mins, assigned, strict=True))
        groups = [(suit, tuple(m for m, a in pairs if a == t)) for t, suit in enumerate(held)]
        free = tuple(m for m, a in pairs if a == len(held))
        lows = [max(sum(g), self._held_in(suit)) for suit, g in groups]
        highs = [MAX_RUN * len(g) for _suit, g in groups]

        def choose(g: int, left: int, chosen: list[tuple[Window, ...]]) -> Iterator[list[Window]]:
            if g == len(groups):
                if not sum(free) <= left <= MAX_RUN * len(free):
                    return
                self.budget.take()
                pools = [sorted(w, key=lambda x: x[2] - x[1]) for w in chosen]
                pools.append(self._spare_windows(free, left, spare))
                yield [pools[t].pop(0) for t in assigned]  # each group's shortest to its run asking least
                return
            rest_low = sum(lows[g + 1 :]) + sum(free)
            rest_high = sum(highs[g + 1 :]) + MAX_RUN * len(free)
            suit, group = groups[g]
            for total in range(max(lows[g], left - rest_high), min(highs[g], left - rest_low) + 1):
                self.budget.take(2 * (1 + len(group)))
                for windows in self._placements(suit, group, total):
                    yield from choose(g + 1, left - total, [*chosen, windows])

        return choose(0, self.total, [])

    def _held_in(self, suit: Suit) -> int:
        """The natural cards of ``suit`` in the hand (counted once)."""
        if not self._held:
            for (_rank, of), count in self.naturals.items():
                self._held[of] = self._held.get(of, 0) + max(count, 0)
            self._held.setdefault(None, 0)  # counted: even a hand of no natural
        return self._held.get(suit, 0)

    def _spare_windows(self, free: tuple[int, ...], total: int, spare: Suit | None) -> list[Window]:
        """All-wild runs in a suit no natural is of, overlapping at their low end: they never join."""
        if not free:
            return []
        assert spare is not None
        lengths = list(free)
        extra = total - sum(lengths)
        for j in range(len(lengths)):
            grow = min(extra, MAX_RUN - lengths[j])
            lengths[j] += grow
            extra -= grow
        low = self.bounds[0]
        return [(spare, low, low + ln - 1) for ln in lengths]

    def _placements(self, suit: Suit, group: tuple[int, ...], total: int) -> Iterator[tuple[Window, ...]]:
        """Windows for ``group`` in ``suit`` of ``total`` cards that hold the suit's natural cards:
        the placement of the fewest cards lengthened by wilds where it can be (runs may join, or
        no run is hemmed in by one it would join), else every set of lengths of that total. Where
        the table's checker has the last word (``accept``), every set of lengths is offered."""
        if self.accept is None:
            least = self._least_total(suit, group, total)
            if least is None:
                return
            grown = self._lengthened(next(self._covering(suit, group, least)), total - least)
            if grown is not None:
                yield grown
                return
        yield from self._covering(suit, group, total)

    def _least_total(self, suit: Suit, group: tuple[int, ...], most: int) -> int | None:
        """The fewest cards ``group``'s runs in ``suit`` hold its natural cards with, if no more than
        ``most``: totals are tried upward, each once (what was tried is remembered, up to where)."""
        key = (suit, group)
        found, tried = self._least.get(key, (None, max(sum(group), self._held_in(suit)) - 1))
        if found is not None:
            return found if found <= most else None
        for total in range(tried + 1, min(most, MAX_RUN * len(group)) + 1):
            self.budget.take()
            if next(self._covering(suit, group, total), None) is not None:
                self._least[key] = (total, total)
                return total
            tried = total
        self._least[key] = (None, tried)
        return None

    def _lengthened(self, windows: tuple[Window, ...], extra: int) -> tuple[Window, ...] | None:
        """The runs grown by ``extra`` wilds, a card at a time at an end (each to at most 13 cards,
        within the ace's bounds, joining no other run where runs may not join); None where every
        run is hemmed in."""
        low, high = self.bounds
        around = self.ace is AceMode.AROUND
        grown = list(windows)
        while extra:
            self.budget.take(len(grown))
            for j, (suit, start, end) in enumerate(grown):
                if end - start + 1 >= MAX_RUN:
                    continue
                others = grown[:j] + grown[j + 1 :]
                ends = ((start, end + 1), (start - 1, end))
                fits = [(suit, a, b) for a, b in ends if (around and a >= 1) or (not around and low <= a and b <= high)]
                fit = next(
                    (w for w in fits if self.joins_allowed or not any(_joins(w, o, around) for o in others)), None
                )
                if fit is not None:
                    grown[j] = fit
                    extra -= 1
                    break
            else:
                return None
        return tuple(grown)

    def _covering(self, suit: Suit, group: tuple[int, ...], total: int) -> Iterator[tuple[Window, ...]]:
        """Each set of lengths (at least the group's, ``total`` in all) whose windows hold the suit's naturals."""
        k = len(group)

        def lengths(j: int, left: int, chosen: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
            self.budget.take()
            if j == k:
                if left == 0:
                    yield chosen
                return
            # at least the run's least (and its alike neighbour's), and enough that the runs after it,
            # 13 cards at most each, make up the rest
            first = max(group[j], chosen[-1] if j > 0 and group[j] == group[j - 1] else 0, left - MAX_RUN * (k - j - 1))
            for ln in range(first, min(MAX_RUN, left - sum(group[j + 1 :])) + 1):
                yield from lengths(j + 1, left - ln, (*chosen, ln))

        for chosen in lengths(0, total, ()):
            self.budget.take(k)
            key = (suit, chosen)
            if key not in self._covers:
                self._covers[key] = self._cover(suit, list(chosen))
            found = self._covers[key]
            if found is not None:
                yield found

    def _cover(self, suit: Suit, lengths: list[int]) -> tuple[Window, ...] | None:
        if self.ace is not AceMode.AROUND:
            return _cover_suit(self.naturals, suit, lengths, self.joins_allowed, self.budget, self.ace)
        if sum(lengths) - len(lengths) >= 13:
            self.untried = True  # runs together long enough to go all round the suit: not placed so
        return _cover_round(self.naturals, suit, lengths, self.joins_allowed, self.budget)


def _cover_round(
    naturals: Counter[tuple[int, Suit]], suit: Suit, lengths: list[int], joins_allowed: bool, budget: Budget
) -> tuple[Window, ...] | None:
    """``_cover_suit`` where an ace goes round the corner (Q-K-A-2): the circle of ranks is cut
    before each rank in turn and the runs placed in a line from there, none crossing the cut."""
    counts = {rank: c for (rank, s), c in naturals.items() if s is suit and c > 0}
    for cut in range(1, 14):
        budget.take()
        need = {(rank - cut) % 13 + 1: c for rank, c in counts.items()}
        found = _place(need, sorted(lengths), [], suit, True, budget, (1, 13))
        if found is None:
            continue
        real = [(suit, start + cut - 1, end + cut - 1) for _s, start, end in found]
        if not joins_allowed and any(_joins(a, b, True) for j, a in enumerate(real) for b in real[j + 1 :]):
            continue  # the line hides a join across the cut
        ordered: list[Window] = []
        pool = list(real)
        for ln in lengths:
            w = next(w for w in pool if w[2] - w[1] + 1 == ln)
            pool.remove(w)
            ordered.append(w)
        return tuple(ordered)
    return None


def _cover_suit(
    naturals: Counter[tuple[int, Suit]],
    suit: Suit,
    lengths: list[int],
    joins_allowed: bool,
    budget: Budget,
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
        found = _place(need, sorted(lengths), [], suit, joins_allowed, budget, bounds)
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
    budget: Budget,
    bounds: tuple[int, int] = (1, HIGH_ACE),
) -> list[Window] | None:
    budget.take(1 + len(need))  # this window's places, and what is left to cover
    if not lengths:
        return placed if not need else None
    if sum(need.values()) > sum(lengths) or (need and max(need.values()) > len(lengths)):
        return None
    if not need:
        # Nothing left to cover: the rest may stand anywhere that does not join.
        for start in range(bounds[0], bounds[1] - lengths[0] + 2):
            window = (suit, start, start + lengths[0] - 1)
            if joins_allowed or not any(_joins(window, w) for w in placed):
                found = _place(need, lengths[1:], [*placed, window], suit, joins_allowed, budget, bounds)
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
            found = _place(rest, lengths[:i] + lengths[i + 1 :], [*placed, window], suit, joins_allowed, budget, bounds)
            if found is not None:
                return found
    return None
