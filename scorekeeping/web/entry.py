"""The round-entry form of the table page: what to show back, hand by hand.

What the phone sent is ``entry_state``; which faults the form shows, ``entry_errors``. Scoring
and every rule stay in ``services`` (``round_preview`` while typing, ``round_record``/
``round_replace`` on submit).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee.engine import Card, RefereeError, parse_cards
from referee.engine.rounds import EntryField, cutter_seat
from referee.presentation import Chip, Keypad, chips, keypad
from scorekeeping.errors import ErrorKey
from scorekeeping.models import Game, Player
from scorekeeping.services import DraftStatus, round_preview, seats_taken
from scorekeeping.web.entry_errors import as_submitted, while_typing
from scorekeeping.web.entry_state import EntryState
from scorekeeping.webkit.formdata import form_int


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
    # Whether this phone enters the hand: every hand on a phone without a seat; on a seated phone its
    # own (unless its player went out) and those of players without a phone of their own.
    offered: bool = True


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
    def untouched(self) -> bool:
        """Nothing said or scored yet in this round: the Record bar's first row shows the deal
        (cards, wilds, contract, who deals and starts) rather than a row of dashes."""
        return not self.correcting and self.state.winner == "" and all(r.penalty is None for r in self.rows)

    @property
    def offered(self) -> list[PlayerRow]:
        """The hands this phone enters (``offered_hands``)."""
        return [r for r in self.rows if r.offered]

    @property
    def offered_seats(self) -> str:
        """The seats of the hands offered, as the form tells them on a live fetch: a form drawn
        before a phone took a seat (or left one) is drawn anew."""
        return " ".join(str(r.player.seat) for r in self.offered)

    @property
    def seat_attributes(self) -> str:
        """A seated phone's form says the hands it offers (told on a live fetch: ``data-offered``)
        and whose phone it is (``data-mine``, the seat): entry.js and live.js read them."""
        seat = self.draft.seat if self.draft is not None else None
        if seat is None:
            return ""
        return format_html(' data-offered="{}" data-mine="{}"', self.offered_seats, seat.seat)

    @property
    def mine_out(self) -> bool:
        """This seated phone's own player went out."""
        seat = self.draft.seat if self.draft is not None else None
        return seat is not None and any(r.went_out and r.player.pk == seat.pk for r in self.rows)

    @property
    def waits(self) -> bool:
        """The phone of the player who went out, every other player with a phone of their own:
        nothing to enter here; it waits for the hands, and records (entry.js and the style
        sheet say so too as soon as the winner is tapped)."""
        return all(r.went_out for r in self.offered)

    @property
    def send_many(self) -> str:
        """Send's label when it sends several hands typed on this phone, by how many (JSON for
        entry.js, which counts them as they are typed)."""
        labels = {
            n: ngettext("Send in %(n)d hand", "Send in %(n)d hands", n) % {"n": n}
            for n in range(2, len(self.offered) + 1)
        }
        return json.dumps(labels)

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


def offered_hands(players: list[Player], mine: int | None, phones: set[int]) -> list[Player]:
    """The hands a phone enters: every hand on a phone without a seat (``mine``, a player id);
    on a seated phone its own and those of the players without a phone of their own
    (``phones``). Who went out is among them, drawn out (no button, no keypad): the form keeps
    its shape whoever is said to go out, and changes only as phones take seats."""
    return [p for p in players if mine is None or p.pk == mine or p.pk not in phones]


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
    being tapped in is still short of its cards (``while_typing``). ``recheck``: the
    form was refused and changed since, so it is checked as the submit would be (in full), and
    the refusal's list stays only while something in it is still wrong.
    """
    rules = game.rules
    wild = rules.wild_ranks_in(number)
    plan = round_preview(game=game, number=number, entry=state.to_entry(players))
    if recheck and errors is None:
        errors = as_submitted(plan.errors, state, players, drafting=draft is not None)
    shown = errors if errors is not None else while_typing(plan.faults, state, players)
    winner_seat = form_int(state.winner, None)
    mine = draft.seat if draft is not None else None
    phones = seats_taken(game) if mine is not None else set()
    offered = offered_hands(players, mine.pk if mine is not None else None, phones)
    by_name = {p.name.casefold(): p for p in players}
    per_player: dict[int, list[str]] = {p.seat: [] for p in players}
    general: list[str] = []
    for key, messages in shown.items():
        player = by_name.get(key.player.casefold()) if isinstance(key, EntryField) and key.player else None
        if player is not None and player in offered:
            per_player[player.seat] += messages
        else:  # a hand this phone does not show ("Ana's hand is not in yet"): said above the hands
            general += messages
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
                offered=p in offered,
            )
        )
    refused_row = next((r for r in rows if r.errors), None) if errors is not None else None
    if refused_row is not None and not refused_row.active:
        # A refused Record shows the first hand it is about: that is where the fix goes.
        for r in rows:
            r.active = r is refused_row
        state.active = refused_row.player.seat
    if state.active is None or all(r.went_out or not r.offered for r in rows if r.player.seat == state.active):
        own = mine.seat if mine is not None else None
        open_rows = [r for r in rows if r.offered and not r.went_out]
        first = next((r for r in open_rows if r.player.seat == own), None)
        first = first or next((r for r in open_rows if not r.sent_in), None)
        first = first or next(iter(open_rows), None)
        for r in rows:  # the one who went out holds no cards: the keypad is someone else's
            r.active = r is first
        state.active = first.player.seat if first is not None else None
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
