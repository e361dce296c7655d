"""Issue 34, found by a table playing on four phones: the keyboard's Go starts no game before every
name is in, the https advice goes to the phone that holds the edit link (and to whoever starts the
server), and what the pages say reads as a person would say it."""

from html.parser import HTMLParser
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from scorekeeping.models import Game

pytestmark = pytest.mark.django_db

NOTE = 'id="insecure-note"'


class _Buttons(HTMLParser):
    """The submit buttons of the new-game form, in tree order, and its name fields."""

    def __init__(self) -> None:
        super().__init__()
        self.in_form = False
        self.buttons: list[dict[str, str | None]] = []
        self.names: list[dict[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            self.in_form = attributes.get("id") == "new-game"
        elif self.in_form and tag == "button" and attributes.get("type", "submit") == "submit":
            self.buttons.append(attributes)
        elif self.in_form and tag == "input" and attributes.get("name") == "player":
            self.names.append(attributes)

    def handle_endtag(self, tag):
        if tag == "form":
            self.in_form = False


def _new_game_form(client):
    parser = _Buttons()
    parser.feed(client.get("/games/new/?ruleset=contract").content.decode())
    return parser


def test_the_new_game_forms_default_button_is_disabled_so_enter_submits_nothing(client):
    form = _new_game_form(client)
    first = form.buttons[0]  # HTML's default button: the one Enter (Go) in a field would press
    assert "disabled" in first and "hidden" in first and first.get("aria-hidden") == "true"
    assert "name" not in first  # were it ever sent, it would ask for nothing
    start = [b for b in form.buttons if b.get("value") == "create"]
    assert len(start) == 1 and "disabled" not in start[0]  # only the Start button starts the game
    assert [n["enterkeyhint"] for n in form.names] == ["next", "next", "done"]  # Contract: 3 players at least


def test_the_start_button_still_sends_every_name(client):
    data = {"ruleset": "mexican", "player": ["Ana", "Ben", "Cy"], "method": "random", "op": "create"}
    assert client.post("/games/new/", data).status_code == 302
    assert [p.name for p in Game.objects.get().players.order_by("seat")] == ["Ana", "Ben", "Cy"]


def _game_by_the_api():
    body = {"players": ["Ana", "Ben", "Cy"], "first_dealer": "Ana"}
    return Client().post("/api/games/", body, content_type="application/json").json()


def _joined(game):
    phone = Client()
    assert phone.get(f"/g/{game['id']}/join/{game['edit_token']}/").status_code == 302
    return phone


def test_the_https_note_is_on_the_page_of_the_phone_that_holds_the_edit_link_only(client):
    data = {"ruleset": "mexican", "player": ["Ana", "Ben"], "method": "random", "op": "create"}
    made = Game.objects.get(pk=client.post("/games/new/", data)["Location"].strip("/").split("/")[-1])
    assert NOTE in client.get(f"/g/{made.pk}/").content.decode()  # the phone that started the game

    game = _game_by_the_api()
    follower = Client()
    assert NOTE not in follower.get(f"/g/{game['id']}/").content.decode()
    assert NOTE not in follower.get(f"/g/{game['id']}/").content.decode()  # its page from the cache too
    holder = _joined(game)
    assert NOTE in holder.get(f"/g/{game['id']}/").content.decode()
    # A player's own phone, seated at the game ("This is me"), has the game to score, not a server to run.
    ben = _joined(game)
    assert ben.post(f"/g/{game['id']}/seat/", {"player": "1"}).status_code == 302
    page = ben.get(f"/g/{game['id']}/").content.decode()
    assert "Send in Ben" in page and NOTE not in page


def test_the_start_command_gives_the_https_advice_when_it_serves_plain_http(settings, tmp_path):
    settings.LAN_HTTPS = False
    out = StringIO()
    call_command("addresses", "--host", "0.0.0.0", "--port", "8123", "--no-qr", stdout=out)
    said = out.getvalue()
    assert "http://127.0.0.1:8123/" in said
    assert "plain http" in said and "LAN_HTTPS=1" in said and "Trust this server" in said
    settings.LAN_HTTPS, settings.TLS_DIR = True, tmp_path
    out = StringIO()
    call_command("addresses", "--host", "0.0.0.0", "--port", "8123", "--no-qr", stdout=out)
    assert "https://127.0.0.1:8123/" in out.getvalue() and "LAN_HTTPS=1" not in out.getvalue()


def test_undo_says_what_it_took_back_in_a_sentence(client):
    game = _game_by_the_api()
    phone = _joined(game)
    table = f"/g/{game['id']}"
    recorded = {"version": "1", "number": "1", "winner": "0", "hand-1": "4C KC", "hand-2": "JK", "active": "1"}
    assert phone.post(f"{table}/rounds/", recorded).status_code == 302
    corrected = {**recorded, "version": "2", "hand-1": "4C"}
    assert phone.post(f"{table}/rounds/1/", corrected).status_code == 302
    undone = phone.post(f"{table}/undo/", {"version": "3"}, headers={"HX-Request": "true"}).content.decode()
    assert "Undone: the correction of round 1." in undone
    undone = phone.post(f"{table}/undo/", {"version": "4"}, headers={"HX-Request": "true"}).content.decode()
    assert "Undone: the recording of round 1." in undone


def test_errors_start_with_a_capital(client):
    refused = client.post("/games/new/", {"ruleset": "mexican", "player": ["Ana", ""], "op": "create"})
    assert refused.status_code == 422 and "Player 2 needs a name" in refused.content.decode()
    game = _game_by_the_api()
    phone = _joined(game)
    again = phone.post(f"/g/{game['id']}/undo/", {"version": "1"}, follow=True).content.decode()
    assert "There is nothing to undo" in again
