"""The round-entry form of the table page: what to show back, hand by hand.

What the phone sent is ``entry_state``; which faults the form shows, ``entry_errors``. Scoring
and every rule stay in ``services`` (``round_preview`` while typing, ``round_record``/
``round_replace`` on submit).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from referee.engine import Card, RefereeError, parse_cards
from referee.engine.rounds import EntryField, cutter_seat
from referee.presentation import Chip, Keypad, chips, keypad
from scorekeeping.errors import ErrorKey
from scorekeeping.models import Game, Player
from scorekeeping.services import DraftStatus, round_preview
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
