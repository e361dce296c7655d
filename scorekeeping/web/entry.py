"""The round-entry form of the table page: what the phone sent, and what to show back.

Parsing the POST and laying out the form live here; scoring and every rule stay in
``services`` (``round_preview`` while typing, ``round_record``/``round_replace`` on submit).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from referee.engine import Card, RefereeError, parse_cards
from referee.engine.rounds import EntryField, Fault, RoundEntry, cutter_seat
from referee.forms import cleaned
from referee.keypad import press, pressed
from referee.presentation import Chip, Keypad, chips, keypad
from scorekeeping.errors import ErrorKey
from scorekeeping.models import DraftHand, Game, Player, Round
from scorekeeping.services import DraftStatus, round_preview
from scorekeeping.web.forms import RoundEntryForm
from scorekeeping.webkit.formdata import form_int

NO_WINNER = "none"


def no_winner_chosen() -> dict[ErrorKey, list[str]]:
    """The error of an entry sent without who went out, in the language of the request."""
    return {EntryField("winner"): [_("Choose who went out (or no one, if the stock ran out).")]}


@dataclass
class EntryState:
    """The form as the phone last sent it (or as a stored round prefills it)."""

    winner: str = ""  # a seat, "none", or "" (not chosen yet)
    hands: dict[int, str] = field(default_factory=dict)
    points: dict[int, str] = field(default_factory=dict)
    buys: dict[int, str] = field(default_factory=dict)
    cut_bonus: bool = False
    active: int | None = None
    version: int | None = None

    @classmethod
    def from_post(cls, post: QueryDict, players: list[Player]) -> EntryState:
        values = cleaned(RoundEntryForm(post, players=players))
        state = cls(
            winner=values.get("winner") or "",
            cut_bonus=bool(values.get("cut_bonus")),
            version=values.get("version"),
            active=values.get("active"),
        )
        for p in players:
            state.hands[p.seat] = values.get(f"hand-{p.seat}") or ""
            state.points[p.seat] = values.get(f"points-{p.seat}") or ""
            state.buys[p.seat] = values.get(f"buys-{p.seat}") or ""
        return state

    @classmethod
    def from_round(cls, rnd: Round, players: list[Player], version: int) -> EntryState:
        state = cls(winner=str(rnd.winner.seat) if rnd.winner else NO_WINNER, cut_bonus=rnd.cut_bonus, version=version)
        scores = {s.player_id: s for s in rnd.scores.all()}
        for p in players:
            score = scores.get(p.pk)
            if score is None or (rnd.winner_id == p.pk):
                continue
            if score.typed:
                state.points[p.seat] = str(score.penalty)
            else:
                state.hands[p.seat] = score.cards
            if score.buys:
                state.buys[p.seat] = str(score.buys)
        return state

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any], players: list[Player], version: int) -> EntryState:
        """The form filled in as a round was recorded (an undone round comes back to be fixed)."""
        seats = {p.name: p.seat for p in players}
        winner = snapshot.get("winner")
        state = cls(winner=str(seats[winner]) if winner in seats else NO_WINNER, version=version)
        state.cut_bonus = bool(snapshot.get("cut_bonus"))
        for score in snapshot.get("scores", []):
            seat = seats.get(score.get("player"))
            if seat is None or score.get("player") == winner:
                continue
            if score.get("typed"):
                state.points[seat] = str(score.get("penalty", ""))
            else:
                state.hands[seat] = str(score.get("cards", ""))
            if score.get("buys"):
                state.buys[seat] = str(score["buys"])
        return state

    @classmethod
    def from_draft(cls, status: DraftStatus, version: int, active: int | None) -> EntryState:
        """The form as the round in progress holds it: who went out, every hand kept so far."""
        draft = status.draft
        state = cls(winner=str(draft.winner.seat) if draft.winner else NO_WINNER, version=version, active=active)
        state.cut_bonus = draft.cut_bonus
        for p in status.players:
            hand = status.hands.get(p.pk)
            if hand is not None:
                state.take_hand(p.seat, hand)
        return state

    def take_hand(self, seat: int, hand: DraftHand) -> None:
        """One player's hand as the round in progress holds it (sent in from another phone)."""
        self.hands[seat] = hand.cards
        self.points[seat] = "" if hand.cards or hand.points is None else str(hand.points)
        self.buys[seat] = str(hand.buys) if hand.buys else ""

    def take_others(self, fresh: EntryState, players: list[Player]) -> None:
        """Every hand but the one typed here, who went out and the cut bonus as ``fresh`` has them."""
        for p in players:
            if p.seat != self.active:
                self.hands[p.seat] = fresh.hands.get(p.seat, "")
                self.points[p.seat] = fresh.points.get(p.seat, "")
                self.buys[p.seat] = fresh.buys.get(p.seat, "")
        self.winner, self.cut_bonus = fresh.winner, fresh.cut_bonus

    def press(self, post: Mapping[str, str]) -> bool:
        """A key of the keypad without JavaScript (``referee.keypad``), on this form's hands and
        buys; False when ``post`` holds no key."""
        if not pressed(post):
            return False
        self.active = press(post, self.hands, self.active, self.buys)
        return True

    def winner_name(self, players: list[Player]) -> str | None:
        seat = form_int(self.winner, None)
        return next((p.name for p in players if p.seat == seat), None)

    def to_entry(self, players: list[Player]) -> RoundEntry:
        """The entry as the services take it: by name, and only what was filled in."""
        return RoundEntry(
            winner=self.winner_name(players),
            hands={p.name: self.hands[p.seat] for p in players if self.hands.get(p.seat, "").strip()},
            points={p.name: _number(self.points[p.seat]) for p in players if self.points.get(p.seat)},
            buys={p.name: _number(self.buys[p.seat]) for p in players if self.buys.get(p.seat)},
            cut_bonus=self.cut_bonus,
        )


