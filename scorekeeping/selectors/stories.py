"""The players' stories as the engine tells them (``referee.engine.stories``), from the rows: a
club's games with its members as the players (a renamed member keeps their story), or a home
server's games (those in no club) with names compared as names are (NFC, case folded), shown as
most recently written. At most the newest ``GAMES_IN_RECORDS`` games are read."""

from __future__ import annotations

from referee.engine.stories import PlayedGame, PlayedRound, Profile, profile
from referee.engine.words import name_key
from scorekeeping.errors import NotFound
from scorekeeping.models import Club, ClubTable, Game, Member, Night, Player
from scorekeeping.selectors import GAMES_IN_RECORDS, _newest, game_standings, games_with_everything, linked


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
    return PlayedGame(game.pk, game.ruleset, when, tuple(seated), rounds, places, standings.finished)


def club_games(club: Club) -> list[PlayedGame]:
    """The club's tables' games, newest nights first, each player the member drawn to that seat."""
    tables = list(
        ClubTable.objects.filter(sitting__night__club=club)
        .select_related("sitting__night")
        .order_by("-sitting__night__date", "-sitting__night_id", "-sitting__number", "number")[:GAMES_IN_RECORDS]
    )
    names = dict(club.members.values_list("id", "name"))
    games = {g.pk: linked(g) for g in games_with_everything().filter(pk__in=[t.game_id for t in tables])}
    return [played(games[t.game_id], [names[pk] for pk in t.members], t.sitting.night.date.isoformat()) for t in tables]


def server_games(ids: list[str] | None = None) -> list[PlayedGame]:
    """The server's games in no club (or only those of ``ids``), newest first, a player a name."""
    games = [linked(g) for g in _newest(GAMES_IN_RECORDS, ids)]
    spelled: dict[str, str] = {}  # a name as compared -> as most recently written
    for game in games:
        for player in game.players.all():
            spelled.setdefault(name_key(player.name), player.name)
    return [played(g, [spelled[name_key(p.name)] for p in g.players.all()]) for g in games]


def known_name(games: list[PlayedGame], name: str) -> str | None:
    """``name`` as the games write it (compared as names are), if anyone of them is called so."""
    key = name_key(name)
    return next((p for g in games for p in g.players if name_key(p) == key), None)


def member_story(club: Club, name: str) -> Profile:
    """A club member's profile (``NotFound`` for no member of that name, retired ones included)."""
    member = Member.objects.filter(club=club, key=name_key(name)).first()
    if member is None:
        raise NotFound(f"{name[:40]} is no member of this club", "name")
    return profile(member.name, club_games(club))


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
