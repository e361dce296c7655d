"""Hostile score sheets are cheap to refuse (issue 33): every fault said is bounded (the sheet's
name and the values quoted cut short, a few dozen listed and the rest counted), every error answer
of the API is bounded, a book is measured before openpyxl parses it, a refused import still counts
against the new-game limit, and what used to answer 500 is said in words."""

import csv
import io
import re
import warnings
import zipfile

import openpyxl
import pytest

from scorekeeping.models import Game
from scorekeeping.services.sheets import MAX_BYTES
from tests.scorekeeping.sheets import GOOD, csv_bytes, named, upload, xlsx_bytes

pytestmark = pytest.mark.django_db

PAGE = "/games/import/sheet/"
TITLE = 200_000  # characters of the sheet's name: workbook.xml still within a part's bound (300,000 is not)
NS = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
STRINGS_TYPE = (
    b'<Override PartName="/xl/sharedStrings.xml" '
    b'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
)


def formulas_sheet(title):
    """The finding's file: a first sheet named with ``title`` and 60 rows of 12 formulas (720 faults)."""
    book = openpyxl.Workbook()
    sheet = book.active
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # openpyxl only warns past Excel's 31 characters
        sheet.title = title
    for r in range(1, 61):
        for c in range(1, 13):
            sheet.cell(r, c, f"=A{r}+{c}")
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def with_parts(data, change):
    """An XLSX with some parts rewritten: ``change(name, body)`` gives each part's new body."""
    old = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as new:
        for info in old.infolist():
            new.writestr(info.filename, change(info.filename, old.read(info)))
        added = change("xl/sharedStrings.xml", b"")
        if added and "xl/sharedStrings.xml" not in old.namelist():
            new.writestr("xl/sharedStrings.xml", added)
    return out.getvalue()


def bomb(kind):
    """A small XLSX (a formula in a good sheet) with one part openpyxl would parse for seconds."""
    data = xlsx_bytes([["Round", "Ana", "Ben"], [1, 0, "=1+1"]], "Sheet")

    def change(name, body):
        if kind == "shared strings":
            if name == "[Content_Types].xml":
                return body.replace(b"</Types>", STRINGS_TYPE + b"</Types>")
            if name == "xl/sharedStrings.xml":
                n = 230_000
                head = b'<sst %s count="%d" uniqueCount="%d">' % (NS, n, n)
                return head + b"<si><t>x</t></si>" * n + b"</sst>"
        if kind == "styles" and name == "xl/styles.xml":
            styles = b"<cellXfs>" + b"<xf/>" * 100_000 + b"</cellXfs>"
            return re.sub(rb"<cellXfs.*?</cellXfs>", styles, body, flags=re.S)
        if kind == "names" and name == "xl/workbook.xml":
            names = b"".join(b'<definedName name="n%d">Sheet!$A$1</definedName>' % i for i in range(70_000))
            return body.replace(b"</workbook>", b"<definedNames>" + names + b"</definedNames></workbook>")
        if kind == "a wide row" and name == "xl/worksheets/sheet1.xml":
            return body.replace(b"<sheetData>", b'<sheetData><row r="1">' + b"<c><v>1</v></c>" * 200_000 + b"</row>")
        return body

    return with_parts(data, change)


def test_a_hostile_sheets_faults_are_bounded_in_the_api_and_on_the_page(client):
    data = formulas_sheet("S" * TITLE)
    answer = upload(client, data, "old.xlsx", ruleset="mexican")
    assert answer.status_code == 400
    assert len(answer.content) < 20_000
    body = answer.json()
    faults = body["errors"]["file"]
    assert len(faults) == 26 and faults[-1] == "and 695 more"
    assert faults[0] == "sheet " + "S" * 30 + "…, row 1, column A: a formula (=A1+1): type the number it shows"
    assert len(body["detail"]) <= 500
    page = client.post(PAGE, {"file": named(data, "old.xlsx"), "ruleset": "mexican"})
    assert page.status_code == 422
    html = page.content.decode()
    assert len(page.content) < 40_000 and "and 695 more" in html and "S" * 31 not in html
    assert html.count("a formula (=") == 25
    assert Game.objects.count() == 0


def test_the_findings_own_file_is_refused_small(client):
    answer = upload(client, formulas_sheet("S" * 300_000), "old.xlsx", ruleset="mexican")
    assert answer.status_code == 400 and len(answer.content) < 1_000
    assert "the file unpacks to too much for a score sheet" in answer.json()["detail"]
    assert Game.objects.count() == 0


def test_a_long_value_is_quoted_cut_short(client):
    rows = [["Round", "Ana", "Ben"], [1, 0, "x" * 10_000], [2, "=" + "1" * 10_000, 0]]
    faults = upload(client, csv_bytes(rows), ruleset="mexican").json()["errors"]["file"]
    assert faults == ["sheet 1, row 3, column B: a formula (=" + "1" * 38 + "…): type the number it shows"]
    rows = [["Round", "Ana", "Ben"], [1, 0, "x" * 10_000]]
    faults = upload(client, csv_bytes(rows), ruleset="mexican").json()["errors"]["file"]
    assert faults == ["sheet 1, row 2, column C (Ben): '" + "x" * 39 + "…' is not a number of points"]


