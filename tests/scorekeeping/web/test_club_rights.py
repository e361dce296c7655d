"""Who may do what at a club night (docs/clubs.md, "Who may do what"): a phone that said "I am Ben"
records and sends hands at Ben's table of the current sitting, and nothing more: it never mints
or replaces the table's edit token, and its right ends with "Not me", another player, the next
draw or the night's end. An ended table and a finished night take no more writes from anyone."""

import pytest
from django.test import Client

from scorekeeping.models import ClubTable, Game, Night, Round

pytestmark = pytest.mark.django_db

JSON = "application/json"
SEATED = "This is <strong>Ben</strong>'s phone."
NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]


class Night_:
    """A club of six (or ``names``) with a night of two sittings (tables of three), driven by its
    organiser's API."""

    def __init__(self, client: Client, sittings: int = 2, names: list[str] = NAMES) -> None:
        made = client.post("/api/clubs/", {"name": "De Joker"}, content_type=JSON).json()
        self.client, self.id, self.token = client, made["id"], made["organiser_token"]
        self.headers = {"X-Club-Token": self.token}
        self.api = f"/api/clubs/{self.id}"
        body = {"sittings": sittings, "table_size": 3}
        night = client.post(f"{self.api}/nights/", body, content_type=JSON, headers=self.headers).json()
        self.night = night["id"]
        self.page = f"/c/{self.id}/nights/{self.night}/"
        client.put(
            f"{self.api}/nights/{self.night}/present/", {"names": names}, content_type=JSON, headers=self.headers
        )

    def post(self, path: str, body: object = None):
        return self.client.post(
            f"{self.api}/nights/{self.night}/{path}", body or {}, content_type=JSON, headers=self.headers
        )

    def draw(self) -> list[dict]:
        drawn = self.post("sittings/", {"force": True})
        assert drawn.status_code == 201, drawn.content
        return drawn.json()["tables"]

    def table_of(self, tables: list[dict], name: str) -> dict:
        return next(t for t in tables if name in t["players"])


def _member(phone: Client, page: str, name: str) -> int:
    html = phone.get(page).content.decode()
    marker = f'aria-label="I am {name}"'
    assert marker in html, html
    return int(html.split(marker)[0].rsplit('value="', 1)[1].split('"')[0])


def _i_am(phone: Client, night: Night_, name: str) -> None:
    assert phone.post(night.page + "me/", {"member": _member(phone, night.page, name)}).status_code == 302


def _go(phone: Client, night: Night_) -> str:
    gone = phone.post(night.page + "go/")
    assert gone.status_code == 302, gone.content
    return gone["Location"]


def _record_round_one(phone: Client, game_id: str):
    """Round 1 from the table's page, as one phone taps in every hand (it leaves its seat first,
    itself a write the right must cover): seat 0 went out."""
    left = phone.post(f"/g/{game_id}/seat/", {})
    if left.status_code != 302:
        return left
    form = {"version": str(Game.objects.get(pk=game_id).version), "number": "1", "winner": "0"}
    form |= {"hand-1": "4C", "hand-2": "5C"}
    return phone.post(f"/g/{game_id}/rounds/", form)


def _edit_token(table: dict) -> str:
    return table["game"]["edit_url"].split("/join/")[1].strip("/")


def _rounds(game_id: str) -> int:
    return Round.objects.filter(game_id=game_id).count()


def test_an_i_am_phone_records_at_its_table_but_never_replaces_its_edit_link(client):
    night = Night_(client)
    table = night.table_of(night.draw(), "Ben")
    game_id = table["game"]["id"]
    stranger = Client()  # a fresh phone with only the club's link
    _i_am(stranger, night, "Ben")
    assert _go(stranger, night) == f"/g/{game_id}/"
    before = Game.objects.get(pk=game_id).edit_token_hash

    replaced = stranger.post(f"/g/{game_id}/edit-link/")
    assert replaced.status_code == 403
    assert Game.objects.get(pk=game_id).edit_token_hash == before
    assert "edit-link-replace" not in stranger.get(f"/g/{game_id}/").content.decode()
    # The organiser's link to the table still works, and the right that came from "I am" records.
    assert Client().get(f"/g/{game_id}/join/{_edit_token(table)}/").status_code == 302
    assert _record_round_one(stranger, game_id).status_code == 302
    assert _rounds(game_id) == 1


