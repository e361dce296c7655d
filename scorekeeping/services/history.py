"""The stories kept as the games finish (``models.StoryLine``, ``referee.engine.history``).

``game_kept`` runs in the transaction of every change to a game's rounds (``log_change``), the
game locked: a round of a game in progress costs two small queries and changes nothing; a game
that finishes writes its lines and carries the streaks and ratings on from what stood before it
(one ``rate()``); a game corrected, undone, or finished or imported into the past is carried
again from its place in the played order on, never from the start. ``game_delete`` does the
same for games deleted (``game_delete``). ``rebuilt`` makes every line again from the games and says where the kept
ones differ (``manage.py stories --rebuild``)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from typing import Any

from django.db import transaction
from django.db.models import Max, Min, QuerySet

from referee.engine.history import CARRIED_FIELDS, Carry, Line, Sums, carry, meetings_of
from referee.engine.stories import lines_of
from scorekeeping.models import Change, Game, Round, Score, StoryLine, StoryPair, StorySums
from scorekeeping.selectors.folding import folded
from scorekeeping.selectors.lines import (
    COLUMNS,
    PAIRED,
    SUMS,
    Kept,
    brief_lines,
    kept_games,
    line_of,
    lines,
    row_of,
    sums_of_row,
)

log = logging.getLogger(__name__)


def _made(kept: list[Kept]) -> list[tuple[str, Line]]:
    """The lines of the finished games of ``kept`` (not yet carried), with their scopes."""
    games = folded([k.table for k in kept])
    found = []
    for k, game in zip(kept, games, strict=True):
        found += [(k.scope, line) for line in lines_of(game, k.keys)]
    return found


SUMMED = (
    "name",
    "position",
    "games",
    "wins",
    "rounds",
    "out",
    "points",
    "low",
    "high",
    "total_low",
    "total_high",
    "streak",
    "by_round",
    "rated",
    "rated_wins",
    "mu",
    "sigma",
)


def _sums_row(
    sums: Sums, last: Line, rated: int, rated_wins: int, rating: tuple[float | None, float | None]
) -> dict[str, Any]:
    """A ``StorySums`` row's figures: ``sums``, the name and position of the player's ``last``
    line, their rated games and wins, and their latest rating."""
    return {
        "name": last.name,
        "position": last.position,
        **{name: getattr(sums, name) for name in SUMS},
        "by_round": [list(entry) for entry in sums.by_round],
        "rated": rated,
        "rated_wins": rated_wins,
        "mu": rating[0],
        "sigma": rating[1],
    }


def sums_of(found: Iterable[Line]) -> dict[tuple[str, str], dict[str, Any]]:
    """Each player's lines of each ruleset summed, as ``StorySums`` keeps them (``found`` in played order)."""
    grouped: dict[tuple[str, str], list[Line]] = {}
    for line in found:
        grouped.setdefault((line.player, line.ruleset), []).append(line)
    made = {}
    for key, group in grouped.items():
        rated = [line for line in group if line.rated]
        rating = (rated[-1].mu, rated[-1].sigma) if rated else (None, None)
        made[key] = _sums_row(Sums.of(group), group[-1], len(rated), sum(1 for r in rated if r.won), rating)
    return made


def pairs_of(mine: Iterable[Line], games: Iterable[Line]) -> dict[tuple[str, str], dict[str, int]]:
    """Each (player, opponent) of the players of ``mine``: their meetings, as ``StoryPair`` keeps them."""
    return {key: asdict(met) for key, met in meetings_of(mine, games).items()}


def _summed(scope: str, players: Iterable[str]) -> None:
    """The sums and pairs of ``players`` in ``scope`` made again from their lines (a change not at
    the end of the played order)."""
    wanted = sorted(set(players))
    if not wanted:
        return
    StorySums.objects.filter(scope=scope, player__in=wanted).delete()
    StoryPair.objects.filter(scope=scope, player__in=wanted).delete()
    theirs = StoryLine.objects.filter(scope=scope, player__in=wanted)
    found = lines(theirs.order_by("position"))
    StorySums.objects.bulk_create(
        [StorySums(scope=scope, player=p, ruleset=r, **row) for (p, r), row in sums_of(found).items()],
        batch_size=500,
    )
    games = brief_lines(StoryLine.objects.filter(scope=scope, game_id__in=theirs.values("game_id")))
    StoryPair.objects.bulk_create(
        [StoryPair(scope=scope, player=p, opponent=o, **row) for (p, o), row in pairs_of(found, games).items()],
        batch_size=500,
    )


