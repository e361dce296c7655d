"""A club's reads: the club, a night with its sittings and tables, the club's newest nights, the
night's standings and a season's, each in a fixed number of queries however many nights the
club has held, each from the games' final places (``selectors.game_standings``) and the
engine's scoring (``referee.engine.clubs``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery, Sum

from referee.engine.clubs import (
    Running,
    Sat,
    SeasonStanding,
    Seat,
    Standing,
    night_lines,
    night_standings,
    running_totals,
    scoring_words,
    season_standings,
)
from referee.engine.stories import Moment, moments
from referee.rulebook import rules_for
from scorekeeping.errors import NotFound
from scorekeeping.models import Club, ClubTable, Draft, DraftHand, Member, Night, Player, Round, Sitting
from scorekeeping.selectors import Standing as GameStanding
from scorekeeping.selectors import placed
from scorekeeping.selectors.folding import Table, folded
from scorekeeping.selectors.seated import MemberName, SeatedPlayer


def club_get(*, club_id: str) -> Club:
    """The club's row (one query), or ``NotFound`` (404 for a page and for the API)."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise NotFound("no such club", "club")
    return club


def club_member(*, club: Club, member_id: int | None) -> Member | None:
    """The club's member of that id, retired or not (one query), or None."""
    return Member.objects.filter(club=club, pk=member_id).first() if member_id is not None else None


def members_active(*, club: Club) -> list[Member]:
    """The club's members still offered (not retired), one query."""
    return list(Member.objects.filter(club=club, active=True))


def night_present_member(*, night: Night, member_id: int | None) -> Member | None:
    """The member of that id checked in at the night (one query), or None."""
    return night.present.filter(pk=member_id).first() if member_id is not None else None


SITTINGS = (
    Prefetch("sittings_drawn", Sitting.objects.order_by("number")),
    Prefetch(
        "sittings_drawn__tables",
        ClubTable.objects.only(
            "id", "sitting_id", "number", "members", "ended", "game_id", "token_generation"
        ).order_by("number"),
    ),
)


def numbered(nights: QuerySet[Night]) -> QuerySet[Night]:
    """``nights``, each with its ``number``: its place among the club's nights in the order they
    were opened (the club's first night is Night 1), which tells two nights of one date apart.
    A subquery of the query itself: no query more."""
    earlier = Night.objects.filter(club=OuterRef("club"), pk__lte=OuterRef("pk")).order_by().values("club")
    return nights.annotate(number=Subquery(earlier.annotate(n=Count("pk")).values("n")))


def night_get(*, club: Club, night_id: int) -> Night:
    night = numbered(Night.objects.filter(club=club, pk=night_id)).prefetch_related(*SITTINGS).first()
    if night is None:
        raise NotFound("no such night in this club", "night")
    return night


@dataclass(frozen=True)
class TableState:
    table: ClubTable
    members: list[MemberName]  # in seat order
    played: int  # rounds recorded
    last_round: int
    finished: bool  # the game is over, or the organiser ended it
    standings: list[GameStanding[SeatedPlayer]]  # the game's places now, best first

    @property
    def ended(self) -> bool:
        return self.table.ended


def night_tables(night: Night) -> dict[int, list[TableState]]:
    """Every table of every sitting, by sitting number, with its members, how far it is and its
    places: the players with their totals, and the rounds won, of all the night's games in two
    queries, as plain records (a night of 40 tables and 3 sittings holds 480 players)."""
    return _tables([night], [night.pk])[night.pk]


def nights_tables(nights: QuerySet[Night]) -> list[tuple[Night, dict[int, list[TableState]]]]:
    """``night_tables`` of every night of ``nights`` (one club's), in the queryset's order, in six
    queries however many nights: the nights, their sittings and tables, then as one night's."""
    loaded = list(nights.prefetch_related(*SITTINGS))
    if not loaded:
        return []
    # The ids of the nights read, not the query again: a night made meanwhile would move the
    # oldest of them out of the later reads, its tables left without players (a 500).
    found = _tables(loaded, [night.pk for night in loaded])
    return [(night, found[night.pk]) for night in loaded]


