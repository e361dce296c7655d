"""The referee's checks: open, lay off, swap and go out, each a ``Verdict`` with every reason.

Legality is decided here against a ``Rules`` and a round; the notation was checked when
the cards were parsed. A verdict never stops at the first problem.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .budget import Budget, TooManyWays
from .cards import Card, Identity, Played, rank_plural
from .errors import ImpossibleHand
from .i18n import _, capfirst, ngettext
from .melds import (
    PLAIN,
    Placed,
    Reading,
    Wilds,
    allowed,
    fits,
    identity_at,
    limit_reasons,
    most_natural,
    read,
    read_book,
    read_run,
    runs_join,
)
from .rules import AceMode, Component, Kind, Rules, SwapPolicy
from .rulesets import variant_allowing

MAX_MELDS = 8
MAX_REASONS = 20  # an illegal verdict says at most this many reasons, then how many more there were


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
                if p.given == placed.given and p.wild and p.identity not in seen:
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
    # False where the work budget ran out before a verdict was reached: the reasons then say
    # what the player can do instead, and ``legal`` is False without the layout being judged.
    decided: bool = True

    def __post_init__(self) -> None:
        assert self.legal != bool(self.reasons), "an illegal verdict has reasons, a legal one none"
        assert self.decided or not self.legal, "an undecided verdict is not legal"


def illegal(action: str, reasons: Iterable[str], **kwargs: object) -> Verdict:
    """A refusal with every reason, cut at ``MAX_REASONS`` (the last line says how many more)."""
    said = list(reasons)
    if len(said) > MAX_REASONS:
        more = len(said) - MAX_REASONS + 1
        cut = ngettext("… and {n} more reason", "… and {n} more reasons", more).format(n=more)
        said = [*said[: MAX_REASONS - 1], cut]
    return Verdict(action, False, tuple(said), **kwargs)  # type: ignore[arg-type]


def undecided(action: str, why: str) -> Verdict:
    """What a check or a solve answers when its budget runs out: no verdict, what to do instead."""
    return Verdict(action, False, (why,), decided=False)


def _too_many_readings(action: str) -> Verdict:
    message = _(
        "these cards can be read in too many ways to check them all at once: "
        "name what each wild stands for (as in JK=7S) and check again"
    )
    return undecided(action, message)


def judged(action: str, budget: Budget | None, judge: Callable[[Budget], Verdict]) -> Verdict:
    """``judge`` run on ``budget``; given none, on a budget of its own, and when that runs out the
    player is told to name the wilds. A budget given belongs to a caller (the solver), which
    answers for it: its ``TooManyWays`` goes up to that caller."""
    if budget is not None:
        return judge(budget)
    try:
        return judge(Budget())
    except TooManyWays:
        return _too_many_readings(action)


def copy_reasons(rules: Rules, cards: Iterable[Card], players: int | None) -> list[str]:
    """More copies of a card than the packs in play hold."""
    deck = rules.deck(players) if players is not None else rules.largest_deck
    reasons: list[str] = []
    over = [(card, n) for card, n in Counter(cards).items() if n > (deck.jokers if card.is_joker else deck.packs)]
    for card, count in sorted(over, key=lambda kv: kv[0].sort_key()):
        if card.is_joker:
            message = ngettext(
                "{count} joker appears, but the packs hold only {most}",
                "{count} jokers appear, but the packs hold only {most}",
                count,
            )
            reasons.append(message.format(count=count, most=deck.jokers))
        else:
            message = ngettext(
                "{card} appears {count} times, but one pack holds only {most}",
                "{card} appears {count} times, but the {most} packs hold only {most}",
                deck.packs,
            )
            reasons.append(message.format(card=card, count=count, most=deck.packs))
    return reasons


def check_copies(rules: Rules, cards: Iterable[Card], players: int | None = None) -> None:
    reasons = copy_reasons(rules, cards, players)
    if reasons:
        raise ImpossibleHand("; ".join(reasons))


def _wilds(rules: Rules, number: int) -> Wilds:
    return Wilds.of(rules, number)


def _fits(component: Component, cards: Sequence[Played], readings: list[Reading], exact: bool) -> bool:
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
    buys: int | None = None,
    budget: Budget | None = None,
) -> Verdict:
    """``open`` (final=False) or ``go_out`` (final=True): melds against the round's contract.

    ``buys``: how many buys (or "May I?"s) the player made this round; by default the most
    the ruleset allows, which bounds how many cards the hand can hold. ``budget``: the work the
    check may do (a caller's, shared with its own search; by default one of its own)."""
    action = Action.GO_OUT if final else Action.OPEN
    rnd = rules.round(number)
    where = rules.round_name(number)
    if final and not rnd.final:
        if not rules.going_out_discard:
            message = _(
                "{where} of {name} has no go-out layout: "
                "it is won by laying down the contract and later laying off every card, with no discard"
            )
        elif not any(r.final for r in rules.rounds):
            message = _(
                "{where} of {name} has no go-out layout: "
                "it is won by laying down the contract and later discarding the last card"
            )
        else:
            message = _(
                "{where} of {name} has no go-out layout: it is won by discarding the last card; "
                "only {last} is won by laying the whole hand down"
            )
        last = rules.round_name(rules.rounds[-1].number)
        return illegal(action, [message.format(where=where, name=rules.display_name, last=last)])
    if not final and rnd.final:
        return illegal(
            action,
            [
                _(
                    "in {where} nothing is laid down before going out: it is won by laying every card at once "
                    "in {contract} (check it as go out)"
                ).format(where=where, contract=rules.contract_words(number, final_note=False))
            ],
        )
    if not melds or not any(melds):
        message = _("no melds were given; the contract of {where} is {contract}")
        return illegal(action, [message.format(where=where, contract=rules.contract_words(number))])
    if len(melds) > MAX_MELDS:
        message = _("{count} melds were given; the contract of {where} has {parts}")
        return illegal(action, [message.format(count=len(melds), where=where, parts=len(rnd.contract))])

    all_cards = [p.card for meld in melds for p in meld]
    reasons = copy_reasons(rules, all_cards, players) + buys_reasons(rules, number, buys, players)
    if final:
        reasons += hand_size_reasons(rules, number, len(all_cards), where, buys)
    else:
        reasons += layout_size_reasons(rules, number, len(all_cards), buys=buys, players=players)
    if len(all_cards) > hand_capacity(rules, number, buys=buys, players=players):
        # Refused by counting: no hand holds it. Its melds are still read to say what else is
        # wrong, on the budget; where that runs out, the count is the verdict.
        try:
            return _explained(rules, number, melds, final, buys, list(reasons), budget or Budget())
        except TooManyWays:
            return illegal(action, reasons)
    return judged(action, budget, lambda work: _explained(rules, number, melds, final, buys, reasons, work))


def _explained(
    rules: Rules,
    number: int,
    melds: Sequence[Sequence[Played]],
    final: bool,
    buys: int | None,
    reasons: list[str],
    budget: Budget,
) -> Verdict:
    verdict = _judge_layout(rules, number, melds, final, buys, reasons, budget)
    assert verdict is not None, "a layout judged with its words has a verdict"
    return verdict


def layout_holds(
    rules: Rules,
    number: int,
    melds: Sequence[Sequence[Played]],
    *,
    final: bool,
    players: int | None,
    buys: int | None,
    budget: Budget,
) -> bool:
    """Whether ``check_layout`` finds the layout legal, without the words for why it would not:
    what a search asks of each layout it builds (the solver). Charged to ``budget``, whose end
    goes up to the caller."""
    rnd = rules.round(number)
    if final != rnd.final or len(melds) != len(rnd.contract) or not all(melds):
        return False
    count = sum(len(meld) for meld in melds)
    if (
        copy_reasons(rules, [p.card for meld in melds for p in meld], players)
        or buys_reasons(rules, number, buys, players)
        or (final and hand_size_reasons(rules, number, count, "", buys))
        or (not final and layout_size_reasons(rules, number, count, buys=buys, players=players))
    ):
        return False
    return _judge_layout(rules, number, melds, final, buys, [], budget, explain=False) is not None


def _judge_layout(
    rules: Rules,
    number: int,
    melds: Sequence[Sequence[Played]],
    final: bool,
    buys: int | None,
    reasons: list[str],
    budget: Budget,
    *,
    explain: bool = True,
) -> Verdict | None:
    """The layout read against the contract: each meld read once as each kind the contract asks,
    then the melds fitted to its parts, every assignment charged to the budget. Not ``explain``:
    None for a layout refused, and no words made for why (``layout_holds``)."""
    action = Action.GO_OUT if final else Action.OPEN
    rnd = rules.round(number)
    where = rules.round_name(number)
    wilds = _wilds(rules, number)
    exact = rules.exact_opening and not final
    contract = rnd.contract
    m, k = len(melds), len(contract)
    kinds = {c.kind for c in contract}
    read_cache: dict[tuple[int, Kind], tuple[list[Reading], list[str]]] = {}

    def readings(i: int, kind: Kind) -> tuple[list[Reading], list[str]]:
        if (i, kind) not in read_cache:
            if explain:
                read_cache[i, kind] = read(melds[i], wilds, kind, budget)
            else:
                read_cache[i, kind] = (fits(melds[i], wilds, kind, budget), [])
        return read_cache[i, kind]

    for i in range(m):
        for kind in kinds:
            readings(i, kind)
    fitting = [
        [_fits(contract[c], melds[i], readings(i, contract[c].kind)[0], exact) for c in range(k)] for i in range(m)
    ]
    intents = [_intent(meld, wilds) for meld in melds] if explain else []
    joins: dict[tuple[Kind, ...], list[Reading] | None] = {}  # by the kind each meld is read as

    def legal(order: tuple[int | None, ...]) -> list[Reading] | None:
        as_kind = [Kind.BOOK] * m
        for c, i in enumerate(order):
            if i is not None:
                as_kind[i] = contract[c].kind
        key = tuple(as_kind)
        if key not in joins:
            joins[key] = _without_joins(rules, [readings(i, as_kind[i])[0] for i in range(m)], budget)
        return joins[key]

    best: tuple[tuple[int, int], tuple[int | None, ...]] | None = None
    for order in _assignments(contract, m, budget):
        fit = sum(fitting[i][c] for c, i in enumerate(order) if i is not None)
        if fit == k == m and not reasons:
            chosen = legal(order)
            if chosen is not None:
                laid = tuple(
                    Laid(chosen[i], tuple(readings(i, contract[c].kind)[0]))
                    for c, i in sorted(enumerate(order), key=lambda ci: ci[1] if ci[1] is not None else m)
                    if i is not None
                )
                left = _cards_left(rules, number, sum(len(meld) for meld in melds), buys)
                return Verdict(action, True, melds=laid, notes=_notes(rules, number, final, left))
        if not explain:
            continue
        score = (fit, sum(intents[i] is contract[c].kind for c, i in enumerate(order) if i is not None))
        if best is None or score > best[0]:
            best = (score, order)
    if not explain:
        return None
    assert best is not None
    order = best[1]

    if m != k:
        message = ngettext(
            "the contract of {where} is {contract}: {k} melds, but {m} was laid",
            "the contract of {where} is {contract}: {k} melds, but {m} were laid",
            m,
        )
        reasons.append(message.format(where=where, contract=rules.contract_words(number), k=k, m=m))
    for c, given in enumerate(order):
        if given is None:
            continue
        component = contract[c]
        got, why = readings(given, component.kind)
        wanted = rules.component_with_article(component, exact=exact)
        label = _label(given, melds[given])
        if not got:
            reasons += [_("{meld} is not {wanted}: {why}").format(meld=label, wanted=wanted, why=w) for w in why]
        elif not fitting[given][c]:
            message = _("{meld} has {n} cards; the contract asks for {wanted}")
            reasons.append(message.format(meld=label, n=len(melds[given]), wanted=wanted))
    for i in sorted(set(range(m)) - set(order)):
        label = _label(i, melds[i])
        reasons.append(_("{meld} is one meld more than the contract; no extra melds").format(meld=label))
        if not readings(i, Kind.BOOK)[0] and not readings(i, Kind.RUN)[0]:
            kind = intents[i]
            word = rules.kind_with_article(kind)
            either = _("{meld} is not {word} either: {why}")
            reasons += [either.format(meld=label, word=word, why=w) for w in readings(i, kind)[1]]
    for c, given in enumerate(order):
        if given is None:
            missing = rules.component_with_article(contract[c], exact=exact)
            reasons.append(_("missing: {wanted}").format(wanted=missing))
    if not reasons:
        options = [readings(i, contract[c].kind)[0] for c, i in enumerate(order) if i is not None]
        placed = tuple(i for i in order if i is not None)
        reasons.append(_join_reason(rules, options, melds, placed))
    return illegal(action, reasons)


def _assignments(contract: Sequence[Component], m: int, budget: Budget) -> Iterable[tuple[int | None, ...]]:
    """Every way to give the contract's parts the ``m`` melds (a part left without one is missing,
    a meld left without a part is one too many), as many parts met as there are melds; parts alike
    (the same kind and size) are interchangeable, so each takes its melds in order once. Each
    assignment is charged to the budget before it is tried."""
    k = len(contract)
    missing = max(0, k - m)

    Order = tuple[int | None, ...]

    def assign(c: int, used: frozenset[int], gaps: int, order: Order) -> Iterable[Order]:
        if c == k:
            budget.take(k)  # each part of the contract looked up
            yield order
            return
        after = -1
        if c > 0 and contract[c] == contract[c - 1]:
            before = order[-1]
            if before is None:  # alike parts: the missing ones come last
                yield from assign(c + 1, used, gaps - 1, (*order, None)) if gaps else ()
                return
            after = before
        for i in range(after + 1, m):
            if i not in used:
                yield from assign(c + 1, used | {i}, gaps, (*order, i))
        if gaps:
            yield from assign(c + 1, used, gaps - 1, (*order, None))

    return assign(0, frozenset(), missing, ())


def most_buys(rules: Rules, number: int, players: int | None = None) -> int:
    """The most buys (or "May I?"s) a player can have made in a round: the ruleset's limit, and
    never more than the stock held (each buy takes a card from it), at any table size allowed."""
    if players is not None:
        return rules.most_buys(players, number)
    return max(rules.most_buys(n, number) for n in range(rules.min_players, rules.max_players + 1))


def buys_reasons(rules: Rules, number: int, buys: int | None, players: int | None = None) -> list[str]:
    """Buys said to have been made that the ruleset does not allow in this round."""
    if not buys:
        return []
    most = most_buys(rules, number, players)
    if not rules.buys.allowed:
        return [_("{name} has no buys").format(name=rules.display_name)]
    if buys > most:
        message = ngettext(
            "{buys} buy is more than {name} allows in a {word}: at most {most}",
            "{buys} buys are more than {name} allows in a {word}: at most {most}",
            buys,
        )
        return [message.format(buys=buys, name=rules.display_name, word=_(rules.round_word), most=most)]
    return []


def hand_capacity(rules: Rules, number: int, *, buys: int | None = None, players: int | None = None) -> int:
    """The most cards a hand holds in a round after the draw: dealt, 1 drawn, 2 per buy
    (the buys given, or the most the ruleset allows)."""
    taken = most_buys(rules, number, players) if buys is None else buys
    return rules.round(number).dealt + 1 + 2 * taken


def layout_size_reasons(
    rules: Rules, number: int, count: int, *, buys: int | None = None, players: int | None = None
) -> list[str]:
    """A layout laid before going out (an opening, a layoff) keeps at least one card back to
    discard, and none holds more cards than the hand can."""
    rnd = rules.round(number)
    where = rules.round_name(number)
    cap = hand_capacity(rules, number, buys=buys, players=players)
    dealt = rnd.dealt
    if count > cap:
        if rules.buys.allowed:
            message = ngettext(
                "{n} cards are more than a hand holds in {where}: at most {cap} after the draw "
                "({dealt} dealt, 1 drawn and 2 for each of {buys} buy)",
                "{n} cards are more than a hand holds in {where}: at most {cap} after the draw "
                "({dealt} dealt, 1 drawn and 2 for each of {buys} buys)",
                (cap - dealt - 1) // 2,
            )
        else:
            message = _(
                "{n} cards are more than a hand holds in {where}: at most {cap} after the draw ({dealt} dealt, 1 drawn)"
            )
        return [message.format(n=count, where=where, cap=cap, dealt=dealt, buys=(cap - dealt - 1) // 2)]
    if count == cap and rules.going_out_discard:
        return [
            _(
                "{n} cards are every card a hand holds in {where} after the draw, leaving none to discard: "
                "the {word} is won by discarding the last card, so keep one back"
            ).format(n=count, where=where, word=_(rules.round_word))
        ]
    return []


def layoff_size_reasons(
    rules: Rules, number: int, count: int, *, buys: int | None = None, players: int | None = None
) -> list[str]:
    """What a hand holds once its contract is down bounds a layoff: an opening lays at least the
    contract's cards and a turn ends with a discard, so after any later draw (or after the
    opening, where laying off on that turn is allowed) a hand holds at most what it could hold
    after the draw less the contract's cards, and one of those is kept to discard. Buys (the
    ones given, or the most the ruleset allows) add 2 cards each."""
    if count == 0:
        return []
    least = sum(c.length for c in rules.round(number).contract)
    held = hand_capacity(rules, number, buys=buys, players=players) - least
    if count < held or (count == held and not rules.going_out_discard):
        return []
    if not rules.going_out_discard:
        message = ngettext(
            "after laying down the contract ({least} or more of its cards) a hand in {where} holds at most {held} "
            "card after the draw: at most {held} can be laid off, not {n}",
            "after laying down the contract ({least} or more of its cards) a hand in {where} holds at most {held} "
            "cards after the draw: at most {held} can be laid off, not {n}",
            held,
        )
        return [message.format(least=least, where=rules.round_name(number), held=held, n=count)]
    most = max(held - 1, 0)
    message = ngettext(
        "after laying down the contract ({least} or more of its cards) a hand in {where} holds at most {held} "
        "card after the draw, one of them kept to discard: at most {most} can be laid off, not {n}",
        "after laying down the contract ({least} or more of its cards) a hand in {where} holds at most {held} "
        "cards after the draw, one of them kept to discard: at most {most} can be laid off, not {n}",
        held,
    )
    text = message.format(least=least, where=rules.round_name(number), held=held, most=most, n=count)
    if rules.buys.allowed and buys is not None:
        text += " " + ngettext("(with {buys} buy)", "(with {buys} buys)", buys).format(buys=buys)
    return [text]


def hand_size_reasons(rules: Rules, number: int, count: int, where: str, buys: int | None = None) -> list[str]:
    need = rules.round(number).dealt + 1
    if buys is not None:
        need += 2 * buys
    if count == need:
        return []
    extra = count - need
    if buys is None and rules.buys.allowed and extra > 0 and extra % 2 == 0 and extra // 2 <= most_buys(rules, number):
        return []
    if rules.buys.allowed:
        message = _(
            "going out in {where} lays every card in hand: {need} after the draw (2 more for each buy); "
            "this layout has {count}"
        )
    else:
        message = _("going out in {where} lays every card in hand: {need} after the draw; this layout has {count}")
    return [message.format(where=where, need=need, count=count)]


def _without_joins(rules: Rules, options: list[list[Reading]], budget: Budget) -> list[Reading] | None:
    """One reading per meld such that no two same-suit runs join up, where that is forbidden;
    None where every choice joins two of them.

    A run joins another only where their suits agree and one ends just below where the other
    starts, so whatever one reading is chosen for each other run, at most two readings of a run
    join it. A run with more readings than twice the other runs can therefore always be read
    apart, and is set aside to be read last; what is left (runs whose cards pin them down) is
    searched, fewest readings first, a reading tried only if it joins none chosen and leaves every
    run still to choose a reading that joins none: every reading tried is charged to the budget."""
    if rules.runs_may_join:
        return [o[0] for o in options]
    around = rules.runs.ace is AceMode.AROUND
    choices: dict[int, list[Reading]] = {}
    for i, found in enumerate(options):
        if found[0].kind is Kind.RUN:
            budget.take(len(found))
            seen: dict[tuple[object, int, int], Reading] = {}
            for reading in found:  # readings alike in suit and ends are one choice here
                seen.setdefault((reading.suit, reading.low, reading.high), reading)
            choices[i] = list(seen.values())
    core = set(choices)
    later: list[int] = []
    while True:
        free = [i for i in sorted(core) if len(choices[i]) > 2 * (len(core) - 1)]
        if not free:
            break
        core.remove(free[0])
        later.append(free[0])
    chosen: dict[int, Reading] = {}

    def apart(reading: Reading) -> bool:
        return not any(runs_join(reading, other, around=around) for other in chosen.values())

    def search(open_: dict[int, list[Reading]]) -> bool:
        if not open_:
            return True
        i = min(open_, key=lambda j: (len(open_[j]), j))
        rest = {j: found for j, found in open_.items() if j != i}
        for reading in open_[i]:
            budget.take(1 + sum(map(len, rest.values())))
            narrowed = {j: [r for r in found if not runs_join(reading, r, around=around)] for j, found in rest.items()}
            if all(narrowed.values()):
                chosen[i] = reading
                if search(narrowed):
                    return True
                del chosen[i]
        return False

    if not search({i: choices[i] for i in core}):
        return None
    for i in reversed(later):
        budget.take(len(choices[i]))
        chosen[i] = next(r for r in choices[i] if apart(r))
    return [chosen.get(i, found[0]) for i, found in enumerate(options)]


def _join_reason(
    rules: Rules, options: list[list[Reading]], melds: Sequence[Sequence[Played]], order: tuple[int, ...]
) -> str:
    first = [(i, o[0]) for i, o in zip(order, options, strict=True) if o[0].kind is Kind.RUN]
    around = rules.runs.ace is AceMode.AROUND
    for j, (i, a) in enumerate(first):
        for i2, b in first[j + 1 :]:
            if runs_join(a, b, around=around):
                lo, hi = sorted((i, i2))
                message = _(
                    "{first} and {second} join up into one {run}; in {name} same-suit {runs} in the meld "
                    "must overlap or leave a gap"
                )
                return message.format(
                    first=_label(lo, melds[lo]),
                    second=_label(hi, melds[hi]),
                    run=_(rules.run_word),
                    name=rules.display_name,
                    runs=_(rules.run_plural),
                )
    message = _("the {runs} join up; in {name} same-suit {runs} must overlap or leave a gap")
    return message.format(runs=_(rules.run_plural), name=rules.display_name)


def _cards_left(rules: Rules, number: int, laid: int, buys: int | None) -> int | None:
    """How many cards an opening leaves in hand, where that is certain (no buys, or their number given)."""
    if rules.buys.allowed and buys is None:
        return None
    return hand_capacity(rules, number, buys=buys) - laid


def _notes(rules: Rules, number: int, final: bool, left: int | None = None) -> tuple[str, ...]:
    if final:
        won = _("{where} is won: every card is laid, no discard.").format(where=rules.round_name(number))
        return (capfirst(won),)
    if left == 0 and not rules.going_out_discard:
        return (_("This lays down every card: you are out, with no discard."),)
    if left == 1 and rules.going_out_discard:
        return (_("This leaves one card in hand: discard it and you are out."),)
    if rules.layoff_on_opening_turn:
        return (_("You may lay off on this turn too."),)
    message = _("No laying off on this turn; from your next turn you may add to any {book} or {run}.")
    return (message.format(book=_(rules.book_word), run=_(rules.run_word)),)


def _read_target(target: Sequence[Played], wilds: Wilds, budget: Budget) -> tuple[list[Reading], list[str]]:
    books, book_why = read(target, wilds, Kind.BOOK, budget)
    runs, run_why = read(target, wilds, Kind.RUN, budget)
    if books or runs:
        return books + runs, []
    intent = _intent(target, wilds)
    why = book_why if intent is Kind.BOOK else run_why
    message = _("the exposed meld {cards} is not a meld: {why}")
    return [], [message.format(cards=_quote(target), why=w) for w in why]


def _on_the_table(
    rules: Rules,
    number: int,
    target: Sequence[Played],
    cards: Sequence[Played],
    wilds: Wilds,
    players: int | None,
    budget: Budget,
) -> tuple[list[Reading], list[str]]:
    """The exposed meld's readings, and what is wrong with it or with the cards put to it.

    Only the contract's melds are ever laid (no other meld after the opening, in every ruleset
    here), so a meld of a kind the round's contract lacks cannot be on the table: a run in a
    round of books only, a book in a round of runs only."""
    reasons = [] if target else [_("no exposed meld (target) was given")]
    reasons += copy_reasons(rules, [p.card for p in [*target, *cards]], players)
    targets, why = _read_target(target, wilds, budget) if target else ([], [])
    kinds = {c.kind for c in rules.round(number).contract}
    laid = [t for t in targets if t.kind in kinds]
    if targets and not laid:
        message = _("in {where} only {melds} are on the table: its contract is {contract}, and no other meld is laid")
        melds = _(rules.book_plural) if Kind.BOOK in kinds else _(rules.run_plural)
        contract = rules.contract_words(number, final_note=False)
        why.append(message.format(where=rules.round_name(number), melds=melds, contract=contract))
    return laid, reasons + why


def check_layoff(
    rules: Rules,
    number: int,
    target: Sequence[Played],
    cards: Sequence[Played],
    *,
    players: int | None = None,
    opened_this_turn: bool = False,
    buys: int | None = None,
    budget: Budget | None = None,
) -> Verdict:
    """``cards`` laid off onto the exposed meld ``target``."""

    def judge(work: Budget) -> Verdict:
        return _judge_layoff(rules, number, target, cards, players, opened_this_turn, buys, work)

    return judged(Action.LAYOFF, budget, judge)


def _judge_layoff(
    rules: Rules,
    number: int,
    target: Sequence[Played],
    cards: Sequence[Played],
    players: int | None,
    opened_this_turn: bool,
    buys: int | None,
    budget: Budget,
) -> Verdict:
    action = Action.LAYOFF
    rnd = rules.round(number)
    reasons: list[str] = []
    if rnd.final:
        return illegal(action, [_final_no_table(rules, number)])
    if opened_this_turn and not rules.layoff_on_opening_turn:
        variant = variant_allowing(rules, lambda r: r.layoff_on_opening_turn)
        if variant is not None:
            message = _(
                "laying off is allowed only on turns after the one the contract was laid down "
                "(the variant {variant} allows it)"
            )
            reasons.append(message.format(variant=variant))
        else:
            reasons.append(_("laying off is allowed only on turns after the one the contract was laid down"))
    if not cards:
        reasons.append(_("no cards to lay off were given"))
    reasons += layoff_size_reasons(rules, number, len(cards), buys=buys, players=players)
    wilds = _wilds(rules, number)
    targets, why = _on_the_table(rules, number, target, cards, wilds, players, budget)
    reasons += why
    if reasons:
        return illegal(action, reasons)

    limits: list[str] = []
    shaped_why: list[str] = []
    for t in targets:
        combined = [p.as_played(wilds) for p in t.cards] + list(cards)
        shaped, why = read_book(combined, wilds, budget) if t.kind is Kind.BOOK else read_run(combined, wilds, budget)
        got, broken = allowed(shaped, wilds) if wilds.shapes.limits else (shaped, [])
        got = most_natural(got)
        if got:
            notes = (_("Read as {meld}: {cards}.").format(meld=t.describe(), cards=t),) if len(targets) > 1 else ()
            return Verdict(action, True, melds=(Laid(got[0], tuple(got)),), notes=notes)
        onto = f"{t.describe()} ({t})"
        cannot = _("{cards} cannot go onto {meld}: {why}")
        limits += [cannot.format(cards=_quote(cards), meld=onto, why=w) for w in broken]
        shaped_why += why
    if limits:
        return illegal(action, limits)
    return illegal(action, _layoff_misfit(rules, targets[0], cards, wilds, shaped_why))


def _layoff_misfit(
    rules: Rules, t: Reading, cards: Sequence[Played], wilds: Wilds, why: Sequence[str] = ()
) -> list[str]:
    """Why these cards do not go onto this meld, card by card where a card is to blame."""
    onto = f"{t.describe()} ({t})"
    natural = [p for p in cards if not wilds(p.card)]
    if t.kind is Kind.BOOK:
        wrong = [p for p in natural if p.card.rank != t.rank]
        not_rank = _("{card} is not {rank}: {meld} takes only {ranks} or wilds")
        reasons = [
            not_rank.format(card=p.card, rank=Identity(t.rank).name, meld=onto, ranks=rank_plural(t.rank))
            for p in wrong
        ]
        cannot = _("{card} cannot go onto {meld}: it would stand for {identity}")
        reasons += [
            cannot.format(card=p, meld=onto, identity=p.declared.name)
            for p in cards
            if wilds(p.card) and p.declared is not None and p.declared.rank != t.rank
        ]
        cannot_add = ngettext("{cards} cannot be added to {meld}", "{cards} cannot be added to {meld}", len(cards))
        if not reasons and why and (wilds.shapes.books != PLAIN.books):
            # the table's book limits (the fewest cards, distinct suits) say why
            return [
                _("{cards} cannot go onto {meld}: {why}").format(cards=_quote(cards), meld=onto, why=w) for w in why
            ]
        return reasons or [cannot_add.format(cards=_quote(cards), meld=onto)]
    other_suit = _("{card} is not of {suit}: {meld} takes only {suit}")
    suit = t.suit.noun if t.suit else ""
    reasons = [other_suit.format(card=p.card, suit=suit, meld=onto) for p in natural if p.card.suit is not t.suit]
    if len(t.cards) + len(cards) > 13:
        message = _("a {run} holds at most 13 cards; {meld} would hold {n}")
        reasons.append(message.format(run=_(rules.run_word), meld=onto, n=len(t.cards) + len(cards)))
    message = ngettext(
        "{cards} cannot be added to {meld}: a {run} grows only at its ends, here {ends}",
        "{cards} cannot be added to {meld}: a {run} grows only at its ends, here {ends}",
        len(cards),
    )
    reasons.append(message.format(cards=_quote(cards), meld=onto, run=_(rules.run_word), ends=_ends(t)))
    return reasons


def _ends(run: Reading) -> str:
    ends: list[str] = []
    if run.low > 1:
        ends.append(str(identity_at(run.low - 1, run.suit)))
    if run.high < 14 and not (run.low == 1 and run.high == 13):
        ends.append(str(identity_at(run.high + 1, run.suit)))
    if not ends:
        return _("nowhere (it already runs from end to end)")
    return ends[0] if len(ends) == 1 else _("{first} or {second}").format(first=ends[0], second=ends[1])


def _final_no_table(rules: Rules, number: int) -> str:
    message = _("in {where} nothing is on the table to add to: it is won by laying the whole hand down at once")
    return message.format(where=rules.round_name(number))


def check_swap(
    rules: Rules,
    number: int,
    target: Sequence[Played],
    cards: Sequence[Played],
    *,
    players: int | None = None,
    opened_this_turn: bool = False,
    budget: Budget | None = None,
) -> Verdict:
    """The natural card in ``cards`` put in where a wild of ``target`` stands for it, the wild taken back."""

    def judge(work: Budget) -> Verdict:
        return _judge_swap(rules, number, target, cards, players, opened_this_turn, work)

    return judged(Action.SWAP, budget, judge)


def _judge_swap(
    rules: Rules,
    number: int,
    target: Sequence[Played],
    cards: Sequence[Played],
    players: int | None,
    opened_this_turn: bool,
    budget: Budget,
) -> Verdict:
    action = Action.SWAP
    rnd = rules.round(number)
    reasons: list[str] = []
    if rules.swap is SwapPolicy.NONE:
        variant = variant_allowing(rules, lambda r: r.swap is not SwapPolicy.NONE)
        if variant is not None:
            message = _(
                "{name} fixes wilds once played: they cannot be taken back (the house rule {variant} allows it)"
            )
        else:
            message = _("{name} fixes wilds once played: they cannot be taken back")
        reasons.append(message.format(name=rules.display_name, variant=variant))
        return illegal(action, reasons)
    if rnd.final:
        return illegal(action, [_final_no_table(rules, number)])
    if rules.swap is SwapPolicy.JOKER_IN_RUN and opened_this_turn:
        reasons.append(_("only a player who melded on an earlier turn may replace a joker"))
    wilds = _wilds(rules, number)
    if len(cards) != 1:
        reasons.append(_("a swap puts in exactly one natural card; {n} were given").format(n=len(cards)))
    elif cards[0].card.is_joker:
        reasons.append(_("a swap puts in the natural card a wild stands for, not a joker"))
    targets, why = _on_the_table(rules, number, target, cards, wilds, players, budget)
    reasons += why
    if reasons:
        return illegal(action, reasons)

    card = cards[0].card
    assert card.rank is not None
    for t in targets:
        for p in t.cards:
            if not p.wild or not _stands_for(p.identity, card):
                continue
            if rules.swap is SwapPolicy.JOKER_IN_RUN and not (t.kind is Kind.RUN and p.card.is_joker):
                continue
            swapped = tuple(Placed(card, Identity.of(card), False, q.given) if q is p else q for q in t.cards)
            new = Reading(t.kind, swapped, t.suit, t.low, t.high)
            broken = limit_reasons(new, wilds.shapes) if wilds.shapes.limits else []
            if broken:
                cannot = _("{card} cannot replace {wild} in {meld}: {why}")
                meld = f"{t.describe()} ({t})"
                return illegal(action, [cannot.format(card=card, wild=p.card, meld=meld, why=w) for w in broken])
            return Verdict(
                action,
                True,
                melds=(Laid(new, (new,)),),
                freed=p.card,
                notes=(
                    _("{card} goes in where {wild} stood for {identity}; {wild} goes to your hand.").format(
                        card=card, wild=p.card, identity=p.identity.name
                    ),
                ),
            )
    return illegal(action, _swap_misfit(rules, targets, card))


def _stands_for(identity: Identity, card: Card) -> bool:
    return identity.rank == card.rank and identity.suit in (None, card.suit)


def _swap_misfit(rules: Rules, targets: list[Reading], card: Card) -> list[str]:
    if rules.swap is SwapPolicy.JOKER_IN_RUN and all(t.kind is Kind.BOOK for t in targets):
        return [_("a joker in a {book} is dead: it stays where it is").format(book=_(rules.book_word))]
    t = targets[0]
    wild = [p for p in t.cards if p.wild]
    if rules.swap is SwapPolicy.JOKER_IN_RUN:
        wild = [p for p in wild if p.card.is_joker and t.kind is Kind.RUN]
    if not wild:
        return [_("{meld} holds no wild that could be replaced").format(meld=t)]
    said = ", ".join(_("{card} stands for {identity}").format(card=p.card, identity=p.identity.name) for p in wild)
    message = _("no wild in {meld} stands for {identity}: {said}")
    return [message.format(meld=t, identity=Identity.of(card).name, said=said)]


def _quote(cards: Sequence[Played]) -> str:
    return " ".join(str(p) for p in cards)


def _label(index: int, cards: Sequence[Played]) -> str:
    return _("meld {n} ({cards})").format(n=index + 1, cards=_quote(cards))
