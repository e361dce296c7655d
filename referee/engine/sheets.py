"""An old paper score sheet, as people keep them: a row per round, a column per player, the cells
the points; the players' names in the first row; perhaps a column of round numbers first, and a
totals row last. This reads what such a sheet means and checks it as the table's typed points are
checked (``score_round``: what a hand could score, the round's fixed hand sizes); the one who went
out is the 0. Every fault is said in words with its place ("row 5, column C (Ana)"), and what a
hostile file can make of them is bounded: the sheet's name and the values quoted are cut short
(``shorten``), and past ``MAX_FAULTS`` the faults are counted in one line ("and 698 more").

Pure Python: the services open the file (CSV or XLSX) into rows of plain values (text, whole
numbers, or ``Refused`` where the file itself holds what no paper sheet does: a formula, a date).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .i18n import _, ngettext
from .rounds import RoundEntry, score_round, whole_number
from .rulesets import Rules
from .words import MAX_NAME, clean_name, name_key

LABELS = {"", "#", "no", "nr", "round", "rounds", "ronde", "rondes", "ronda", "rondas", "deal", "deals", "spel"}
TOTALS = {"total", "totals", "totaal", "totalen", "totales", "sum", "som", "suma", "σ"}
MAX_FAULTS = 25  # faults listed; the rest are counted in one line
MAX_SHEET_NAME = 31  # characters of a sheet's name quoted (Excel's own limit; openpyxl only warns)
MAX_VALUE = 40  # characters of a cell's value quoted


def shorten(text: str, most: int) -> str:
    """``text`` as a fault quotes it: at most ``most`` characters, the last an ellipsis if cut."""
    return text if len(text) <= most else text[: most - 1] + "\u2026"


@dataclass(frozen=True)
class Refused:
    """A cell the file holds that a sheet of points may not: said why (a formula, a date...)."""

    why: str


Value = str | int | float | Refused | None


@dataclass(frozen=True)
class SheetRound:
    row: int  # the sheet's row number (1-based)
    number: int  # the round
    winner: str | None
    points: dict[str, int]


@dataclass
class ReadSheet:
    players: list[str] = field(default_factory=list)
    rounds: list[SheetRound] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)
    unlisted: int = 0  # faults past MAX_FAULTS, counted in the last line of ``faults``

    def fault(self, message: str) -> None:
        if len(self.faults) < MAX_FAULTS:
            self.faults.append(message)
        else:
            self.unlisted += 1


def column_name(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def _text(value: Value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None or isinstance(value, Refused) else str(value).strip()


def _whole(value: Value) -> int | None:
    """A cell's whole number: a number, or text of digits (a minus sign typed either way)."""
    if isinstance(value, str):
        text = value.strip().replace("\u2212", "-")
        return int(text) if text.lstrip("-").isdigit() and len(text) <= 6 else None
    return whole_number(value)


def read_sheet(rows: Sequence[Sequence[Value]], rules: Rules, sheet: str) -> ReadSheet:
    """What the sheet says, or every fault in it (``faults`` empty: the rounds may be recorded),
    at most ``MAX_FAULTS`` of them listed and the rest counted in a last line."""
    read = ReadSheet()
    _read(read, rows, rules, shorten(sheet, MAX_SHEET_NAME))
    if read.unlisted:
        read.faults.append(ngettext("and {n} more", "and {n} more", read.unlisted).format(n=read.unlisted))
    return read


def _read(read: ReadSheet, rows: Sequence[Sequence[Value]], rules: Rules, sheet: str) -> None:
    def where(row: int, column: int | None = None, name: str | None = None) -> str:
        place = _("sheet {sheet}, row {row}").format(sheet=sheet, row=row)
        if column is not None:
            place += _(", column {column}").format(column=column_name(column))
        return f"{place} ({name})" if name else place

    def fault(place: str, message: str) -> None:
        read.fault(f"{place}: {message}")

    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row):
            if isinstance(value, Refused):
                fault(where(r, c), value.why)
    if read.faults:
        return
    filled = [(r, list(row)) for r, row in enumerate(rows, start=1) if any(_text(v) for v in row)]
    if not filled:
        read.fault(_("sheet {sheet}: it is empty").format(sheet=sheet))
        return
    head_row, head = filled[0]
    first = 1 if _text(head[0]).casefold() in LABELS else 0
    names: list[tuple[int, str]] = []
    last = max((c for c, v in enumerate(head) if _text(v)), default=-1)
    for c in range(first, last + 1):
        name = clean_name(_text(head[c]))
        if not name:
            fault(where(head_row, c), _("a player's name is missing"))
        elif len(name) > MAX_NAME:
            fault(where(head_row, c), _("a name is at most {n} characters").format(n=MAX_NAME))
        elif any(name_key(name) == name_key(n) for _c, n in names):
            fault(where(head_row, c, name), _("this name is in the first row twice"))
        else:
            names.append((c, name))
    if not rules.min_players <= len(names) <= rules.max_players:
        fault(
            where(head_row),
            _("{n} players named; {title} is played by {low} to {high}").format(
                n=len(names), title=rules.display_name, low=rules.min_players, high=rules.max_players
            ),
        )
    if read.faults:
        return
    read.players = [n for _c, n in names]
    body = filled[1:]
    totals = None
    if body and first and _text(body[-1][1][0]).casefold() in TOTALS:
        totals = body.pop()
    if len(body) > rules.last_round:
        fault(
            where(body[rules.last_round][0]),
            _("{title} has {n} rounds; the sheet goes on").format(title=rules.display_name, n=rules.last_round),
        )
        return
    sums = dict.fromkeys(read.players, 0)
    for number, (r, row) in enumerate(body, start=1):
        cells = {name: (c, row[c] if c < len(row) else None) for c, name in names}
        points: dict[str, int] = {}
        for name, (c, value) in cells.items():
            whole = _whole(value)
            if whole is None:
                shown = shorten(_text(value), MAX_VALUE) or _("nothing")
                fault(where(r, c, name), _("{value!r} is not a number of points").format(value=shown))
            else:
                points[name] = whole
        if len(points) < len(names):
            continue
        zeros = [n for n in read.players if points[n] == 0]
        winner = zeros[0] if zeros else None
        entry = RoundEntry(winner=winner, points=points)
        scored = score_round(rules, number, names=read.players, first_dealer_seat=0, entry=entry)
        for key, messages in scored.errors.items():
            about = key.player or ""
            column = next((col for col, n in names if about and name_key(n) == name_key(about)), None)
            for message in messages:
                fault(where(r, column, about) if column is not None else where(r), message)
        for name, value in points.items():
            sums[name] += value
        read.rounds.append(SheetRound(r, number, winner, points))
    if totals is not None and not read.faults:
        r, row = totals
        for c, name in names:
            said = _whole(row[c] if c < len(row) else None)
            if said is not None and said != sums[name]:
                fault(
                    where(r, c, name),
                    _("the totals row says {said}; the rounds add up to {sum}").format(said=said, sum=sums[name]),
                )
