"""Games as the engine's stories read them (``stories.PlayedGame``), from the rows: one game
with its rows loaded (``played``), or many in three queries of plain values (``folded``)."""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine import Rules
from referee.engine.stories import PlayedGame, PlayedRound
from referee.engine.words import name_key
from referee.rulebook import rules_for
from scorekeeping.models import Game, Player, Round, Score
from scorekeeping.selectors import game_standings, placed
from scorekeeping.selectors.seated import SeatedPlayer


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