def test_a_club_tables_edit_token_is_replaced_by_the_organiser_only(client):
    night = Night_(client)
    table = night.table_of(night.draw(), "Ben")
    game_id, old = table["game"]["id"], _edit_token(table)
    before = Game.objects.get(pk=game_id).edit_token_hash

    by_table = client.post(f"/api/games/{game_id}/token/", headers={"X-Game-Token": old})
    assert by_table.status_code == 403 and "organiser" in by_table.json()["detail"]
    holder = Client()
    assert holder.get(f"/g/{game_id}/join/{old}/").status_code == 302
    assert holder.post(f"/g/{game_id}/edit-link/").status_code == 403
    assert Game.objects.get(pk=game_id).edit_token_hash == before

    wrong = client.post(
        f"{night.api}/nights/{night.night}/sittings/1/tables/{table['number']}/token/",
        headers={"X-Club-Token": "x" * 43},
    )
    assert wrong.status_code == 403 and Game.objects.get(pk=game_id).edit_token_hash == before
    replaced = night.post(f"sittings/1/tables/{table['number']}/token/")
    assert replaced.status_code == 200, replaced.content
    sitting = next(s for s in replaced.json()["sittings"] if s["number"] == 1)
    new = _edit_token(next(t for t in sitting["tables"] if t["number"] == table["number"]))
    assert new != old
    assert Client().get(f"/g/{game_id}/join/{old}/").status_code == 403  # the leaked link is dead
    assert Client().get(f"/g/{game_id}/join/{new}/").status_code == 302  # the organiser's new one works
    # The night's API lists the live link: the same the organiser's screens show.
    listed = client.get(f"{night.api}/nights/{night.night}/", headers=night.headers).json()
    listed_tables = next(s for s in listed["sittings"] if s["number"] == 1)["tables"]
    assert _edit_token(next(t for t in listed_tables if t["number"] == table["number"])) == new
    assert ClubTable.objects.get(game_id=game_id).token_generation == 1


def test_the_next_draw_ends_the_i_am_right_at_the_table_before(client):
    night = Night_(client)
    first = night.table_of(night.draw(), "Ben")
    game_id = first["game"]["id"]
    ben = Client()
    _i_am(ben, night, "Ben")
    _go(ben, night)
    night.draw()  # forced: the first sitting's tables end as they stand
    standings = client.get(f"{night.api}/nights/{night.night}/").json()["standings"]

    assert _record_round_one(ben, game_id).status_code == 403
    by_token = client.post(
        f"/api/games/{game_id}/rounds/",
        {"number": 1, "winner": first["players"][0], "points": {p: 5 for p in first["players"][1:]}},
        content_type=JSON,
        headers={"X-Game-Token": _edit_token(first)},
    )
    assert by_token.status_code == 409 and "closed" in by_token.json()["detail"]
    assert _rounds(game_id) == 0
    assert client.get(f"{night.api}/nights/{night.night}/").json()["standings"] == standings


def test_not_me_and_another_player_end_the_right(client):
    night = Night_(client, sittings=1)
    tables = night.draw()
    bens = night.table_of(tables, "Ben")
    other = next(p for p in NAMES if p not in bens["players"])  # a player at another table
    others = night.table_of(tables, other)["game"]["id"]
    phone = Client()
    _i_am(phone, night, "Ben")
    _go(phone, night)
    phone.post(night.page + "me/", {})  # "Not me"
    assert _record_round_one(phone, bens["game"]["id"]).status_code == 403

    _i_am(phone, night, "Ben")
    _go(phone, night)
    # Cycling "I am" collects nothing: the right is the current player's table only.
    member = Night.objects.get(pk=night.night).present.get(name=other).pk
    assert phone.post(night.page + "me/", {"member": member}).status_code == 302
    assert _record_round_one(phone, bens["game"]["id"]).status_code == 403
    _go(phone, night)
    assert _record_round_one(phone, others).status_code == 302
    assert _rounds(bens["game"]["id"]) == 0 and _rounds(others) == 1


def test_a_finished_night_seats_nobody_and_takes_no_writes(client):
    night = Night_(client, sittings=1)
    tables = night.draw()
    ben = Client()
    _i_am(ben, night, "Ben")
    game_id = night.table_of(tables, "Ben")["game"]["id"]
    _go(ben, night)
    assert night.post("finish/").status_code == 200
    standings = client.get(f"{night.api}/nights/{night.night}/").json()["standings"]

    assert _record_round_one(ben, game_id).status_code == 403
    late = Client()
    member = Night.objects.get(pk=night.night).present.get(name="Cy").pk
    me = late.post(night.page + "me/", {"member": member})
    assert me.status_code == 409 and "finished" in me.content.decode()
    assert late.post(night.page + "go/").status_code == 409
    for table in tables:
        answer = client.post(
            f"/api/games/{table['game']['id']}/rounds/",
            {"number": 1, "winner": table["players"][0], "points": {p: 5 for p in table["players"][1:]}},
            content_type=JSON,
            headers={"X-Game-Token": _edit_token(table)},
        )
        assert answer.status_code == 409, answer.content
    assert Round.objects.count() == 0
    assert client.get(f"{night.api}/nights/{night.night}/").json()["standings"] == standings


