"""A round at the table, scored: what each hand left scores, or every reason the result is impossible.

This is where the score-keeper's rules live: who deals, who cuts, how many buys a player
may have made, how many cards a hand left can hold, which typed totals a hand can make,
and what each card scores. ``score_round`` takes the table's entries by player name (one
``RoundEntry``) and answers with one ``HandScore`` per seat, or with every problem at once,
each a ``Fault`` under the ``EntryField`` it is about (Ben's hand, Cy's points, Dee's buys,
who went out, the cut bonus); ``EntryField.wire`` names one as the API does (``hands.Ben``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .cards import Card, parse_cards, rank_plural
from .checks import copy_reasons
from .errors import RefereeError
from .i18n import _, ngettext
from .rules import Rules
from .rulesets import no_cut_bonus, variant_allowing
from .scoring import CardPoints, HandSize, card_score, card_values, hand_left_size, possible_total, step, total_bounds
from .words import name_key, names_and, values_or

CardsInput = str | Sequence[str]
EntryKind = Literal["hands", "points", "buys", "winner", "cut_bonus"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundEntry:
    """A round as the table entered it, by player name and only what was filled in: who went
    out (None: no one did), each other hand's cards or typed points, the buys, the cut bonus.
    Values are as typed (a number, or text to be refused by name): the scoring checks them."""

    winner: str | None = None
    hands: Mapping[str, CardsInput] = field(default_factory=dict)
    points: Mapping[str, object] = field(default_factory=dict)
    buys: Mapping[str, object] = field(default_factory=dict)
    cut_bonus: bool = False


@dataclass(frozen=True, slots=True)
class EntryField:
    """The part of a round's entry a fault is about: one player's cards, points or buys (the
    name as entered), every hand at once (``hands`` with no player), who went out, the cut bonus."""

    kind: EntryKind
    player: str | None = None

    @property
    def wire(self) -> str:
        """The field as the API names it to its clients: ``hands.Ben``, ``hands``, ``winner``."""
        return self.kind if self.player is None else f"{self.kind}.{self.player}"


@dataclass(frozen=True, slots=True)
class Fault:
    """One reason a round's entry is impossible, under the field it is about. ``short``: a hand
    holds fewer cards than the round fixes, as a hand still being tapped in does."""

    field: EntryField
    message: str
    short: bool = False


def dealer_seat(first_dealer_seat: int, number: int, players: int) -> int:
    """The deal passes to the left (the next seat clockwise) every round."""
    return (first_dealer_seat + number - 1) % players


def cutter_seat(dealer: int, players: int) -> int:
    """The player on the dealer's right cuts (Liverpool's cut bonus goes to them)."""
    return (dealer - 1) % players


@dataclass(frozen=True, slots=True)
class HandScore:
    """What one seat scores in a round: the cards left (or typed points), buys, any adjustment."""

    seat: int
    cards: tuple[Card, ...] = ()
    typed: bool = False
    penalty: int = 0
    adjustment: int = 0
    buys: int = 0
    breakdown: tuple[CardPoints, ...] = ()
    holds: int | None = None  # the exact number of cards left, where the round fixes it (Mexican round 7)

    @property
    def points(self) -> int:
        return self.penalty + self.adjustment


@dataclass(frozen=True, slots=True)
class RoundScore:
    """A round scored from what the table entered, with every problem found in it."""

    number: int
    winner: int | None  # the seat that went out; None: no one did
    dealer: int
    hands: tuple[HandScore, ...]  # one per seat, in seat order
    faults: tuple[Fault, ...] = ()  # in the order they were found

    @property
    def ok(self) -> bool:
        return not self.faults

    @property
    def errors(self) -> dict[EntryField, list[str]]:
        """Every fault's message under the field it is about, each field where it was first found."""
        errors: dict[EntryField, list[str]] = {}
        for fault in self.faults:
            errors.setdefault(fault.field, []).append(fault.message)
        return errors


