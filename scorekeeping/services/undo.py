"""Undo and redo: the latest change still in force taken back, and that undo taken back in
turn by the service that made the round (recorded or corrected)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from referee.engine.rounds import RoundEntry
from scorekeeping.errors import InvalidInput
from scorekeeping.models import Change, Game, Round
from scorekeeping.services.rounds import round_record, round_replace
from scorekeeping.services.snapshots import round_entries, round_restore
from scorekeeping.services.versioning import locked, log_change


def game_undo(*, game: Game, version: int | None = None, by: str = "") -> Change:
    """Undo the latest change still in force; the undo itself goes into the history."""
    with transaction.atomic():
        game = locked(game, version)
        last = game.changes.exclude(action=Change.Action.UNDO).filter(undone_by__isnull=True).order_by("-id").first()
        if last is None:
            raise InvalidInput(_("There is nothing to undo"), "undo")
        Round.objects.filter(game=game, number=last.round_number).delete()
        if last.before is not None:
            round_restore(game, last.before)
        return log_change(
            game, Change.Action.UNDO, last.round_number, by=by, before=last.after, after=last.before, undoes=last
        )


def game_redo(*, game: Game, version: int | None = None, by: str = "") -> Change:
    """Take back the latest undo, while it is the latest change: the round undone is made again
    by the service that made it (recorded or corrected), and logged as such."""
    with transaction.atomic():
        game = locked(game, version)
        last = game.changes.select_related("undoes").order_by("-id").first()
        if last is None or last.action != Change.Action.UNDO or last.undoes is None or last.undoes.after is None:
            raise InvalidInput(_("There is nothing to redo"), "redo")
        after = last.undoes.after
        entry = round_entries(after)
        round_remade(game=game, action=last.undoes.action, number=after["number"], entry=entry, by=by)
        return game.changes.order_by("-id")[0]


def round_remade(*, game: Game, action: str, number: int, entry: RoundEntry, by: str = "") -> None:
    """A round recorded or corrected once, made again by the service that made it at the table,
    from its snapshot's entries (``snapshots.round_entries``): a redo, or a change of an
    imported history."""
    remake = round_record if action == Change.Action.RECORD else round_replace
    remake(game=game, number=number, entry=entry, by=by)
