"""The referee's checks: open, lay off, swap and go out, each a ``Verdict`` with every reason.

Legality is decided here against a ``Rules`` and a round; the notation was checked when
the cards were parsed. A verdict never stops at the first problem.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import permutations, product

from .cards import JOKER, RANK_PLURALS, Card, Identity, Played
from .errors import ImpossibleHand
from .melds import Placed, Reading, Wilds, identity_at, read, runs_join
from .rulesets import Component, Kind, Rules, SwapPolicy

MAX_MELDS = 8


class Action:
    OPEN = "open"
    LAYOFF = "layoff"
    SWAP = "swap"
    GO_OUT = "go_out"
    ALL = (OPEN, LAYOFF, SWAP, GO_OUT)


@dataclass(frozen=True, slots=True)
class Laid:
    """A meld in a verdict: the reading shown, and every other reading that fits."""

    reading: Reading
    readings: tuple[Reading, ...]

    @property
    def ambiguous(self) -> bool:
        return len(self.readings) > 1

    def choices(self, placed: Placed) -> tuple[Identity, ...]:
        """What this wild could stand for across the readings (one entry if fixed)."""
        seen: list[Identity] = []
        for reading in self.readings:
            for p in reading.cards:
                if p.index == placed.index and p.wild and p.identity not in seen:
                    seen.append(p.identity)
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class Verdict:
    action: str
    legal: bool
    reasons: tuple[str, ...] = ()
    melds: tuple[Laid, ...] = ()
    notes: tuple[str, ...] = ()
    freed: Card | None = None  # swap: the wild taken back into the hand
    unused: tuple[Card, ...] = ()  # solver: the cards left in hand

    def __post_init__(self) -> None:
        assert self.legal != bool(self.reasons), "an illegal verdict has reasons, a legal one none"


def _illegal(action: str, reasons: Iterable[str], **kwargs: object) -> Verdict:
    return Verdict(action, False, tuple(reasons), **kwargs)  # type: ignore[arg-type]


def copy_reasons(rules: Rules, cards: Iterable[Card], players: int | None) -> list[str]:
    """More copies of a card than the packs in play hold."""
    deck = rules.deck(players) if players is not None else rules.largest_deck
    reasons: list[str] = []
    for card, count in sorted(Counter(cards).items(), key=lambda kv: kv[0].sort_key()):
        if card == JOKER and count > deck.jokers:
            reasons.append(f"{count} jokers appear, but the packs hold only {deck.jokers}")
        elif card != JOKER and count > deck.packs:
            packs = "one pack holds" if deck.packs == 1 else f"the {deck.packs} packs hold"
            reasons.append(f"{card} appears {count} times, but {packs} only {deck.packs}")
    return reasons


def check_copies(rules: Rules, cards: Iterable[Card], players: int | None = None) -> None:
    reasons = copy_reasons(rules, cards, players)
    if reasons:
        raise ImpossibleHand("; ".join(reasons))


def _wilds(rules: Rules, number: int) -> Wilds:
    return Wilds(rules.wild_rank(number))


def _round_name(rules: Rules, number: int) -> str:
    return f"{rules.round_word} {number}"


def _fits(rules: Rules, component: Component, cards: Sequence[Played], readings: list[Reading], exact: bool) -> bool:
    n = len(cards)
    return bool(readings) and (n == component.length if exact else n >= component.length)


def _intent(cards: Sequence[Played], wilds: Wilds) -> Kind:
    """The kind a failed meld most looks like, to explain it in those terms."""
    natural = [p.card for p in cards if not wilds(p.card)]
    ranks, suits = {c.rank for c in natural}, {c.suit for c in natural}
    if len(cards) <= 3:
        return Kind.BOOK  # too short for any run
    if len(natural) <= 1:
        return Kind.RUN
    if len(ranks) == 1:
        return Kind.BOOK
    if len(suits) == 1:
        return Kind.RUN
    return Kind.BOOK if len(ranks) < len(suits) else Kind.RUN


def check_layout(
    rules: Rules,
    number: int,
    melds: Sequence[Sequence[Played]],
    *,
    final: bool,
    players: int | None = None,
) -> Verdict:
    """``open`` (final=False) or ``go_out`` (final=True): melds against the round's contract."""
    action = Action.GO_OUT if final else Action.OPEN
    rnd = rules.round(number)
    where = _round_name(rules, number)
    if final and not rnd.final:
        how = (
            "by laying down the contract and later discarding the last card"
            if not any(r.final for r in rules.rounds)
            else f"by discarding the last card; only {rules.round_word} {rules.rounds[-1].number} "
            "is won by laying the whole hand down"
        )
        return _illegal(action, [f"{where} of {rules.name} has no go-out layout: it is won {how}"])
    if not final and rnd.final:
        return _illegal(
            action,
            [
                f"in {where} nothing is laid down before going out: the {rules.round_word} is won by laying "
                f"every card at once in {rules.contract_words(number).split(',')[0]} (check it as go out)"
            ],
        )
    if not melds or not any(melds):
        return _illegal(action, [f"no melds were given; {where}'s contract is {rules.contract_words(number)}"])
    if len(melds) > MAX_MELDS:
        return _illegal(action, [f"{len(melds)} melds were given; {where}'s contract has {len(rnd.contract)}"])

    wilds = _wilds(rules, number)
    exact = rules.exact_opening and not final
    all_cards = [p.card for meld in melds for p in meld]
    reasons = copy_reasons(rules, all_cards, players)
    if final:
        reasons += _hand_size_reasons(rules, number, len(all_cards), where)

    read_cache: dict[tuple[int, Kind], tuple[list[Reading], list[str]]] = {}

    def readings(i: int, kind: Kind) -> tuple[list[Reading], list[str]]:
        if (i, kind) not in read_cache:
            read_cache[i, kind] = read(melds[i], wilds, kind)
        return read_cache[i, kind]

    contract = rnd.contract
    m, k = len(melds), len(contract)
    intents = [_intent(meld, wilds) for meld in melds]
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    for order in permutations(range(m), min(m, k)):
        fit = sum(
            _fits(rules, contract[c], melds[i], readings(i, contract[c].kind)[0], exact) for c, i in enumerate(order)
        )
        if fit == k == m and not reasons:
            chosen = _without_joins(rules, [readings(i, contract[c].kind)[0] for c, i in enumerate(order)])
            if chosen is not None:
                laid = tuple(
                    Laid(reading, tuple(readings(i, contract[c].kind)[0]))
                    for (c, i), reading in sorted(zip(enumerate(order), chosen, strict=True), key=lambda x: x[0][1])
                )
                return Verdict(action, True, melds=laid, notes=_notes(rules, number, final))
        score = (fit, sum(intents[i] is contract[c].kind for c, i in enumerate(order)))
        if best is None or score > best[0]:
            best = (score, order)
    assert best is not None
    order = best[1]

    if m != k:
        reasons.append(
            f"{where}'s contract is {rules.contract_words(number)}: {k} melds, but {m} "
            f"{'was' if m == 1 else 'were'} laid"
        )
    for c, i in enumerate(order):
        component = contract[c]
        got, why = readings(i, component.kind)
        wanted = rules.component_words(component, exact=exact)
        label = f"meld {i + 1} ({_quote(melds[i])})"
        if not got:
            reasons += [f"{label} is not a {wanted}: {w}" for w in why]
        elif not _fits(rules, component, melds[i], got, exact):
            reasons.append(f"{label} has {len(melds[i])} cards; the contract asks for a {wanted}")
    for i in sorted(set(range(m)) - set(order)):
        label = f"meld {i + 1} ({_quote(melds[i])})"
        reasons.append(f"{label} is one meld more than the contract; no extra melds")
        if not readings(i, Kind.BOOK)[0] and not readings(i, Kind.RUN)[0]:
            kind = _intent(melds[i], wilds)
            word = rules.book_word if kind is Kind.BOOK else rules.run_word
            reasons += [f"{label} is not a {word} either: {w}" for w in readings(i, kind)[1]]
    for c in range(len(order), k):
        reasons.append(f"missing: a {rules.component_words(contract[c], exact=exact)}")
    if not reasons:
        reasons.append(
            _join_reason(rules, [readings(i, contract[c].kind)[0] for c, i in enumerate(order)], melds, order)
        )
    return _illegal(action, reasons)


