"""The players' stories as pages: a finished game's recap (on the table, on its own page with its
Open Graph tags, as SVG and PNG), a profile and the records, of a club and of this server."""

import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from PIL import Image

from scorekeeping.models import Member
from tests.scorekeeping.web.markup import tags_on_one_line, without_layout

pytestmark = pytest.mark.django_db

JSON = "application/json"


def finished_game(client, players=("Ana", "Ben", "Cy")):
    """Mexican to the end: Ben goes out in round 1 (Ana 40, Cy 5), then Ana every round (Ben 10,
    Cy 5; round 7: Ben and Cy type 65 and 70): Ana 40, Ben 50 + 65, Cy 30 + 70."""
    a, b, c = players
    made = client.post("/api/games/", {"players": list(players), "first_dealer": a}, content_type=JSON).json()
    token = {"X-Game-Token": made["edit_token"]}
    rounds = [(b, {a: 40, c: 5})] + [(a, {b: 10, c: 5})] * 5 + [(a, {b: 65, c: 70})]
    for number, (winner, points) in enumerate(rounds, start=1):
        body = {"number": number, "winner": winner, "points": points}
        answer = client.post(f"/api/games/{made['id']}/rounds/", body, content_type=JSON, headers=token)
        assert answer.status_code == 201, answer.content
    return made


def test_the_recap_on_the_table_on_its_page_and_as_pictures(client):
    made = finished_game(client)
    table = client.get(f"/g/{made['id']}/").content.decode()
    # After round 1 Ana had 40 and Ben 0: 40 behind. After round 6 Cy led (Ana 40, Ben 50, Cy 30);
    # round 7 gave Cy 70 and Ana the lead. Ana went out in six rounds, Ben in one.
    assert "Ana came back from 40 behind after round 1." in table
    assert "Round 7 decided it, at the very end." in table
    assert "The biggest swing came in round 7: Ana gained 70 on Cy." in table and "Ana: the best in 6 of 7." in table
    assert f'href="/g/{made["id"]}/recap/"' in table
    page = client.get(f"/g/{made['id']}/recap/").content.decode()
    assert '<h1 id="recap-title">Ana wins with 40</h1>' in page
    # Each place in its player's colour, given in seat order (Ana, Ben, Cy): blue, red, green.
    podium = re.findall(r'<li class="pc-([a-z]+)"><span><span class="place">(\d)\.</span> (\w+)</span>', page)
    assert podium == [("blue", "1", "Ana"), ("green", "2", "Cy"), ("red", "3", "Ben")]
    og = dict(re.findall(r'<meta property="og:([a-z:]+)" content="([^"]*)"', page))
    assert og["title"] == "Ana wins with 40"
    assert og["image"] == f"http://testserver/g/{made['id']}/recap.png"
    assert (og["image:width"], og["image:height"]) == ("1200", "630")
    assert "came back from 40 behind" in og["description"]
    svg = client.get(f"/g/{made['id']}/recap.svg")
    assert svg["Content-Type"].startswith("image/svg+xml") and "Ana wins with 40" in svg.content.decode()
    assert "public" in svg["Cache-Control"]
    png = client.get(f"/g/{made['id']}/recap.png")
    assert png["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(png.content))
    assert image.size == (1200, 630) and image.format == "PNG"
    assert client.get("/g/nosuchgame0/recap.png").status_code == 404


def test_the_recap_speaks_the_tables_language(client):
    made = finished_game(client)
    page = client.get(f"/g/{made['id']}/recap/", headers={"Accept-Language": "nl"}).content.decode()
    assert "Ana wint met 40" in page


def test_a_names_profile_and_the_records_of_this_server(client):
    finished_game(client)
    finished_game(client, ("ana", "Ben", "Dee"))  # "ana" is Ana: names are compared without case
    page = client.get("/players/ANA/")
    assert page.status_code == 200
    found = page.context["profile"]
    assert (found.name, found.games, found.wins, found.rounds_out) == ("ana", 2, 2, 12)
    html = page.content.decode()
    assert 'href="/players/Ben/"' in html and "<svg" in html  # head to head, and the rolling average
    assert client.get("/players/Nobody/").status_code == 404
    records = client.get("/records/").context["records"]
    # Both games alike: Ana (written "ana" last) 40, Ben 115, Cy or Dee 100; Cy's and Dee's 70 in
    # round 7 is the highest round (whose, the older game's: both were made now); Ana won both.
    assert [(title, rules, r.value) for title, rules, r in records] == [
        ("Lowest game total", "Mexican Rummy", 40),
        ("Highest penalty in one round", "Mexican Rummy", 70),
        ("Most rounds gone out in one game", "Mexican Rummy", 6),
        ("Longest win streak", "Mexican Rummy", 2),
        ("Biggest comeback (points behind, then won)", "Mexican Rummy", 40),
    ]
    assert [r.player for _title, _rules, r in records] == ["ana", records[1][2].player, "ana", "ana", "ana"]
    assert records[1][2].player in ("Cy", "Dee")


def test_a_profile_wears_the_colour_of_the_players_newest_game(client):
    finished_game(client)  # Ana in seat 1: blue
    made = client.post(
        "/api/games/",
        {"players": ["Ana", "Ben"], "first_dealer": "Ana", "colours": ["gold", "blue"]},
        content_type=JSON,
    ).json()
    token = {"X-Game-Token": made["edit_token"]}
    for number in range(1, 8):  # to the end: the rolling average counts finished games
        body = {"number": number, "winner": "Ana", "points": {"Ben": 65 if number == 7 else 10}}
        assert (
            client.post(f"/api/games/{made['id']}/rounds/", body, content_type=JSON, headers=token).status_code == 201
        )
    page = client.get("/players/Ana/")
    assert page.context["colour"] == "gold"
    html = without_layout(page.content.decode())
    assert '<h1 class="profile-head pc-gold"><span class="swatch" aria-hidden="true">A</span> Ana</h1>' in html
    assert '<g class="series pc-gold">' in html  # the rolling average's line
    assert client.get("/players/Cy/").context["colour"] == "green"  # Cy's only game: seat 3


def test_a_club_members_profile_and_records_pages(client):
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type=JSON).json()
    headers = {"X-Club-Token": made["organiser_token"]}
    night = client.post(f"/api/clubs/{made['id']}/nights/", {"sittings": 1}, content_type=JSON, headers=headers).json()
    base = f"/api/clubs/{made['id']}/nights/{night['id']}"
    client.put(f"{base}/present/", {"names": ["Ana", "Ben"]}, content_type=JSON, headers=headers)
    table = client.post(f"{base}/sittings/", {}, content_type=JSON, headers=headers).json()["tables"][0]
    token = {"X-Game-Token": table["game"]["edit_url"].split("/join/")[1].strip("/")}
    for number in range(1, 8):
        body = {"number": number, "winner": "Ana", "points": {"Ben": 65 if number == 7 else 10}}
        answer = client.post(f"/api/games/{table['game']['id']}/rounds/", body, content_type=JSON, headers=token)
        assert answer.status_code == 201, answer.content
    profile = client.get(f"/c/{made['id']}/members/ben/")
    assert profile.status_code == 200 and profile.context["profile"].games == 1
    assert f'href="/c/{made["id"]}/members/Ana/"' in profile.content.decode()
    Member.objects.filter(name="Ben").update(colour="purple")  # the member's own colour, as the organiser set it
    assert client.get(f"/c/{made['id']}/members/ben/").context["colour"] == "purple"
    assert client.get(f"/c/{made['id']}/members/Zed/").status_code == 404
    records = client.get(f"/c/{made['id']}/records/").content.decode()
    assert "Most rounds gone out in one game" in records and f'href="/g/{table["game"]["id"]}/recap/"' in records
    assert client.get("/records/").context["records"] == []  # a club's games stay in the club