def _number(text: str) -> object:
    """Digits become a number; anything else goes to the service as typed, to be refused by name."""
    try:
        return int(text)
    except ValueError:
        try:
            return float(text.replace(",", "."))
        except ValueError:
            return text


@dataclass
class PlayerRow:
    player: Player
    hand: str
    points: str
    buys: str
    chips: list[Chip]
    penalty: int | None
    breakdown: str
    errors: list[str]
    went_out: bool
    active: bool
    holds: int | None  # the keypad moves on by itself once this many cards are in (a fixed-size hand)
    sent_in: bool = False  # a round in progress: this hand is in
    replaces: bool = False  # sent in, and not this phone's own: sending it again replaces it (a deliberate act)


@dataclass
class DraftView:
    """The entry of a round in progress: whose hand this phone scores, and where the round stands."""

    status: DraftStatus | None  # None until someone says who went out
    seat: Player | None
    displaced: str = ""  # the name of the seat another phone took from this one

    @property
    def all_in(self) -> bool:
        return self.status is not None and not self.status.missing


@dataclass
class EntryView:
    number: int
    round_word: str
    state: EntryState
    rows: list[PlayerRow]
    errors: list[str]
    keypad: Keypad
    show_buys: bool
    show_cut_bonus: bool
    cutter: str
    correcting: bool
    refused: bool  # the errors shown are a refused Record's, not the preview's
    draft: DraftView | None = None  # a round in progress, each hand sent in on its own
    players: list[Player] = field(default_factory=list)
    rechecked: bool = False  # a refused form checked again as it was changed

    @property
    def first_reason(self) -> int | str | None:
        """Where a refused Record's first reason is shown, focused as it is drawn (``autofocus``,
        which the browser and htmx honour: a screen reader reads it): "list" for the list above
        the hands, else the seat of the first hand it is about; None for a preview's."""
        if not self.refused or self.rechecked:
            return None
        if self.errors:
            return "list"
        return next((r.player.seat for r in self.rows if r.errors), None)