def _hand_size_reasons(rules: Rules, number: int, count: int, where: str) -> list[str]:
    need = rules.round(number).dealt + 1
    if count == need:
        return []
    extra = count - need
    if rules.buys.allowed and extra > 0 and extra % 2 == 0:
        buys = extra // 2
        if rules.buys.limit is None or buys <= rules.buys.limit:
            return []
    return [
        f"going out in {where} lays every card in hand: {need} after the draw"
        + (" (2 more for each buy)" if rules.buys.allowed else "")
        + f"; this layout has {count}"
    ]


def _without_joins(rules: Rules, options: list[list[Reading]]) -> list[Reading] | None:
    """One reading per meld such that no two same-suit runs join up, where that is forbidden."""
    if rules.runs_may_join:
        return [o[0] for o in options]
    for combo in product(*options):
        runs = [r for r in combo if r.kind is Kind.RUN]
        if not any(runs_join(a, b) for j, a in enumerate(runs) for b in runs[j + 1 :]):
            return list(combo)
    return None


def _join_reason(
    rules: Rules, options: list[list[Reading]], melds: Sequence[Sequence[Played]], order: tuple[int, ...]
) -> str:
    first = [(i, o[0]) for i, o in zip(order, options, strict=True) if o[0].kind is Kind.RUN]
    for j, (i, a) in enumerate(first):
        for i2, b in first[j + 1 :]:
            if runs_join(a, b):
                lo, hi = sorted((i, i2))
                return (
                    f"meld {lo + 1} ({_quote(melds[lo])}) and meld {hi + 1} ({_quote(melds[hi])}) join up into one "
                    f"{rules.run_word}; in {rules.name} same-suit {rules.run_word}s in the meld "
                    "must overlap or leave a gap"
                )
    return f"the {rules.run_word}s join up; in {rules.name} same-suit {rules.run_word}s must overlap or leave a gap"


