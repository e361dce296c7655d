"""Old paper score sheets made games (issue 26): CSV and XLSX laid out as people keep them, each
round checked as typed points are, every fault said with its sheet, row and column, and hostile
files refused in words, changing nothing."""

import io
import zipfile

import pytest

from scorekeeping.models import ClubTable, Game, Member, Night
from tests.scorekeeping.sheets import GOOD, URL, csv_bytes, named, upload, xlsx_bytes

pytestmark = pytest.mark.django_db


# Mexican, three players: a round column, then Ana, Ben, Cy; the one who went out has 0.
@pytest.mark.parametrize("kind", ["csv", "csv;", "xlsx"])
def test_a_paper_sheet_becomes_a_game_with_every_round(client, kind):
    data = {"csv": csv_bytes(GOOD), "csv;": csv_bytes(GOOD, ";"), "xlsx": xlsx_bytes(GOOD)}[kind]
    answer = upload(client, data, "sheet.xlsx" if kind == "xlsx" else "sheet.csv", ruleset="mexican")
    assert answer.status_code == 201, answer.content
    made = answer.json()
    assert made["edit_token"] and [p["name"] for p in made["players"]] == ["Ana", "Ben", "Cy"]
    game = Game.objects.get(pk=made["id"])
    rounds = {r.number: (r.winner.name, {s.player.name: s.points for s in r.scores.all()}) for r in game.rounds.all()}
    assert rounds == {
        1: ("Ana", {"Ana": 0, "Ben": 10, "Cy": 25}),
        2: ("Ben", {"Ana": 15, "Ben": 0, "Cy": 5}),
        3: ("Ana", {"Ana": 0, "Ben": 20, "Cy": 10}),
    }


@pytest.mark.parametrize(
    ("rows", "fault"),
    [
        (
            [["Round", "Ana", "Ben"], [1, 0, 12]],
            "sheet 1, row 2, column C (Ben): In round 1 every card scores 5, 10, 15 or 20: 12 is not a possible total",
        ),
        ([["Round", "Ana", "Ben"], [1, 0, "lots"]], "sheet 1, row 2, column C (Ben): 'lots' is not a number of points"),
        (
            [["Round", "Ana", "Ben"], [1, 0, None]],
            "sheet 1, row 2, column C (Ben): 'nothing' is not a number of points",
        ),
        ([["Round", "Ana", "Ana"], [1, 0, 5]], "sheet 1, row 1, column C (Ana): this name is in the first row twice"),
        ([["Round", "Ana"], [1, 0]], "sheet 1, row 1: 1 players named; Mexican Rummy is played by 2 to"),
        (
            [["Round", "Ana", "Ben"], [1, 0, 5], ["Total", 0, 10]],
            "sheet 1, row 3, column C (Ben): the totals row says 10; the rounds add up to 5",
        ),
        (
            [["Round", "Ana", "Ben"], *[[n, 0, 5] for n in range(1, 9)]],
            "sheet 1, row 9: Mexican Rummy has 7 rounds; the sheet goes on",
        ),
        (
            [["Round", "Ana", "Ben"], [1, "=B1+1", 5]],
            "sheet 1, row 2, column B: a formula (=B1+1): type the number it shows",
        ),
        (
            [["Round", "Ana", "Ben"], [1, "2024-01-05", 5]],
            "sheet 1, row 2, column B: a date: a score sheet's cells hold points",
        ),
    ],
    ids=[
        "impossible points",
        "words",
        "empty cell",
        "a name twice",
        "one player",
        "totals",
        "8 rounds",
        "formula",
        "date",
    ],
)
def test_each_fault_is_said_with_its_place_and_nothing_is_made(client, rows, fault):
    answer = upload(client, csv_bytes(rows), ruleset="mexican")
    assert answer.status_code == 400, answer.content
    faults = answer.json()["errors"]["file"]
    assert any(f.startswith(fault) for f in faults), faults
    assert Game.objects.count() == 0


def test_every_fault_at_once(client):
    rows = [["Round", "Ana", "Ben", "Cy"], [1, 0, 12, 5], [2, 5, "x", 0], [3, 0, 0, 5]]
    faults = upload(client, csv_bytes(rows), ruleset="mexican").json()["errors"]["file"]
    assert [f.split(":")[0] for f in faults] == [
        "sheet 1, row 2, column C (Ben)",
        "sheet 1, row 3, column C (Ben)",
        "sheet 1, row 4, column C (Ben)",  # two zeros: the first went out; Ben's 0 is no hand's score
    ]


def test_an_xlsx_names_its_sheet_and_refuses_formulas_dates_and_merged_cells(client):
    def formula(sheet):
        sheet["B5"] = "=SUM(B2:B4)"

    def date(sheet):
        import datetime

        sheet["C3"] = datetime.date(2024, 1, 5)

    def merged(sheet):
        sheet.merge_cells("B1:C1")

    said = {}
    for name, prepare in (("formula", formula), ("date", date), ("merged", merged)):
        answer = upload(client, xlsx_bytes(GOOD, "Club 1987", prepare), "old.xlsx", ruleset="mexican")
        assert answer.status_code == 400, answer.content
        said[name] = " ".join(answer.json()["errors"]["file"])
    assert "sheet Club 1987, row 5, column B: a formula (=SUM(B2:B4))" in said["formula"]
    assert "sheet Club 1987, row 3, column C: a date" in said["date"]
    assert "sheet Club 1987: merged cells (B1:C1)" in said["merged"]
    assert Game.objects.count() == 0


