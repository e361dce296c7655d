"""The app's own CSV export read back by the sheet import (issue 36): export, import, export gives
the same sheet for every ruleset, with cards, typed points, a corrected round, buys and Liverpool's
cut bonus; a tampered export is refused with each fault in its place (row, column, player), and
nothing is made."""

import csv
import io

import openpyxl
import pytest

from referee.engine import RULESETS, find_rules
from referee.engine.sheets import LONG_ROWS
from scorekeeping.models import Change, Game
from scorekeeping.services import RoundEntry, game_create, round_record, round_replace
from scorekeeping.services.rulesets import house_rules_save

pytestmark = pytest.mark.django_db

URL = "/api/games/import/sheet/"
PAGE = "/games/import/sheet/"


def _named(data, name="rummy.csv"):
    f = io.BytesIO(data)
    f.name = name
    return f


def played(ruleset, variants=()):
    """Three rounds of Ana, Ben and Cy, Ben dealing first: cards, typed points, buys where the
    rules have them, and a round recorded, then corrected (with the cut bonus, in Liverpool)."""
    rules = find_rules(ruleset, variants)
    game, _token = game_create(
        ruleset=ruleset, variants=list(variants), players=["Ana", "Ben", "Cy"], first_dealer="Ben"
    )
    buys = rules.buys.allowed
    round_record(game=game, number=1, entry=RoundEntry(winner="Ana", hands={"Ben": "5C KC", "Cy": "AS"}))
    typed = RoundEntry(winner="Ben", hands={"Cy": "2D 9H"}, points={"Ana": 30}, buys={"Cy": 1} if buys else {})
    round_record(game=game, number=2, entry=typed)
    round_record(game=game, number=3, entry=RoundEntry(winner="Cy", hands={"Ana": "3C", "Ben": "QD"}))
    corrected = RoundEntry(
        winner="Ana",
        hands={"Cy": "3C 4C"},
        points={"Ben": 20},
        buys={"Ben": 2} if buys else {},
        cut_bonus=bool(rules.cut_bonus),
    )
    round_replace(game=game, number=3, entry=corrected)
    return game


def export(client, game_id):
    answer = client.get(f"/g/{game_id}/export.csv")
    assert answer.status_code == 200
    return answer.content


def send(client, data, ruleset="mexican", variants=(), name="rummy.csv"):
    return client.post(URL, {"file": _named(data, name), "ruleset": ruleset, "variants": list(variants)})


def comes_back(client, game, variants=()):
    """The game's export imported (through the API), and the new game's export."""
    sheet = export(client, game.pk)
    answer = send(client, sheet, game.ruleset, variants)
    assert answer.status_code == 201, answer.content
    return sheet, Game.objects.get(pk=answer.json()["id"])


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_export_import_export_gives_the_same_sheet(client, ruleset):
    game = played(ruleset)
    sheet, made = comes_back(client, game)
    assert export(client, made.pk) == sheet
    assert made.first_dealer_seat == 1  # Ben dealt first, round 1's dealer
    assert [p.name for p in made.players.order_by("seat")] == ["Ana", "Ben", "Cy"]
    assert list(made.changes.order_by("id").values_list("action", flat=True)) == [Change.Action.RECORD] * 3
    third = made.rounds.get(number=3)
    assert third.cut_bonus is (ruleset == "liverpool")
    scores = {s.player.name: s for s in third.scores.all()}
    assert (scores["Ben"].typed, scores["Ben"].points, scores["Cy"].cards) == (True, 20, "3C 4C")
    if RULESETS[ruleset].buys.allowed:
        assert b",Ben,,,20,0,20,2\r\n" in sheet and scores["Ben"].buys == 2
    if ruleset == "liverpool":  # Ana deals round 3; Cy, on her right, cut exactly
        assert b"3,Ana,,Cy,,3C 4C,7,-50,-43,0\r\n" in sheet


def test_mexican_buys_come_back_with_their_variant(client):
    game = played("mexican", ["buy-discard"])
    sheet, made = comes_back(client, game, ["buy-discard"])
    assert export(client, made.pk) == sheet
    assert b"2,Cy,4,Cy,,2D 9H,10,0,10,1\r\n" in sheet
    assert made.variants == ["buy-discard"]


def test_the_page_imports_an_export_too(client):
    game = played("mexican")
    sheet = export(client, game.pk)
    answer = client.post(PAGE, {"file": _named(sheet), "ruleset": "mexican"})
    assert answer.status_code == 302, answer.content
    made = Game.objects.exclude(pk=game.pk).get()
    assert export(client, made.pk) == sheet


def test_an_export_saved_as_xlsx_comes_back(client):
    game = played("contract")
    sheet = export(client, game.pk)
    book = openpyxl.Workbook()
    for row in csv.reader(io.StringIO(sheet.decode())):
        book.active.append([int(v) if v.lstrip("-").isdigit() else (v or None) for v in row])
    out = io.BytesIO()
    book.save(out)
    answer = send(client, out.getvalue(), "contract", name="rummy.xlsx")
    assert answer.status_code == 201, answer.content
    assert export(client, answer.json()["id"]) == sheet