def _tables(nights: list[Night], among: list[int]) -> dict[int, dict[int, list[TableState]]]:
    """The tables of ``nights`` (their sittings and tables loaded; ``among``: their ids) in three
    queries: the club's members, the players with their totals, the rounds won."""
    tables = [t for night in nights for s in night.sittings_drawn.all() for t in s.tables.all()]
    club_members = Member.objects.filter(club_id=nights[0].club_id).values_list("id", "name", "colour")  # <= 500
    members = {pk: MemberName(pk, name, colour) for pk, name, colour in club_members}
    games = [t.game_id for t in tables]
    players: dict[str, list[SeatedPlayer]] = {g: [] for g in games}
    totals: dict[str, dict[int, int]] = {g: {} for g in games}
    rows = (
        Player.objects.filter(game__club_table__sitting__night__in=among)
        .values_list("id", "game_id", "seat", "name", "colour")
        .annotate(total=Sum("scores__points"))
        .order_by("game_id", "seat")
    )
    for pk, game_id, seat, name, colour, total in rows:
        if game_id not in players:  # a table drawn after the tables were read: the next read shows it
            continue
        players[game_id].append(SeatedPlayer(pk, seat, name, colour))
        totals[game_id][pk] = total or 0
    wins: dict[str, dict[int, int]] = {g: dict.fromkeys(totals[g], 0) for g in games}
    played: dict[str, int] = dict.fromkeys(games, 0)
    rounds = Round.objects.filter(game__club_table__sitting__night__in=among)
    won = rounds.values_list("game_id", "winner_id").annotate(n=Count("id"))
    for game_id, winner_id, count in won:
        if game_id not in played:  # as above: a table drawn since
            continue
        played[game_id] += count
        if winner_id is not None:
            wins[game_id][winner_id] = count
    found: dict[int, dict[int, list[TableState]]] = {}
    for night in nights:
        rules = rules_for(night.ruleset, night.variants)  # every table's game is drawn with the night's
        by_sitting = found.setdefault(night.pk, {})
        for sitting in night.sittings_drawn.all():
            for table in sitting.tables.all():
                game_id, last = table.game_id, rules.last_round
                placing = placed(players[game_id], rules, totals[game_id], wins[game_id])
                count = played[game_id]
                seated = [members[pk] for pk in table.members]
                state = TableState(table, seated, count, last, count >= last or table.ended, placing)
                by_sitting.setdefault(sitting.number, []).append(state)
    return found


@dataclass(frozen=True)
class NightShown:
    """A night as the club page shows it in full: its tables by sitting, its standings, who is here."""

    night: Night
    tables: dict[int, list[TableState]]
    standings: list[Standing]
    present: set[int]  # the members' ids


def club_nights(*, club: Club, newest: int) -> list[NightShown]:
    """The club's ``newest`` nights, newest first, in full: seven queries however many."""
    nights = numbered(Night.objects.filter(club=club)).order_by("-date", "-id").prefetch_related("present")[:newest]
    return [
        NightShown(night, tables, night_results(night, tables), {m.pk for m in night.present.all()})
        for night, tables in nights_tables(nights)
    ]


def club_nights_listed(*, club: Club, skip: int, most: int) -> tuple[list[Night], bool]:
    """After the newest ``skip`` nights, the next ``most`` (their date and state only), newest
    first, and whether older ones follow: one query."""
    listed = numbered(Night.objects.filter(club=club).only("id", "club_id", "date", "status"))
    rows = list(listed.order_by("-date", "-id")[skip : skip + most + 1])
    return rows[:most], len(rows) > most


