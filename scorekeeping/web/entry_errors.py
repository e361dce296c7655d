"""Which of a round entry's faults the form shows: all of them once Record (or Send) is pressed,
only what was typed while the form is filled in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _

from referee.engine.rounds import EntryField, Fault
from scorekeeping.errors import ErrorKey
from scorekeeping.models import Player
from scorekeeping.web.entry_state import EntryState


def no_winner_chosen() -> dict[ErrorKey, list[str]]:
    """The error of an entry sent without who went out, in the language of the request."""
    return {EntryField("winner"): [_("Choose who went out (or no one, if the stock ran out).")]}


def as_submitted(
    errors: Mapping[EntryField, list[str]], state: EntryState, players: list[Player], drafting: bool
) -> dict[ErrorKey, list[str]]:
    """What Record (or, with a round in progress, Send for the hand chosen) would refuse now."""
    found: dict[ErrorKey, list[str]] = {key: messages for key, messages in errors.items()}
    if drafting:  # Send checks one hand (the one chosen), not who went out
        active = next((p.name.casefold() for p in players if p.seat == state.active), None)
        found = {
            key: messages
            for key, messages in errors.items()
            if (key.player is None or key.player.casefold() == active) and key != EntryField("winner")
        }
    if state.winner == "":
        found.update(no_winner_chosen())
    return found


def while_typing(faults: Sequence[Fault], state: EntryState, players: list[Player]) -> dict[ErrorKey, list[str]]:
    """A preview's faults as the form shows them while it is filled in: none about a player
    nobody has typed anything for yet, and none saying that the hand the keypad is filling is
    short of the cards the round fixes (it is still being tapped in: Record, Send, or the
    keypad moving on to another hand shows it)."""
    typed = {
        p.name.casefold()
        for p in players
        if state.hands.get(p.seat) or state.points.get(p.seat) or state.buys.get(p.seat) not in (None, "", "0")
    }
    typing = next((p.name.casefold() for p in players if p.seat == state.active), None)
    kept: dict[ErrorKey, list[str]] = {}
    for fault in faults:
        name = fault.field.player.casefold() if fault.field.player else None
        if name is not None and (name not in typed or (fault.short and name == typing)):
            continue
        kept.setdefault(fault.field, []).append(fault.message)
    return kept