def _locked_sums(scope: str, new: list[Line]) -> dict[tuple[str, str], StorySums]:
    """The sums of ``new``'s players in every ruleset, locked (in one order: two games of shared
    players finishing at once take turns)."""
    players = sorted({line.player for line in new})
    rows = StorySums.objects.select_for_update().filter(scope=scope, player__in=players)
    return {(row.player, row.ruleset): row for row in rows.order_by("player", "ruleset")}


def _replaced(model: type[StorySums] | type[StoryPair], changed: list[Any], made: list[Any]) -> None:
    """Rows held locked written with their new figures, and new ones added: two statements
    (Django's ``bulk_update`` builds a CASE a field and row, and cost more than the rest of the
    keeping together)."""
    model.objects.filter(pk__in=[row.pk for row in changed]).delete()
    for row in changed:
        row.pk = None
    model.objects.bulk_create([*changed, *made])


def _added(scope: str, new: list[Line], held: dict[tuple[str, str], StorySums]) -> None:
    """A game finished last: each of its lines added to its player's sums (``held``, locked), and
    each pair of its players' meetings to their pair: a few queries, however long the history."""
    changed, made = [], []
    for line in new:
        row = held.get((line.player, line.ruleset))
        if row is None:
            made.append(
                StorySums(
                    scope=scope,
                    player=line.player,
                    ruleset=line.ruleset,
                    **sums_of([line])[(line.player, line.ruleset)],
                )
            )
            continue
        rating = (line.mu, line.sigma) if line.rated else (row.mu, row.sigma)
        figures = _sums_row(
            sums_of_row(row).plus(line),
            line,
            row.rated + int(line.rated),
            row.rated_wins + int(line.rated and line.won),
            rating,
        )
        for name, value in figures.items():
            setattr(row, name, value)
        changed.append(row)
    _replaced(StorySums, changed, made)
    players = sorted({line.player for line in new})
    pairs = StoryPair.objects.select_for_update().filter(scope=scope, player__in=players, opponent__in=players)
    kept = {(pair.player, pair.opponent): pair for pair in pairs.order_by("player", "opponent")}
    grown, met = [], []
    for (player, opponent), meeting in meetings_of(new, new).items():
        pair = kept.get((player, opponent))
        if pair is None:
            met.append(StoryPair(scope=scope, player=player, opponent=opponent, **asdict(meeting)))
            continue
        for name in PAIRED:
            setattr(pair, name, getattr(pair, name) + getattr(meeting, name))
        grown.append(pair)
    _replaced(StoryPair, grown, met)


def _same(old: list[Line], new: list[Line]) -> bool:
    """Whether a game's lines say the same, what runs along the played order aside."""
    return [replace(o, streak=0, ruleset_streak=0, mu=None, sigma=None) for o in old] == [
        replace(n, streak=0, ruleset_streak=0, mu=None, sigma=None) for n in new
    ]


def game_kept(game: Game) -> None:
    """Keep ``game``'s lines as its rounds now say (call it with the game locked, in the change's
    transaction)."""
    finished = game.rounds.count() >= game.rules.last_round
    held = StoryLine.objects.filter(game=game)
    old = lines(held.order_by("seat")) if finished or held.exists() else []
    if not finished and not old:
        return  # a round of a game in progress: no story changes
    scoped = _made(kept_games([game.pk]))
    new = [line for _scope, line in scoped]
    if old and new and _same(old, new):
        return
    scope = scoped[0][0] if scoped else held.values_list("scope", flat=True).first() or ""
    if old:
        held.delete()
    rows = StoryLine.objects.filter(scope=scope)
    held_sums = _locked_sums(scope, new) if new and not old else {}
    if new and not old and not rows.filter(position__gt=new[0].position).exists():
        # The game finished last, as nearly every game does: carried on from its players' latest
        # lines (their sums locked first), written once.
        latest = {key: row.position for key, row in held_sums.items()}  # every line of theirs is before it
        carried = carry(new, _carry_from(rows, latest))
        StoryLine.objects.bulk_create([row_of(line, scope) for line in carried])
        _added(scope, carried, {key: row for key, row in held_sums.items() if key[1] == new[0].ruleset})
        return
    StoryLine.objects.bulk_create([row_of(line, scope) for line in new])
    carried_on(scope, min(line.position for line in old + new), also={line.player for line in old + new})


