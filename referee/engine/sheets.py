"""An old paper score sheet, as people keep them: a row per round, a column per player, the cells
the points; the players' names in the first row; perhaps a column of round numbers first, and a
totals row last. This reads what such a sheet means and checks it as the table's typed points are
checked (``score_round``: what a hand could score, the round's fixed hand sizes); the one who went
out is the 0. Every fault is said in words with its place ("row 5, column C (Ana)"), and what a
hostile file can make of them is bounded: the sheet's name and the values quoted are cut short
(``shorten``), and past ``MAX_FAULTS`` the faults are counted in one line ("and 698 more").

The app's own CSV export (a row per player per round, ``game_csv``) is a second layout, told by
its first row (the ruleset's round word, then "dealer", "wild rank", "player", ...): read by
``_read_export``, each round recorded again from its cards, or its typed points where no cards
are given, its buys and its cut bonus, and everything else the export says checked against what
the rules make of them (the dealer, the wild rank, each hand's penalty, the points, the totals).
Such an export is longer than a paper sheet: at most ``LONG_ROWS`` rows, the largest a game of
any ruleset (built-in or house rules) can export.

Pure Python: the services open the file (CSV or XLSX) into rows of plain values (text, whole
numbers, or ``Refused`` where the file itself holds what no paper sheet does: a formula, a date).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import card_tokens, rank_text
from .documents import MAX_ROUNDS
from .i18n import _, ngettext
from .knobs import MAX_PLAYERS
from .rounds import RoundEntry, cutter_seat, dealer_seat, score_round, whole_number
from .rules import Rules
from .rulesets import RULESETS
from .words import MAX_NAME, clean_name, name_key, names_and

LABELS = {"", "#", "no", "nr", "round", "rounds", "ronde", "rondes", "ronda", "rondas", "deal", "deals", "spel"}
TOTALS = {"total", "totals", "totaal", "totalen", "totales", "sum", "som", "suma", "σ"}
MAX_FAULTS = 25  # faults listed; the rest are counted in one line
MAX_SHEET_NAME = 31  # characters of a sheet's name quoted (Excel's own limit; openpyxl only warns)
MAX_VALUE = 40  # characters of a cell's value quoted
MAX_TOKEN = 12  # characters of a word in a cards cell passed on (and so quoted): the longest card, JOKER, takes 5
# The app's CSV export (``game_csv``): its first column is named by the ruleset's round word
# (as written, in English), then these; a total row per player closes it.
EXPORT_COLUMNS = ("dealer", "wild rank", "player", "went out", "cards", "penalty", "adjustment", "points", "buys")
ROUND_WORDS = frozenset(r.round_word for r in RULESETS.values())
# What starts a formula in a spreadsheet: a text cell the export writes so gets a leading apostrophe
# (``sheet_text``), read back without it.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


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
    points: dict[str, int]  # typed points (the paper layout: everyone's, the winner's 0 too)
    hands: dict[str, str] = field(default_factory=dict)  # cards left in hand (the export's layout)
    buys: dict[str, int] = field(default_factory=dict)
    cut_bonus: bool = False

    @property
    def entry(self) -> RoundEntry:
        """The round as the table would enter it, to be recorded."""
        points = {n: v for n, v in self.points.items() if n != self.winner}
        return RoundEntry(winner=self.winner, hands=self.hands, points=points, buys=self.buys, cut_bonus=self.cut_bonus)


@dataclass
class ReadSheet:
    players: list[str] = field(default_factory=list)
    first_dealer: int = 0  # the seat that dealt round 1 (the paper layout does not say: the first)
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


MAX_CELL_DIGITS = 6  # a number of points or buys in a cell: more digits is no score


def _whole(value: Value) -> int | None:
    """A cell's whole number, the one reading of every number cell: a number, or text of ASCII
    digits with at most one minus sign before them (typed either way). Other digits ('²', '①',
    '٣'), signs or separators are no number: the caller names the cell."""
    if isinstance(value, str):
        text = value.strip().replace("\u2212", "-")
        digits = text[1:] if text.startswith("-") else text
        if not (digits.isascii() and digits.isdigit() and len(digits) <= MAX_CELL_DIGITS):
            return None
        return int(text)
    return whole_number(value)


def read_sheet(rows: Sequence[Sequence[Value]], rules: Rules, sheet: str) -> ReadSheet:
    """What the sheet says, or every fault in it (``faults`` empty: the rounds may be recorded),
    at most ``MAX_FAULTS`` of them listed and the rest counted in a last line. A sheet whose first
    row is the app's export's (``is_export_header``) is read as an export, any other as paper."""
    read = ReadSheet()
    name = shorten(sheet, MAX_SHEET_NAME)
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row):
            if isinstance(value, Refused):
                read.fault(f"{_where(name, r, c)}: {value.why}")
    if not read.faults:
        if rows and is_export_header(rows[0]):
            _read_export(read, rows, rules, name)
        else:
            _read(read, rows, rules, name)
    if read.unlisted:
        read.faults.append(ngettext("and {n} more", "and {n} more", read.unlisted).format(n=read.unlisted))
    return read


def _where(sheet: str, row: int, column: int | None = None, name: str | None = None) -> str:
    """A fault's place: ``sheet 1, row 5, column C (Ben)``."""
    place = _("sheet {sheet}, row {row}").format(sheet=sheet, row=row)
    if column is not None:
        place += _(", column {column}").format(column=column_name(column))
    return f"{place} ({name})" if name else place


