"""A player as a game's ranking needs one, lighter than a ``Player`` row: a club night ranks
every table of the evening and loads no more than this."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """A game's player as a plain record: its row's id, seat, name and colour (a key of
    ``scorekeeping.colours``; "" where the read did not load it)."""

    pk: int
    seat: int
    name: str
    colour: str = ""


@dataclass(frozen=True, slots=True)
class MemberName:
    """A club member as a table shows them: the member's id, name and colour."""

    pk: int
    name: str
    colour: str = ""