def entry_view(
    *,
    game: Game,
    players: list[Player],
    number: int,
    state: EntryState,
    errors: Mapping[ErrorKey, list[str]] | None = None,
    correcting: bool = False,
    final: bool = False,
    draft: DraftView | None = None,
    recheck: bool = False,
) -> EntryView:
    """Lay out the entry form: every player's hand, the running penalty, errors beside each player.

    ``errors`` are a refused submit's (shown in full); otherwise the preview's errors are
    shown only for what was typed, not for players nobody has got to yet, nor that the hand
    being tapped in is still short of its cards (``_while_typing``). ``recheck``: the
    form was refused and changed since, so it is checked as the submit would be (in full), and
    the refusal's list stays only while something in it is still wrong.
    """
    rules = game.rules
    wild = rules.wild_ranks_in(number)
    plan = round_preview(game=game, number=number, entry=state.to_entry(players))
    if recheck and errors is None:
        errors = _as_submitted(plan.errors, state, players, draft)
    shown = errors if errors is not None else _while_typing(plan.faults, state, players)
    by_name = {p.name.casefold(): p for p in players}
    per_player: dict[int, list[str]] = {p.seat: [] for p in players}
    general: list[str] = []
    for key, messages in shown.items():
        player = by_name.get(key.player.casefold()) if isinstance(key, EntryField) and key.player else None
        if player is not None:
            per_player[player.seat] += messages
        else:
            general += messages
    winner_seat = form_int(state.winner, None)
    rows: list[PlayerRow] = []
    for p in players:
        row = plan.hands[p.seat]
        try:
            cards: list[Card] | None = parse_cards(state.hands.get(p.seat, ""))
        except RefereeError:
            cards = None
        went_out = winner_seat == p.seat
        is_in = bool(draft and draft.status and _sent_in(draft.status, p))
        rows.append(
            PlayerRow(
                player=p,
                hand=state.hands.get(p.seat, ""),
                points=state.points.get(p.seat, ""),
                buys=state.buys.get(p.seat, ""),
                chips=chips(cards or [], wild),
                penalty=0 if went_out else (row.penalty if (cards or row.typed) else None),
                breakdown=breakdown_text(b.points for b in row.breakdown),
                errors=per_player[p.seat],
                went_out=went_out,
                active=state.active == p.seat,
                holds=None if went_out else row.holds,
                sent_in=is_in and draft is not None and _as_sent(draft.status, p, state, cards),
                replaces=is_in and draft is not None and draft.seat != p,
            )
        )
    refused_row = next((r for r in rows if r.errors), None) if errors is not None else None
    if refused_row is not None and not refused_row.active:
        # A refused Record shows the first hand it is about: that is where the fix goes.
        for r in rows:
            r.active = r is refused_row
        state.active = refused_row.player.seat
    if state.active is None or all(r.went_out for r in rows if r.player.seat == state.active):
        mine = draft.seat.seat if draft and draft.seat else None
        first = next((r for r in rows if r.player.seat == mine and not r.went_out), None)
        first = first or next((r for r in rows if not r.went_out and not r.sent_in), None)
        first = first or next((r for r in rows if not r.went_out), None)
        if first is not None:
            for r in rows:  # the one who went out holds no cards: the keypad is someone else's
                r.active = r is first
            state.active = first.player.seat
    cutter = players[cutter_seat(plan.dealer, len(players))].name
    return EntryView(
        number=number,
        round_word=_(rules.round_word),
        state=state,
        rows=rows,
        errors=general,
        keypad=keypad(wild),
        show_buys=rules.buys.allowed,
        show_cut_bonus=bool(rules.cut_bonus),
        cutter=cutter,
        correcting=correcting,
        refused=bool(errors) if recheck else errors is not None,
        rechecked=recheck,
        draft=draft,
        players=players,
    )


def breakdown_text(points: Iterable[int]) -> str:
    """``"2 × 15 + 10 × 10 + 5"``: each card's points, the same value counted once, in the order
    first tapped; one short line however long the hand."""
    counts = Counter(points)
    return " + ".join(str(p) if n == 1 else f"{n} × {p}" for p, n in counts.items())


def _sent_in(status: DraftStatus, player: Player) -> bool:
    hand = status.hands.get(player.pk)
    return hand is not None and hand.done and player.pk != status.draft.winner_id


def _as_sent(status: DraftStatus | None, player: Player, state: EntryState, cards: list[Card] | None) -> bool:
    """The hand this phone shows (``cards``, None if they do not parse) is the one sent in."""
    if status is None or cards is None:
        return False
    hand = status.hands[player.pk]
    return (
        cards == parse_cards(hand.cards)
        and form_int(state.points.get(player.seat), None) == (None if hand.cards else hand.points)
        and form_int(state.buys.get(player.seat), 0) == hand.buys
    )


def _as_submitted(
    errors: Mapping[EntryField, list[str]], state: EntryState, players: list[Player], draft: DraftView | None
) -> dict[ErrorKey, list[str]]:
    """What Record (or, with a round in progress, Send for the hand chosen) would refuse now."""
    found: dict[ErrorKey, list[str]] = {key: messages for key, messages in errors.items()}
    if draft is not None:  # Send checks one hand (the one chosen), not who went out
        active = next((p.name.casefold() for p in players if p.seat == state.active), None)
        found = {
            key: messages
            for key, messages in errors.items()
            if (key.player is None or key.player.casefold() == active) and key != EntryField("winner")
        }
    if state.winner == "":
        found.update(no_winner_chosen())
    return found


def _while_typing(faults: Sequence[Fault], state: EntryState, players: list[Player]) -> dict[ErrorKey, list[str]]:
    """A preview's faults as the form shows them while it is filled in: none about a player
    nobody has typed anything for yet, and none saying that the hand the keypad is filling is
    short of the cards the round fixes (it is still being tapped in: Record, Send, or the
    keypad moving on to another hand shows it)."""
    typed = {
        p.name.casefold()
        for p in players
        if state.hands.get(p.seat) or state.points.get(p.seat) or state.buys.get(p.seat) not in (None, "", "0")
    }
    typing = next((p.name.casefold() for p in players if p.seat == state.active), None)
    kept: dict[ErrorKey, list[str]] = {}
    for fault in faults:
        name = fault.field.player.casefold() if fault.field.player else None
        if name is not None and (name not in typed or (fault.short and name == typing)):
            continue
        kept.setdefault(fault.field, []).append(fault.message)
    return kept
