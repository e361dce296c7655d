"""Old paper score sheets made games: a CSV or XLSX file opened into rows of plain values (what no
paper sheet holds refused in words: a file too big, a formula, a date, merged cells, thousands of
rows), read and checked by the engine (``referee.engine.sheets``), then recorded round by round
by the services that record at the table, as a game of the server or of a club (a club night of
one sitting, its date given).

Hostile files: the size is bounded before anything is opened; an XLSX (a zip) is refused if its
parts would unpack to more than ``MAX_UNPACKED`` or number more than ``MAX_PARTS``, if one part
unpacks to more than ``MAX_PART`` (the shared strings, the styles, the sheet...), or if its XML
holds more than ``MAX_TAGS`` elements, all before openpyxl parses any of it: what openpyxl costs
goes by the elements it parses (as much as 40 µs each for a style), not by the bytes, and a few
kilobytes unpack to megabytes of them. openpyxl then reads it with Python's XML parser (expat:
entity expansion is refused), in read-only mode: only the first sheet's rows are parsed, and
no further than row ``MAX_ROWS`` + 1, where the sheet is refused as too long. A sheet whose first
row is the app's CSV export's (``is_export_header``) may be longer: ``LONG_ROWS`` rows, the
longest export a game of any ruleset can have (211: twenty rounds of ten players).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
import re
import zipfile
from collections.abc import Sequence
from typing import Any

import openpyxl
from django.db import transaction
from django.utils.translation import gettext as _

from referee.engine.sheets import (
    LONG_ROWS,
    MAX_SHEET_NAME,
    MAX_VALUE,
    Refused,
    Value,
    is_export_header,
    read_sheet,
    shorten,
)
from scorekeeping.errors import InvalidInput
from scorekeeping.models import Club, ClubTable, Game, Night, Sitting
from scorekeeping.services.clubs import members_of
from scorekeeping.services.games import game_create, rules_of
from scorekeeping.services.rounds import round_record
from scorekeeping.services.sittings import table_token

MAX_BYTES = 256 * 1024
MAX_UNPACKED = 4 * 1024 * 1024
MAX_PARTS = 200
MAX_PART = 256 * 1024  # a part's unpacked size
MAX_TAGS = 16_000  # XML elements in the whole book, counted by their "<" (a full score sheet has about 4,000)
MAX_ROWS = 60  # a paper sheet's; the app's own export may have LONG_ROWS
MAX_COLUMNS = 12
DATE = re.compile(r"^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$")
# A merged range in a worksheet's XML (read-only openpyxl keeps none): <mergeCell ref="B1:C1"/>.
# Found in linear time: the tag's start, then its ref within the next 200 bytes (a pattern that
# scans on to the part's end for each tag took 10 s over a 5 KB file).
MERGED = re.compile(rb"<(?:[\w.-]+:)?mergeCell\s")
MERGED_REF = re.compile(rb"\bref\s*=\s*[\"']([^\"'<>]{1,40})")


def _merged(xml: bytes) -> list[bytes]:
    """The first three merged ranges a worksheet's XML names (empty: none merged)."""
    refs = []
    for found in itertools.islice(MERGED.finditer(xml), 3):
        ref = MERGED_REF.search(xml, found.end(), found.end() + 200)
        refs.append(ref.group(1) if ref else b"?")
    return refs


def _formula(text: str) -> Refused:
    return Refused(_("a formula ({text}): type the number it shows").format(text=shorten(text, MAX_VALUE)))


def _date() -> Refused:
    return Refused(_("a date: a score sheet's cells hold points"))


def _most_rows(head: Sequence[Value]) -> int:
    """The rows a sheet may have, by its first row: the app's export may be longer than paper."""
    return LONG_ROWS if is_export_header(head) else MAX_ROWS


def _too_big(rows: int, columns: int, most_rows: int = MAX_ROWS) -> InvalidInput | None:
    if rows > most_rows:
        return InvalidInput(
            _("the sheet has {n} rows; a score sheet has at most {most}").format(n=rows, most=most_rows), "file"
        )
    if columns > MAX_COLUMNS:
        return InvalidInput(
            _("the sheet has {n} columns; a score sheet has at most {most}").format(n=columns, most=MAX_COLUMNS), "file"
        )
    return None


def _too_much() -> InvalidInput:
    return InvalidInput(_("the file unpacks to too much for a score sheet"), "file")


def _measure(packed: zipfile.ZipFile) -> None:
    """Refuse a book that unpacks to too much, before openpyxl parses any of it."""
    parts = packed.infolist()
    if len(parts) > MAX_PARTS or sum(p.file_size for p in parts) > MAX_UNPACKED:
        raise _too_much()
    tags = 0
    for part in parts:
        if part.file_size > MAX_PART:
            raise _too_much()
        with packed.open(part) as source:
            tags += source.read(MAX_PART + 1).count(b"<")  # zipfile holds a part to its stated size
        if tags > MAX_TAGS:
            raise _too_much()


def _value(cell: Any) -> Value:
    value = cell.value
    if cell.data_type == "f" or (isinstance(value, str) and value.startswith("=")):
        return _formula(str(value))
    if isinstance(value, dt.date | dt.time | dt.timedelta):
        return _date()
    if value is None or (isinstance(value, str | int | float) and not isinstance(value, bool)):
        return value
    return Refused(_("a value that is no number of points"))


def _xlsx(data: bytes) -> tuple[str, list[list[Value]]]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as packed:
            _measure(packed)
            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False, keep_links=False)
            try:
                return _first_sheet(packed, book)
            finally:
                book.close()
    except InvalidInput:
        raise
    except Exception:
        raise InvalidInput(_("this is no spreadsheet this app can read (XLSX or CSV)"), "file") from None


