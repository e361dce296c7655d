"""The write unit every service ends with: the game row locked (409 on a stale version), the
next version logged as a change, or the live version moved for a step the phones should see.
Both announce the change to the open streams at commit."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scorekeeping.changes import change_clause
from scorekeeping.errors import Conflict
from scorekeeping.live.publish import announce
from scorekeeping.models import Change, Game


def locked(game: Game, version: int | None) -> Game:
    """The game row, locked for this transaction; 409 if the phone's version is stale."""
    current = Game.objects.select_for_update().get(pk=game.pk)
    if version is not None and version != current.version:
        raise Conflict(what_changed(current, version), "version")
    return current


def what_changed(game: Game, version: int) -> str:
    changes = list(game.changes.filter(version__gt=version).order_by("id"))
    if not changes:
        return _("this game is at version {version}, not {given}").format(version=game.version, given=version)
    rules = game.rules
    said = "; ".join(change_clause(rules, c) for c in changes)
    return _("the game changed on another phone since you loaded it: {changes}").format(changes=said)


def log_change(game: Game, action: str, number: int, **snapshots: Any) -> Change:
    """Every write ends here: the game moves to its next version, and the change is kept."""
    game.version += 1
    game.live_version += 1
    game.save(update_fields=["version", "live_version", "updated_at"])
    announce(game)  # the open streams of this game, on every server process, at commit
    return Change.objects.create(game=game, action=action, round_number=number, version=game.version, **snapshots)


def touch(game: Game) -> None:
    """A change the phones should see that is no new version of the game (a step of a round in
    progress, a seat taken): the live version moves on, and the streams hear of it at commit.
    Call it with the game locked."""
    game.live_version += 1
    game.save(update_fields=["live_version", "updated_at"])
    announce(game)