def _read(read: ReadSheet, rows: Sequence[Sequence[Value]], rules: Rules, sheet: str) -> None:
    def where(row: int, column: int | None = None, name: str | None = None) -> str:
        return _where(sheet, row, column, name)

    def fault(place: str, message: str) -> None:
        read.fault(f"{place}: {message}")

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
        message = ngettext(
            "{title} has {n} {word}; the sheet goes on", "{title} has {n} {words}; the sheet goes on", rules.last_round
        )
        words = {"word": _(rules.round_word), "words": _(rules.round_plural)}
        fault(where(body[rules.last_round][0]), message.format(title=rules.display_name, n=rules.last_round, **words))
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


# --- the app's own export: a row per player per round ------------------------------------


# The rows of the longest export a game can have: a header, a row per player per round of the
# longest game with the most players any ruleset allows (a house ruleset's limits hold every
# built-in's too), a total row per player: 1 + 20 x 10 + 10 = 211.
LONG_ROWS = 1 + MAX_ROUNDS * MAX_PLAYERS + MAX_PLAYERS


def is_export_header(row: Sequence[Value]) -> bool:
    """Whether a sheet's first row is the app's export's: a round word, then at least three of
    the export's other column names."""
    texts = [_text(v).casefold() for v in row]
    return bool(texts) and texts[0] in ROUND_WORDS and len(set(texts[1:]) & set(EXPORT_COLUMNS)) >= 3


def _misread(text: str) -> bool:
    """Whether a spreadsheet would read a text cell as something else: a formula (its first
    character), a number or a date (a digit first: "1.2.3" is a date to one), a truth value, or
    a text already marked as text (an apostrophe first)."""
    return text.startswith((*FORMULA_STARTS, "'")) or text[:1].isdigit() or text.casefold() in ("true", "false")


def sheet_text(text: str) -> str:
    """A text cell as the export writes it, for a spreadsheet to show as typed: an apostrophe
    before what it would misread (OWASP's advice against CSV injection, and the mark spreadsheets
    take for "this is text"). ``_name`` reads it back."""
    return "'" + text if _misread(text) else text


def _name(value: Value) -> str:
    """A name as the export wrote it (``sheet_text``), read back: its apostrophe taken off."""
    text = clean_name(_text(value))
    return text[1:] if text.startswith("'") and _misread(text[1:]) else text


Row = tuple[int, Sequence[Value]]  # a sheet's row number and its cells
_FIELD_COLUMN = {"hands": "cards", "points": "penalty", "buys": "buys", "winner": "went out", "cut_bonus": "adjustment"}


@dataclass(frozen=True)
class _Line:
    """One player's row of a round, its numbers read."""

    row: int
    cards: str
    penalty: int
    adjustment: int
    points: int
    buys: int