def _carry(rows: QuerySet[StoryLine], since: str, later: list[Line]) -> Carry:
    """What stood before ``since`` for the players of ``later``: each one's latest line in each
    ruleset (one query), and of those the latest (their streak across rulesets), fetched at once."""
    players = {line.player for line in later}
    before = rows.filter(position__lt=since)
    if len(players) <= 500:
        before = before.filter(player__in=players)
    grouped = before.order_by().values("player", "ruleset").annotate(p=Max("position"))
    return _carry_from(
        rows, {(player, ruleset): p for player, ruleset, p in grouped.values_list("player", "ruleset", "p")}
    )


def _carry_from(rows: QuerySet[StoryLine], last_in_ruleset: dict[tuple[str, str], str]) -> Carry:
    """What stood after each player's latest line in each ruleset (``last_in_ruleset``: its
    position): those lines, and of each player's the latest, fetched at once."""
    players = {player for player, _ruleset in last_in_ruleset}
    last: dict[str, str] = {}
    for (player, _ruleset), position in last_in_ruleset.items():
        last[player] = max(position, last.get(player, ""))
    positions = set(last_in_ruleset.values())
    prior = lines(rows.filter(position__in=positions, player__in=players)) if positions else []
    return Carry.before(
        [line for line in prior if last.get(line.player) == line.position],
        [line for line in prior if last_in_ruleset.get((line.player, line.ruleset)) == line.position],
    )


def game_delete(*, game_ids: Iterable[str]) -> None:
    """Delete the games of ``game_ids`` (a club's table's stays: it is part of its night), their
    story lines with them, and carry each scope on from the first of them, in one transaction."""
    with transaction.atomic():
        ids = list(Game.objects.filter(pk__in=list(game_ids), club_table__isnull=True).values_list("pk", flat=True))
        held = StoryLine.objects.filter(game_id__in=ids)
        firsts = dict(held.order_by().values("scope").annotate(since=Min("position")).values_list("scope", "since"))
        players: dict[str, set[str]] = {}
        for scope, player in held.values_list("scope", "player"):
            players.setdefault(scope, set()).add(player)
        # A round's scores and winner hold its players (protected): the rounds go first, and the
        # changes that undid others let go of them.
        Score.objects.filter(round__game_id__in=ids).delete()
        Round.objects.filter(game_id__in=ids).delete()
        Change.objects.filter(game_id__in=ids).update(undoes=None)
        Game.objects.filter(pk__in=ids).delete()
        for scope, since in firsts.items():
            carried_on(scope, since, also=players[scope])


def carried_on(scope: str, since: str, also: Iterable[str] = ()) -> int:
    """Carry the streaks and ratings of ``scope`` on from ``since`` (a position), from each
    player's latest line before it; the rows whose carried figures change are written, and the
    sums of their players (and of ``also``: players whose lines came or went) made again.
    Returns how many lines were written."""
    rows = StoryLine.objects.filter(scope=scope)
    later = list(rows.filter(position__gte=since).order_by("position", "seat").values_list("id", *COLUMNS))
    if not later:
        _summed(scope, also)
        return 0
    held_later = [line_of(row[1:]) for row in later]
    start = _carry(rows, since, held_later)
    ids = [row[0] for row in later]
    changed = []
    touched = set(also)
    for pk, was, now in zip(ids, held_later, carry(held_later, start), strict=True):
        if any(getattr(was, name) != getattr(now, name) for name in CARRIED_FIELDS):
            changed.append(StoryLine(pk=pk, **{name: getattr(now, name) for name in CARRIED_FIELDS}))
            touched.add(now.player)
    StoryLine.objects.bulk_update(changed, list(CARRIED_FIELDS), batch_size=500)
    _summed(scope, touched)
    return len(changed)


