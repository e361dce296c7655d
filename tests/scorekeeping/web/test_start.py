"""Starting a game in a few taps (issue 35): home's tiles of the tables this phone played, with
Play again; the new-game form with the names first, known names as chips, a colour per seat, the
rules as choices and the variants folded behind one line; the API's colours."""

import re

import pytest

from scorekeeping import colours as palette
from scorekeeping.models import Game
from tests.scorekeeping.web.markup import tags_on_one_line, without_layout

pytestmark = pytest.mark.django_db

NEW = "/games/new/"


def form(client, **data):
    response = client.post(NEW, {"ruleset": "mexican", **data})
    assert response.status_code == 200, response.content.decode()[:500]
    return tags_on_one_line(response.content.decode())


def seats(html):
    return re.findall(r'name="player" value="([^"]*)"', html)


def chosen_colours(html):
    """The colour each seat's select has chosen, in seat order."""
    selects = re.findall(r'<select id="colour-\d+" name="colour".*?</select>', html, re.S)
    return [re.search(r'<option value="(\w+)" selected>', s).group(1) for s in selects]


def test_a_tile_on_home_says_who_played_what_when_and_where_it_stands(client):
    body = {"players": ["Ana", "Ben", "Cy"], "first_dealer": "Ana"}
    game = client.post("/api/games/", body, content_type="application/json").json()
    client.get(f"/g/{game['id']}/join/{game['edit_token']}/")
    html = client.get("/").content.decode()
    tile = html[html.index('class="tile"') :]
    assert re.findall(r'class="who pc-(\w+)"><span class="swatch" aria-hidden="true">(\w)</span>(\w+)', tile) == [
        ("blue", "A", "Ana"),
        ("red", "B", "Ben"),
        ("green", "C", "Cy"),
    ]
    assert "Mexican Rummy · today" in tile and "Round 1 of 7" in tile
    assert f'action="/g/{game["id"]}/again/"' in tile  # this phone holds the edit link: Play again
    token = {"X-Game-Token": game["edit_token"]}
    client.post(
        f"/api/games/{game['id']}/rounds/",
        {"number": 1, "winner": "Ben", "points": {"Ana": 10, "Cy": 20}},
        content_type="application/json",
        headers=token,
    )
    assert "Round 2 of 7" in client.get("/").content.decode()


def test_a_finished_game_on_home_shows_its_winner(client):
    game = client.post("/api/games/", {"players": ["Ana", "Ben"]}, content_type="application/json").json()
    token = {"X-Game-Token": game["edit_token"]}
    for n in range(1, 8):
        client.post(
            f"/api/games/{game['id']}/rounds/",
            {"number": n, "winner": "Ana", "points": {"Ben": 130 if n == 7 else 10}},
            content_type="application/json",
            headers=token,
        )
    client.get(f"/g/{game['id']}/join/{game['edit_token']}/")
    html = client.get("/").content.decode()
    assert "✓ Finished</span> Ana won" in html
    assert 'class="tile done"' in html


def test_a_followed_game_on_home_offers_no_play_again(client):
    game = client.post("/api/games/", {"players": ["Ana", "Ben"]}, content_type="application/json").json()
    client.get(f"/g/{game['id']}/")  # followed, not joined: no edit right
    html = client.get("/").content.decode()
    assert f"/g/{game['id']}/" in html and "/again/" not in html


def test_the_names_come_first_on_the_new_game_page(client):
    html = tags_on_one_line(client.get(NEW).content.decode())
    assert html.index('id="player-0"') < html.index('name="ruleset"') < html.index('name="method"')
    assert chosen_colours(html) == ["blue", "red"]  # the palette in seat order


def test_a_name_chip_fills_the_next_empty_seat_then_adds_one(client):
    html = form(client, player=["Ana", ""], colour=["blue", "red"], known="Ben")
    assert seats(html) == ["Ana", "Ben"]
    html = form(client, player=["Ana", "Ben"], colour=["blue", "red"], known="Cy")
    assert seats(html) == ["Ana", "Ben", "Cy"]
    assert chosen_colours(html) == ["blue", "red", "green"]  # the new seat: the first colour nobody has
    assert Game.objects.count() == 0