def _notes(rules: Rules, number: int, final: bool) -> tuple[str, ...]:
    if final:
        return (f"{rules.round_word.capitalize()} {number} is won: every card is laid, no discard.",)
    if rules.layoff_on_opening_turn:
        return ("You may lay off on this turn too.",)
    return (
        f"No laying off on this turn; from your next turn you may add to any {rules.book_word} or {rules.run_word}.",
    )


def _read_target(target: Sequence[Played], wilds: Wilds) -> tuple[list[Reading], list[str]]:
    books, book_why = read(target, wilds, Kind.BOOK)
    runs, run_why = read(target, wilds, Kind.RUN)
    if books or runs:
        return books + runs, []
    intent = _intent(target, wilds)
    why = book_why if intent is Kind.BOOK else run_why
    return [], [f"the exposed meld {_quote(target)} is not a meld: {w}" for w in why]


def check_layoff(
    rules: Rules,
    number: int,
    target: Sequence[Played],
    cards: Sequence[Played],
    *,
    players: int | None = None,
    opened_this_turn: bool = False,
) -> Verdict:
    action = Action.LAYOFF
    rnd = rules.round(number)
    reasons: list[str] = []
    if rnd.final:
        return _illegal(action, [_final_no_table(rules, number)])
    if opened_this_turn and not rules.layoff_on_opening_turn:
        reasons.append(
            "laying off is allowed only on turns after the one the contract was laid down"
            + (" (the variant open-turn-layoff allows it)" if rules.slug == "mexican" else "")
        )
    if not cards:
        reasons.append("no cards to lay off were given")
    if not target:
        reasons.append("no exposed meld (target) was given")
    reasons += copy_reasons(rules, [p.card for p in [*target, *cards]], players)
    wilds = _wilds(rules, number)
    targets, why = _read_target(target, wilds) if target else ([], [])
    reasons += why
    if reasons:
        return _illegal(action, reasons)

    for t in targets:
        combined = [p.as_played(wilds) for p in t.cards] + list(cards)
        got, _ = read(combined, wilds, t.kind)
        if got:
            notes = (f"Read as {t.describe()}: {t}.",) if len(targets) > 1 else ()
            return Verdict(action, True, melds=(Laid(got[0], tuple(got)),), notes=notes)
    return _illegal(action, _layoff_misfit(rules, targets[0], cards, wilds))


def _layoff_misfit(rules: Rules, t: Reading, cards: Sequence[Played], wilds: Wilds) -> list[str]:
    """Why these cards do not go onto this meld, card by card where a card is to blame."""
    onto = f"{t.describe()} ({t})"
    natural = [p for p in cards if not wilds(p.card)]
    if t.kind is Kind.BOOK:
        wrong = [p for p in natural if p.card.rank != t.rank]
        reasons = [
            f"{p.card} is not {Identity(t.rank).name}: {onto} takes only {RANK_PLURALS[t.rank]} or wilds" for p in wrong
        ]
        reasons += [
            f"{p} cannot go onto {onto}: it would stand for {p.declared.name}"
            for p in cards
            if wilds(p.card) and p.declared is not None and p.declared.rank != t.rank
        ]
        return reasons or [f"{_quote(cards)} cannot be added to {onto}"]
    reasons = [
        f"{p.card} is not a {t.suit.noun[:-1] if t.suit else ''}: {onto} takes only {t.suit.noun if t.suit else ''}"
        for p in natural
        if p.card.suit is not t.suit
    ]
    if len(t.cards) + len(cards) > 13:
        reasons.append(f"a {rules.run_word} holds at most 13 cards; {onto} would hold {len(t.cards) + len(cards)}")
    reasons.append(
        f"{_quote(cards)} cannot be added to {onto}: a {rules.run_word} grows only at its ends, here {_ends(t)}"
    )
    return reasons