def _first_sheet(packed: zipfile.ZipFile, book: Any) -> tuple[str, list[list[Value]]]:
    """The first sheet's name and rows, read no further than a score sheet goes."""
    if not book.worksheets:
        raise InvalidInput(_("the workbook holds no sheet"), "file")
    sheet = book.worksheets[0]
    most = MAX_ROWS
    if (sheet.max_row or 0) > MAX_ROWS:  # as the sheet's <dimension> says: too long, unless an export
        most = _most_rows(next(sheet.iter_rows(min_row=1, max_row=1, max_col=MAX_COLUMNS, values_only=True), ()))
    refused = _too_big(sheet.max_row or 0, sheet.max_column or 0, most)
    if refused:
        raise refused
    title = shorten(str(sheet.title), MAX_SHEET_NAME)
    merged = _merged(packed.read(sheet._worksheet_path))  # openpyxl's read-only sheets keep no merges
    if merged:
        raise InvalidInput(
            _("sheet {sheet}: merged cells ({cells}): a score sheet has one number a cell").format(
                sheet=title, cells=", ".join(shorten(m.decode(errors="replace"), 20) for m in merged[:3])
            ),
            "file",
        )
    sheet.reset_dimensions()  # which may be missing or lie: then each row is read as wide as it is
    rows: list[list[Value]] = []
    for number, row in enumerate(sheet.iter_rows(min_row=1, max_row=LONG_ROWS + 1), start=1):
        if any(cell.value is not None for cell in row[MAX_COLUMNS:]):
            raise InvalidInput(
                _("the sheet has more than {most} columns; a score sheet has at most {most}").format(most=MAX_COLUMNS),
                "file",
            )
        values = [_value(cell) for cell in row[:MAX_COLUMNS]]
        if number == 1:
            most = _most_rows(values)
        if number > most:
            if any(v is not None for v in values):
                raise InvalidInput(
                    _("the sheet has more than {most} rows; a score sheet has at most {most}").format(most=most),
                    "file",
                )
            break
        rows.append(values)
    return sheet.title, rows


def _csv(data: bytes) -> tuple[str, list[list[Value]]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput(_("the file is no UTF-8 text: save the sheet as CSV (UTF-8)"), "file") from None
    if "\x00" in text:
        raise InvalidInput(_("this is no spreadsheet this app can read (XLSX or CSV)"), "file")
    lines = text.splitlines()
    # The delimiter splits the first row (the header: names or the export's columns) into the most
    # cells; names below it may hold any of them ("Ana; Ben's aunt" is one name of a comma sheet).
    first = next((line for line in lines if line.strip()), "")
    rows: list[list[Value]] = []
    try:
        delimiter = max(",;\t", key=lambda d: len(next(csv.reader([first], delimiter=d), [])))
        head = next(csv.reader(lines[:1], delimiter=delimiter), [])
        refused = _too_big(len(lines), 0, _most_rows(head))
        if refused:
            raise refused
        read = list(csv.reader(lines, delimiter=delimiter))
    except csv.Error:  # the one it raises here: a field past its limit
        most = csv.field_size_limit()
        raise InvalidInput(_("a cell holds more than {n} characters").format(n=most), "file") from None
    for row in read:
        refused = _too_big(0, len(row))
        if refused:
            raise refused
        values: list[Value] = []
        for cell in row:
            cell = cell.strip()
            if cell.startswith("="):
                values.append(_formula(cell))
            elif DATE.match(cell):
                values.append(_date())
            else:
                values.append(cell or None)
        rows.append(values)
    return "1", rows


def sheet_rows(data: bytes) -> tuple[str, list[list[Value]]]:
    """The first sheet's name and rows of a CSV or XLSX file (told apart by their first bytes)."""
    if len(data) > MAX_BYTES:
        raise InvalidInput(
            _("the file is {n} KB; a score sheet is at most {most} KB").format(
                n=len(data) // 1024, most=MAX_BYTES // 1024
            ),
            "file",
        )
    if not data.strip():
        raise InvalidInput(_("the file is empty"), "file")
    return _xlsx(data) if data[:4] == b"PK\x03\x04" else _csv(data)


def sheet_import(
    *,
    data: bytes,
    ruleset: str,
    variants: Sequence[str],
    club: Club | None = None,
    organiser_token: str = "",
    date: dt.date | None = None,
) -> tuple[Game, str]:
    """A new game from a score sheet (or the app's own CSV export of a game, its cards, typed points,
    buys and cut bonuses), every round recorded as the table would; refused whole, with every fault
    in words, if anything is off. In a club: a finished night of one table on ``date``."""
    rules = rules_of(ruleset, variants)
    name, rows = sheet_rows(data)
    read = read_sheet(rows, rules, name)
    if read.faults:
        raise InvalidInput({"file": read.faults})
    with transaction.atomic():
        token = None
        night = None
        if club is not None:
            members = members_of(club, read.players)
            night = Night.objects.create(
                club=club,
                date=date or dt.date.today(),
                ruleset=rules.slug,
                variants=list(rules.variants),
                sittings=1,
                table_size=len(read.players),
                status=Night.Status.FINISHED,
            )
            token = table_token(organiser_token, (night.pk, 1, 1))
        players = read.players
        first_dealer = players[read.first_dealer]
        game, token = game_create(
            ruleset=rules.slug, variants=list(rules.variants), players=players, first_dealer=first_dealer, token=token
        )
        for rnd in read.rounds:
            round_record(game=game, number=rnd.number, entry=rnd.entry)
        if club is not None and night is not None:
            sitting = Sitting.objects.create(night=night, number=1, seed=0)
            ClubTable.objects.create(sitting=sitting, number=1, game=game, members=[m.pk for m in members])
    return game, token
