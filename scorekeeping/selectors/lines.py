"""The kept story lines (``models.StoryLine``) as the engine reads them (``history.Line``), and a
game as its lines are made: its scope (a club's, or the server's), its place in the played order
and who each player is there."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Max, Q, QuerySet

from referee.engine.history import Line, Sums
from referee.engine.words import name_key
from scorekeeping.models import Change, ClubTable, Game, Member, Player, StoryLine, StorySums
from scorekeeping.selectors.folding import Table

SERVER = "server"
WHEN = "%Y-%m-%dT%H:%M:%S.%f"  # a server game's place in the played order: when it finished, UTC, one width
COLUMNS = (
    "game_id",
    "position",
    "player",
    "name",
    "date",
    "ruleset",
    "seat",
    "place",
    "total",
    "rounds",
    "out",
    "high",
    "high_at",
    "low",
    "comeback",
    "comeback_at",
    "players",
    "streak",
    "ruleset_streak",
    "mu",
    "sigma",
)


def club_scope(club_id: str) -> str:
    return f"club:{club_id}"


def line_of(row: tuple[Any, ...]) -> Line:
    """A row of ``COLUMNS`` as the engine's line."""
    values = dict(zip(COLUMNS, row, strict=True))
    values["game"] = values.pop("game_id")
    values["rounds"] = tuple((int(n), int(p)) for n, p in values["rounds"])
    return Line(**values)


def lines(rows: QuerySet[StoryLine]) -> list[Line]:
    return [line_of(row) for row in rows.values_list(*COLUMNS)]


BRIEF = ("game_id", "position", "player", "name", "date", "ruleset", "seat", "place", "total", "mu", "sigma")


def brief_lines(rows: QuerySet[StoryLine]) -> list[Line]:
    """The lines as a profile reads its opponents' (head to head: the place and the total) and a
    rating's history (the rating after each game): their rounds left out, the cost of a profile
    being those lines."""
    return [
        Line(
            game, position, player, name, date, ruleset, seat, place, total, (), 0, 0, 0, 0, 0, 0, 0, mu=mu, sigma=sigma
        )
        for game, position, player, name, date, ruleset, seat, place, total, mu, sigma in rows.values_list(*BRIEF)
    ]


PAIRED = ("games", "ahead", "behind", "difference")  # a StoryPair's figures: a history.Meeting's
SUMS = ("games", "wins", "rounds", "out", "points", "low", "high", "total_low", "total_high", "streak")


def sums_of_row(row: StorySums) -> Sums:
    """A ``StorySums`` row as the engine sums lines (``history.Sums``)."""
    figures = {name: getattr(row, name) for name in SUMS}
    return Sums(**figures, by_round=tuple((n, played, summed) for n, played, summed in row.by_round))


def row_of(line: Line, scope: str) -> StoryLine:
    """A new row for ``line`` in ``scope``."""
    return StoryLine(
        scope=scope,
        game_id=line.game,
        position=line.position,
        player=line.player,
        name=line.name,
        date=line.date,
        ruleset=line.ruleset,
        seat=line.seat,
        place=line.place,
        won=int(line.won),
        total=line.total,
        rounds=[list(r) for r in line.rounds],
        round_count=len(line.rounds),
        out=line.out,
        high=line.high,
        high_at=line.high_at,
        low=line.low,
        comeback=line.comeback,
        comeback_at=line.comeback_at,
        players=line.players,
        streak=line.streak,
        ruleset_streak=line.ruleset_streak,
        mu=line.mu,
        sigma=line.sigma,
    )


@dataclass(frozen=True)
class Kept:
    """A game as its lines are made: the scope, the game to fold (``Table``), each player's key by name."""

    scope: str
    table: Table
    keys: dict[str, str]


def server_when(finished: dt.datetime | None, created: dt.datetime) -> str:
    return (finished or created).astimezone(dt.UTC).strftime(WHEN)


def kept_games(game_ids: Iterable[str]) -> list[Kept]:
    """``game_ids`` as their lines are made, in five queries however many: a club's table with
    its members as the players (by id) in the night's order, a server's game with its names as
    compared, in the order the games finished (their last round first recorded)."""
    ids = list(game_ids)
    found: dict[str, Kept] = {}
    rows = ClubTable.objects.filter(game_id__in=ids).values_list(
        "game_id",
        "members",
        "sitting__night__club_id",
        "sitting__night__date",
        "sitting__night_id",
        "sitting__number",
        "number",
        "game__ruleset",
        "game__variants",
    )
    tables = list(rows)
    members = Member.objects.filter(pk__in={pk for row in tables for pk in row[1]}).values_list("id", "name")
    names = dict(members)
    for game, seats, club, date, night, sitting, number, ruleset, variants in tables:
        seated = tuple(names[pk] for pk in seats)
        day = date.isoformat()
        table = Table(game, ruleset, tuple(variants), day, seated, order=(day, night, sitting, number))
        found[game] = Kept(club_scope(club), table, {name: str(pk) for name, pk in zip(seated, seats, strict=True)})
    rest = [g for g in ids if g not in found]
    if rest:
        finished = Max("changes__at", filter=Q(changes__action=Change.Action.RECORD))
        games = Game.objects.filter(pk__in=rest).annotate(finished=finished)
        players: dict[str, list[str]] = {g: [] for g in rest}
        for game_id, name in Player.objects.filter(game_id__in=rest).order_by("seat").values_list("game_id", "name"):
            players[game_id].append(name)
        for pk, ruleset, variants, created, done in games.values_list(
            "pk", "ruleset", "variants", "created_at", "finished"
        ):
            when = server_when(done, created)
            table = Table(pk, ruleset, tuple(variants), created.date().isoformat(), order=(when, 0, 0, 0))
            found[pk] = Kept(SERVER, table, {name: name_key(name) for name in players[pk]})
    return [found[g] for g in ids if g in found]