def test_the_longest_export_comes_back(client):
    """House rules of twenty rounds for ten players: the longest export any game can have (a built-in's
    longest, Shanghai's ten deals of eight, is 89 rows), read back by its own import."""
    assert LONG_ROWS == 1 + 20 * 10 + 10
    rounds = [{"dealt": 5, "contract": [{"meld": "book", "size": 3}], "wild_rank": "2"}] * 20
    document = {"name": "Long night", "based_on": "mexican", "players": {"min": 2, "max": 10}, "rounds": rounds}
    house, _created = house_rules_save(document={**document, "deck": {"packs": 4, "jokers": 12}}, client="test")
    names = [f"P{n}" for n in range(1, 11)]
    game, _token = game_create(ruleset=house.slug, variants=[], players=names, first_dealer="P3")
    for number in range(1, 21):
        winner = names[number % 10]
        points = {n: 10 + 5 * i for i, n in enumerate(names) if n != winner}
        round_record(game=game, number=number, entry=RoundEntry(winner=winner, points=points, hands={}))
    sheet, made = comes_back(client, game)
    assert len(sheet.splitlines()) == LONG_ROWS
    assert export(client, made.pk) == sheet


NAMES = ["'=x", "=cmd", "1.2.3", "007", "+31 6", "True", "'quoted", "a;b;c;d;e;f;g;h;i;j;k;l;m;n;o", 'Ana "A", B']


def test_names_the_app_takes_come_back_as_typed(client):
    """What a spreadsheet would misread (a formula, a date, a number, a truth value, the apostrophe
    itself) is written with an apostrophe and read back without it; a name full of semicolons
    does not tip the delimiter."""
    for first in range(0, len(NAMES), 3):
        names = NAMES[first : first + 3]
        game, _token = game_create(ruleset="mexican", variants=[], players=names, first_dealer=names[0])
        entry = RoundEntry(winner=names[0], hands={names[1]: "5C KC", names[2]: "AS"})
        round_record(game=game, number=1, entry=entry)
        sheet, made = comes_back(client, game)
        assert [p.name for p in made.players.order_by("seat")] == names
        assert export(client, made.pk) == sheet


def test_an_export_longer_than_any_game_is_refused_in_words(client):
    head = "round,dealer,wild rank,player,went out,cards,penalty,adjustment,points,buys\n"
    data = (head + "1,Ana,3,Ana,yes,,0,0,0,0\n" * LONG_ROWS).encode()
    answer = send(client, data)
    assert answer.status_code == 400
    assert answer.json()["errors"]["file"] == ["the sheet has 212 rows; a score sheet has at most 211"]
    book = openpyxl.Workbook()
    for row in csv.reader(io.StringIO(data.decode())):
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    answer = send(client, out.getvalue(), name="long.xlsx")
    assert answer.json()["errors"]["file"] == ["the sheet has 212 rows; a score sheet has at most 211"]
    assert Game.objects.count() == 0


# Mexican's export of ``played``: row 1 the header; rows 2-4 round 1 (Ana, Ben, Cy), 5-7 round 2,
# 8-10 round 3; rows 11-13 the totals. Columns: A round, B dealer, C wild rank, D player,
# E went out, F cards, G penalty, H adjustment, I points, J buys.
def tampered(sheet, *changes):
    rows = list(csv.reader(io.StringIO(sheet.decode())))
    for row, column, value in changes:
        cells = rows[row - 1]
        index = ord(column) - ord("A")
        cells.extend([""] * (index + 1 - len(cells)))
        cells[index] = value
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode()


