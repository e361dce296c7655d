"""A change of a game in words, in one place: a line of the history, and a clause for a write
refused because the game changed meanwhile."""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from referee.engine import Rules
from scorekeeping.models import Change


def change_line(rules: Rules, change: Change) -> str:
    """One line of the history: what changed, in words (a deal in the Contract family, a round in Mexican)."""
    word = capfirst(_(rules.round_word))
    if change.action == Change.Action.RECORD:
        after = change.after or {}
        winner = after.get("winner")
        if winner:
            line = _("{word} {number} recorded: {name} went out").format(
                word=word, number=change.round_number, name=winner
            )
        else:
            line = _("{word} {number} recorded: no one went out").format(word=word, number=change.round_number)
        # What the round gave each other player, as a paper score sheet would say it.
        gave = ", ".join(f"{s['player']} {s['points']}" for s in after.get("scores", []) if s["player"] != winner)
        return f"{line}; {gave}" if gave else line
    if change.action == Change.Action.UNDO:
        return _("Undid a change to {word} {number}").format(word=word.lower(), number=change.round_number)
    before, after = change.before or {}, change.after or {}
    parts = []
    if before.get("winner") != after.get("winner"):
        nobody = _("no one")
        parts.append(
            _("went out: {before} → {after}").format(
                before=before.get("winner") or nobody, after=after.get("winner") or nobody
            )
        )
    old = {s["player"]: s["points"] for s in before.get("scores", [])}
    for s in after.get("scores", []):
        if old.get(s["player"]) != s["points"]:
            parts.append(f"{s['player']} {old.get(s['player'])} → {s['points']}")
    text = _("{word} {number} corrected").format(word=word, number=change.round_number)
    return text + (": " + "; ".join(parts) if parts else "")


def undo_notice(rules: Rules, undone: Change | None) -> str:
    """What Undo says it took back, as a person would say it: the recording or the correction
    of a round, never a history line inside a sentence."""
    if undone is None:
        return _("Undone: the last change.")
    where = rules.round_name(undone.round_number)
    if undone.action == Change.Action.CORRECT:
        return _("Undone: the correction of {where}.").format(where=where)
    # Short, to fit the notice above the Record bar: the form shows the round as it was recorded.
    return _("Undone: the recording of {where}.").format(where=where)


def change_clause(rules: Rules, change: Change) -> str:
    """A change as a clause of a sentence ("round 3 was recorded"): what a refused write says changed."""
    where = rules.round_name(change.round_number)
    if change.action == Change.Action.RECORD:
        return _("{where} was recorded").format(where=where)
    if change.action == Change.Action.CORRECT:
        return _("{where} was corrected").format(where=where)
    return _("a change to {where} was undone").format(where=where)


def change_told(rules: Rules, change: Change) -> str:
    """A change made on another phone, as the other phones are told it in a short notice."""
    where = capfirst(rules.round_name(change.round_number))
    if change.by:  # a seated phone made it: named by its player
        if change.action == Change.Action.RECORD:
            return _("{where} recorded by {name}'s phone.").format(where=where, name=change.by)
        if change.action == Change.Action.CORRECT:
            return _("{where} corrected by {name}'s phone.").format(where=where, name=change.by)
        return _("{where}: a change undone by {name}'s phone.").format(where=where, name=change.by)
    if change.action == Change.Action.RECORD:
        return _("{where} recorded on another phone.").format(where=where)
    if change.action == Change.Action.CORRECT:
        return _("{where} corrected on another phone.").format(where=where)
    return _("{where}: a change undone on another phone.").format(where=where)