def test_a_chip_at_a_full_table_seats_nobody(client):
    full = ["A", "B", "C", "D", "E", "F"]
    assert seats(form(client, player=full, colour=palette.KEYS[:6], known="Gus")) == full


def test_the_names_this_phone_played_with_come_as_chips_but_not_those_seated(client):
    client.post("/api/games/", {"players": ["Ana", "Ben", "Cy"]}, content_type="application/json")
    game = Game.objects.get()
    client.get(f"/g/{game.pk}/")
    html = form(client, player=["Ana", ""], op="add")
    chips = re.findall(r'name="known" value="([^"]*)"', html)
    assert chips == ["Ben", "Cy"]


def test_colours_move_with_their_player_and_are_kept_for_the_game(client):
    html = form(client, player=["Ana", "Ben", "Cy"], colour=["gold", "pink", "indigo"], op="up-2")
    assert seats(html) == ["Ana", "Cy", "Ben"] and chosen_colours(html) == ["gold", "indigo", "pink"]
    # A page drawn before slate became indigo posts the old name: it is read as the new.
    html = form(client, player=["Ana", "Ben"], colour=["slate", "pink"], op="variant")
    assert chosen_colours(html) == ["indigo", "pink"]
    data = {"ruleset": "mexican", "player": ["Ana", "Ben"], "colour": ["gold", "pink"], "op": "create"}
    assert client.post(NEW, data).status_code == 302
    assert [(p.name, p.colour) for p in Game.objects.get().players.all()] == [("Ana", "gold"), ("Ben", "pink")]


def test_two_players_of_one_colour_are_refused_beside_the_second(client):
    data = {"ruleset": "mexican", "player": ["Ana", "Ben"], "colour": ["red", "red"], "op": "create"}
    response = client.post(NEW, data)
    assert response.status_code == 422
    html = response.content.decode()
    assert 'id="colour-1-error"' in html and "Ana &amp; Ben have the same colour (Red)" in html
    assert Game.objects.count() == 0


def test_a_colour_that_is_no_colour_is_refused_by_name(client):
    data = {"ruleset": "mexican", "player": ["Ana", "Ben"], "colour": ["blue", "x" * 20], "op": "create"}
    response = client.post(NEW, data)
    assert response.status_code == 422
    assert "Ben: the colour must be one of blue, red" in response.content.decode()
    assert "x" * 20 not in response.content.decode()
    assert Game.objects.count() == 0


def test_the_variants_fold_behind_one_line_that_says_which_are_on(client):
    html = client.get(NEW).content.decode()
    assert '<details class="variants">' in html and "Variants: none" in html
    html = form(client, player=["Ana", "Ben"], variant=["kings-wild"], op="variant")
    assert '<details class="variants" open>' in html  # a variant ticked keeps the list open
    assert re.search(r"<summary>Variants: [^<]*King", without_layout(html))


def test_the_api_takes_each_seat_colour_and_says_it(client):
    body = {"players": ["Ana", "Ben"], "colours": ["purple", "brown"]}
    game = client.post("/api/games/", body, content_type="application/json").json()
    seated = client.get(f"/api/games/{game['id']}/").json()["players"]
    assert [(s["name"], s["colour"]) for s in seated] == [("Ana", "purple"), ("Ben", "brown")]
    unknown = client.post("/api/games/", {"players": ["Ana", "Ben"], "colours": ["blue", "teal"]}, "application/json")
    assert unknown.status_code == 400 and "teal" in unknown.json()["errors"]["colours.1"][0]
    same = client.post("/api/games/", {"players": ["Ana", "Ben"], "colours": ["red", "red"]}, "application/json")
    assert same.status_code == 400
    assert Game.objects.count() == 1