@pytest.mark.parametrize(
    ("changes", "fault"),
    [
        (
            [(3, "G", "20"), (3, "I", "20")],
            "sheet 1, row 3, column G (Ben): the cards score 15; the sheet says 20",
        ),
        ([(3, "I", "20")], "sheet 1, row 3, column I (Ben): the penalty and the adjustment make 15; the sheet says 20"),
        (
            [(3, "C", "4")],
            "sheet 1, row 3, column C (Ben): '4' is not the wild rank of round 1: Threes and jokers are wild",
        ),
        ([(13, "I", "99")], "sheet 1, row 13, column I (Cy): the totals row says 99; the rounds add up to 35"),
        ([(11, "F", "5C")], "sheet 1, row 11, column F (Ana): a total row holds a player and their points, not '5C'"),
        ([(1, "K", "notes")], "sheet 1, row 1, column K: 'notes' is not a column of this app's export"),
        ([(4, "K", "x")], "sheet 1, row 4, column K: 'x' is in no column of the export"),
        ([(1, "J", "")], "sheet 1, row 1: the export's column 'buys' is missing"),
        (
            [(6, "B", "Ana")],
            "sheet 1, row 6, column B (Ben): Cy deals round 2 (the deal passes to the left); the sheet says 'Ana'",
        ),
        ([(7, "H", "-5"), (7, "I", "5")], "sheet 1, row 7, column H (Cy): -5 is no adjustment: Mexican Rummy has none"),
        (
            [(5, "G", "31"), (5, "I", "31")],
            "sheet 1, row 5, column G (Ana): In round 2 every card scores 5, 10, 15 or 20: 31 is not a possible total",
        ),
        ([(5, "E", "yes")], "sheet 1, row 6, column E (Ben): Ana already went out in round 2: one player goes out"),
        ([(7, "F", "2D 9H ZZ")], "sheet 1, row 7, column F (Cy): Cy: card 3: 'ZZ' is not a card"),
        ([(6, "D", "Dee")], "sheet 1, row 6, column D: There is no player named 'Dee' in this game"),
        ([(7, "D", "Ben")], "sheet 1, row 7, column D (Ben): Ben has a row here already"),
        ([(8, "A", "4")], "sheet 1, row 8, column A: round 4 is out of order here: round 3 comes after round 2"),
        ([(9, "A", "total")], "sheet 1, row 10, column A: a row of round 3 after the total rows: they come last"),
        ([(4, "E", "no")], """sheet 1, row 4, column E (Cy): 'no': this column says "yes" for the one who went out"""),
        (
            [(4, "J", "lots")],
            "sheet 1, row 4, column J (Cy): Cy's buys must be a whole number of 0 or more, not 'lots'",
        ),
        ([(4, "J", "1")], "sheet 1, row 4, column J (Cy): Mexican Rummy has no buys (the variant “Buy the discard”"),
        ([(1, "A", "deal")], "sheet 1, row 1, column A: Mexican Rummy's export names its first column 'round', not"),
    ],
    ids=[
        "cards and points",
        "points",
        "wild rank",
        "total",
        "a total row's cards",
        "unknown column",
        "a cell outside the columns",
        "a column missing",
        "dealer",
        "adjustment",
        "impossible typed points",
        "two went out",
        "no card",
        "unknown player",
        "a player twice",
        "out of order",
        "a round after the totals",
        "went out",
        "buys",
        "no buys",
        "round word",
    ],
)
def test_a_tampered_export_is_refused_with_the_place_of_its_fault(client, changes, fault):
    sheet = export(client, played("mexican").pk)
    answer = send(client, tampered(sheet, *changes))
    assert answer.status_code == 400, answer.content
    faults = answer.json()["errors"]["file"]
    assert any(f.startswith(fault) for f in faults), faults
    assert Game.objects.count() == 1  # the one exported


def test_an_export_read_as_the_wrong_rules_says_so(client):
    sheet = export(client, played("mexican").pk)
    faults = send(client, sheet, "contract").json()["errors"]["file"]
    assert faults == [
        "sheet 1, row 1, column A: Contract Rummy's export names its first column 'deal', not 'round': "
        "are these its rules?"
    ]
    kings = send(client, sheet, "mexican", ["kings-wild"]).json()["errors"]["file"]
    assert kings[0] == "sheet 1, row 2, column C (Ana): '3' is not the wild rank of round 1: Kings and jokers are wild"
    assert len(kings) == 9 and Game.objects.count() == 1


def test_every_fault_of_an_export_at_once_and_nothing_made(client):
    sheet = export(client, played("mexican").pk)
    bad = tampered(sheet, (3, "I", "20"), (5, "C", "9"), (9, "G", "lots"), (12, "I", "1"))
    faults = send(client, bad).json()["errors"]["file"]
    assert [f.split(":")[0] for f in faults] == [
        "sheet 1, row 3, column I (Ben)",
        "sheet 1, row 5, column C (Ana)",
        "sheet 1, row 9, column G (Ben)",
    ]  # the totals are checked once every round reads right
    assert Game.objects.count() == 1


def test_a_name_the_export_wrote_with_an_apostrophe_comes_back(client):
    game, _token = game_create(ruleset="mexican", variants=[], players=["=Ana", "-Ben"], first_dealer="-Ben")
    round_record(game=game, number=1, entry=RoundEntry(winner="=Ana", hands={"-Ben": "KC"}))
    sheet, made = comes_back(client, game)
    assert b"'=Ana" in sheet and [p.name for p in made.players.order_by("seat")] == ["=Ana", "-Ben"]
    assert export(client, made.pk) == sheet


def test_a_game_with_no_round_yet_comes_back(client):
    game, _token = game_create(ruleset="liverpool", variants=[], players=["Ana", "Ben", "Cy"], first_dealer="Ana")
    sheet, made = comes_back(client, game)
    assert export(client, made.pk) == sheet and made.rounds.count() == 0


def test_an_exports_faults_are_said_in_the_phones_language(client):
    sheet = export(client, played("mexican").pk)
    answer = client.post(
        URL,
        {"file": _named(tampered(sheet, (3, "G", "20"), (3, "I", "20"))), "ruleset": "mexican"},
        headers={"Accept-Language": "nl"},
    )
    assert answer.json()["errors"]["file"] == ["blad 1, rij 3, kolom G (Ben): de kaarten tellen 15; het blad zegt 20"]