def test_a_paper_sheet_imported_from_the_page_opens_as_a_game_this_phone_may_change(client):
    sheet = io.BytesIO(b"Ronde;Ana;Ben\n1;0;10\n2;15;0\nTotaal;15;10\n")
    sheet.name = "oud.csv"
    answer = client.post("/games/import/sheet/", {"file": sheet, "ruleset": "mexican"})
    assert answer.status_code == 302
    game_id = answer["Location"].split("/")[2]
    table = client.get(answer["Location"]).content.decode()
    assert "The score sheet is a game now" in table and 'id="entry-slot"' in table  # this phone may record
    assert client.get(f"/api/games/{game_id}/standings/").json()["standings"][0] == {
        "player": "Ben",
        "total": 10,
        "round_wins": 1,
        "place": 1,
    }
    bad = io.BytesIO(b"Round,Ana,Ben\n1,0,12\n")
    bad.name = "bad.csv"
    refused = client.post("/games/import/sheet/", {"file": bad, "ruleset": "mexican"})
    assert refused.status_code == 422
    assert "sheet 1, row 2, column C (Ben): In round 1 every card scores" in refused.content.decode()
    assert client.post("/games/import/sheet/", {"ruleset": "mexican"}).status_code == 422


def test_starting_a_game_offers_the_names_this_phone_played_with_and_its_clubs_members(client):
    assert "known-names" not in client.get("/games/new/").content.decode()  # a new phone knows nobody
    client.post("/games/new/", {"ruleset": "mexican", "player": ["Ana", "béa"], "op": "create"})
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type=JSON).json()
    headers = {"X-Club-Token": made["organiser_token"]}
    night = client.post(f"/api/clubs/{made['id']}/nights/", {"sittings": 1}, content_type=JSON, headers=headers).json()
    names = {"names": ["Cy", "Dee", "ANA"]}
    client.put(f"/api/clubs/{made['id']}/nights/{night['id']}/present/", names, content_type=JSON, headers=headers)
    page = f"/c/{made['id']}/nights/{night['id']}/"
    html = tags_on_one_line(client.get(page).content.decode())
    cy = re.search(r'value="(\d+)" aria-label="I am Cy"', html).group(1)
    client.post(page + "me/", {"member": cy})
    form = client.get("/games/new/").content.decode()
    offered = re.findall(r'<option value="([^"]+)"></option>', form.split('<datalist id="known-names">')[1])
    assert offered == ["Ana", "béa", "Cy", "Dee"]  # ANA is Ana: each name once
    assert 'list="known-names"' in form


