"""A club's reads: the club, a night with its sittings and tables, the night's standings and a
season's, each from the games' final places (``selectors.game_standings``) and the engine's
scoring (``referee.engine.clubs``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Prefetch

from referee.engine.clubs import SeasonStanding, Seat, Standing, night_standings, season_standings
from scorekeeping.errors import NotFound
from scorekeeping.models import Club, ClubTable, Member, Night, Sitting
from scorekeeping.selectors import game_filled, game_standings


def club_get(*, club_id: str) -> Club:
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise NotFound("no such club", "club")
    return club


def night_get(*, club: Club, night_id: int) -> Night:
    night = (
        Night.objects.filter(club=club, pk=night_id)
        .prefetch_related(
            "present",
            Prefetch("sittings_drawn", Sitting.objects.order_by("number").prefetch_related("sitting_out")),
            Prefetch(
                "sittings_drawn__tables",
                ClubTable.objects.select_related("game").annotate(played=Count("game__rounds")).order_by("number"),
            ),
        )
        .first()
    )
    if night is None:
        raise NotFound("no such night in this club", "night")
    return night


@dataclass(frozen=True)
class TableState:
    table: ClubTable
    members: list[Member]  # in seat order
    played: int  # rounds recorded
    last_round: int
    finished: bool  # the game is over, or the organiser ended it

    @property
    def ended(self) -> bool:
        return self.table.ended


def night_tables(night: Night) -> dict[int, list[TableState]]:
    """Every table of every sitting, by sitting number, with its members and how far it is."""
    ids = {pk for s in night.sittings_drawn.all() for t in s.tables.all() for pk in t.members}
    members = Member.objects.in_bulk(ids)
    found: dict[int, list[TableState]] = {}
    for sitting in night.sittings_drawn.all():
        for table in sitting.tables.all():
            last = table.game.rules.last_round
            played = getattr(table, "played", None)
            if played is None:
                played = table.game.rounds.count()
            state = TableState(
                table, [members[pk] for pk in table.members], played, last, played >= last or table.ended
            )
            found.setdefault(sitting.number, []).append(state)
    return found


def _seats(state: TableState) -> list[Seat]:
    """A finished (or ended) table's players with their places and totals, by member name."""
    standings = game_standings(game=game_filled(state.table.game, scores=True))
    by_seat = {row.player.seat: row for row in standings.rows}
    return [Seat(m.name, by_seat[i].place, by_seat[i].total) for i, m in enumerate(state.members)]


def night_results(night: Night, tables: dict[int, list[TableState]] | None = None) -> list[Standing]:
    """The night's standings so far: every finished or ended table of every sitting (``tables``:
    ``night_tables(night)`` where the caller has it already)."""
    states = night_tables(night) if tables is None else tables
    finished = [_seats(s) for sitting in states.values() for s in sitting if s.finished]
    return night_standings(finished, night.scoring)


def season(
    *, club: Club, start: dt.date | None, end: dt.date | None, best: int | None, minimum: int
) -> list[SeasonStanding]:
    """The club's standings over its nights from ``start`` to ``end`` (inclusive): each night's
    percentage per player, each player's best ``best`` nights."""
    nights = Night.objects.filter(club=club)
    if start is not None:
        nights = nights.filter(date__gte=start)
    if end is not None:
        nights = nights.filter(date__lte=end)
    figures = []
    for night in nights.order_by("date", "pk"):
        rows = night_results(night_get(club=club, night_id=night.pk))
        if rows:
            figures.append({row.player: row.percent for row in rows})
    return season_standings(figures, best=best, minimum=minimum)