def test_hostile_files_are_refused_in_words(client):
    cases = {
        "too big": (b"Round,Ana,Ben\n" + b"1,0,5\n" * 60000, "a score sheet is at most 256 KB"),
        "thousands of rows": (csv_bytes([["Round", "Ana", "Ben"], *[[n, 0, 5] for n in range(1, 2000)]]), "rows"),
        "not utf-8": ("Round,Ana,Bén\n1,0,5".encode("latin-1"), "no UTF-8 text"),
        "not a spreadsheet": (b"PK\x03\x04garbage", "no spreadsheet this app can read"),
        "empty": (b"  \n", "the file is empty"),
    }
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as packed:
        packed.writestr("xl/big.xml", b"0" * (5 * 1024 * 1024))
    cases["zip bomb"] = (bomb.getvalue(), "unpacks to too much")
    for name, (data, words) in cases.items():
        answer = upload(client, data, ruleset="mexican")
        assert answer.status_code == 400, (name, answer.content)
        assert words in answer.content.decode(), (name, answer.content)
    assert upload(client, csv_bytes(GOOD), ruleset="bridge").status_code == 400
    assert client.post(URL, {"ruleset": "mexican"}).status_code == 400  # no file
    assert client.post(URL, {"file": named(csv_bytes(GOOD), "s.csv"), "admin": "1"}).status_code == 400
    assert Game.objects.count() == 0


def test_a_sheet_made_a_club_game_with_the_organisers_token_and_its_members(client):
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type="application/json").json()
    data = csv_bytes(GOOD)
    refused = upload(client, data, ruleset="mexican", club=made["id"])
    assert refused.status_code == 403 and Game.objects.count() == 0
    answer = client.post(
        URL,
        {"file": named(data, "s.csv"), "ruleset": "mexican", "club": made["id"], "date": "1987-03-14"},
        headers={"X-Club-Token": made["organiser_token"]},
    )
    assert answer.status_code == 201, answer.content
    table = ClubTable.objects.get(game_id=answer.json()["id"])
    night = Night.objects.get(pk=table.sitting.night_id)
    assert (night.date.isoformat(), night.status) == ("1987-03-14", "finished")
    assert [Member.objects.get(pk=pk).name for pk in table.members] == ["Ana", "Ben", "Cy"]
    story = client.get(f"/api/clubs/{made['id']}/members/Cy/").json()
    assert (story["games"], story["worst"]) == (0, None)  # three rounds of seven: not finished, not counted
    assert client.get(answer.json()["url"].replace("http://testserver", "")).status_code == 200
    edit = answer.json()["edit_url"].replace("http://testserver", "")
    assert client.get(edit).status_code == 302  # the edit link works: the organiser's token made it


def test_a_clubs_imported_sheets_count_as_its_drawn_tables_a_refused_one_not(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "club_tables": (1, 3600)}
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type="application/json").json()
    body = {"ruleset": "mexican", "club": made["id"]}
    headers = {"X-Club-Token": made["organiser_token"]}
    bad = client.post(URL, {"file": named(b"Ana,Ben\n=1+1,5\n", "s.csv"), **body}, headers=headers)
    assert bad.status_code == 400  # a formula: refused, and not counted
    good = client.post(URL, {"file": named(csv_bytes(GOOD), "s.csv"), **body}, headers=headers)
    assert good.status_code == 201, good.content
    again = client.post(URL, {"file": named(csv_bytes(GOOD), "s.csv"), **body}, headers=headers)
    assert again.status_code == 429 and "Too many tables drawn" in again.json()["detail"]
    assert Game.objects.count() == 1


@pytest.mark.parametrize("cell", ["²", "①", "٣", "1²", "--5", "+5", "1_000", "５"])
def test_a_number_cell_of_other_digits_is_named_not_a_server_error(client, cell):
    """One reader of number cells: ASCII digits only, a minus sign at most; anything else is named."""
    for kind in ("paper", "export"):
        if kind == "paper":
            rows = [row[:] for row in GOOD]
            rows[2][2] = cell
            data = csv_bytes(rows)
        else:
            head = "round,dealer,wild rank,player,went out,cards,penalty,adjustment,points,buys\n"
            data = (head + f"1,Ana,3,Ana,yes,,0,0,0,0\n1,Ana,3,Ben,,,{cell},0,{cell},0\n").encode()
        for sent in (data, xlsx_bytes([line.split(",") for line in data.decode().splitlines()])):
            answer = upload(client, sent, "s.xlsx" if sent is not data else "s.csv")
            assert answer.status_code == 400, (kind, answer.content)
            said = " ".join(answer.json()["errors"]["file"])
            assert f"{cell!r} is not a number of points" in said, said
    assert Game.objects.count() == 0


def test_a_refused_import_counts_nothing_against_new_games(client, settings):
    """A sheet or a game's document refused makes no game and uses none of the address's new games,
    by the API and by the page."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "create": (1, 3600)}
    bad_sheet = csv_bytes([["Round", "Ana", "Ben"], [1, 0, "²"]])
    for _ in range(3):
        assert upload(client, bad_sheet).status_code == 400
        page = client.post("/games/import/sheet/", {"file": named(bad_sheet, "s.csv"), "ruleset": "mexican"})
        assert page.status_code == 422
        assert client.post("/api/games/import/", {"x": 1}, content_type="application/json").status_code == 400
        assert client.post("/games/import/", {"document": "{}"}).status_code == 422
    assert upload(client, csv_bytes(GOOD)).status_code == 201  # the one new game is still there to make
    assert upload(client, csv_bytes(GOOD)).status_code == 429
    assert Game.objects.count() == 1