def test_every_error_answer_of_the_api_is_bounded(client):
    """Not only a sheet's: a body of a thousand unknown long keys is refused in a bounded answer."""
    body = {f"{n:04d}" + "k" * 2_000: 1 for n in range(1_000)}
    answer = client.post("/api/games/", body, content_type="application/json")
    assert answer.status_code == 400
    assert len(answer.content) < 20_000
    errors = answer.json()["errors"]
    assert len(errors) <= 21 and errors["non_field_errors"][-1].startswith("and ")
    assert all(len(key) <= 100 and all(len(m) <= 300 for m in said) for key, said in errors.items())
    assert len(answer.json()["detail"]) <= 500


@pytest.mark.parametrize("kind", ["shared strings", "styles", "names", "a wide row"])
def test_a_book_that_would_parse_for_seconds_is_refused_before_it_is_parsed(client, kind):
    data = bomb(kind)
    assert len(data) < MAX_BYTES  # a small file that unpacks to megabytes of XML
    answer = upload(client, data, "bomb.xlsx", ruleset="mexican")
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"file": ["the file unpacks to too much for a score sheet"]}


def lying(data):
    """The sheet's <dimension> says A1:C3, whatever it holds (openpyxl's read-only mode believes it)."""

    def change(name, body):
        if name == "xl/worksheets/sheet1.xml":
            return re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:C3"', body)
        return body

    return with_parts(data, change)


@pytest.mark.parametrize("said", ["honest", "lying"])
def test_a_player_past_an_empty_column_is_not_lost(client, said):
    """Read bounded to 12 columns, the sheet still sees a cell further right: refused, not dropped."""
    data = xlsx_bytes([["Round", "Ana", "Ben", *[None] * 12, "Cy"], [1, 0, 5, *[None] * 12, 10]])
    answer = upload(client, lying(data) if said == "lying" else data, "wide.xlsx", ruleset="mexican")
    assert answer.status_code == 400
    assert answer.json()["errors"]["file"] == [
        "the sheet has 16 columns; a score sheet has at most 12"
        if said == "honest"
        else "the sheet has more than 12 columns; a score sheet has at most 12"
    ]


@pytest.mark.parametrize("said", ["honest", "lying"])
def test_a_sheet_past_its_rows_is_refused_without_reading_on(client, said):
    data = xlsx_bytes([["Round", "Ana", "Ben"], *[[n, 0, 5] for n in range(1, 500)]])
    answer = upload(client, lying(data) if said == "lying" else data, "long.xlsx", ruleset="mexican")
    assert answer.status_code == 400
    assert answer.json()["errors"]["file"] == [
        "the sheet has 500 rows; a score sheet has at most 60"
        if said == "honest"
        else "the sheet has more than 60 rows; a score sheet has at most 60"
    ]


@pytest.mark.parametrize("where", ["api", "page"])
def test_refused_imports_count_nothing_against_the_new_game_limit(client, settings, where):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "create": (2, 3600)}

    def send(data):
        if where == "api":
            return upload(client, data, "s.csv", ruleset="mexican")
        return client.post(PAGE, {"file": named(data, "s.csv"), "ruleset": "mexican"})

    refused = csv_bytes([["Round", "Ana", "Ben"], [1, 0, 12]])
    assert [send(refused).status_code for _ in range(3)] == ([400] * 3 if where == "api" else [422] * 3)
    assert [send(csv_bytes(GOOD)).status_code for _ in range(2)] == ([201, 201] if where == "api" else [302, 302])
    assert send(csv_bytes(GOOD)).status_code == (429 if where == "api" else 422)
    assert Game.objects.count() == 2


def test_a_csv_cell_past_the_field_limit_is_said_in_words(client):
    data = b"Round,Ana,Ben\n1,0," + b"5" * (csv.field_size_limit() + 10)
    answer = upload(client, data, ruleset="mexican")
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"file": [f"a cell holds more than {csv.field_size_limit()} characters"]}


def test_a_workbook_without_a_sheet_is_said_in_words(client):
    def change(name, body):
        if name == "xl/workbook.xml":
            return re.sub(rb"<sheets>.*?</sheets>", b"<sheets></sheets>", body, flags=re.S)
        return body

    data = with_parts(xlsx_bytes(GOOD), change)
    answer = upload(client, data, "empty.xlsx", ruleset="mexican")
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"file": ["the workbook holds no sheet"]}


def test_merged_cells_are_found_in_one_pass_even_in_a_sheet_of_unclosed_tags(client):
    """A worksheet of 15,000 "<mergeCell " with no ">" (5 KB packed): the merge check scanned to the
    part's end for each (10 s for 2,000); it now reads each tag's next 200 bytes only."""
    data = xlsx_bytes([["Round", "Ana", "Ben"], [1, 0, 5]], "Sheet")

    def change(name, body):
        if name != "xl/worksheets/sheet1.xml":
            return body
        evil = b"<worksheet " + NS + b'><dimension ref="A1"/>' + b"<mergeCell " * 15_000
        return evil + b"a" * (250_000 - len(evil))

    answer = upload(client, with_parts(data, change), "merged.xlsx", ruleset="mexican")
    assert answer.status_code == 400
    assert "merged cells (?, ?, ?)" in answer.json()["detail"], answer.json()
