"""The story of games: running totals, the chart, player records, export and import."""

import copy
import csv
import io
import json

import pytest

from scorekeeping.errors import InvalidInput
from scorekeeping.models import Game
from scorekeeping.selectors import games_summaries
from scorekeeping.selectors.stories import server_stories
from scorekeeping.services import RoundEntry, game_undo, round_replace
from scorekeeping.services.exchange import game_csv, game_document, game_import
from scorekeeping.web.charts import cumulative, totals_svg
from tests.helpers import fresh, record, thirteen


@pytest.fixture
def played(make_game):
    game = make_game(players=["Ana", "Ben", "Cy"])
    record(game, 1, "Ana", {"Ben": "5C", "Cy": "KC"})
    record(game, 2, "Ben", {"Ana": "5C", "Cy": "2D 2S"})
    round_replace(game=game, number=2, entry=RoundEntry(winner="Ben", hands={"Ana": "5C", "Cy": "2D"}))
    record(game, 3, None, {"Ana": "AS", "Ben": "2C", "Cy": "JK"}, buys={})
    record(game, 4, "Cy", {"Ana": "2C"}, {"Ben": 35})
    game_undo(game=game)
    record(game, 4, "Cy", {"Ana": "2C"}, {"Ben": 30})
    return fresh(game)


def test_cumulative_totals_round_by_round(played):
    numbers, series = cumulative(played)
    assert numbers == [1, 2, 3, 4]
    assert [(s.name, s.totals) for s in series] == [
        ("Ana", [0, 5, 20, 25]),
        ("Ben", [5, 5, 10, 40]),
        ("Cy", [10, 15, 35, 35]),
    ]


def test_chart_is_svg_with_a_title_a_line_per_player_and_escaped_names(make_game):
    game = make_game(players=["<b>Ana</b>", "Ben"], first_dealer="Ben")
    record(game, 1, "Ben", {"<b>Ana</b>": "KC"})
    numbers, series = cumulative(fresh(game))
    svg = str(totals_svg(numbers, series, title="Running totals", round_word="round"))
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert '<title id="chart-title">Running totals</title>' in svg
    assert svg.count("<polyline") == 2
    assert "&lt;b&gt;Ana&lt;/b&gt;" in svg and "<b>" not in svg
    assert "style=" not in svg  # nothing the Content-Security-Policy would block


def test_the_players_list_counts_finished_games_as_the_profile_does(make_game, played):
    other = make_game(players=["ana", "Dee"], first_dealer="ana")
    for n in range(1, 7):
        record(other, n, "ana", {"Dee": "KC"})
    record(other, 7, "ana", points={"Dee": 130})  # 13 cards of 10 points
    lines = {r.name.casefold(): r for r in server_stories().player_lines()}
    # ``played`` has 4 of 7 rounds: an unfinished game counts nowhere (Ben and Cy played no other).
    assert set(lines) == {"ana", "dee"}
    ana, dee = lines["ana"], lines["dee"]
    assert (ana.games, ana.wins, ana.rounds, ana.rounds_out, ana.best, ana.worst) == (1, 1, 7, 7, 0, 0)
    assert (dee.games, dee.wins, dee.rounds, dee.rounds_out, dee.best, dee.worst) == (1, 0, 7, 0, 10, 130)
    assert dee.average == round((6 * 10 + 130) / 7, 2)
    profile = server_stories().profile("Ana")
    assert (profile.games, profile.wins, profile.rounds_out) == (ana.games, ana.wins, ana.rounds_out)


def test_the_games_list_shows_the_newest_and_the_players_list_counts_every_game(client, make_game, played, monkeypatch):
    from scorekeeping.web import archive

    newest = make_game(players=["Eve", "Fay"], first_dealer="Eve")
    for n in range(1, 8):  # played out: the players' list counts finished games
        record(newest, n, "Eve", points={"Fay": 130 if n == 7 else 10})
    assert "The latest" not in client.get("/games/").content.decode()
    monkeypatch.setattr(archive, "GAMES_LISTED", 1)
    listed = client.get("/games/").content.decode()
    assert "The latest 1 of 2 games." in listed and "Eve, Fay" in listed and "Ana, Ben, Cy" not in listed
    players = client.get("/players/").content.decode()  # issue 51: the whole history, always
    assert "Across every game on this server" in players and "Eve" in players