def test_the_recap_picture_follows_a_correction(client):
    made = finished_game(client)
    before = client.get(f"/g/{made['id']}/recap.png")
    assert "max-age=3600" in before["Cache-Control"]  # a finished game's picture
    undone = client.post(
        f"/api/games/{made['id']}/undo/", {}, content_type=JSON, headers={"X-Game-Token": made["edit_token"]}
    )
    assert undone.status_code == 200, undone.content
    after = client.get(f"/g/{made['id']}/recap.png")
    assert after.content != before.content and "max-age=60" in after["Cache-Control"]  # the game goes on
    assert "The game is not over yet" in client.get(f"/g/{made['id']}/recap.svg").content.decode()


def _queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    return response, [q["sql"] for q in captured.captured_queries]


@pytest.mark.parametrize("games", [2, 5], ids=["2 games", "5 games"])
def test_a_story_page_costs_the_same_few_queries_of_the_kept_lines_whatever_the_games(client, games):
    """Issue 51: a story page reads the kept lines with a few indexed queries, never the rounds,
    and as many with 5 games as with 2."""
    for _ in range(games):
        finished_game(client)
    counts = {}
    for url in ("/records/", "/players/ana/", "/players/Ben/"):
        response, queries = _queries(client, url)
        assert response.status_code == 200
        assert not any("scorekeeping_round" in q or "scorekeeping_score" in q for q in queries), queries
        counts[url] = len(queries)
    # The session, the lines' queries (a record each, a profile's lines, names, colour, ladder): the same at 2 or 5.
    assert counts == {"/records/": 8, "/players/ana/": 12, "/players/Ben/": 12}
    assert client.get("/players/Ana/").context["profile"].games == games


def test_an_unknown_name_is_refused_before_any_game_is_read(client):
    finished_game(client)
    refused, queries = _queries(client, "/players/Nobody/")
    assert refused.status_code == 404
    assert len(queries) == 2 and not any("scorekeeping_round" in q for q in queries), queries  # the count, the lines
    assert _queries(client, "/players/Nobody/")[0].status_code == 404


def test_the_story_pages_follow_each_new_game_and_each_taken_back_round(client):
    made = finished_game(client)
    assert client.get("/players/Ana/").context["profile"].games == 1
    assert client.get("/players/Dee/").status_code == 404
    finished_game(client, ("Ana", "Ben", "Dee"))  # the truth is the database's, not the cache's
    assert client.get("/players/Ana/").context["profile"].games == 2
    assert client.get("/players/dee/").context["profile"].name == "Dee"
    undone = client.post(
        f"/api/games/{made['id']}/undo/", {}, content_type=JSON, headers={"X-Game-Token": made["edit_token"]}
    )
    assert undone.status_code == 200, undone.content
    assert client.get("/players/Ana/").context["profile"].games == 1
    assert [r.value for _t, _r, r in client.get("/records/").context["records"]][3] == 1  # the streak: one game


def test_the_players_list_again_costs_its_key_queries_and_a_cache_hit(client):
    for _ in range(3):
        finished_game(client)
    first = client.get("/players/")
    again, queries = _queries(client, "/players/")
    assert again.status_code == 200 and again.context["records"] == first.context["records"]
    assert not any("scorekeeping_score" in q or "scorekeeping_round" in q for q in queries), queries
    finished_game(client)  # a new game is a new version: the list is folded again
    assert len(client.get("/players/").context["records"]) >= len(first.context["records"])
    assert _queries(client, "/players/")[0].context["records"] != first.context["records"]