def _ends(run: Reading) -> str:
    ends: list[str] = []
    if run.low > 1:
        ends.append(str(identity_at(run.low - 1, run.suit)))
    if run.high < 14 and not (run.low == 1 and run.high == 13):
        ends.append(str(identity_at(run.high + 1, run.suit)))
    return " or ".join(ends) if ends else "nowhere (it already runs from end to end)"


def _final_no_table(rules: Rules, number: int) -> str:
    return (
        f"in {rules.round_word} {number} nothing is on the table to add to: the {rules.round_word} is won "
        "by laying the whole hand down at once"
    )


def check_swap(
    rules: Rules,
    number: int,
    target: Sequence[Played],
    cards: Sequence[Played],
    *,
    players: int | None = None,
    opened_this_turn: bool = False,
) -> Verdict:
    action = Action.SWAP
    rnd = rules.round(number)
    reasons: list[str] = []
    if rules.swap is SwapPolicy.NONE:
        reasons.append(
            f"{rules.name} fixes wilds once played: they cannot be taken back"
            + (" (the house rule wild-swap allows it)" if rules.slug == "mexican" else "")
        )
        return _illegal(action, reasons)
    if rnd.final:
        return _illegal(action, [_final_no_table(rules, number)])
    if rules.swap is SwapPolicy.JOKER_IN_RUN and opened_this_turn:
        reasons.append("only a player who melded on an earlier turn may replace a joker")
    wilds = _wilds(rules, number)
    if len(cards) != 1:
        reasons.append(f"a swap puts in exactly one natural card; {len(cards)} were given")
    elif cards[0].card.is_joker:
        reasons.append("a swap puts in the natural card a wild stands for, not a joker")
    if not target:
        reasons.append("no exposed meld (target) was given")
    reasons += copy_reasons(rules, [p.card for p in [*target, *cards]], players)
    targets, why = _read_target(target, wilds) if target else ([], [])
    reasons += why
    if reasons:
        return _illegal(action, reasons)

    card = cards[0].card
    assert card.rank is not None
    for t in targets:
        for p in t.cards:
            if not p.wild or not _stands_for(p.identity, card):
                continue
            if rules.swap is SwapPolicy.JOKER_IN_RUN and not (t.kind is Kind.RUN and p.card.is_joker):
                continue
            swapped = tuple(Placed(card, Identity.of(card), False, q.index) if q is p else q for q in t.cards)
            new = Reading(t.kind, swapped, t.suit, t.low, t.high)
            return Verdict(
                action,
                True,
                melds=(Laid(new, (new,)),),
                freed=p.card,
                notes=(f"{card} goes in where {p.card} stood for {p.identity.name}; {p.card} goes to your hand.",),
            )
    return _illegal(action, _swap_misfit(rules, targets, card))


def _stands_for(identity: Identity, card: Card) -> bool:
    return identity.rank == card.rank and identity.suit in (None, card.suit)


def _swap_misfit(rules: Rules, targets: list[Reading], card: Card) -> list[str]:
    if rules.swap is SwapPolicy.JOKER_IN_RUN and all(t.kind is Kind.BOOK for t in targets):
        return [f"a joker in a {rules.book_word} is dead: it stays where it is"]
    t = targets[0]
    wild = [p for p in t.cards if p.wild]
    if rules.swap is SwapPolicy.JOKER_IN_RUN:
        wild = [p for p in wild if p.card.is_joker and t.kind is Kind.RUN]
    if not wild:
        return [f"{t} holds no wild that could be replaced"]
    said = ", ".join(f"{p.card} stands for {p.identity.name}" for p in wild)
    return [f"no wild in {t} stands for {card.name.lower()}: {said}"]


def _quote(cards: Sequence[Played]) -> str:
    return " ".join(str(p) for p in cards)
