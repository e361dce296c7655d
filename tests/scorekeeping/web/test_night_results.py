"""A club night told as its results (issue 50): the ranking with its scoring in words, every table
of every sitting with its places, each player's own night, the best moments, a picture to share,
and on each phone that said "I am", its own card when the night is finished."""

import io
import re

import pytest
from django.test import Client
from PIL import Image

pytestmark = pytest.mark.django_db

JSON = "application/json"
NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


class Night:
    def __init__(self, client, names=NAMES, sittings=2, scoring="percentage"):
        made = client.post("/api/clubs/", {"name": "De Joker"}, content_type=JSON).json()
        self.client, self.club = client, made["id"]
        self.headers = {"X-Club-Token": made["organiser_token"]}
        self.api = f"/api/clubs/{made['id']}"
        body = {"sittings": sittings, "scoring": scoring}
        self.id = client.post(f"{self.api}/nights/", body, content_type=JSON, headers=self.headers).json()["id"]
        present = client.put(f"{self.night_api}present/", {"names": names}, content_type=JSON, headers=self.headers)
        assert present.status_code == 200, present.content
        self.page = f"/c/{self.club}/nights/{self.id}/"

    @property
    def night_api(self):
        return f"{self.api}/nights/{self.id}/"

    def draw(self):
        drawn = self.client.post(f"{self.night_api}sittings/", {"force": True}, content_type=JSON, headers=self.headers)
        assert drawn.status_code == 201, drawn.content
        return drawn.json()["tables"]

    def play(self, table, comeback=False):
        """Every round of a table: its first player goes out each round but the first (a comeback
        from the first round's penalty where ``comeback``), the others give 5 points a seat."""
        players = table["players"]
        token = table["game"]["edit_url"].split("/join/")[1].strip("/")
        for number in range(1, 8):
            if comeback and number == 1:
                winner, points = players[1], {p: (60 if i == 0 else 5) for i, p in enumerate(players) if i != 1}
            else:
                winner = players[0]
                points = {p: 5 * i + (65 if number == 7 else 0) for i, p in enumerate(players) if i}  # 13 cards in 7
            body = {"number": number, "winner": winner, "points": points}
            url = f"/api/games/{table['game']['id']}/rounds/"
            made = self.client.post(url, body, content_type=JSON, headers={"X-Game-Token": token})
            assert made.status_code == 201, made.content

    def finish(self):
        done = self.client.post(f"{self.night_api}finish/", {}, content_type=JSON, headers=self.headers)
        assert done.status_code == 200, done.content


def _member(client, page, name):
    html = client.get(page).content.decode()
    marker = f'aria-label="I am {name}"'
    return int(html.split(marker)[0].rsplit('value="', 1)[1].split('"')[0])


def test_a_finished_night_is_told_as_its_results_and_each_i_am_phone_shows_its_own_card(client):
    night = Night(client)
    phones = {}
    for name in ("Ana", "Hal"):
        phones[name] = Client()
        phones[name].post(night.page + "me/", {"member": _member(phones[name], night.page, name)})
    first = night.draw()
    for i, table in enumerate(first):
        night.play(table, comeback=i == 0)
    second = night.draw()
    for table in second:
        night.play(table)
    night.finish()

    html = client.get(night.page).content.decode()
    assert "The night's results" in html
    assert "share of the others they finished ahead of" in html  # the scoring, in words
    assert html.count("<h3>Sitting ") == 2  # every table of every sitting
    for table in first[1:] + second:  # the first player went out every round (the comeback table aside)
        assert f"1. {table['players'][0]} 0 ·" in html
    assert "Each player's night" in html
    for name in NAMES:
        assert re.search(rf"<strong>\d\. {name}</strong>", html), name
    assert html.count(", beside ") == 16  # two tables a player
    assert "Best moments" in html and "came back from" in html and "Best round" in html
    assert "data-print" in html and "results.png" in html

    for name, phone in phones.items():
        mine = phone.get(night.page).content.decode()
        assert 'id="my-night"' in mine and "Place " in mine and " of 8" in mine, name
        sat = [t for t in first + second if name in t["players"]]
        for sitting, table in zip((1, 2), sat, strict=True):
            others = ", ".join(p for p in table["players"] if p != name)
            assert f"Sitting {sitting}, table {table['number']}: place" in mine and f"beside {others}" in mine
        assert "Not me" not in mine  # the night is over: nothing to change

    picture = client.get(night.page + "results.png")
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(picture.content)).size == (1200, 630)
    assert "max-age=3600" in picture["Cache-Control"]  # final


def test_the_rank_scoring_is_said_with_each_places_points_for_the_table_sizes_played(client):
    night = Night(client, names=NAMES[:7], sittings=1, scoring="rank")
    for table in night.draw():
        night.play(table)
    html = client.get(night.page).content.decode()
    assert "Results so far" in html
    assert "A table of 3: 1: 10, 2: 6, 3: 2." in html and "A table of 4: 1: 11, 2: 7, 3: 4, 4: 2." in html
    assert "max-age=60" in client.get(night.page + "results.png")["Cache-Control"]  # the night goes on


def test_a_night_without_a_finished_table_tells_no_results_yet(client):
    night = Night(client, names=NAMES[:4], sittings=1)
    night.draw()
    html = client.get(night.page).content.decode()
    assert "Results so far" not in html and "Best moments" not in html and "Every table" not in html
    assert client.get(night.page + "results.png").status_code == 200


def test_the_season_says_how_many_nights_count_and_what_each_player_still_needs(client):
    night = Night(client, names=NAMES[:4], sittings=1)
    for table in night.draw():
        night.play(table)
    html = client.get(f"/c/{night.club}/season/?minimum=3&best=2").content.decode()
    assert "Each player's best 2 nights count" in html and "3 nights are needed for the title" in html
    assert html.count("2 more nights to qualify") == 4


def test_the_share_pictures_type_has_every_accented_letter_of_the_languages():
    """A reviewer saw "detrás" drawn as "detr□s" on the Spanish picture: Pillow's default type has
    no accented letters. The vendored one draws each as wide as its plain letter."""
    from scorekeeping.web.recap import font_of

    font = font_of(30)
    for accented, plain in (("á", "a"), ("ó", "o"), ("é", "e"), ("ë", "e"), ("ñ", "n"), ("í", "i")):
        assert font.getlength(accented) == font.getlength(plain), accented


def test_the_room_screen_tells_the_finished_night_instead_of_its_tables(client):
    """A reviewer's finding: once the night was over the TV still showed the sitting's tiles, their
    QR codes and "No phone yet? Scan your table's code"."""
    night = Night(client, names=NAMES[:4], sittings=1)
    for table in night.draw():
        night.play(table)
    playing = client.get(night.page + "room/").content.decode()
    assert "No phone yet?" in playing and "The night is finished" not in playing
    night.finish()
    told = client.get(night.page + "room/").content.decode()
    assert "The night is finished" in told and "wins the night" in told and "Best round" in told
    assert "No phone yet?" not in told and 'class="qr"' not in told