def whole_number(value: object) -> int | None:
    """A whole number as the table may enter one (7, or 7.0), else None (True is no number)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def impossible_total(rules: Rules, number: int, name: str, value: int, size: HandSize, players: int) -> str:
    """Why no hand left in this round scores ``value``: the step every total keeps, or the range."""
    where = rules.round_name(number)
    if value % step(rules, number):
        return _("In {where} every card scores {values}: {value} is not a possible total").format(
            where=where, values=values_or(card_values(rules, number)), value=value
        )
    low, high = total_bounds(rules, number, size, players)
    if size.fixed:
        message = _(
            "In {where} {name} holds exactly {n} cards, which score from {low} to {high}: {value} is not a total "
            "they can make"
        )
    else:
        message = _(
            "In {where} {name} holds {least} to {n} cards, which score from {low} to {high}: {value} is not a total "
            "they can make"
        )
    return message.format(where=where, name=name, n=size.most, least=size.least, low=low, high=high, value=value)


def _buys_reason(rules: Rules, number: int, name: str, value: object, players: int) -> tuple[int, str | None]:
    """The buys entered for a player, or why they cannot be."""
    count = whole_number(value)
    if count is None or count < 0:
        message = _("{name}'s buys must be a whole number of 0 or more, not {value!r}")
        return 0, message.format(name=name, value=value)
    if count and not rules.buys.allowed:
        variant = variant_allowing(rules, lambda r: r.buys.allowed)
        if variant is not None:
            return 0, _("{title} has no buys (the variant {variant} allows them)").format(
                title=rules.title, variant=variant
            )
        return 0, _("{title} has no buys").format(title=rules.title)
    if rules.buys.limit is not None and count > rules.buys.limit:
        message = ngettext(
            "{name} took {count} buy; {title} allows at most {limit} a {word}",
            "{name} took {count} buys; {title} allows at most {limit} a {word}",
            count,
        )
        limit, word = rules.buys.limit, _(rules.round_word)
        return 0, message.format(name=name, count=count, title=rules.title, limit=limit, word=word)
    if count > rules.most_buys(players, number):
        message = ngettext(
            "{name} took {count} buy, but every buy takes a card from the stock, which held {stock}",
            "{name} took {count} buys, but every buy takes a card from the stock, which held {stock}",
            count,
        )
        return 0, message.format(name=name, count=count, stock=rules.stock(players, number))
    return count, None


def score_round(
    rules: Rules,
    number: int,
    *,
    names: Sequence[str],
    first_dealer_seat: int,
    entry: RoundEntry,
) -> RoundScore:
    """Score a round from what the table entered (players by name, in any case or spelling of
    white space); ``faults`` names every problem at once, under the field it is about."""
    faults: list[Fault] = []

    def fail(key: EntryField, message: str, *, short: bool = False) -> None:
        faults.append(Fault(key, message, short))

    seats = {name_key(n): seat for seat, n in enumerate(names)}

    def find(name: object, key: EntryField) -> int | None:
        seat = seats.get(name_key(str(name)))
        if seat is None:
            fail(key, _("There is no player named {name!r} in this game").format(name=name))
        return seat

    def entered(values: Mapping[str, object], kind: EntryKind) -> dict[int, tuple[str, object]]:
        found: dict[int, tuple[str, object]] = {}
        for given, value in values.items():
            seat = find(given, EntryField(kind, given))
            if seat is not None:
                found[seat] = (given, value)
        return found

    winner, cut_bonus = entry.winner, entry.cut_bonus
    players = len(names)
    winner_seat = find(winner, EntryField("winner")) if winner is not None else None
    hand_of, points_of = entered(entry.hands, "hands"), entered(entry.points, "points")
    buys_of = entered(entry.buys, "buys")
    rnd = rules.round(number)
    dealer = dealer_seat(first_dealer_seat, number, players)
    cutter = cutter_seat(dealer, players)

    scored: list[HandScore] = []
    for seat, name in enumerate(names):
        bought = 0
        if seat in buys_of:
            bought, reason = _buys_reason(rules, number, name, buys_of[seat][1], players)
            if reason:
                fail(EntryField("buys", buys_of[seat][0]), reason)
        most = rnd.dealt + 2 * bought
        size = hand_left_size(rules, number, bought)
        holds = size.most if size.fixed else None
        hand_key = EntryField("hands", hand_of[seat][0] if seat in hand_of else name)
        points_key = EntryField("points", points_of[seat][0] if seat in points_of else name)
        cards: list[Card] = []
        if seat in hand_of:
            try:
                cards = parse_cards(hand_of[seat][1])  # type: ignore[arg-type]
            except RefereeError as exc:
                fail(hand_key, f"{name}: {exc}")
        adjustment = -rules.cut_bonus if cut_bonus and rules.cut_bonus and seat == cutter else 0
        if seat == winner_seat:
            if cards:
                message = ngettext(
                    "{name} went out, so {name} holds no cards; {n} card was entered",
                    "{name} went out, so {name} holds no cards; {n} cards were entered",
                    len(cards),
                )
                fail(hand_key, message.format(name=name, n=len(cards)))
            if seat in points_of and whole_number(points_of[seat][1]) != 0:
                fail(points_key, _("{name} went out and scores 0").format(name=name))
            scored.append(HandScore(seat, buys=bought, adjustment=adjustment))
            continue
        typed: int | None = None
        if seat in hand_of and seat in points_of:
            fail(hand_key, _("Give {name}'s cards or {name}'s points, not both").format(name=name))
        elif seat not in hand_of and seat not in points_of:
            fail(hand_key, _("{name}'s cards left in hand (or points) are missing").format(name=name))
        elif seat in points_of:
            value = whole_number(points_of[seat][1])
            if value is None or value < 0:
                message = _("{name}'s points must be a whole number of 0 or more, not {value!r}")
                fail(points_key, message.format(name=name, value=points_of[seat][1]))
            elif not possible_total(rules, number, value, size, players):
                fail(points_key, impossible_total(rules, number, name, value, size, players))
            else:
                typed = value
        elif not cards and all(f.field != hand_key for f in faults):
            message = _("{name} did not go out, so {name} holds cards: enter them (or the points)")
            fail(hand_key, message.format(name=name))
        if cards and size.fixed and len(cards) < most:
            message = ngettext(
                "In {where} nothing is laid down before going out, so {name} holds exactly {most} cards; "
                "{n} was entered",
                "In {where} nothing is laid down before going out, so {name} holds exactly {most} cards; "
                "{n} were entered",
                len(cards),
            )
            where = rules.round_name(number)
            fail(hand_key, message.format(where=where, name=name, most=most, n=len(cards)), short=True)
        if len(cards) > most:
            if bought:
                message = ngettext(
                    "{name} holds {n} cards, but could hold at most {most} ({dealt} dealt and {buys} buy)",
                    "{name} holds {n} cards, but could hold at most {most} ({dealt} dealt and {buys} buys)",
                    bought,
                )
            else:
                message = _("{name} holds {n} cards, but could hold at most {most} ({dealt} dealt)")
            fail(hand_key, message.format(name=name, n=len(cards), most=most, dealt=rnd.dealt, buys=bought))
        if typed is not None:
            scored.append(HandScore(seat, typed=True, penalty=typed, adjustment=adjustment, buys=bought, holds=holds))
        else:
            breakdown = tuple(card_score(rules, number, c) for c in cards)
            penalty = sum(c.points for c in breakdown)
            scored.append(HandScore(seat, tuple(cards), False, penalty, adjustment, bought, breakdown, holds))
    all_cards = [c for hand in scored for c in hand.cards]
    for reason in copy_reasons(rules, all_cards, players):
        fail(EntryField("hands"), _("Across all hands: {reason}").format(reason=reason))
    if cut_bonus and not rules.cut_bonus:
        fail(EntryField("cut_bonus"), no_cut_bonus(rules))
    return RoundScore(number, winner_seat, dealer, tuple(scored), tuple(faults))


# --- the draw for the first deal -------------------------------------------------------


def _draw_rank(card: Card) -> int:
    """In the draw for the deal the king is highest and the ace lowest; suits do not count.

    Document 001 (and its Dutch twin 004) chooses the first dealer by "high-card draw" and gives
    one card ranking, "low to high: Ace, 2, ... K"; that an ace may also close a run at the
    top is a rule of runs, not of the ranking (docs/rules.md)."""
    assert card.rank is not None
    return card.rank


def draw_for_dealer(names: Sequence[str], draw: Mapping[str, str]) -> tuple[int | None, dict[str, list[str]]]:
    """Who deals first when every player draws a card: the highest rank, kings high, aces low.

    Answers the seat, or every problem under its field: a name that is not a player, a card
    that is not one card (or is a joker), a player who drew nothing, a tie at the top.
    """
    errors: dict[str, list[str]] = {}
    seats = {name_key(n): seat for seat, n in enumerate(names)}
    drawn: dict[int, Card] = {}
    for name, text in draw.items():
        key = f"draw.{name}"
        seat = seats.get(name_key(name))
        if seat is None:
            errors.setdefault(key, []).append(_("{name!r} is not one of the players").format(name=name))
            continue
        try:
            cards = parse_cards(text)
        except RefereeError as exc:
            errors.setdefault(key, []).append(f"{names[seat]}: {exc}")
            continue
        if len(cards) != 1 or cards[0].is_joker:
            errors.setdefault(key, []).append(_("{name} draws one card, not a joker").format(name=names[seat]))
            continue
        drawn[seat] = cards[0]
    missing = [names[i] for i in range(len(names)) if i not in drawn and f"draw.{names[i]}" not in errors]
    if missing:
        errors.setdefault("draw", []).append(
            _("Every player draws a card; missing: {names}").format(names=", ".join(missing))
        )
    if errors:
        return None, errors
    best = max(_draw_rank(c) for c in drawn.values())
    top = [seat for seat, c in drawn.items() if _draw_rank(c) == best]
    if len(top) > 1:
        message = _("{names} tie with the highest card ({ranks}): they draw again")
        tied = names_and([names[s] for s in sorted(top)])
        return None, {"draw": [message.format(names=tied, ranks=rank_plural(best))]}
    return top[0], {}
