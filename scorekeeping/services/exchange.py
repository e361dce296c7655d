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
from typing import Any

from django.db import transaction

from referee.engine import RefereeError
from referee.engine.sheets import EXPORT_COLUMNS, sheet_text  # the format the sheet import reads back
from scorekeeping.errors import InvalidInput, ScorekeepingError, flatten_errors
from scorekeeping.models import Change, Game
from scorekeeping.selectors import game_get
from scorekeeping.services import (
    game_create,
    game_undo,
    holds_control_characters,
    round_entries,
    round_remade,
    round_snapshot,
)
from scorekeeping.services.document import FORMAT, FORMAT_VERSION, GameDocument, as_exported, first_difference
from scorekeeping.services.history import game_kept


def game_document(game: Game) -> dict[str, Any]:
    """The game as its export file holds it, read whole in one transaction with the game's row
    locked against writes (every write locks it first, ``versioning.locked``): read in separate
    statements, a round recorded meanwhile on another phone left the version, the rounds and the
    history disagreeing, and the file could not be imported back."""
    with transaction.atomic():
        list(Game.objects.select_for_update(no_key=True).filter(pk=game.pk).values_list("pk", flat=True))
        return _document(game_get(game_id=game.pk))


def _document(game: Game) -> dict[str, Any]:
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
    """A row per player per round (the cards left, or none where the points were typed), then a
    total row per player: the sheet import (``referee.engine.sheets``) reads it back as the game."""
    out = io.StringIO()
    writer = csv.writer(out)
    rules = game.rules
    writer.writerow([rules.round_word, *EXPORT_COLUMNS])
    names = {p.pk: sheet_text(p.name) for p in game.players.all()}
    totals = dict.fromkeys(names, 0)  # by player: "=A" and "'=A" are both written '=A
    for rnd in game.rounds.all():
        for s in rnd.scores.all():
            name = names[s.player_id]
            totals[s.player_id] += s.points
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
    for player, total in totals.items():
        writer.writerow(["total", "", "", names[player], "", "", "", "", total, ""])
    return out.getvalue()


MAX_VALUES = 40_000  # values a document may hold: six players' seven rounds, each corrected once, hold 8,674


def _refuse_control_characters(document: Any, where: str) -> None:
    """Anywhere in the document: an export holds names, cards, dates and numbers, never these;
    nor more than ``MAX_VALUES`` values (checking each against the schema costs time).

    Walked with a list rather than by recursion: the document may be as deep as the JSON
    decoder allowed, which is about as deep as Python's own stack.
    """
    pending: list[tuple[Any, str]] = [(document, where)]
    seen = 0
    while pending:
        value, at = pending.pop()
        seen += 1
        if seen > MAX_VALUES:
            raise InvalidInput(
                f"the document holds more than {MAX_VALUES:,} values; a game's export holds far fewer", where
            )
        if isinstance(value, str):
            if holds_control_characters(value):
                raise InvalidInput(f"{at} holds a control character; an export holds none", at)
        elif isinstance(value, Mapping):
            pending += [(key, f"{at} (a key)") for key in value]
            pending += [(item, f"{at}.{key}") for key, item in value.items()]
        elif isinstance(value, list):
            pending += [(item, f"{at}.{i}") for i, item in enumerate(value)]


def _validated(document: Any) -> dict[str, Any]:
    """The document checked against the export's schema: known keys only, every value within bounds."""
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise InvalidInput(f"this is not a game exported by this app (format {FORMAT!r})", "document")
    _refuse_control_characters(document, "document")
    serializer = GameDocument(data=document)
    if not serializer.is_valid():
        errors = flatten_errors(serializer.errors)
        raise InvalidInput({f"document.{key}": [f"{key}: {m}" for m in messages] for key, messages in errors.items()})
    return as_exported(serializer.validated_data)  # type: ignore[no-any-return]


def _replay(game: Game, index: int, entry: Mapping[str, Any]) -> None:
    """One change of the history, made again by the service that made it at the table."""
    where = f"document.history.{index}"
    action = entry["action"]
    try:
        if action == Change.Action.UNDO:
            game_undo(game=game)
            return
        if entry["after"] is None:
            raise InvalidInput(f"a change that {action}s a round holds the round after it", f"{where}.after")
        after = entry["after"]
        remade = round_entries(after)
        if after["number"] != entry["round"]:
            raise InvalidInput(f"the round after it is round {after['number']}, not {entry['round']}", f"{where}.after")
        round_remade(game=game, action=action, number=after["number"], entry=remade)
    except (ScorekeepingError, RefereeError) as exc:
        errors = exc.errors if isinstance(exc, ScorekeepingError) else {"round": [str(exc)]}
        raise InvalidInput(
            {where: [f"{action} round {entry['round']}: {m}" for messages in errors.values() for m in messages]}
        ) from None


def game_import(*, document: Any) -> tuple[Game, str]:
    """A new game restored from an export, with a new id and edit token; refused whole if anything is off.

    The document is checked against the export's schema, then its history is made again,
    change by change, by the services that record, correct and undo rounds at the table,
    and the game that results must export as the document: an imported game is one the app
    could have produced itself, and nothing in the document can name a row of another game.
    """
    data = _validated(document)
    with transaction.atomic():
        try:
            game, token = game_create(
                ruleset=data["ruleset"],
                variants=data["variants"],
                players=data["players"],
                first_dealer=data["first_dealer"],
            )
        except ScorekeepingError as exc:
            raise InvalidInput({f"document.{key}": messages for key, messages in exc.errors.items()}) from None
        for index, entry in enumerate(data["history"]):
            _replay(game, index, entry)
        # One change was made per entry, in order: each takes its entry's time.
        for change, entry in zip(game.changes.order_by("id"), data["history"], strict=True):
            Change.objects.filter(pk=change.pk).update(at=entry["at"])
        Game.objects.filter(pk=game.pk).update(
            first_dealer_method=data["first_dealer_method"], created_at=data["created_at"]
        )
        restored = game_get(game_id=game.pk)
        game_kept(restored)  # its place in the played order is its history's, in the past
        difference = first_difference(data, game_document(restored))
        if difference:
            path, given, made = difference
            raise InvalidInput(
                f"{path} is {given!r}; the game its history makes has {made!r}: "
                "this is not a game this app could have exported",
                path,
            )
    return restored, token