def test_games_summaries_newest_first_with_winners(make_game, played):
    other = make_game(players=["Ana", "Dee"])
    for n in range(1, 7):
        record(other, n, "Dee", {"Ana": "KC"})
    record(other, 7, "Dee", points={"Ana": 130})
    summaries = games_summaries()
    assert [s.game.pk for s in summaries] == [other.pk, played.pk]
    assert (summaries[0].finished, summaries[0].winners) == (True, ["Dee"])
    assert (summaries[1].finished, summaries[1].rounds_played) == (False, 4)


def test_csv_export_has_a_row_per_player_and_round_and_the_totals(played):
    rows = list(csv.reader(io.StringIO(game_csv(played))))
    assert rows[0] == [
        "round",
        "dealer",
        "wild rank",
        "player",
        "went out",
        "cards",
        "penalty",
        "adjustment",
        "points",
        "buys",
    ]
    assert rows[1] == ["1", "Ana", "3", "Ana", "yes", "", "0", "0", "0", "0"]
    assert rows[2] == ["1", "Ana", "3", "Ben", "", "5C", "5", "0", "5", "0"]
    assert ["4", "Ana", "6", "Ben", "", "", "30", "0", "30", "0"] in rows  # typed points, no cards
    assert rows[-3:] == [
        ["total", "", "", "Ana", "", "", "", "", "25", ""],
        ["total", "", "", "Ben", "", "", "", "", "40", ""],
        ["total", "", "", "Cy", "", "", "", "", "35", ""],
    ]


def test_csv_marks_a_name_a_spreadsheet_would_misread_and_keeps_them_apart(make_game):
    """Players "=A" and "'=A" are written '=A and ''=A (no formula in a spreadsheet, the apostrophe
    itself marked): two names, two totals, each its own, read back as typed."""
    game = make_game(players=["=A", "'=A", "Cy"], first_dealer="=A")
    record(game, 1, "=A", {"'=A": "5C", "Cy": "KC"})
    record(game, 2, "Cy", {"=A": "5C 6C", "'=A": "KC"})
    rows = list(csv.reader(io.StringIO(game_csv(fresh(game)))))
    assert [row for row in rows if row[0] == "total"] == [
        ["total", "", "", "'=A", "", "", "", "", "10", ""],
        ["total", "", "", "''=A", "", "", "", "", "15", ""],
        ["total", "", "", "Cy", "", "", "", "", "10", ""],
    ]


def test_export_import_export_gives_the_same_document(played):
    document = game_document(played)
    assert document["format"] == "rummy-referee/game"
    assert [h["action"] for h in document["history"]] == [
        "record",
        "record",
        "correct",
        "record",
        "record",
        "undo",
        "record",
    ]
    restored, token = game_import(document=json.loads(json.dumps(document)))
    assert restored.pk != played.pk and len(token) >= 40
    assert game_document(fresh(restored)) == document


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="something"), "not a game exported by this app"),
        (lambda d: d.update(ruleset="gin"), "Unsupported ruleset"),
        (lambda d: d["rounds"][1].update(number=5), r"rounds\.1\.number is 5; the game its history makes has 2"),
        (
            lambda d: d["rounds"][0]["scores"][1].update(points=99),
            r"rounds\.0\.scores\.1\.points is 99; the game its history makes has 5",
        ),
        (
            lambda d: d["rounds"][0]["scores"][1].update(penalty=99, points=99),
            r"scores\.1\.penalty is 99; the game its history makes has 5",
        ),
        (
            lambda d: d["rounds"][0]["scores"][1].update(cards="5X"),
            "cards is '5X'; the game its history makes has '5C'",
        ),
        (lambda d: d["rounds"][0].update(winner="Zed"), "winner is 'Zed'; the game its history makes has 'Ana'"),
        (
            lambda d: d["rounds"][0]["scores"].pop(),
            r"rounds\.0\.scores \(length\) is 2; the game its history makes has 3",
        ),
        (lambda d: d.update(players=["Ana", "ana", "Cy"]), "already at the table"),
        (lambda d: d.update(created_at="yesterday"), "created_at: Datetime has wrong format"),
        (lambda d: d.update(rounds="none"), "rounds: Expected a list of items"),
        # Text no export holds, and PostgreSQL would refuse (a NUL byte in JSON), wherever it is.
        (
            lambda d: d["history"][0].update(after={"x": "a\u0000b"}),
            r"document\.history\.0\.after\.x holds a control",
        ),
        (lambda d: d["history"][1].update(before={"a\ud800": 1}), r"document\.history\.1\.before \(a key\) holds"),
    ],
)
def test_import_refuses_a_bad_document_whole(played, change, message):
    document = copy.deepcopy(game_document(played))
    change(document)
    before = Game.objects.count()
    with pytest.raises(InvalidInput, match=message):
        game_import(document=document)
    assert Game.objects.count() == before


