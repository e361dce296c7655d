"""How the table page shows a game: the scoreboard's rows, the spoken announcement (the history
in words is ``scorekeeping.changes``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from referee.engine import Rules
from scorekeeping.models import Game, Player
from scorekeeping.selectors import CurrentRound, Standings
from scorekeeping.services import DraftStatus


@dataclass
class BoardRow:
    player: Player
    cells: list[dict[str, Any]]
    total: int
    wins: int
    place: int
    dealer: bool
    leader: bool
    last: int | None = None  # the points of the last recorded round
    last_won: bool = False  # went out in it
    behind: int = 0  # the gap to the leader's total

    @property
    def initial(self) -> str:
        return self.player.name[:1].upper()


def by_place(rows: list[BoardRow], standings: Standings) -> list[BoardRow]:
    """The scoreboard's rows in the order of the places (ties as the standings break them)."""
    order = {s.player.pk: i for i, s in enumerate(standings.rows)}
    return sorted(rows, key=lambda row: order[row.player.pk])


def board_rows(game: Game, rules: Rules, standings: Standings, current: CurrentRound | None) -> list[BoardRow]:
    by_player = {s.player.pk: s for s in standings.rows}
    rounds = {r.number: r for r in game.rounds.all()}
    points = {(r.number, s.player_id): s.points for r in rounds.values() for s in r.scores.all()}
    rows = []
    best = standings.rows[0].total if standings.rows else 0  # the leader's, as the rules rank them
    last = max(rounds, default=None)
    for p in game.players.all():
        cells = []
        running = 0
        for number in range(1, rules.last_round + 1):
            scored = points.get((number, p.pk))
            running += scored or 0
            cells.append(
                {
                    "number": number,
                    "points": scored,
                    "running": running if scored is not None else None,  # the total after this round
                    "won": number in rounds and rounds[number].winner_id == p.pk,
                }
            )
        s = by_player[p.pk]
        rows.append(
            BoardRow(
                player=p,
                cells=cells,
                total=s.total,
                wins=s.round_wins,
                place=s.place,
                dealer=current is not None and current.dealer.pk == p.pk,
                leader=bool(rounds) and s.place == 1,
                last=points.get((last, p.pk)) if last is not None else None,
                last_won=last is not None and rounds[last].winner_id == p.pk,
                behind=abs(s.total - best),
            )
        )
    return rows


def announcement(current: CurrentRound, last: int) -> str:
    """What the Read aloud button says: unambiguous when spoken ("Deal 2 of 10. Give each player 11 cards.")."""
    return _(
        "{word} {number} of {last}. Give each player {dealt} cards. {wilds}. Contract: {contract}. "
        "{dealer} deals, {first} starts. {stock} cards in the stock."
    ).format(
        word=capfirst(current.round_word),
        number=current.number,
        last=last,
        dealt=current.hand_size,
        wilds=current.wild_words,
        contract=current.contract.replace(" + ", _(" and ")),
        dealer=current.dealer.name,
        first=current.first_player.name,
        stock=current.stock,
    )


@dataclass(frozen=True)
class DraftItem:
    name: str
    state: str  # "out" (went out), "in" (sent in), "entering" (a phone on it), "waiting"
    points: int | None


@dataclass(frozen=True)
class DraftLine:
    """Where the round in progress stands, for every phone: "Ana went out · Ben ✓ 45 · Cy entering…"."""

    number: int
    title: str
    items: list[DraftItem]
    all_in: bool
    notes: list[str]


def draft_waiting(number: int, rules: Rules) -> DraftLine:
    """A round in progress left waiting by an undo of the round before: its hands are kept."""
    note = _("Its hands are kept: it goes on once {before} is recorded again.").format(
        before=rules.round_name(number - 1)
    )
    title = _("{where} is waiting").format(where=capfirst(rules.round_name(number)))
    return DraftLine(number, title, [], all_in=False, notes=[note])


def draft_line(status: DraftStatus, seated: set[int], rules: Rules) -> DraftLine:
    items = []
    for p in status.players:
        hand = status.hands.get(p.pk)
        if p.pk == status.draft.winner_id:
            items.append(DraftItem(p.name, "out", None))
        elif hand is not None and hand.done:
            items.append(DraftItem(p.name, "in", status.penalties.get(p.pk)))
        elif p.pk in seated or hand is not None:
            items.append(DraftItem(p.name, "entering", None))
        else:
            items.append(DraftItem(p.name, "waiting", None))
    title = _("{where} in progress").format(where=capfirst(rules.round_name(status.draft.number)))
    notes = []
    winner = status.draft.winner
    if winner is not None and winner.pk in status.hands:
        notes.append(
            _("{name} went out, so the hand {name} sent in is set aside (kept, should that change back).").format(
                name=winner.name
            )
        )
    return DraftLine(status.draft.number, title, items, all_in=not status.missing, notes=notes)
