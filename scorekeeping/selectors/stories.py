"""The players' stories as the engine tells them (``referee.engine.stories``, ``history``,
``ladder``), over every finished game a club or this server ever played.

Each finished game leaves a line per player in the database (``models.StoryLine``), written in
the transaction of the change that finished, corrected or undid it (``services.history``): the
pages read those lines with a few indexed queries, and a change costs what it touches. Nothing
is held by a process: every server process reads the same rows.

- **A club**: its tables' games, each player the member drawn to that seat, shown by the
  member's current name (a renamed member keeps their story).
- **This server**: the games in no club, a player a name as compared (white space folded, NFC,
  case folded), shown as most recently written.
- **A phone's own games** (``PRIVATE_LISTS``: at most the phone's 30 games): folded from their
  rows at each request, by the same engine functions.

A name nobody played under is refused before anything else is read (one indexed query)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import replace

from django.db.models import Count, Max, Min, QuerySet, Sum

from referee.engine import DEFAULT_RULESET
from referee.engine.history import RECORD_ORDER, Line, Meeting, Sums
from referee.engine.ladder import (
    HISTORY_SHOWN,
    Ladder,
    Standing,
    ladder,
    ladder_of,
    most_played,
    most_played_of,
    standings_of,
)
from referee.engine.stories import (
    RECORD_TITLES,
    ROLLING,
    ROLLING_SHOWN,
    PlayerLine,
    Profile,
    Record,
    lines_sorted,
    main_ruleset_of,
    player_line,
    player_lines,
    profile,
    profile_kept,
    records,
    records_from,
)
from referee.engine.words import name_key
from scorekeeping.errors import NotFound
from scorekeeping.models import Club, Game, Member, Night, Player, StoryLine, StoryPair, StorySums
from scorekeeping.selectors.folding import folded
from scorekeeping.selectors.lines import (
    COLUMNS,
    PAIRED,
    SERVER,
    brief_lines,
    club_scope,
    kept_games,
    line_of,
    sums_of_row,
)


class KeptStories(ABC):
    """The stories of one scope, read from its kept lines."""

    def __init__(self, scope: str) -> None:
        self.scope = scope

    def rows(self) -> QuerySet[StoryLine]:
        return StoryLine.objects.filter(scope=self.scope)

    # What a scope says of its players' names: a club's members, the server's names as compared.
    @abstractmethod
    def shown(self, keys: Iterable[str]) -> dict[str, str]: ...

    @abstractmethod
    def key_of(self, name: str) -> str | None: ...

    def _named(self, found: list[Line]) -> list[Line]:
        names = self.shown({line.player for line in found})
        return [replace(line, name=names.get(line.player, line.name)) for line in found]

    def records(self) -> list[Record]:
        """Each record per ruleset: the line first in the record's order (``RECORD_ORDER``), one
        indexed query a record."""
        rulesets = sorted(set(self.rows().order_by().values_list("ruleset", flat=True).distinct()))
        holders = []
        for ruleset in rulesets:
            for title in RECORD_TITLES:
                _needs, order = RECORD_ORDER[title]
                row = self.rows().filter(ruleset=ruleset).order_by(*order).values_list(*COLUMNS).first()
                if row is not None:
                    holders.append(line_of(row))
        return records_from(self._named(holders))

    def profile(self, name: str) -> Profile:
        """``name``'s profile; ``NotFound`` if nobody of that name played here."""
        key = self.key_of(name)
        sums = list(StorySums.objects.filter(scope=self.scope, player=key)) if key is not None else []
        if key is None or not sums:
            raise NotFound(f"nobody called {name[:40]} played here", "name")
        return self._profile(key, sums)

    def _profile(self, key: str, rows: list[StorySums]) -> Profile:
        """The profile of the player ``key`` from what is kept of them: their sums (``rows``), the
        latest totals of their main ruleset, their pairs. Three queries of a row a ruleset, an
        opponent and one of the latest games: the same with ten games or ten thousand."""
        sums = {row.ruleset: sums_of_row(row) for row in rows}
        main = main_ruleset_of(sums)
        theirs = self.rows().filter(player=key, ruleset=main).order_by("-position")
        recent = list(theirs.values_list("total", flat=True)[: ROLLING_SHOWN + ROLLING - 1])[::-1]
        pairs = StoryPair.objects.filter(scope=self.scope, player=key).values_list("opponent", *PAIRED)
        met = {opponent: Meeting(*figures) for opponent, *figures in pairs}
        names = self.shown([key, *met])
        shown = names.get(key) or max(rows, key=lambda row: row.position).name
        meetings = {names.get(opponent, opponent): m for opponent, m in met.items()}
        return profile_kept(shown, sums, meetings, recent)

    def main_ruleset(self) -> str | None:
        counts = self.rows().filter(seat=0).order_by().values("ruleset").annotate(n=Count("id"))
        return most_played_of({row["ruleset"]: row["n"] for row in counts})

    def ladder(self, ruleset: str | None = None, history_of: str | None = None) -> Ladder:
        """The ladder of ``ruleset`` (a known slug; None: the ruleset played most, else the
        default): each player's latest rating with their rated games and wins (two queries), and
        ``history_of``'s rating after each of their rated games."""
        chosen = ruleset or self.main_ruleset() or DEFAULT_RULESET
        rated = self.rows().filter(ruleset=chosen, mu__isnull=False)
        sums = list(
            StorySums.objects.filter(scope=self.scope, ruleset=chosen, rated__gt=0).values_list(
                "player", "mu", "sigma", "rated", "rated_wins"
            )
        )
        names = self.shown(player for player, *_rest in sums)
        # A player whose sums went between the two reads (their only game undone) waits for the next read.
        standings = [
            Standing(names[player], mu or 0.0, sigma or 0.0, games, wins)
            for player, mu, sigma, games, wins in sums
            if player in names
        ]
        history = {}
        key = self.key_of(history_of) if history_of is not None else None
        if key is not None:
            latest = rated.filter(player=key).order_by("-position")[:HISTORY_SHOWN]  # all the ladder tells
            mine = self._named(brief_lines(latest)[::-1])
            history = standings_of(mine, chosen)[1]
        return ladder_of(chosen, standings, history)

    def player_lines(self) -> list[PlayerLine]:
        """Every player's line: their sums of every ruleset added up, one query of a row a player
        and ruleset."""
        sums = (
            StorySums.objects.filter(scope=self.scope)
            .order_by()
            .values("player")
            .annotate(
                games=Sum("games"),
                wins=Sum("wins"),
                rounds=Sum("rounds"),
                out=Sum("out"),
                points=Sum("points"),
                low=Min("low"),
                high=Max("high"),
            )
        )
        rows = list(sums)
        names = self.shown(row["player"] for row in rows)
        return lines_sorted(
            [
                player_line(
                    names[row["player"]],
                    Sums(row["games"], row["wins"], row["rounds"], row["out"], row["points"], row["low"], row["high"]),
                )
                for row in rows
                if row["player"] in names  # as in the ladder: sums gone between the two reads
            ]
        )


