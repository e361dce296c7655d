"""The players' stories as the engine tells them (``referee.engine.stories``), from the rows: a
club's games with its members as the players (a renamed member keeps their story), or a home
server's games (those in no club) with names compared as names are (NFC, case folded), shown as
most recently written. At most the newest ``GAMES_IN_RECORDS`` games are read.

Folding those games costs far more than a page should (hundreds of games, their rounds and
scores), so what is folded is kept in this process's cache for the version of what it read
(``Stories.version``): for this server's games (or a phone's), how many there are, the sum of
their versions (every change moves one up) and the newest's time; for a club, the same of its
tables' games and its members' names. The version is read from the database on every request
(one cheap query), so a process may hold a page's figures but never the truth: a change
anywhere, on any process, is a new version, folded again when next asked. Each kind of figure
has one slot per scope (the server, a phone's games, a club), overwritten by the next version,
so the cache holds no more than the scopes asked for.

A name nobody played under is refused before any game is read: a club's members are one
indexed query; this server's names are those of the newest games' players (one query, kept for
the version too)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet, Sum

from referee.engine import DEFAULT_RULESET, Rules
from referee.engine.ladder import Ladder, ladder, most_played
from referee.engine.stories import PlayedGame, PlayedRound, PlayerLine, Profile, Record, player_lines, profile, records
from referee.engine.words import name_key
from referee.rulebook import rules_for
from scorekeeping.errors import NotFound
from scorekeeping.models import Change, Club, ClubTable, Game, Member, Night, Player, Round, Score
from scorekeeping.selectors import GAMES_IN_RECORDS, game_standings, placed
from scorekeeping.selectors.seated import SeatedPlayer

KEPT_SECONDS = 3600  # how long a process keeps a version's figures unasked (a new version replaces them)
T = TypeVar("T")


def played(game: Game, names: list[str] | None = None, date: str | None = None) -> PlayedGame:
    """A game (its players, rounds and scores loaded) as the engine reads it; ``names``: who sits
    in each seat (a club's members), else the players' names as written."""
    players = list(game.players.all())
    seated = names or [p.name for p in players]
    by_id = {p.pk: seated[p.seat] for p in players}
    standings = game_standings(game=game)
    rounds = tuple(
        PlayedRound(
            rnd.number,
            by_id[rnd.winner_id] if rnd.winner_id is not None else None,
            {by_id[s.player_id]: s.points for s in rnd.scores.all()},
        )
        for rnd in game.rounds.all()
    )
    places = {by_id[row.player.pk]: row.place for row in standings.rows}
    when = date or game.created_at.date().isoformat()
    return PlayedGame(
        game.pk,
        game.ruleset,
        when,
        tuple(seated),
        rounds,
        places,
        standings.finished,
        lowest_wins=game.rules.lowest_wins,
    )


@dataclass(frozen=True)
class Table:
    """A game to fold, as its rows say: its id, rules, date and, for a club's table, who sits in
    each seat (the members' names); a server's game names its players itself."""

    game: str
    ruleset: str
    variants: tuple[str, ...]
    date: str
    names: tuple[str, ...] | None = None
    order: tuple[str, int, int, int] | None = None  # when it was played (``PlayedGame.order``)


def folded(tables: list[Table], spelled: dict[str, str] | None = None) -> list[PlayedGame]:
    """The games of ``tables``, in that order, as the engine reads them (as ``played`` does one
    game), in three queries of plain values: the players, the rounds, the scores. ``spelled``: a
    name as compared -> as shown (a server's players)."""
    ids = [t.game for t in tables]
    seated: dict[str, list[SeatedPlayer]] = {g: [] for g in ids}
    for pk, game_id, seat, name in Player.objects.filter(game_id__in=ids).values_list("id", "game_id", "seat", "name"):
        seated[game_id].append(SeatedPlayer(pk, seat, name))
    rounds: dict[str, list[tuple[int, int, int | None]]] = {g: [] for g in ids}
    for pk, game_id, number, winner in Round.objects.filter(game_id__in=ids).values_list(
        "id", "game_id", "number", "winner_id"
    ):
        rounds[game_id].append((pk, number, winner))
    points: dict[int, dict[int, int]] = {}
    for round_id, player_id, value in Score.objects.filter(round__game_id__in=ids).values_list(
        "round_id", "player_id", "points"
    ):
        points.setdefault(round_id, {})[player_id] = value
    rules: dict[tuple[str, tuple[str, ...]], Rules] = {}
    found = []
    for table in tables:
        players = sorted(seated[table.game], key=lambda p: p.seat)
        names = table.names or tuple((spelled or {}).get(name_key(p.name), p.name) for p in players)
        by_id = {p.pk: names[p.seat] for p in players}
        totals = dict.fromkeys(by_id, 0)
        wins = dict.fromkeys(by_id, 0)
        played_rounds = []
        for row, at, out in sorted(rounds[table.game], key=lambda r: r[1]):
            scored = points.get(row, {})
            for someone, penalty in scored.items():
                totals[someone] += penalty
            if out is not None:
                wins[out] += 1
            in_seats = {by_id[p.pk]: scored[p.pk] for p in players if p.pk in scored}
            played_rounds.append(PlayedRound(at, by_id[out] if out is not None else None, in_seats))
        ruled = rules.get((table.ruleset, table.variants))
        if ruled is None:
            ruled = rules[(table.ruleset, table.variants)] = rules_for(table.ruleset, table.variants)
        places = {by_id[row.player.pk]: row.place for row in placed(players, ruled, totals, wins)}
        finished = len(played_rounds) >= ruled.last_round
        seats = tuple(names[p.seat] for p in players)
        found.append(
            PlayedGame(
                table.game,
                table.ruleset,
                table.date,
                seats,
                tuple(played_rounds),
                places,
                finished,
                table.order,
                lowest_wins=ruled.lowest_wins,
            )
        )
    return found


def _kept(slot: str, version: tuple[object, ...], make: Callable[[], T]) -> T:
    """``slot``'s value for ``version``: the one this process keeps, or made now and kept."""
    held = cache.get(slot)
    if held is not None and held[0] == version:
        value: T = held[1]
        return value
    value = make()
    cache.set(slot, (version, value), KEPT_SECONDS)
    return value


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass
class Stories:
    """The stories of one scope at its version: ``slot`` names the scope in the cache; ``fold``
    reads its games (the expensive part, done only when a figure is not kept)."""

    slot: str
    version: tuple[object, ...]
    fold: Callable[[], list[PlayedGame]]
    _games: list[PlayedGame] | None = field(default=None, repr=False)

    def games(self) -> list[PlayedGame]:
        if self._games is None:
            self._games = _kept(f"{self.slot}:games", self.version, self.fold)
        return self._games

    def records(self) -> list[Record]:
        return _kept(f"{self.slot}:records", self.version, lambda: records(self.games()))

    def ladder(self, ruleset: str | None = None) -> Ladder:
        """The ladder of ``ruleset`` (a known slug; None: the ruleset played most, else the default),
        rated once per version of the games, as the records are."""
        main = _kept(f"{self.slot}:main", self.version, lambda: most_played(self.games()))
        chosen = ruleset or main or DEFAULT_RULESET
        return _kept(f"{self.slot}:ladder:{chosen}", self.version, lambda: ladder(self.games(), chosen))

    def profile_of(self, name: str) -> Profile:
        """``name``'s profile (written as the games write it: the caller has found it there)."""
        slot = f"{self.slot}:profile:{_digest(name_key(name))}"
        return _kept(slot, self.version, lambda: profile(name, self.games()))


def _version(games: QuerySet[Game], *more: object) -> tuple[object, ...]:
    """What a scope's figures were folded from, in one query: how many games, the sum of their
    versions (any change moves it), the newest game's time (a game made as another goes)."""
    found = games.aggregate(n=Count("pk"), versions=Sum("version"), newest=Max("created_at"))
    newest = found["newest"].isoformat() if found["newest"] else ""
    return (found["n"], found["versions"] or 0, newest, *more)


class ServerStories:
    """This server's games in no club (or only those of ``ids``: a phone's, with ``PRIVATE_LISTS``),
    newest first, a player a name: at most the newest ``GAMES_IN_RECORDS``."""

    def __init__(self, ids: list[str] | None = None) -> None:
        self.ids = ids
        games = Game.objects.filter(club_table__isnull=True)
        self.games = games if ids is None else games.filter(pk__in=ids)
        self.slot = "stories:server" if ids is None else f"stories:phone:{_digest(','.join(sorted(ids)))}"

    @cached_property
    def stories(self) -> Stories:
        return Stories(self.slot, _version(self.games), self._fold)

    def _newest(self) -> QuerySet[Game]:
        return self.games.order_by("-created_at")[:GAMES_IN_RECORDS]

    def spelled(self) -> dict[str, str]:
        """Every name of the newest games, as compared -> as most recently written (one query)."""

        def read() -> dict[str, str]:
            found: dict[str, str] = {}
            rows = Player.objects.filter(game__in=self._newest().values("pk")).order_by("-game__created_at", "seat")
            for name in rows.values_list("name", flat=True):
                found.setdefault(name_key(name), name)
            return found

        return _kept(f"{self.slot}:names", self.stories.version, read)

    def _fold(self) -> list[PlayedGame]:
        # A server's games in the order they finished: when their last round was first recorded
        # (the newest "record" in their history; a correction or an undo later moves nothing).
        finished = Max("changes__at", filter=Q(changes__action=Change.Action.RECORD))
        newest = self.games.order_by("-created_at").annotate(finished=finished)[:GAMES_IN_RECORDS]
        tables = [
            Table(pk, ruleset, tuple(variants), at.date().isoformat(), order=((done or at).isoformat(), 0, 0, 0))
            for pk, ruleset, variants, at, done in newest.values_list(
                "pk", "ruleset", "variants", "created_at", "finished"
            )
        ]
        return folded(tables, self.spelled())

    def records(self) -> list[Record]:
        return self.stories.records()

    def profile(self, name: str) -> Profile:
        """The profile of ``name`` (compared as names are); ``NotFound`` if nobody played so."""
        known = self.spelled().get(name_key(name))
        if known is None:
            raise NotFound(f"nobody called {name[:40]} played here", "name")
        return self.stories.profile_of(known)

    def ladder(self, ruleset: str | None = None) -> Ladder:
        return self.stories.ladder(ruleset)

    def colour(self, name: str) -> str:
        """The colour ``name`` (as the games write it) had in the newest game they played: one query,
        kept for the version as the rest."""

        def read() -> str:
            rows = Player.objects.filter(game__in=self._newest().values("pk"), name=name).order_by("-game__created_at")
            return rows.values_list("colour", flat=True).first() or ""

        return _kept(f"{self.slot}:colour:{_digest(name_key(name))}", self.stories.version, read)

    def player_lines(self) -> list[PlayerLine]:
        """The players' list (``stories.player_lines``: the profile's figures), kept for the version."""
        return _kept(f"{self.slot}:players", self.stories.version, lambda: player_lines(self.stories.games()))


def server_stories(ids: list[str] | None = None) -> ServerStories:
    return ServerStories(ids)


class ClubStories:
    """A club's tables' games, newest nights first (at most ``GAMES_IN_RECORDS``), each player
    the member drawn to that seat, shown by the member's current name."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.members = list(Member.objects.filter(club=club).values_list("id", "name", "key"))

    @cached_property
    def stories(self) -> Stories:
        games = Game.objects.filter(club_table__sitting__night__club=self.club)
        names = _digest(repr(sorted((pk, name) for pk, name, _key in self.members)))
        return Stories(f"stories:club:{self.club.pk}", _version(games, names), self._fold)

    def _fold(self) -> list[PlayedGame]:
        names = {pk: name for pk, name, _key in self.members}
        rows = (
            ClubTable.objects.filter(sitting__night__club=self.club)
            .order_by("-sitting__night__date", "-sitting__night_id", "-sitting__number", "number")
            .values_list(
                "game_id",
                "members",
                "sitting__night__date",
                "game__ruleset",
                "game__variants",
                "sitting__night_id",
                "sitting__number",
                "number",
            )
        )[:GAMES_IN_RECORDS]
        tables = [
            Table(
                game,
                ruleset,
                tuple(variants),
                date.isoformat(),
                tuple(names[pk] for pk in members),
                order=(date.isoformat(), night, sitting, number),  # the night, its sitting, the table
            )
            for game, members, date, ruleset, variants, night, sitting, number in rows
        ]
        return folded(tables)

    def records(self) -> list[Record]:
        return self.stories.records()

    def profile(self, name: str) -> Profile:
        """A member's profile (``NotFound`` for no member of that name, retired ones included)."""
        key = name_key(name)
        member = next((shown for _pk, shown, kept in self.members if kept == key), None)
        if member is None:
            raise NotFound(f"{name[:40]} is no member of this club", "name")
        return self.stories.profile_of(member)

    def ladder(self, ruleset: str | None = None) -> Ladder:
        return self.stories.ladder(ruleset)

    def colour(self, name: str) -> str:
        """The member's own colour (what their tables start from): one query, not kept (a member's
        colour changes no game)."""
        found = Member.objects.filter(club=self.club, key=name_key(name)).values_list("colour", flat=True).first()
        return found or ""


def club_stories(club: Club) -> ClubStories:
    return ClubStories(club)


def names_known(game_ids: list[str], night_ids: list[int]) -> list[str]:
    """The names a phone has played with (its games' players) and the members of the clubs whose
    nights it played, to offer when a game is started: each once, as compared, in order of name."""
    names = list(Player.objects.filter(game_id__in=game_ids[:30]).values_list("name", flat=True))
    clubs = Night.objects.filter(pk__in=night_ids[:30]).values_list("club_id", flat=True)
    names += Member.objects.filter(club_id__in=clubs, active=True).values_list("name", flat=True)[:500]
    found: dict[str, str] = {}
    for name in names:
        found.setdefault(name_key(name), name)
    return sorted(found.values(), key=name_key)