def test_import_and_export_over_the_api_and_pages(client, played):
    exported = client.get(f"/api/games/{played.pk}/export/").json()
    response = client.post("/api/games/import/", exported, content_type="application/json")
    assert response.status_code == 201
    assert response.json()["edit_token"] and response.json()["rounds"][3]["scores"][1]["points"] == 30
    assert client.post("/api/games/import/", {"format": "x"}, content_type="application/json").status_code == 400
    download = client.get(f"/g/{played.pk}/export.json")
    assert download["Content-Disposition"] == f'attachment; filename="rummy-{played.pk}.json"'
    assert json.loads(download.content) == exported
    assert client.get(f"/g/{played.pk}/export.csv")["Content-Type"] == "text/csv; charset=utf-8"
    page = client.post("/games/import/", {"document": json.dumps(exported)})
    assert page.status_code == 302
    assert client.post("/games/import/", {"document": "{not json"}).status_code == 422
    deep = client.post("/games/import/", {"document": "[" * 100_000})
    assert deep.status_code == 422 and "nested too deeply" in deep.content.decode()
    too_deep = client.post("/api/games/import/", "[" * 100_000, content_type="application/json")
    assert too_deep.status_code == 400 and too_deep.json()["detail"] == "JSON parse error - nested too deeply"


def test_story_pages(client, played):
    assert "Ana, Ben, Cy" in client.get("/games/").content.decode()
    assert "Player records" in client.get("/players/").content.decode()
    sheet = client.get(f"/g/{played.pk}/sheet/").content.decode()
    assert '<svg class="chart"' in sheet and "Score sheet" in sheet
    table = client.get(f"/g/{played.pk}/").content.decode()
    assert '<svg class="chart"' in table and "The numbers" in table


def test_a_long_games_export_is_well_within_the_values_an_import_takes(make_game):
    """Six players, seven rounds of full hands (round 7's 13 cards each), every round corrected
    once: the largest export a table makes holds a fraction of ``MAX_VALUES``; one past it is
    refused before its schema is checked (each value checked costs time), and nothing is made."""
    from scorekeeping.services.exchange import MAX_VALUES

    names = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]
    game = make_game(players=names)
    for n in range(1, 8):
        full = thirteen(names[1:])
        hands = full if n == 7 else {p: " ".join(cards.split()[:4]) for p, cards in full.items()}
        record(game, n, "Ana", hands)
        round_replace(game=fresh(game), number=n, entry=RoundEntry(winner="Ana", hands=hands))
    document = game_document(fresh(game))

    def values(node):
        if isinstance(node, dict):
            return 1 + sum(values(k) + values(v) for k, v in node.items())
        if isinstance(node, list):
            return 1 + sum(values(v) for v in node)
        return 1

    assert values(document) < MAX_VALUES / 4, values(document)
    games = Game.objects.count()
    bloated = {**document, "history": document["history"] + [{"pad": list(range(MAX_VALUES))}]}
    with pytest.raises(InvalidInput, match="more than 40,000 values"):
        game_import(document=bloated)
    assert Game.objects.count() == games
