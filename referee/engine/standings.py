"""A game's places, as its ruleset ranks them: the lower total first (the higher where the
ruleset's ``lowest_wins`` is false); equal totals as the
ruleset's tie-break says (``TieBreak.ROUND_WINS``: more rounds won first, still equal a shared
place; ``TieBreak.SHARED``: a shared place); and the notes that say why tied players stand where
they do. Pure Python, no Django: the selectors map the rows to ``Entrant``s and call these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .i18n import _, ngettext
from .rules import Rules, TieBreak
from .words import names_and


def standing_key(rules: Rules, total: int, wins: int) -> tuple[int, int]:
    """How a player ranks in a game of ``rules``: lower sorts first (the higher total first where
    ``rules.lowest_wins`` is false)."""
    return total if rules.lowest_wins else -total, -wins if rules.tie_break is TieBreak.ROUND_WINS else 0


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of a game as the ranking reads them: seat, name, total, rounds won."""

    seat: int
    name: str
    total: int
    wins: int


def ranked(entrants: Sequence[Entrant], rules: Rules) -> list[tuple[Entrant, int]]:
    """The entrants best first (then in seat order), each with their place; equals share one."""
    keys = [standing_key(rules, e.total, e.wins) for e in entrants]
    order = sorted(range(len(entrants)), key=lambda i: (*keys[i], entrants[i].seat))
    return [(entrants[i], 1 + sum(k < keys[i] for k in keys)) for i in order]


def tie_notes(entrants: Sequence[Entrant], rules: Rules, *, played: bool) -> list[str]:
    """Why tied players stand where they do (nothing before a round is played)."""
    if not played:
        return []
    by_wins = rules.tie_break is TieBreak.ROUND_WINS
    order = [e for e, _place in ranked(entrants, rules)]
    notes: list[str] = []
    for total in sorted({e.total for e in entrants}, reverse=not rules.lowest_wins):
        tied = [e for e in order if e.total == total]
        if len(tied) < 2:
            continue
        if by_wins and len({e.wins for e in tied}) > 1:
            counts = _(" against ").join(str(e.wins) for e in tied)
            notes.append(
                ngettext(
                    "{names} have {total} point each; most rounds won goes first ({counts}).",
                    "{names} have {total} points each; most rounds won goes first ({counts}).",
                    total,
                ).format(names=names_and([e.name for e in tied]), total=total, counts=counts)
            )
        for group_key in sorted({standing_key(rules, e.total, e.wins) for e in tied}):
            group = [e for e in tied if standing_key(rules, e.total, e.wins) == group_key]
            if len(group) < 2:
                continue
            place = 1 + sum(standing_key(rules, e.total, e.wins) < group_key for e in entrants)
            if by_wins:
                message = ngettext(
                    "{names} share place {place}: {total} point each and as many rounds won.",
                    "{names} share place {place}: {total} points each and as many rounds won.",
                    total,
                )
            else:
                message = ngettext(
                    "{names} share place {place}: {total} point each.",
                    "{names} share place {place}: {total} points each.",
                    total,
                )
            notes.append(message.format(names=names_and([e.name for e in group]), place=place, total=total))
    return notes
