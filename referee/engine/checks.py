"""The referee's checks: open, lay off, swap and go out, each a ``Verdict`` with every reason.

Legality is decided here against a ``Rules`` and a round; the notation was checked when
the cards were parsed. A verdict never stops at the first problem.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import permutations, product

from .cards import Card, Identity, Played, rank_plural
from .errors import ImpossibleHand
from .i18n import _, capfirst, ngettext
from .melds import (
    PLAIN,
    Placed,
    Reading,
    Wilds,
    allowed,
    identity_at,
    limit_reasons,
    most_natural,
    read,
    read_book,
    read_run,
    runs_join,
)
from .rulesets import Component, Kind, Rules, SwapPolicy, variant_allowing

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


def illegal(action: str, reasons: Iterable[str], **kwargs: object) -> Verdict:
    return Verdict(action, False, tuple(reasons), **kwargs)  # type: ignore[arg-type]


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
    buys: int | None = None,
) -> Verdict:
    """``open`` (final=False) or ``go_out`` (final=True): melds against the round's contract.

    ``buys``: how many buys (or "May I?"s) the player made this round; by default the most
    the ruleset allows, which bounds how many cards the hand can hold."""
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

    wilds = _wilds(rules, number)
    exact = rules.exact_opening and not final
    all_cards = [p.card for meld in melds for p in meld]
    reasons = copy_reasons(rules, all_cards, players) + buys_reasons(rules, number, buys, players)
    if final:
        reasons += hand_size_reasons(rules, number, len(all_cards), where, buys)
    else:
        reasons += layout_size_reasons(rules, number, len(all_cards), buys=buys, players=players)

    read_cache: dict[tuple[int, Kind], tuple[list[Reading], list[str]]] = {}

    def readings(i: int, kind: Kind) -> tuple[list[Reading], list[str]]:
        if (i, kind) not in read_cache:
            read_cache[i, kind] = read(melds[i], wilds, kind)
        return read_cache[i, kind]

    contract = rnd.contract
    m, k = len(melds), len(contract)
    intents: list[Kind] | None = None  # what each meld looks like: only needed once a layout fails
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
                left = _cards_left(rules, number, len(all_cards), buys)
                return Verdict(action, True, melds=laid, notes=_notes(rules, number, final, left))
        if intents is None:
            intents = [_intent(meld, wilds) for meld in melds]
        score = (fit, sum(intents[i] is contract[c].kind for c, i in enumerate(order)))
        if best is None or score > best[0]:
            best = (score, order)
    assert best is not None
    order = best[1]

    if m != k:
        message = ngettext(
            "the contract of {where} is {contract}: {k} melds, but {m} was laid",
            "the contract of {where} is {contract}: {k} melds, but {m} were laid",
            m,
        )
        reasons.append(message.format(where=where, contract=rules.contract_words(number), k=k, m=m))
    for c, i in enumerate(order):
        component = contract[c]
        got, why = readings(i, component.kind)
        wanted = rules.component_with_article(component, exact=exact)
        label = _label(i, melds[i])
        if not got:
            reasons += [_("{meld} is not {wanted}: {why}").format(meld=label, wanted=wanted, why=w) for w in why]
        elif not _fits(rules, component, melds[i], got, exact):
            message = _("{meld} has {n} cards; the contract asks for {wanted}")
            reasons.append(message.format(meld=label, n=len(melds[i]), wanted=wanted))
    for i in sorted(set(range(m)) - set(order)):
        label = _label(i, melds[i])
        reasons.append(_("{meld} is one meld more than the contract; no extra melds").format(meld=label))
        if not readings(i, Kind.BOOK)[0] and not readings(i, Kind.RUN)[0]:
            kind = _intent(melds[i], wilds)
            word = rules.kind_with_article(kind)
            either = _("{meld} is not {word} either: {why}")
            reasons += [either.format(meld=label, word=word, why=w) for w in readings(i, kind)[1]]
    for c in range(len(order), k):
        reasons.append(_("missing: {wanted}").format(wanted=rules.component_with_article(contract[c], exact=exact)))
    if not reasons:
        reasons.append(
            _join_reason(rules, [readings(i, contract[c].kind)[0] for c, i in enumerate(order)], melds, order)
        )
    return illegal(action, reasons)


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
        message = _(
            "after laying down the contract ({least} or more of its cards) a hand in {where} holds at most {held} "
            "cards after the draw: at most {held} can be laid off, not {n}"
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


def _read_target(target: Sequence[Played], wilds: Wilds) -> tuple[list[Reading], list[str]]:
    books, book_why = read(target, wilds, Kind.BOOK)
    runs, run_why = read(target, wilds, Kind.RUN)
    if books or runs:
        return books + runs, []
    intent = _intent(target, wilds)
    why = book_why if intent is Kind.BOOK else run_why
    message = _("the exposed meld {cards} is not a meld: {why}")
    return [], [message.format(cards=_quote(target), why=w) for w in why]


def _on_the_table(
    rules: Rules, number: int, target: Sequence[Played], cards: Sequence[Played], wilds: Wilds, players: int | None
) -> tuple[list[Reading], list[str]]:
    """The exposed meld's readings, and what is wrong with it or with the cards put to it.

    Only the contract's melds are ever laid (no other meld after the opening, in every ruleset
    here), so a meld of a kind the round's contract lacks cannot be on the table: a run in a
    round of books only, a book in a round of runs only."""
    reasons = [] if target else [_("no exposed meld (target) was given")]
    reasons += copy_reasons(rules, [p.card for p in [*target, *cards]], players)
    targets, why = _read_target(target, wilds) if target else ([], [])
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
    targets, why = _on_the_table(rules, number, target, cards, wilds, players)
    reasons += why
    if reasons:
        return illegal(action, reasons)

    limits: list[str] = []
    shaped_why: list[str] = []
    for t in targets:
        combined = [p.as_played(wilds) for p in t.cards] + list(cards)
        shaped, why = read_book(combined, wilds) if t.kind is Kind.BOOK else read_run(combined, wilds)
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
    targets, why = _on_the_table(rules, number, target, cards, wilds, players)
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
            swapped = tuple(Placed(card, Identity.of(card), False, q.index) if q is p else q for q in t.cards)
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