def test_the_room_screen_holds_no_right_and_its_codes_seat_a_phone_at_its_table(client):
    from scorekeeping.links import qr_document, qr_svg

    night = Night_(client)
    tables = night.draw()
    tv = Client()
    assert tv.get(f"/c/{night.id}/join/{night.token}/").status_code == 302  # even the organiser's device
    html = tv.get(f"{night.page}room/").content.decode()
    assert not any(_edit_token(t) in html for t in tables)
    assert not any(qr_document(t["game"]["edit_url"]).decode() in html for t in tables)  # nor as a code
    for table in tables:
        seat = f"http://testserver{night.page}?table={table['number']}"
        assert str(qr_svg(seat)) in html  # its code is the night's "Who are you?" for that table
    # A phone that scans table 1's code is offered table 1's players, and one tap seats it there.
    first = tables[0]
    scanned = Client()
    page = scanned.get(f"{night.page}?table={first['number']}").content.decode()
    assert f"Table {first['number']}: who are you?" in page
    offered = {name for name in NAMES if f'aria-label="I am {name}"' in page}
    assert offered == set(first["players"])
    _i_am(scanned, night, first["players"][0])
    assert _go(scanned, night) == f"/g/{first['game']['id']}/"
    assert "edit-link" not in scanned.get(f"/g/{first['game']['id']}/").content.decode()


def test_a_recaps_picture_is_kept_in_a_cache_bounded_in_bytes(client, settings):
    from django.core.cache import cache, caches

    settings.CACHES = {**settings.CACHES, "images": {**settings.CACHES["images"], "OPTIONS": {"MAX_ENTRIES": 3}}}
    games = [
        client.post("/api/games/", {"players": ["Ana", f"Ben{n}"], "first_dealer": "Ana"}, content_type=JSON).json()
        for n in range(4)
    ]
    for game in games:
        answer = client.get(f"/g/{game['id']}/recap.png")
        assert answer.status_code == 200 and answer.content.startswith(b"\x89PNG")
        assert len(answer.content) <= settings.IMAGE_CACHE_ITEM_BYTES
    images = caches["images"]
    kept = [g for g in games if images.get(f"recap-png:{g['id']}:1:en") is not None]
    assert 1 <= len(kept) <= 3  # at most MAX_ENTRIES pictures, each at most IMAGE_CACHE_ITEM_BYTES
    assert all(cache.get(f"recap-png:{g['id']}:1:en") is None for g in games)  # none among the pages' HTML


@pytest.mark.parametrize("table", ["abc", "-1", "0", "99", "9" * 40, "1e9", "１"], ids=str)
def test_a_table_that_is_no_table_of_the_sitting_offers_every_player(client, table):
    night = Night_(client, sittings=1)
    night.draw()
    page = Client().get(night.page, {"table": table})
    html = page.content.decode()
    assert page.status_code == 200 and "Who are you?" in html and ": who are you?" not in html
    assert all(f'aria-label="I am {name}"' in html for name in NAMES)


def test_an_i_am_phone_makes_no_new_game_and_a_closed_table_answers_409_not_500(client):
    night = Night_(client)
    table = night.table_of(night.draw(), "Ben")
    game_id = table["game"]["id"]
    ben = Client()
    _i_am(ben, night, "Ben")
    _go(ben, night)
    games = Game.objects.count()
    assert ben.post(f"/g/{game_id}/again/").status_code == 403  # "Play again" mints a new game's token
    assert Game.objects.count() == games
    assert "play-again" not in ben.get(f"/g/{game_id}/").content.decode()
    holder = Client()  # the table's edit link, from the organiser
    assert holder.get(f"/g/{game_id}/join/{_edit_token(table)}/").status_code == 302
    assert "New edit link" not in holder.get(f"/g/{game_id}/").content.decode()  # the organiser's to replace
    assert night.post(f"sittings/1/tables/{table['number']}/end/").status_code == 200
    seat = holder.post(f"/g/{game_id}/seat/", {})
    assert seat.status_code == 409 and "This table is closed" in seat.content.decode()
    assert holder.post(f"/g/{game_id}/edit-link/").status_code == 403


def test_the_organisers_night_costs_the_same_queries_with_2_tables_or_10(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players in (6, 30):
        night = Night_(client, sittings=1, names=[f"P{n}" for n in range(players)])
        night.draw()
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"{night.api}/nights/{night.night}/", headers=night.headers).status_code == 200
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1], counts  # every table's edit link made without a query of its own


def test_a_request_sent_with_the_session_the_way_to_the_table_replaced_leaves_the_new_cookie(client):
    """The way to the table gives the phone a new session and deletes the old one. The service
    worker's fresh copy of a page, sent with the old session and answered after that, finds no
    session: it must not delete the phone's cookie (a cookie is deleted by name, so the browser
    would drop the new one and the phone would reach its table unseated: seen in the browser tests)."""
    night = Night_(client)
    night.draw()
    ben = Client()
    _i_am(ben, night, "Ben")
    old = ben.cookies["sessionid"].value
    table = _go(ben, night)
    assert ben.cookies["sessionid"].value != old

    late = Client()
    late.cookies["sessionid"] = old
    answer = late.get(table)
    assert answer.status_code == 200 and SEATED not in answer.content.decode()
    assert "sessionid" not in answer.cookies  # Django's own middleware sends an expired sessionid here
    assert SEATED in ben.get(table).content.decode()


def test_a_session_emptied_by_its_own_request_still_loses_its_cookie(admin_client):
    """Logging out (the admin's) empties the session: that answer deletes the cookie as Django does."""
    answer = admin_client.post("/admin/logout/")
    assert answer.status_code == 200
    assert answer.cookies["sessionid"].value == "" and answer.cookies["sessionid"]["max-age"] == 0