class ServerStories(KeptStories):
    """This server's games in no club, a player a name as compared, shown as most recently written."""

    def __init__(self) -> None:
        super().__init__(SERVER)

    def shown(self, keys: Iterable[str]) -> dict[str, str]:
        """Each key's name as written in their latest finished game (one query of their sums)."""
        wanted = list(set(keys))
        sums = StorySums.objects.filter(scope=self.scope)
        if len(wanted) <= 500:
            sums = sums.filter(player__in=wanted)
        latest: dict[str, tuple[str, str]] = {}
        for player, position, name in sums.values_list("player", "position", "name"):
            if player not in latest or position > latest[player][0]:
                latest[player] = (position, name)
        return {player: name for player, (_position, name) in latest.items()}

    def key_of(self, name: str) -> str | None:
        return name_key(name)

    def colour(self, name: str) -> str:
        """The colour ``name`` had in the newest game they played (one query)."""
        newest = self.rows().filter(player=name_key(name)).order_by("-position").values_list("game_id", "seat").first()
        if newest is None:
            return ""
        found = Player.objects.filter(game_id=newest[0], seat=newest[1]).values_list("colour", flat=True).first()
        return found or ""


class ClubStories(KeptStories):
    """A club's tables' games, each player the member drawn to that seat, shown by their current name."""

    def __init__(self, club: Club) -> None:
        super().__init__(club_scope(club.pk))
        self.club = club
        self.members = list(Member.objects.filter(club=club).values_list("id", "name", "key", "colour"))

    def shown(self, keys: Iterable[str]) -> dict[str, str]:
        return {str(pk): name for pk, name, _key, _colour in self.members}

    def key_of(self, name: str) -> str | None:
        key = name_key(name)
        return next((str(pk) for pk, _shown, kept, _colour in self.members if kept == key), None)

    def profile(self, name: str) -> Profile:
        """A member's profile (``NotFound`` for no member of that name, retired ones included; a
        member without a finished game has an empty one)."""
        key = self.key_of(name)
        if key is None:
            raise NotFound(f"{name[:40]} is no member of this club", "name")
        return self._profile(key, list(StorySums.objects.filter(scope=self.scope, player=key)))

    def colour(self, name: str) -> str:
        """The member's own colour (what their tables start from)."""
        key = name_key(name)
        return next((colour for _pk, _n, kept, colour in self.members if kept == key), "")


class PhoneStories:
    """A phone's own games (at most its 30; ``PRIVATE_LISTS``), folded from their rows at each
    request by the engine's functions, players as names are on the server."""

    def __init__(self, ids: list[str]) -> None:
        kept = kept_games(Game.objects.filter(pk__in=ids[:30], club_table__isnull=True).values_list("pk", flat=True))
        newest = sorted(kept, key=lambda k: k.table.order or (k.table.date, 0, 0, 0), reverse=True)
        order = {k.table.game: i for i, k in enumerate(newest)}
        self.spelled: dict[str, str] = {}  # a name as compared -> as most recently written
        rows = Player.objects.filter(game_id__in=list(order)).values_list("game_id", "seat", "name")
        for _game, _seat, name in sorted(rows, key=lambda r: (order[r[0]], r[1])):
            self.spelled.setdefault(name_key(name), name)
        self.games = folded([k.table for k in kept], self.spelled)

    def records(self) -> list[Record]:
        return records(self.games)

    def profile(self, name: str) -> Profile:
        known = self.spelled.get(name_key(name))
        if known is None:
            raise NotFound(f"nobody called {name[:40]} played here", "name")
        return profile(known, self.games)

    def ladder(self, ruleset: str | None = None, history_of: str | None = None) -> Ladder:
        return ladder(self.games, ruleset or most_played(self.games) or DEFAULT_RULESET)

    def colour(self, name: str) -> str:
        ids = [g.game for g in self.games]
        rows = Player.objects.filter(game_id__in=ids, name=name).order_by("-game__created_at")
        return rows.values_list("colour", flat=True).first() or ""

    def player_lines(self) -> list[PlayerLine]:
        return player_lines(self.games)


def server_stories(ids: list[str] | None = None) -> ServerStories | PhoneStories:
    return ServerStories() if ids is None else PhoneStories(ids)


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