@dataclass(frozen=True)
class Rebuilt:
    games: int  # finished games folded
    lines: int
    differences: list[str]  # where the kept lines were not as the games make them (at most 20 said)


def folded_from_scratch(game_ids: Iterable[str] | None = None) -> dict[str, list[Line]]:
    """Every line of every scope as the games make them, folded from nothing, by scope."""
    ids = list(Game.objects.values_list("pk", flat=True)) if game_ids is None else list(game_ids)
    by_scope: dict[str, list[Line]] = {}
    for start in range(0, len(ids), 500):
        for scope, line in _made(kept_games(ids[start : start + 500])):
            by_scope.setdefault(scope, []).append(line)
    return {
        scope: carry(sorted(found, key=lambda line: (line.position, line.seat))) for scope, found in by_scope.items()
    }


def rebuilt(*, write: bool) -> Rebuilt:
    """The lines made again from the games, compared with those kept; with ``write``, the kept
    lines are replaced by them (one transaction)."""
    fresh = folded_from_scratch()
    kept: dict[str, list[Line]] = {}
    for scope, row in (
        (row[0], row[1:])
        for row in StoryLine.objects.order_by("scope", "position", "seat").values_list("scope", *COLUMNS)
    ):
        kept.setdefault(scope, []).append(line_of(row))
    differences = []
    for scope in sorted(set(fresh) | set(kept)):
        made, held = fresh.get(scope, []), kept.get(scope, [])
        if made != held:
            at = next(
                (i for i, (a, b) in enumerate(zip(made, held, strict=False)) if a != b), min(len(made), len(held))
            )
            differences.append(
                f"{scope}: {len(held)} lines kept, {len(made)} made; the first difference at line {at + 1}"
            )
    made_sums = {(scope, *key): row for scope, found in fresh.items() for key, row in sums_of(found).items()}
    kept_sums = {
        (row["scope"], row["player"], row["ruleset"]): {name: row[name] for name in SUMMED}
        for row in StorySums.objects.values("scope", "player", "ruleset", *SUMMED)
    }
    if made_sums != kept_sums:
        wrong = sorted(k for k in set(made_sums) | set(kept_sums) if made_sums.get(k) != kept_sums.get(k))
        differences.append(f"the sums of {len(wrong)} players and rulesets, first {wrong[0][0]} {wrong[0][1][:40]}")
    made_pairs = {(scope, *key): row for scope, found in fresh.items() for key, row in pairs_of(found, found).items()}
    kept_pairs = {
        (row["scope"], row["player"], row["opponent"]): {name: row[name] for name in PAIRED}
        for row in StoryPair.objects.values("scope", "player", "opponent", *PAIRED)
    }
    if made_pairs != kept_pairs:
        wrong = sorted(k for k in set(made_pairs) | set(kept_pairs) if made_pairs.get(k) != kept_pairs.get(k))
        differences.append(f"the head to head of {len(wrong)} pairs, first {wrong[0][0]} {wrong[0][1][:40]}")
    if write:
        with transaction.atomic():
            StoryLine.objects.all().delete()
            StorySums.objects.all().delete()
            StoryLine.objects.bulk_create(
                [row_of(line, scope) for scope, found in fresh.items() for line in found], batch_size=500
            )
            StorySums.objects.bulk_create(
                [StorySums(scope=k[0], player=k[1], ruleset=k[2], **row) for k, row in made_sums.items()],
                batch_size=500,
            )
            StoryPair.objects.all().delete()
            StoryPair.objects.bulk_create(
                [StoryPair(scope=k[0], player=k[1], opponent=k[2], **row) for k, row in made_pairs.items()],
                batch_size=500,
            )
    count = sum(len(found) for found in fresh.values())
    games = len({line.game for found in fresh.values() for line in found})
    return Rebuilt(games, count, differences[:20])
