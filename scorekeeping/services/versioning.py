"""The write unit every service ends with: the game row locked (409 on a stale version), the
next version logged as a change, or the live version moved for a step the phones should see.
Both announce the change to the open streams at commit."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.db import OperationalError, transaction
from django.utils.translation import gettext as _

from scorekeeping.changes import change_clause
from scorekeeping.errors import Conflict
from scorekeeping.live.publish import announce, announce_night
from scorekeeping.models import Change, ClubTable, Game, Night
from scorekeeping.selectors.tables import table_closed
from scorekeeping.services.history import game_kept

log = logging.getLogger(__name__)


def locked(game: Game, version: int | None) -> Game:
    """The game row, locked for this transaction; 409 if the phone's version is stale, or if the
    game is a club table that was ended or whose night is finished (kept as it stands)."""
    current = Game.objects.select_for_update().get(pk=game.pk)
    if table_closed(game_id=current.pk):
        raise Conflict(
            _("This table is closed: the organiser ended it or finished the night, and its scores stand as they are"),
            "game",
        )
    if version is not None and version != current.version:
        raise Conflict(what_changed(current, version), "version")
    return current


def what_changed(game: Game, version: int) -> str:
    changes = list(game.changes.filter(version__gt=version).order_by("id"))
    if not changes:
        return _("This game is at version {version}, not {given}").format(version=game.version, given=version)
    rules = game.rules
    said = "; ".join(change_clause(rules, c) for c in changes)
    return _("The game changed on another phone since you loaded it: {changes}").format(changes=said)


def log_change(game: Game, action: str, number: int, by: str = "", **snapshots: Any) -> Change:
    """Every write ends here: the game moves to its next version, and the change is kept (with
    the player whose seated phone made it, ``by``, for the other phones to be told)."""
    game.version += 1
    game.live_version += 1
    game.save(update_fields=["version", "live_version", "updated_at"])
    announce(game)  # the open streams of this game, on every server process, at commit
    transaction.on_commit(partial(_its_night_moves, game.pk))
    change = Change.objects.create(
        game=game, action=action, round_number=number, version=game.version, by=by[:30], **snapshots
    )
    game_kept(game)  # the stories, in this transaction: a game in progress changes none
    return change


def touch(game: Game) -> None:
    """A change the phones should see that is no new version of the game (a step of a round in
    progress, a seat taken): the live version moves on, and the streams hear of it at commit.
    Call it with the game locked."""
    game.live_version += 1
    game.save(update_fields=["live_version", "updated_at"])
    announce(game)
    transaction.on_commit(partial(_its_night_moves, game.pk))


def night_touch(night: Night) -> None:
    """A change a club night's screens should see (a check-in, a draw, a table's step): its
    version moves on, and its streams hear of it at commit. Call it with the night locked."""
    night.version += 1
    night.save(update_fields=["version"])
    announce_night(night.club_id, night.pk, night.version)


def _its_night_moves(game_id: str) -> None:
    """A club table's game changed: its night moves on too (the room screen follows the night).
    Run after the game's write commits, in a transaction of its own, so that no write holds the
    game's lock while it waits for the night's (locks are always taken night first). A game of no
    club takes no lock here (on SQLite a transaction that may write waits for the writer's turn,
    and a write already committed must not then answer "busy, nothing saved"); a night that
    cannot be touched now (busy) is logged, and its screens hear of the table at its next change."""
    if not ClubTable.objects.filter(game_id=game_id).exists():
        return
    try:
        with transaction.atomic():
            night = (
                Night.objects.select_for_update(of=("self",)).filter(sittings_drawn__tables__game_id=game_id).first()
            )
            if night is not None:
                night_touch(night)
    except OperationalError as exc:
        log.warning("a club night's screens were not told of a table's change: %s", str(exc)[:200])