class _Export:
    """The export's rows read and checked: the columns by the first row, the players by round 1
    (in their seats' order, as the export writes them), then round by round, then the totals."""

    def __init__(self, read: ReadSheet, rules: Rules, sheet: str) -> None:
        self.read, self.rules, self.sheet = read, rules, sheet
        self.columns: dict[str, int] = {}
        self.players: list[str] = []
        self.seats: dict[str, int] = {}
        self.first: int | None = None  # the seat that dealt round 1, if known
        self.sums: dict[str, int] = {}  # each player's points over the rounds read

    def where(self, row: int, column: str | None = None, name: str | None = None) -> str:
        return _where(self.sheet, row, self.columns[column] if column else None, name)

    def fault(self, place: str, message: str) -> None:
        self.read.fault(f"{place}: {message}")

    @property
    def said(self) -> int:
        """Faults so far, listed or not."""
        return len(self.read.faults) + self.read.unlisted

    def cell(self, row: Sequence[Value], column: str) -> Value:
        c = self.columns[column]
        return row[c] if c < len(row) else None

    def header(self, head: Sequence[Value]) -> None:
        rules = self.rules
        word = _text(head[0])
        if word.casefold() != rules.round_word:
            message = _("{title}'s export names its first column {word!r}, not {value!r}: are these its rules?")
            self.fault(
                _where(self.sheet, 1, 0), message.format(title=rules.display_name, word=rules.round_word, value=word)
            )
        self.columns["round"] = 0
        for c, value in enumerate(head[1:], start=1):
            text = _text(value)
            if not text:
                continue
            if text.casefold() not in EXPORT_COLUMNS:
                message = _("{value!r} is not a column of this app's export").format(value=shorten(text, MAX_VALUE))
                self.fault(_where(self.sheet, 1, c), message)
            elif text.casefold() in self.columns:
                message = _("the column {name!r} is in the first row twice").format(name=text.casefold())
                self.fault(_where(self.sheet, 1, c), message)
            else:
                self.columns[text.casefold()] = c
        for column in EXPORT_COLUMNS:
            if column not in self.columns:
                self.fault(_where(self.sheet, 1), _("the export's column {name!r} is missing").format(name=column))

    def body(self, rows: Sequence[Sequence[Value]]) -> tuple[list[tuple[int, list[Row]]], list[Row]]:
        """The rows of each round, in order, and the total rows after them."""
        rules = self.rules
        known = set(self.columns.values())
        groups: list[tuple[int, list[Row]]] = []
        totals: list[Row] = []
        for r, row in enumerate(rows[1:], start=2):
            if not any(_text(v) for v in row):
                continue
            for c, value in enumerate(row):
                if c not in known and _text(value):
                    message = _("{value!r} is in no column of the export").format(
                        value=shorten(_text(value), MAX_VALUE)
                    )
                    self.fault(_where(self.sheet, r, c), message)
            label = self.cell(row, "round")
            if _text(label).casefold() in TOTALS:
                totals.append((r, row))
                continue
            number = _whole(label)
            if number is None or number < 1:
                message = _('{value!r} is neither the number of a round nor "total"')
                self.fault(self.where(r, "round"), message.format(value=shorten(_text(label), MAX_VALUE)))
                continue
            if totals:
                message = _("a row of {where} after the total rows: they come last")
                self.fault(self.where(r, "round"), message.format(where=rules.round_name(number)))
                continue
            current = groups[-1][0] if groups else 0
            if number == current:
                groups[-1][1].append((r, row))
            elif number == current + 1 and number > rules.last_round:
                message = ngettext(
                    "{title} has {n} {word}; the sheet goes on",
                    "{title} has {n} {words}; the sheet goes on",
                    rules.last_round,
                )
                words = {"word": _(rules.round_word), "words": _(rules.round_plural)}
                self.fault(
                    self.where(r, "round"), message.format(title=rules.display_name, n=rules.last_round, **words)
                )
                break
            elif number == current + 1:
                groups.append((number, [(r, row)]))
            else:
                found = rules.round_name(number)
                if current:
                    message = _("{found} is out of order here: {next} comes after {last}").format(
                        found=found, next=rules.round_name(current + 1), last=rules.round_name(current)
                    )
                else:
                    message = _("{found} is out of order here: the rows begin with {first}").format(
                        found=found, first=rules.round_name(1)
                    )
                self.fault(self.where(r, "round"), message)
        return groups, totals

    def seat_players(self, source: Sequence[Row]) -> bool:
        """The players, as round 1 names them (or the total rows, if no round was played)."""
        rules = self.rules
        before = self.said
        names: list[str] = []
        for r, row in source:
            name = _name(self.cell(row, "player"))
            if not name:
                self.fault(self.where(r, "player"), _("a player's name is missing"))
            elif len(name) > MAX_NAME:
                self.fault(self.where(r, "player"), _("a name is at most {n} characters").format(n=MAX_NAME))
            elif any(name_key(name) == name_key(n) for n in names):
                self.fault(self.where(r, "player", name), _("{name} has a row here already").format(name=name))
            else:
                names.append(name)
        if not rules.min_players <= len(names) <= rules.max_players:
            message = _("{n} players named; {title} is played by {low} to {high}").format(
                n=len(names), title=rules.display_name, low=rules.min_players, high=rules.max_players
            )
            self.fault(_where(self.sheet, source[0][0] if source else 1), message)
        if self.said > before:
            return False
        self.players = names
        self.seats = {name_key(n): seat for seat, n in enumerate(names)}
        self.sums = dict.fromkeys(names, 0)
        return True

    def seat_of(self, r: int, row: Sequence[Value], column: str) -> int | None:
        """The seat of the player a cell names, or None (a fault said)."""
        name = _name(self.cell(row, column))
        seat = self.seats.get(name_key(name))
        if not name:
            self.fault(self.where(r, column), _("a player's name is missing"))
        elif seat is None:
            message = _("There is no player named {name!r} in this game").format(name=shorten(name, MAX_VALUE))
            self.fault(self.where(r, column), message)
        return seat

    def number(self, r: int, row: Sequence[Value], column: str, name: str) -> int | None:
        value = self.cell(row, column)
        whole = _whole(value)
        if whole is None:
            shown = shorten(_text(value), MAX_VALUE) or _("nothing")
            if column == "buys":
                message = _("{name}'s buys must be a whole number of 0 or more, not {value!r}")
                self.fault(self.where(r, column, name), message.format(name=name, value=shown))
            else:
                self.fault(self.where(r, column, name), _("{value!r} is not a number of points").format(value=shown))
        return whole

    def lines(self, number: int, group: Sequence[Row]) -> tuple[str | None, dict[int, _Line]] | None:
        """Who went out of a round and each seat's row, checked cell by cell; None: a fault said."""
        rules, players = self.rules, self.players
        before = self.said
        where = rules.round_name(number)
        wild = rules.wild_rank(number)
        wild_rank = rank_text(wild) if wild is not None else ""
        dealer = players[dealer_seat(self.first, number, len(players))] if self.first is not None else None
        winner: str | None = None
        lines: dict[int, _Line] = {}
        for r, row in group:
            seat = self.seat_of(r, row, "player")
            if seat is None:
                continue
            name = players[seat]
            if seat in lines:
                self.fault(self.where(r, "player", name), _("{name} has a row here already").format(name=name))
                continue
            said = _name(self.cell(row, "dealer"))
            if dealer is not None and name_key(said) != name_key(dealer):
                message = _("{dealer} deals {where} (the deal passes to the left); the sheet says {said!r}")
                self.fault(
                    self.where(r, "dealer", name),
                    message.format(dealer=dealer, where=where, said=shorten(said, MAX_VALUE)),
                )
            said = _text(self.cell(row, "wild rank"))
            if said.casefold() != wild_rank.casefold():
                message = _("{value!r} is not the wild rank of {where}: {wilds}")
                self.fault(
                    self.where(r, "wild rank", name),
                    message.format(
                        value=shorten(said, MAX_VALUE) or _("nothing"), where=where, wilds=rules.wild_words(number)
                    ),
                )
            out = _text(self.cell(row, "went out"))
            if out.casefold() == "yes" and winner is not None:
                message = _("{name} already went out in {where}: one player goes out")
                self.fault(self.where(r, "went out", name), message.format(name=winner, where=where))
            elif out.casefold() == "yes":
                winner = name
            elif out:
                message = _('{value!r}: this column says "yes" for the one who went out, else nothing')
                self.fault(self.where(r, "went out", name), message.format(value=shorten(out, MAX_VALUE)))
            penalty, adjustment, points, buys = (
                self.number(r, row, column, name) for column in ("penalty", "adjustment", "points", "buys")
            )
            if penalty is None or adjustment is None or points is None or buys is None:
                continue
            cards = " ".join(shorten(t, MAX_TOKEN) for t in card_tokens(_text(self.cell(row, "cards"))))
            lines[seat] = _Line(r, cards, penalty, adjustment, points, buys)
        missing = [players[s] for s in range(len(players)) if s not in lines]
        if missing and self.said == before:
            message = _("{where} has no row for {names}").format(where=where, names=names_and(missing))
            self.fault(_where(self.sheet, group[0][0]), message)
        return None if self.said > before else (winner, lines)

    def round(self, number: int, group: Sequence[Row]) -> SheetRound | None:
        """A round read, scored by the rules and checked against what the export says of it."""
        rules, players = self.rules, self.players
        read = self.lines(number, group)
        if read is None:
            return None
        before = self.said
        winner, lines = read
        first = self.first or 0
        cutter = cutter_seat(dealer_seat(first, number, len(players)), len(players))
        cut_bonus = bool(rules.cut_bonus) and lines[cutter].adjustment == -rules.cut_bonus
        hands: dict[str, str] = {}
        points: dict[str, int] = {}
        buys: dict[str, int] = {}
        for seat, line in lines.items():
            name = players[seat]
            if line.cards:
                hands[name] = line.cards
            elif name != winner or line.penalty:  # the one who went out scores 0: said if not
                points[name] = line.penalty
            if line.buys:
                buys[name] = line.buys
        entry = RoundEntry(winner=winner, hands=hands, points=points, buys=buys, cut_bonus=cut_bonus)
        scored = score_round(rules, number, names=players, first_dealer_seat=first, entry=entry)
        winner_row = next((ln.row for s, ln in lines.items() if players[s] == winner), group[0][0])
        for key, messages in scored.errors.items():
            about = self.seats.get(name_key(key.player)) if key.player is not None else None
            column = _FIELD_COLUMN[key.kind]
            if about is not None:
                place = self.where(lines[about].row, column, players[about])
            else:  # every hand at once, who went out, the cut bonus
                place = self.where(winner_row, column)
            for message in messages:
                self.fault(place, message)
        if not scored.ok:
            return None
        for hand in scored.hands:
            line, name = lines[hand.seat], players[hand.seat]
            if not hand.typed and hand.penalty != line.penalty:
                message = _("the cards score {score}; the sheet says {said}")
                self.fault(self.where(line.row, "penalty", name), message.format(score=hand.penalty, said=line.penalty))
            if hand.adjustment != line.adjustment:
                if rules.cut_bonus:
                    message = _(
                        "{said} is no adjustment here: the only one is the cut bonus, {bonus} to the one who cuts "
                        "{where} ({cutter})"
                    ).format(
                        said=line.adjustment,
                        bonus=-rules.cut_bonus,
                        where=rules.round_name(number),
                        cutter=players[cutter],
                    )
                else:
                    message = _("{said} is no adjustment: {title} has none").format(
                        said=line.adjustment, title=rules.display_name
                    )
                self.fault(self.where(line.row, "adjustment", name), message)
            if line.penalty + line.adjustment != line.points:
                message = _("the penalty and the adjustment make {sum}; the sheet says {said}")
                self.fault(
                    self.where(line.row, "points", name),
                    message.format(sum=line.penalty + line.adjustment, said=line.points),
                )
        if self.said > before:
            return None
        for seat, line in lines.items():
            self.sums[players[seat]] += line.points
        typed = {n: v for n, v in points.items() if n != winner}
        return SheetRound(group[0][0], number, winner, typed, hands=hands, buys=buys, cut_bonus=cut_bonus)

    def totals(self, totals: Sequence[Row], sums: dict[str, int] | None) -> None:
        """Each total row names a player, once; its points the rounds' sum (when every round was read)."""
        seen: set[int] = set()
        for r, row in totals:
            seat = self.seat_of(r, row, "player")
            if seat is None:
                continue
            name = self.players[seat]
            if seat in seen:
                self.fault(self.where(r, "player", name), _("{name} has a row here already").format(name=name))
                continue
            seen.add(seat)
            for column in EXPORT_COLUMNS:
                extra = _text(self.cell(row, column))
                if extra and column not in ("player", "points"):
                    message = _("a total row holds a player and their points, not {value!r}")
                    self.fault(self.where(r, column, name), message.format(value=shorten(extra, MAX_VALUE)))
            value = self.cell(row, "points")
            said = _whole(value)
            if said is None and _text(value):
                message = _("{value!r} is not a number of points").format(value=shorten(_text(value), MAX_VALUE))
                self.fault(self.where(r, "points", name), message)
            elif said is not None and sums is not None and said != sums[name]:
                message = _("the totals row says {said}; the rounds add up to {sum}")
                self.fault(self.where(r, "points", name), message.format(said=said, sum=sums[name]))


def _read_export(read: ReadSheet, rows: Sequence[Sequence[Value]], rules: Rules, sheet: str) -> None:
    export = _Export(read, rules, sheet)
    export.header(rows[0])
    if export.said:
        return
    groups, totals = export.body(rows)
    if not export.seat_players(groups[0][1] if groups else totals):
        return
    if groups:
        r, row = groups[0][1][0]
        export.first = export.seat_of(r, row, "dealer")
    for number, group in groups:
        made = export.round(number, group)
        if made is not None:
            read.rounds.append(made)
    export.totals(totals, export.sums if not export.said else None)
    read.players, read.first_dealer = export.players, export.first or 0