def still_entering(states: list[TableState]) -> dict[str, list[str]]:
    """For each table whose round is being entered hand by hand (a round in progress), the
    players whose hand is not in yet (the one who went out aside), by game id: two queries."""
    playing = {s.table.game_id: s for s in states if not s.finished}
    drafts = {
        d.pk: d
        for d in Draft.objects.filter(game_id__in=list(playing)).only("id", "game_id", "number", "winner_id")
        if d.number == playing[d.game_id].played + 1
    }
    done = set(DraftHand.objects.filter(draft_id__in=list(drafts), done=True).values_list("draft_id", "player_id"))
    found = {}
    for draft in drafts.values():
        players = [row.player for row in sorted(playing[draft.game_id].standings, key=lambda r: r.player.seat)]
        found[draft.game_id] = [p.name for p in players if p.pk != draft.winner_id and (draft.pk, p.pk) not in done]
    return found


def _seats(state: TableState) -> list[Seat]:
    """A finished (or ended) table's players with their places and totals, by member name."""
    by_seat = {row.player.seat: row for row in state.standings}
    return [Seat(m.name, by_seat[i].place, by_seat[i].total) for i, m in enumerate(state.members)]


def night_results(night: Night, tables: dict[int, list[TableState]] | None = None) -> list[Standing]:
    """The night's standings so far: every finished or ended table of every sitting (``tables``:
    ``night_tables(night)`` where the caller has it already)."""
    states = night_tables(night) if tables is None else tables
    finished = [_seats(s) for sitting in states.values() for s in sitting if s.finished]
    return night_standings(finished, night.scoring, lowest_wins=rules_for(night.ruleset, night.variants).lowest_wins)


@dataclass(frozen=True)
class NightTold:
    """A night told as its results: the standings, the scoring in words, each player's own night
    (``Sat`` per finished table), the best moments, and where each game was played."""

    standings: list[Standing]
    scoring: list[str]
    lines: dict[str, list[Sat]]
    moments: list[Moment]
    where: dict[str, tuple[int, int]]  # a game's id -> its sitting and table number


def night_told(night: Night, tables: dict[int, list[TableState]]) -> NightTold:
    """``night``'s results so far from its tables (``night_tables``): the standings and lines of
    every finished table, the moments of its finished games (three queries more)."""
    lowest_wins = rules_for(night.ruleset, night.variants).lowest_wins
    done = [(n, s) for n, sitting in sorted(tables.items()) for s in sitting if s.finished]
    lines = night_lines([(n, s.table.number, _seats(s)) for n, s in done], lowest_wins=lowest_wins)
    date = night.date.isoformat()
    games = [
        Table(
            s.table.game_id,
            night.ruleset,
            tuple(night.variants),
            date,
            tuple(m.name for m in s.members),
            order=(date, night.pk, n, s.table.number),
        )
        for n, s in done
        if not s.ended
    ]
    return NightTold(
        night_results(night, tables),
        scoring_words(night.scoring, sorted({len(s.members) for _n, s in done})),
        lines,
        moments(folded(games)) if games else [],
        {s.table.game_id: (n, s.table.number) for n, sitting in tables.items() for s in sitting},
    )


def night_running(night: Night, tables: dict[int, list[TableState]]) -> list[Running]:
    """While no table of the night has finished: the players of the latest sitting's tables that
    have played a round, ranked across the room by their games' totals so far as the night's
    ruleset ranks a table (``running_totals``); a table not started yet joins with its first round."""
    if not tables:
        return []
    players = []
    for state in tables[max(tables)]:
        if state.finished or not state.played:
            continue
        by_seat = {row.player.seat: row for row in state.standings}
        for seat, member in enumerate(state.members):
            row = by_seat[seat]
            players.append(Running(member.name, state.table.number, row.total, row.round_wins))
    return running_totals(players, rules_for(night.ruleset, night.variants))


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
    for night, tables in nights_tables(nights.order_by("date", "pk")):
        rows = night_results(night, tables)
        if rows:
            figures.append({row.player: row.exact for row in rows})
    return season_standings(figures, best=best, minimum=minimum)
