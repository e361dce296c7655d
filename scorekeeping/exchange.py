"""A game as a document: export to JSON and CSV, and import a JSON export to restore it exactly.

The document holds everything but the id and the edit token (an import gets new ones):
the rules, players, every round with its cards and points, and the whole history.
Importing checks the document as strictly as the score-keeper checks a round at the
table, and exporting the imported game gives the same document again.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction

from referee.engine import RefereeError, find_rules, parse_cards
from referee.engine.scoring import card_score

from .errors import InvalidInput
from .models import Change, Game, Player
from .services import game_create, holds_control_characters, round_restore, round_snapshot, rules_for

FORMAT = "rummy-referee/game"
FORMAT_VERSION = 1


def game_document(game: Game) -> dict[str, Any]:
    players = list(game.players.all())
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "ruleset": game.ruleset,
        "variants": list(game.variants),
        "players": [p.name for p in players],
        "first_dealer": players[game.first_dealer_seat].name,
        "first_dealer_method": game.first_dealer_method,
        "created_at": game.created_at.isoformat(),
        "version": game.version,
        "rounds": [round_snapshot(r) for r in game.rounds.all()],
        "history": [
            {
                "action": c.action,
                "round": c.round_number,
                "at": c.at.isoformat(),
                "version": c.version,
                "before": c.before,
                "after": c.after,
                "undoes": c.undoes.version if c.undoes else None,
            }
            for c in game.changes.select_related("undoes").order_by("id")
        ],
    }


def game_csv(game: Game) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    rules = rules_for(game)
    writer.writerow(
        [
            rules.round_word,
            "dealer",
            "wild rank",
            "player",
            "went out",
            "cards",
            "penalty",
            "adjustment",
            "points",
            "buys",
        ]
    )
    names = {p.pk: p.name for p in game.players.all()}
    totals = dict.fromkeys(names.values(), 0)
    for rnd in game.rounds.all():
        for s in rnd.scores.all():
            name = names[s.player_id]
            totals[name] += s.points
            writer.writerow(
                [
                    rnd.number,
                    names[rnd.dealer_id],
                    rnd.wild_rank,
                    name,
                    "yes" if rnd.winner_id == s.player_id else "",
                    s.cards if not s.typed else "",
                    s.penalty,
                    s.adjustment,
                    s.points,
                    s.buys,
                ]
            )
    for name, total in totals.items():
        writer.writerow(["total", "", "", name, "", "", "", "", total, ""])
    return out.getvalue()


def _refuse_control_characters(document: Any, where: str) -> None:
    """Anywhere in the document: an export holds names, cards, dates and numbers, never these.

    Walked with a list rather than by recursion: the document may be as deep as the JSON
    decoder allowed, which is about as deep as Python's own stack.
    """
    pending: list[tuple[Any, str]] = [(document, where)]
    while pending:
        value, at = pending.pop()
        if isinstance(value, str):
            if holds_control_characters(value):
                raise InvalidInput(f"{at} holds a control character; an export holds none", at)
        elif isinstance(value, Mapping):
            pending += [(key, f"{at} (a key)") for key in value]
            pending += [(item, f"{at}.{key}") for key, item in value.items()]
        elif isinstance(value, list):
            pending += [(item, f"{at}[{i}]") for i, item in enumerate(value)]


def _require(doc: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    value = doc.get(key) if isinstance(doc, Mapping) else None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        name = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise InvalidInput(f"{where}{key} must be a {name}", f"document.{where}{key}".rstrip("."))
    return value


def _check_round(rules: Any, snapshot: Any, number: int, names: list[str]) -> None:
    where = f"rounds[{number - 1}]."
    if not isinstance(snapshot, Mapping):
        raise InvalidInput(f"round {number} must be an object", "document.rounds")
    if _require(snapshot, "number", int, where) != number:
        raise InvalidInput(
            f"rounds must be numbered 1, 2, 3...; found {snapshot['number']} where {number} belongs", "document.rounds"
        )
    rules.round(number)
    for key in ("winner", "wild_rank"):
        if snapshot.get(key) is not None and not isinstance(snapshot.get(key), str):
            raise InvalidInput(f"{where}{key} must be a text or null", "document.rounds")
    if snapshot.get("winner") is not None and snapshot["winner"] not in names:
        raise InvalidInput(f"round {number}: the winner {snapshot['winner']!r} is not a player", "document.rounds")
    if _require(snapshot, "dealer", str, where) not in names:
        raise InvalidInput(f"round {number}: the dealer is not a player", "document.rounds")
    _require(snapshot, "dealt", int, where)
    _require(snapshot, "cut_bonus", bool, where)
    scores = _require(snapshot, "scores", list, where)
    scored = sorted(str(s.get("player")) for s in scores if isinstance(s, Mapping))
    if scored != sorted(names) or len(scores) != len(names):
        raise InvalidInput(f"round {number} must score every player once", "document.rounds")
    for s in scores:
        for key in ("penalty", "adjustment", "points", "buys"):
            _require(s, key, int, where + "scores.")
        _require(s, "typed", bool, where + "scores.")
        _require(s, "breakdown", list, where + "scores.")
        if s["points"] != s["penalty"] + s["adjustment"] or s["buys"] < 0 or s["penalty"] < 0:
            raise InvalidInput(f"round {number}: {s['player']}'s points do not add up", "document.rounds")
        try:
            cards = parse_cards(_require(s, "cards", str, where + "scores."))
        except RefereeError as exc:
            raise InvalidInput(f"round {number}, {s['player']}: {exc}", "document.rounds") from None
        if not s["typed"] and sum(card_score(rules, number, c).points for c in cards) != s["penalty"]:
            raise InvalidInput(f"round {number}: {s['player']}'s cards do not score {s['penalty']}", "document.rounds")


def game_import(*, document: Any) -> tuple[Game, str]:
    """A new game restored from an export, with a new id and edit token; refused whole if anything is off."""
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise InvalidInput(f"this is not a game exported by this app (format {FORMAT!r})", "document")
    if document.get("format_version") != FORMAT_VERSION:
        raise InvalidInput(f"format_version {document.get('format_version')!r} is not {FORMAT_VERSION}", "document")
    _refuse_control_characters(document, "document")
    names = _require(document, "players", list)
    history = _require(document, "history", list)
    rounds = _require(document, "rounds", list)
    try:
        created = datetime.fromisoformat(_require(document, "created_at", str))
        stamps = [datetime.fromisoformat(_require(c, "at", str, "history.")) for c in history]
    except ValueError as exc:
        raise InvalidInput(f"a date is not in ISO format: {exc}", "document") from None
    with transaction.atomic():
        game, token = game_create(
            ruleset=_require(document, "ruleset", str),
            variants=_require(document, "variants", list),
            players=names,
            first_dealer=_require(document, "first_dealer", str),
        )
        rules = find_rules(game.ruleset, game.variants)
        method = document.get("first_dealer_method")
        if method not in ("named", "random", "draw"):
            raise InvalidInput("first_dealer_method must be named, random or draw", "document.first_dealer_method")
        players: list[Player] = list(game.players.all())
        for number, snapshot in enumerate(rounds, start=1):
            _check_round(rules, snapshot, number, [p.name for p in players])
            round_restore(game, dict(snapshot))
        by_version: dict[int, Change] = {}
        for entry, at in zip(history, stamps, strict=True):
            action = _require(entry, "action", str, "history.")
            if action not in Change.Action.values:
                raise InvalidInput(f"history: unknown action {action!r}", "document.history")
            undoes = entry.get("undoes")
            change = Change.objects.create(
                game=game,
                action=action,
                round_number=_require(entry, "round", int, "history."),
                before=entry.get("before"),
                after=entry.get("after"),
                version=_require(entry, "version", int, "history."),
                undoes=by_version.get(undoes) if isinstance(undoes, int) else None,
            )
            Change.objects.filter(pk=change.pk).update(at=at)
            by_version[change.version] = change
        Game.objects.filter(pk=game.pk).update(
            first_dealer_method=method, created_at=created, version=_require(document, "version", int)
        )
    return Game.objects.get(pk=game.pk), token
