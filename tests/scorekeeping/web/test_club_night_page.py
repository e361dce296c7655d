"""A club night on a member's phone: "I am Ben" once, and each draw takes the phone to Ben's
table, allowed to score there and seated as Ben; the game's page leads back to the night."""

import pytest

from scorekeeping.models import Seat

pytestmark = pytest.mark.django_db

JSON = "application/json"


def _night(client, names, sittings=2):
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type=JSON).json()
    headers = {"X-Club-Token": made["organiser_token"]}
    api = f"/api/clubs/{made['id']}"
    night = client.post(f"{api}/nights/", {"sittings": sittings}, content_type=JSON, headers=headers).json()
    client.put(f"{api}/nights/{night['id']}/present/", {"names": names}, content_type=JSON, headers=headers)

    def draw():
        return client.post(f"{api}/nights/{night['id']}/sittings/", {"force": True}, content_type=JSON, headers=headers)

    return made["id"], f"/c/{made['id']}/nights/{night['id']}/", draw


def _member(client, page, name):
    html = client.get(page).content.decode()
    marker = f'aria-label="I am {name}"'
    assert marker in html, html
    return int(html.split(marker)[0].rsplit('value="', 1)[1].split('"')[0])


def test_i_am_ben_once_then_each_draw_takes_the_phone_to_bens_table_seated_as_ben(client):
    _club, page, draw = _night(client, ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"])
    assert "The organiser checks in" not in client.get(page).content.decode()
    said = client.post(page + "me/", {"member": _member(client, page, "Ben")})
    assert said.status_code == 302 and said["Location"] == page
    html = client.get(page).content.decode()
    assert "You are Ben" in html and "goes to your table by itself" in html

    table = next(t for t in draw().json()["tables"] if "Ben" in t["players"])
    others = ", ".join(p for p in table["players"] if p != "Ben")
    html = client.get(page, headers={"HX-Request": "true"}).content.decode()  # the live fetch at the draw's event
    assert f"Sitting 1: table {table['number']}, with {others}" in html
    assert 'hx-trigger="load, submit"' in html  # taken there at once

    gone = client.post(page + "go/", headers={"HX-Request": "true"})
    game_id = table["game"]["id"]
    assert gone.status_code == 204 and gone["HX-Redirect"] == f"/g/{game_id}/"
    seat = Seat.objects.get(game_id=game_id)
    assert seat.player.name == "Ben"
    at_table = client.get(f"/g/{game_id}/").content.decode()
    assert 'id="entry-slot"' in at_table and "Ben" in at_table and "Not me" in at_table  # seated, may record
    assert 'hx-trigger="load, submit"' not in client.get(page).content.decode()  # once a draw

    # The next draw takes the phone along again, to Ben's new table.
    second = next(t for t in draw().json()["tables"] if "Ben" in t["players"])
    assert 'hx-trigger="load, submit"' in client.get(page).content.decode()
    assert client.post(page + "go/")["Location"] == f"/g/{second['game']['id']}/"
    assert Seat.objects.get(game_id=second["game"]["id"]).player.name == "Ben"


def test_the_finished_table_leads_the_seated_phone_back_to_the_night(client):
    _club, page, draw = _night(client, ["Ana", "Ben", "Cy"], sittings=1)
    client.post(page + "me/", {"member": _member(client, page, "Ben")})
    table = draw().json()["tables"][0]
    client.post(page + "go/")
    token = table["game"]["edit_url"].split("/join/")[1].strip("/")
    for number in range(1, 8):
        points = {"Ben": 65, "Cy": 70} if number == 7 else {"Ben": 5, "Cy": 10}  # 13 cards each in round 7
        body = {"number": number, "winner": "Ana", "points": points}
        made_round = client.post(
            f"/api/games/{table['game']['id']}/rounds/", body, content_type=JSON, headers={"X-Game-Token": token}
        )
        assert made_round.status_code == 201, made_round.content
    html = client.get(f"/g/{table['game']['id']}/").content.decode()
    assert f'href="{page}"' in html and "Back to the club night" in html
    assert f'href="{page}"' not in client.__class__().get(f"/g/{table['game']['id']}/").content.decode()


def test_a_member_not_drawn_stays_on_the_night_and_only_present_members_can_be_chosen(client):
    club_id, page, draw = _night(client, ["Ana", "Ben", "Cy", "Dee", "Eve"])
    client.post(page + "me/", {"member": 999999})  # no such member tonight: nobody
    assert "Who are you?" in client.get(page).content.decode()
    draw()  # five Mexican Rummy players sit at one table
    ben = _member(client, page, "Ben")
    client.post(page + "me/", {"member": ben})
    client.post(page + "me/", {})  # "Not me"
    assert "Who are you?" in client.get(page).content.decode()
    assert client.post(page + "go/")["Location"] == page  # nobody chosen: nowhere to go
    assert client.get(f"/c/{club_id}/nights/99999/").status_code == 404
    assert client.get(page + "me/").status_code == 405
