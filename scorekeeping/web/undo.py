"""Undo and Redo on the table: the step made (``services.game_undo``, ``game_redo``), then the
table as it now is, with what happened said; after an undo, the round undone back in the form."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorekeeping.changes import undo_notice
from scorekeeping.errors import Conflict, InvalidInput
from scorekeeping.models import Change, Game
from scorekeeping.selectors import (
    game_current_round,
    game_get,
)
from scorekeeping.services import (
    game_redo,
    game_undo,
)
from scorekeeping.web import session as phone
from scorekeeping.web.entry import entry_view
from scorekeeping.web.entry_state import EntryState
from scorekeeping.web.guards import editing
from scorekeeping.web.table import render_table, table_context, warm
from scorekeeping.webkit.formdata import form_int
from scorekeeping.webkit.htmx import HtmxHttpRequest, refused


def _history_step(request: HtmxHttpRequest, game: Game, step: Any, notice: Any, undoing: bool = False) -> HttpResponse:
    """Undo or redo: make the step, then show the table with what happened (or what changed
    meanwhile). After an undo, Redo is offered and the round undone comes back into the form.
    Without JavaScript the page reloads and the message goes with it."""
    extra: dict[str, Any] = {}
    status = 200
    change = None
    try:
        change = step(
            game=game, version=form_int(request.POST.get("version"), None), by=phone.changed_by(request, game)
        )
        extra["notice"] = notice(change)
        extra["redo"] = undoing
    except (Conflict, InvalidInput) as exc:
        extra["conflict"] = exc.message
        status = exc.status
    if not request.htmx:
        if "notice" in extra:
            messages.success(request, extra["notice"])
        else:
            messages.error(request, extra["conflict"])
        return HttpResponseRedirect(reverse("table", args=[game.pk]))
    fresh = game_get(game_id=game.pk)
    undone = change.undoes if undoing and change is not None else None
    current = game_current_round(game=fresh)
    back_in_form = undone is not None and undone.action == Change.Action.RECORD
    if back_in_form and undone is not None and current is not None and current.number == undone.round_number:
        # The round just undone comes back into the form as it was: fixing one card is one tap.
        players = list(fresh.players.all())
        state = EntryState.from_snapshot(undone.after or {}, players, fresh.version)
        extra["entry"] = entry_view(game=fresh, players=players, number=current.number, state=state)
    context = table_context(request, fresh, **extra)
    response = render_table(request, "scorekeeping/table.html#body", context, status=refused(request, status))
    if change is not None:
        warm(request, fresh)
    return response


@require_POST
@editing
def undo(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Undo the latest change; the round undone comes back into the form, and Redo is offered."""
    rules = game.rules

    def notice(change: Change) -> str:
        return undo_notice(rules, change.undoes)

    return _history_step(request, game, game_undo, notice, undoing=True)


@require_POST
@editing
def redo(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Take back the last undo while nothing else has changed since."""
    return _history_step(request, game, game_redo, lambda change: _("Redone."))
