"""The round-entry form's state: what the phone sent (or what a stored round, an undone round's
snapshot or the round in progress fills it with), and the entry it makes for the services."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict

from referee.engine.rounds import RoundEntry
from referee.forms import cleaned
from referee.keypad import press, pressed
from scorekeeping.models import DraftHand, Player, Round
from scorekeeping.services import DraftStatus
from scorekeeping.web.forms import RoundEntryForm
from scorekeeping.webkit.formdata import form_int

NO_WINNER = "none"


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
    sent: set[int] = field(default_factory=set)  # a round in progress: the seats whose hands are in

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
    def from_draft(cls, status: DraftStatus, version: int, active: int | None, *, mine: int | None) -> EntryState:
        """The form as the round in progress holds it: who went out, and the hands kept so far as
        this phone sees them. A hand sent in is every phone's; one still being typed only its
        player's own phone's (``mine``, a player id): what another phone half-typed is never
        taken for typed here (sent in from here, it would cut that hand short). What a phone
        types for someone else is kept on that phone until it sends it (entry.js)."""
        draft = status.draft
        state = cls(winner=str(draft.winner.seat) if draft.winner else NO_WINNER, version=version, active=active)
        state.cut_bonus = draft.cut_bonus
        for p in status.players:
            hand = status.hands.get(p.pk)
            if hand is not None and (hand.done or p.pk == mine):
                state.take_hand(p.seat, hand)
            if hand is not None and hand.done:
                state.sent.add(p.seat)
        return state

    def take_hand(self, seat: int, hand: DraftHand) -> None:
        """One player's hand as the round in progress holds it (sent in from another phone)."""
        self.hands[seat] = hand.cards
        self.points[seat] = "" if hand.cards or hand.points is None else str(hand.points)
        self.buys[seat] = str(hand.buys) if hand.buys else ""

    def take_others(self, fresh: EntryState, players: list[Player]) -> None:
        """Who went out and the cut bonus as ``fresh`` (the server) has them, and every hand but
        the one typed here: a hand sent in as the server holds it; any other as this phone has
        it, or as the server keeps it when this phone has nothing in it."""
        for p in players:
            typed = self.hands.get(p.seat, "").strip() or self.points.get(p.seat, "").strip()
            if p.seat != self.active and (p.seat in fresh.sent or not typed):
                self.hands[p.seat] = fresh.hands.get(p.seat, "")
                self.points[p.seat] = fresh.points.get(p.seat, "")
                self.buys[p.seat] = fresh.buys.get(p.seat, "")
        self.winner, self.cut_bonus, self.sent = fresh.winner, fresh.cut_bonus, fresh.sent

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
