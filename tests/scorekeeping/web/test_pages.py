"""The pages through Django's test client: each view's happy path and its refusals (no browser)."""

import gzip
import re

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from referee.engine.rounds import RoundEntry
from scorekeeping.models import Game, Round
from scorekeeping.services import round_record
from tests.scorekeeping.web.markup import tags_on_one_line

pytestmark = pytest.mark.django_db


def new_game(client, names=("Ana", "Ben", "Cy"), **extra):
    data = {"ruleset": "mexican", "player": list(names), "method": "named", "dealer": "0", "op": "create", **extra}
    response = client.post("/games/new/", data)
    assert response.status_code == 302, response.content.decode()[:500]
    return Game.objects.get(pk=response["Location"].strip("/").split("/")[-1])


def round_1(**extra):
    return {"version": "1", "number": "1", "winner": "0", "hand-1": "4C KC", "hand-2": "JK", "active": "1", **extra}


def test_home_lists_the_games_started_on_this_phone(client):
    assert "Start a game" in client.get("/").content.decode()
    game = new_game(client)
    assert f"/g/{game.pk}/" in client.get("/").content.decode()
    assert client.post("/").status_code == 405


@pytest.mark.parametrize(
    ("op", "players", "expected"),
    [
        ("add", ["Ana", "Ben"], ["Ana", "Ben", ""]),
        ("remove-0", ["Ana", "Ben", "Cy"], ["Ben", "Cy"]),
        ("up-2", ["Ana", "Ben", "Cy"], ["Ana", "Cy", "Ben"]),
        ("down-0", ["Ana", "Ben", "Cy"], ["Ben", "Ana", "Cy"]),
    ],
)
def test_new_game_edits_players_without_javascript(client, op, players, expected):
    response = client.post("/games/new/", {"ruleset": "mexican", "player": players, "op": op})
    assert response.status_code == 200
    assert re.findall(r'name="player" value="([^"]*)"', tags_on_one_line(response.content.decode())) == expected


def test_new_game_refusals_appear_beside_the_field(client):
    response = client.post("/games/new/", {"ruleset": "mexican", "player": ["Ana", "ana"], "op": "create"})
    assert response.status_code == 422
    html = response.content.decode()
    assert 'id="player-1-error"' in html and "already at the table" in html
    assert Game.objects.count() == 0
    too_many = client.post("/games/new/", {"ruleset": "mexican", "player": list("ABCDEFG"), "op": "create"})
    assert "for 2-6 players, not 7" in too_many.content.decode()


def test_new_game_with_htmx_redirects_the_client(client):
    data = {"ruleset": "contract", "player": ["Ana", "Ben", "Cy"], "method": "random", "op": "create"}
    response = client.post("/games/new/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith("/g/")
    assert Game.objects.get().ruleset == "contract"


def test_new_game_draw_for_dealer(client):
    data = {"ruleset": "mexican", "player": ["Ana", "Ben"], "method": "draw", "draw": ["3C", "QH"], "op": "create"}
    client.post("/games/new/", data)
    game = Game.objects.get()
    assert (game.first_dealer_seat, game.first_dealer_method) == (1, "draw")


def test_table_shows_the_announcement_and_the_entry_to_the_editor(client):
    game = new_game(client)
    html = client.get(f"/g/{game.pk}/").content.decode()
    assert "Round 1 of 7" in html and "7 cards each" in html and "Threes and jokers are wild" in html
    assert "Record round 1" in html
    assert 'aria-label="Seven of clubs"' in html and 'aria-label="Three of clubs, wild"' in html
    assert client.get("/g/nope/").status_code == 404


def test_a_viewer_sees_the_table_but_cannot_record(client, django_user_model):
    from django.test import Client

    game = new_game(client)
    viewer = Client()
    html = viewer.get(f"/g/{game.pk}/").content.decode()
    assert "Record round 1" not in html
    response = viewer.post(f"/g/{game.pk}/rounds/", round_1())
    assert response.status_code == 403
    assert "can follow the game, not change it" in response.content.decode()
    assert viewer.post(f"/g/{game.pk}/undo/").status_code == 403
    assert viewer.get(f"/g/{game.pk}/rounds/1/").status_code == 403
    assert Round.objects.count() == 0


def test_record_a_round_without_javascript(client):
    game = new_game(client)
    response = client.post(f"/g/{game.pk}/rounds/", round_1())
    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    assert "Round 2 of 7" in html
    assert Round.objects.get().scores.get(player__name="Ben").points == 15


def test_keypad_taps_and_untaps_without_javascript(client):
    game = new_game(client)
    tapped = client.post(f"/g/{game.pk}/rounds/", {**round_1(), "hand-1": "4C", "tap": "KC", "active": "1"})
    assert tapped.status_code == 200
    assert 'name="hand-1" value="4C KC"' in tags_on_one_line(tapped.content.decode())
    untapped = client.post(f"/g/{game.pk}/rounds/", {**round_1(), "hand-1": "4C KC", "untap": "1:0"})
    assert 'name="hand-1" value="KC"' in tags_on_one_line(untapped.content.decode())
    assert Round.objects.count() == 0


def test_preview_shows_the_running_penalty(client):
    game = new_game(client)
    response = client.post(f"/g/{game.pk}/rounds/", {**round_1(), "preview": "1"}, HTTP_HX_REQUEST="true")
    html = tags_on_one_line(response.content.decode())
    assert 'id="result-1" class="result" data-hand="4C KC" hx-swap-oob="true"' in html
    assert '<span class="penalty">15</span> points = 5 + 10' in html
    # ... and beside the names above the keypad, where the thumb is.
    assert '<span id="tally-1" class="tally" hx-swap-oob="true">15</span>' in html
    assert '<span id="tally-0" class="tally" hx-swap-oob="true"></span>' in html  # Ana went out
    assert Round.objects.count() == 0


def test_a_hand_short_of_its_fixed_size_is_not_called_short_while_it_is_tapped_in(client):
    """Issue 34: in Mexican round 7 every hand left holds exactly 13 cards. While the keypad
    fills Ben's hand, the preview does not say it is short; once the keypad is on another
    hand, or Record is pressed, it does."""
    game = new_game(client)
    played = RoundEntry(winner="Ana", points={"Ben": 5, "Cy": 5})
    for number in range(1, 7):
        round_record(game=Game.objects.get(pk=game.pk), number=number, entry=played)
    thirteen = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
    form = {"version": "7", "number": "7", "winner": "0", "hand-1": "4D 5D 6D", "hand-2": thirteen, "preview": "1"}
    short = "so Ben holds exactly 13 cards; 3 were entered"
    typing = client.post(f"/g/{game.pk}/rounds/", {**form, "active": "1"}, HTTP_HX_REQUEST="true").content.decode()
    assert '<span id="tally-2" class="tally" hx-swap-oob="true">' in tags_on_one_line(typing)  # the preview was drawn
    assert short not in typing and 'id="error-1-1"' not in typing
    moved_on = client.post(f"/g/{game.pk}/rounds/", {**form, "active": "2"}, HTTP_HX_REQUEST="true").content.decode()
    assert short in moved_on and 'id="error-1-1"' in moved_on
    recorded = client.post(f"/g/{game.pk}/rounds/", {**form, "active": "1", "preview": ""})
    assert recorded.status_code == 422 and short in recorded.content.decode()
    assert Round.objects.filter(game=game, number=7).count() == 0


def test_refused_round_shows_errors_beside_the_player_and_saves_nothing(client):
    game = new_game(client)
    response = client.post(f"/g/{game.pk}/rounds/", round_1(**{"hand-0": "2C"}))
    assert response.status_code == 422
    html = response.content.decode()
    assert "Ana went out, so Ana holds no cards; 1 card was entered" in html
    # The first reason is focused as it is drawn (autofocus, honoured by the browser and by htmx).
    assert 'id="error-0-1" tabindex="-1" autofocus>' in html and html.count(" autofocus") == 1
    htmx = client.post(f"/g/{game.pk}/rounds/", round_1(**{"hand-0": "2C"}), HTTP_HX_REQUEST="true")
    assert htmx.status_code == 200  # htmx swaps the form with its errors in place
    assert 'id="error-0-1" tabindex="-1" autofocus>' in htmx.content.decode()
    no_winner = client.post(f"/g/{game.pk}/rounds/", round_1(winner=""))
    assert '<li tabindex="-1" autofocus>Choose who went out' in no_winner.content.decode()
    # The refused form's previews are checked as Record would be, and take no focus: the thumb types.
    preview = round_1(winner="", refused="1", preview="1")
    rechecked = client.post(f"/g/{game.pk}/rounds/", preview, HTTP_HX_REQUEST="true").content.decode()
    assert "Choose who went out" in rechecked and "autofocus" not in rechecked
    assert Round.objects.count() == 0


def test_a_stale_page_gets_the_conflict_and_the_fresh_state(client):
    game = new_game(client)
    client.post(f"/g/{game.pk}/rounds/", round_1())
    response = client.post(f"/g/{game.pk}/rounds/", round_1())  # the same form, sent again
    assert response.status_code == 409
    html = response.content.decode()
    assert "round 1 was recorded" in html
    assert "Round 2 of 7" in html
    assert Round.objects.count() == 1


def test_correct_a_round(client):
    game = new_game(client)
    client.post(f"/g/{game.pk}/rounds/", round_1())
    form = tags_on_one_line(client.get(f"/g/{game.pk}/rounds/1/").content.decode())
    assert 'name="hand-1" value="4C KC"' in form and "Correct round 1" in form
    response = client.post(f"/g/{game.pk}/rounds/1/", round_1(version="2", **{"hand-1": "4C"}))
    assert response.status_code == 302
    assert Round.objects.get().scores.get(player__name="Ben").points == 5
    assert client.get(f"/g/{game.pk}/rounds/5/").status_code == 404


def test_undo(client):
    game = new_game(client)
    client.post(f"/g/{game.pk}/rounds/", round_1())
    response = client.post(f"/g/{game.pk}/undo/", {"version": "2"})
    assert response.status_code == 302
    assert Round.objects.count() == 0
    assert client.get(f"/g/{game.pk}/undo/").status_code == 405


def test_referee_page_checks_taps_and_declares(client):
    assert "Referee" in client.get("/referee/?round=2").content.decode()
    base = {"ruleset": "mexican", "round": "2", "action": "open", "active": "0"}
    tapped = tags_on_one_line(client.post("/referee/", {**base, "group": ["7C", ""], "tap": "7D"}).content.decode())
    assert 'id="group-0" name="group" data-group="0" value="7C 7D"' in tapped
    checked = client.post("/referee/", {**base, "group": ["7C 7D 7H", "5S 6S 7S JK"], "op": "check"}).content.decode()
    assert "✔ Legal" in checked and 'value="1:3:8S"' in checked
    declared = client.post("/referee/", {**base, "group": ["7C 7D 7H", "5S 6S 7S JK"], "declare": "1:3:8S"})
    assert "Joker stands for eight of spades." in declared.content.decode()
    bad = client.post("/referee/", {**base, "group": ["7C 7D 7X", ""], "op": "check"})
    assert bad.status_code == 422
    assert "meld 1: card 3: &#x27;7X&#x27; is not a card" in bad.content.decode()


def test_rules_pages(client):
    assert "Shanghai Rummy" in client.get("/rules/").content.decode()
    html = client.get("/rules/shanghai/").content.decode()
    assert "3 sequences of exactly 5" in html and "Joker" in html
    assert client.get("/rules/gin/").status_code == 404


def test_first_load_of_the_table_page_is_light(client, settings):
    """HTML, CSS and scripts of the table page, gzip-compressed as ServeStatic serves them: at most 80 KB."""
    from django.contrib.staticfiles import finders

    game = new_game(client)  # the phone that made it records: its page as the server sends it (issue 49: it was
    response = client.get(f"/g/{game.pk}/", HTTP_ACCEPT_ENCODING="gzip")  # sent uncompressed, holding the edit link)
    assert response["Content-Encoding"] == "gzip"
    total = len(response.content)
    html = gzip.decompress(response.content)
    assets = re.findall(rb'(?:href|src)="/static/([^"]+)"', html)
    assert {a.decode() for a in assets} >= {
        "css/app.css",
        "vendor/htmx.min.js",
        "vendor/htmx-ext-sse.js",
        "js/entry.js",
        "js/live.js",
    }
    for asset in assets:
        path = finders.find(asset.decode())
        with open(path, "rb") as f:
            total += len(gzip.compress(f.read()))
    assert total <= 80 * 1024, f"{total} bytes"


PRODUCTION_STATIC = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "servestatic.storage.CompressedManifestStaticFilesStorage"},
}


def test_static_files_get_hashed_names_and_compressed_copies(tmp_path):
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=PRODUCTION_STATIC):
        call_command("collectstatic", "--noinput", verbosity=0)
    names = [p.name for p in (tmp_path / "css").iterdir()]
    assert any(re.fullmatch(r"app\.[0-9a-f]{12}\.css", n) for n in names)
    assert any(re.fullmatch(r"app\.[0-9a-f]{12}\.css\.gz", n) for n in names)


def test_collected_static_files_are_served_cached_compressed_and_asynchronously(tmp_path):
    """As the start command serves them (collectstatic, then the manifest): a hashed name cached
    for ten years, the plain name for a minute, gzip to a browser that takes it, SecurityMiddleware's
    headers, a body read asynchronously (no thread for Django's ASGI handler to hop to), the same
    bytes once kept in memory, ranges and 304s as ServeStatic answers them."""
    from asgiref.sync import async_to_sync
    from django.templatetags.static import static
    from django.test import AsyncClient

    client = AsyncClient()  # one handler, one middleware: the second ask of a file comes from memory

    async def fetch(path, **headers):
        return await client.get(path, headers=headers)

    async def read(response):
        return b"".join([chunk async for chunk in response.streaming_content])

    with override_settings(
        STATIC_ROOT=tmp_path, STORAGES=PRODUCTION_STATIC, SERVESTATIC_USE_FINDERS=False, SERVESTATIC_AUTOREFRESH=False
    ):
        call_command("collectstatic", "--noinput", verbosity=0)
        hashed = static("css/app.css")
        assert re.fullmatch(r"/static/css/app\.[0-9a-f]{12}\.css", hashed)
        forever = async_to_sync(fetch)(hashed, accept_encoding="gzip, br")
        plain = async_to_sync(fetch)("/static/css/app.css")
        again = async_to_sync(fetch)("/static/css/app.css")  # from memory this time (serve/statics.py)
        part = async_to_sync(fetch)("/static/css/app.css", range="bytes=0-9")
        unchanged = async_to_sync(fetch)(hashed, if_none_match=forever["ETag"])
    assert forever.status_code == 200 and plain.status_code == 200
    assert forever["Cache-Control"] == "max-age=315360000, public, immutable"
    assert plain["Cache-Control"] == "max-age=60, public"
    assert forever["Content-Encoding"] == "gzip" and forever["Vary"] == "Accept-Encoding"
    assert forever["Content-Type"].startswith("text/css")
    assert forever["X-Content-Type-Options"] == "nosniff" and forever["Referrer-Policy"] == "same-origin"
    assert forever.is_async and plain.is_async
    original = (tmp_path / "css" / "app.css").read_bytes()
    assert async_to_sync(read)(plain) == async_to_sync(read)(again) == original
    assert part.status_code == 206 and async_to_sync(read)(part) == original[:10]
    assert unchanged.status_code == 304
    assert gzip.decompress(async_to_sync(read)(forever)) == (tmp_path / hashed.removeprefix("/static/")).read_bytes()


@pytest.mark.parametrize("number", ["0", "99", "²", "٣", "9" * 5000, "-1"])
def test_a_round_number_that_is_no_round_is_taken_as_the_current_one(client, number):
    game = new_game(client)
    tapped = client.post(f"/g/{game.pk}/rounds/", {**round_1(number=number), "tap": "KC"})
    assert tapped.status_code == 200
    assert 'name="number" value="1"' in tapped.content.decode()
    saved = client.post(f"/g/{game.pk}/rounds/", round_1(number=number))
    assert saved.status_code == 302
    assert Round.objects.get().number == 1


def test_the_referee_page_taps_into_a_group_that_exists(client):
    response = client.post("/referee/", {"group": ["7C 7D"], "active": "5", "tap": "7H"})
    assert response.status_code == 200
    assert 'value="7C 7D 7H"' in response.content.decode()


def test_a_name_with_a_control_character_is_refused_by_name(client):
    data = {"ruleset": "mexican", "player": ["A\x00na", "Ben"], "method": "named", "dealer": "0", "op": "create"}
    response = client.post("/games/new/", data)
    assert response.status_code == 422
    assert "Player 1: a name cannot hold control characters" in response.content.decode()
    assert Game.objects.count() == 0


@pytest.mark.parametrize("path", ["/g/ab%00cd/", "/g/ab%00cd/live/", "/g/ab%00cd/export.csv", "/g/" + "x" * 17 + "/"])
def test_an_address_that_is_no_game_id_is_404(client, path):
    assert client.get(path).status_code == 404


def test_referee_verdicts_show_cards_as_the_keypad_does(client):
    base = {"ruleset": "mexican", "round": "2", "action": "open", "active": "0"}
    refused = client.post("/referee/", {**base, "group": ["9S 10S QS AS", "7C 7D 7H"], "op": "check"})
    html = refused.content.decode()
    assert "9♠ 10♠ Q♠ A♠ spans 6 ranks (9♠ to A♠)" in html
    assert "9S 10S" not in html.split('id="verdict"')[1]


def test_referee_offers_only_the_other_readings_of_a_wild(client):
    base = {"ruleset": "mexican", "round": "2", "action": "open", "active": "0"}
    checked = client.post("/referee/", {**base, "group": ["7C 7D 7H", "5S 6S 7S JK"], "op": "check"}).content.decode()
    assert "Joker stands for four of spades." in checked
    assert 'value="1:3:8S"' in checked and 'value="1:3:4S"' not in checked


def test_referee_offers_the_choice_for_a_wild_laid_off(client):
    base = {"ruleset": "mexican", "round": "2", "action": "layoff", "active": "1"}
    checked = client.post("/referee/", {**base, "group": ["5S 6S 7S 8S", "JK"], "op": "check"}).content.decode()
    assert "✔ Legal" in checked
    assert "Joker stands for four of spades." in checked and 'value="1:0:9S"' in checked
    declared = client.post("/referee/", {**base, "group": ["5S 6S 7S 8S", "JK"], "declare": "1:0:9S"})
    assert "Joker stands for nine of spades." in declared.content.decode()


def test_an_all_wild_meld_says_so_instead_of_listing_every_reading(client):
    base = {"ruleset": "mexican", "round": "1", "action": "open", "active": "0"}
    checked = client.post("/referee/", {**base, "group": ["JK JK JK", "8S 8D 8H"], "op": "check"}).content.decode()
    assert "Every card is wild: it may stand for any book of 3" in checked
    assert 'name="declare"' not in checked


def test_can_i_says_what_is_left_in_hand_once(client):
    base = {"ruleset": "mexican", "round": "2", "action": "hand", "active": "0"}
    html = client.post("/referee/", {**base, "group": ["7C 7D 4H 9S 10S JS QS KD 2C"], "op": "check"}).content.decode()
    assert "✔ Legal" in html
    assert html.count("Left in hand") == 1 and "Left in hand: 2♣ K♦." in html


def test_an_address_that_takes_post_answers_get_with_words(client):
    game = client.post("/api/games/", {"players": ["Ana", "Ben"]}, content_type="application/json").json()
    page = client.get(f"/g/{game['id']}/rounds/")
    assert page.status_code == 405 and page["Allow"] == "POST"
    assert "This address does not answer GET; it takes POST." in page.content.decode()
    api = client.get("/api/referee/check/")
    assert api.status_code == 405 and api.json()["detail"]


def test_no_more_players_than_the_rules_allow_can_be_added(client):
    form = {"ruleset": "mexican", "player": ["A", "B", "C", "D", "E", "F"], "op": "add"}
    html = client.post("/games/new/", form).content.decode()
    assert html.count('name="player"') == 6
    assert "The table is full: these rules are for 2-6 players." in html


def test_back_to_the_new_game_form_offers_the_game_just_started(client):
    created = client.post("/games/new/", {"ruleset": "mexican", "player": ["Ana", "Ben"], "op": "create"})
    table = created["Location"]
    page = client.get("/games/new/").content.decode()
    assert f'href="{table}"' in page and "Back to the game of Ana, Ben" in page


def test_the_contract_family_speaks_of_deals_in_the_history(client):
    game = client.post(
        "/api/games/", {"players": ["Ana", "Ben", "Cy"], "ruleset": "shanghai"}, content_type="application/json"
    ).json()
    body = {"number": 1, "winner": "Ana", "points": {"Ben": 10, "Cy": 20}}
    client.post(
        f"/api/games/{game['id']}/rounds/",
        body,
        content_type="application/json",
        headers={"X-Game-Token": game["edit_token"]},
    )
    html = client.get(f"/g/{game['id']}/").content.decode()
    assert "Deal 1 recorded: Ana went out" in html and "Round 1 recorded" not in html


def test_lists_name_the_ruleset_and_the_rules_page_says_packs_once(client):
    body = {"players": ["Ana", "Ben", "Cy"], "ruleset": "shanghai"}
    assert client.post("/api/games/", body, content_type="application/json").status_code == 201
    assert "Shanghai Rummy" in client.get("/games/").content.decode()
    mexican = client.get("/rules/mexican/").content.decode()
    assert "2 packs and 4 jokers (108 cards)." in mexican and "With 2 players" not in mexican
    contract = client.get("/rules/contract/").content.decode()
    assert "With 3 players: 2 packs and 2 jokers (106 cards)." in contract  # the jokers follow the players


def test_the_announcement_is_unambiguous_when_spoken(client):
    game = client.post(
        "/api/games/",
        {"players": ["Ana", "Ben", "Cy"], "ruleset": "shanghai", "first_dealer": "Ana"},
        content_type="application/json",
    ).json()
    html = client.get(f"/g/{game['id']}/").content.decode()
    assert "Deal 1 of 10. Give each player 11 cards. Only jokers are wild." in html
    assert "11 cards each" in html


def test_play_again_starts_the_next_game_at_the_same_table(client):
    body = {"players": ["Ana", "Ben", "Cy"], "ruleset": "mexican", "variants": ["kings-wild"], "first_dealer": "Ben"}
    game = client.post("/api/games/", body, content_type="application/json").json()
    token = {"X-Game-Token": game["edit_token"]}
    for n in range(1, 8):
        points = {"Ben": 130, "Cy": 130} if n == 7 else {"Ben": 10, "Cy": 20}
        round_body = {"number": n, "winner": "Ana", "points": points}
        assert (
            client.post(
                f"/api/games/{game['id']}/rounds/", round_body, content_type="application/json", headers=token
            ).status_code
            == 201
        )
    viewer = client.get(f"/g/{game['id']}/").content.decode()
    assert "Play again" not in viewer  # only a phone that may record offers it
    client.get(f"/g/{game['id']}/join/{game['edit_token']}/")
    assert "Play again" in client.get(f"/g/{game['id']}/").content.decode()
    response = client.post(f"/g/{game['id']}/again/")
    assert response.status_code == 302
    new = Game.objects.exclude(pk=game["id"]).get()
    assert response["Location"] == f"/g/{new.pk}/"
    assert [p.name for p in new.players.all()] == ["Ana", "Ben", "Cy"]
    assert (new.ruleset, new.variants, new.first_dealer_seat) == ("mexican", ["kings-wild"], 2)  # Cy, left of Ben
    assert "Record round 1" in client.get(response["Location"]).content.decode()  # this phone may record it


def test_play_again_needs_the_edit_link(client):
    game = client.post("/api/games/", {"players": ["Ana", "Ben"]}, content_type="application/json").json()
    assert client.post(f"/g/{game['id']}/again/").status_code == 403
    assert Game.objects.count() == 1


def test_an_undone_round_comes_back_into_the_form_and_can_be_redone(client):
    game = client.post(
        "/api/games/", {"players": ["Ana", "Ben"], "first_dealer": "Ana"}, content_type="application/json"
    ).json()
    client.get(f"/g/{game['id']}/join/{game['edit_token']}/")
    client.post(f"/g/{game['id']}/rounds/", {"version": "1", "number": "1", "winner": "0", "hand-1": "4C KC"})
    undone = client.post(f"/g/{game['id']}/undo/", {"version": "2"}, headers={"HX-Request": "true"})
    undone = tags_on_one_line(undone.content.decode())
    assert "Undone: the recording of round 1." in undone and ">Redo</button>" in undone
    assert 'value="4C KC"' in undone  # Ben's hand is back in the form, to fix one card
    assert re.search(r'name="winner" value="0"\s*checked', undone)
    redone = client.post(f"/g/{game['id']}/redo/", {"version": "3"})
    assert redone.status_code == 302
    assert Round.objects.filter(game_id=game["id"]).count() == 1
    stale = client.post(f"/g/{game['id']}/redo/", {"version": "4"}, follow=True).content.decode()
    assert "There is nothing to redo" in stale


def test_the_history_says_what_each_round_gave(client):
    game = client.post("/api/games/", {"players": ["Ana", "Ben", "Cy"]}, content_type="application/json").json()
    body = {"number": 1, "winner": "Ana", "hands": {"Ben": "4C KC"}, "points": {"Cy": 20}}
    headers = {"X-Game-Token": game["edit_token"]}
    client.post(f"/api/games/{game['id']}/rounds/", body, content_type="application/json", headers=headers)
    html = client.get(f"/g/{game['id']}/").content.decode()
    assert "Round 1 recorded: Ana went out; Ben 15, Cy 20" in html


def test_buys_are_counted_with_steppers(client):
    body = {"players": ["Ana", "Ben", "Cy"], "ruleset": "contract", "first_dealer": "Ana"}
    game = client.post("/api/games/", body, content_type="application/json").json()
    client.get(f"/g/{game['id']}/join/{game['edit_token']}/")
    form = {"version": "1", "number": "1", "winner": "0", "hand-1": "4C 5C", "buys-1": "0"}
    more = tags_on_one_line(client.post(f"/g/{game['id']}/rounds/", {**form, "step": "1:1"}).content.decode())
    assert 'id="buys-1" name="buys-1" value="1"' in more
    assert 'aria-label="One buy more for Ben"' in more
    fewer = tags_on_one_line(
        client.post(f"/g/{game['id']}/rounds/", {**form, "buys-1": "0", "step": "1:-1"}).content.decode()
    )
    assert 'id="buys-1" name="buys-1" value="0"' in fewer  # never below 0


def test_share_links_name_an_address_the_other_phones_can_open(client, settings, monkeypatch):
    from scorekeeping import links

    game = client.post("/api/games/", {"players": ["Ana", "Ben"]}, content_type="application/json").json()
    settings.SHARE_LAN_ADDRESS = True  # as the start command runs (the test settings turn it off for the live server)
    settings.HOST = "0.0.0.0"  # the start command's default: it answers on the LAN address too
    monkeypatch.setattr(links, "lan_addresses", lambda: ["192.168.1.20"])
    local = client.get(f"/g/{game['id']}/", HTTP_HOST="127.0.0.1:8000").content.decode()
    assert f'value="http://192.168.1.20:8000/g/{game["id"]}/"' in local
    assert "address on the local network, which the other phones can open" in local
    phone = client.get(f"/g/{game['id']}/", HTTP_HOST="10.0.0.5:8000").content.decode()
    assert f'value="http://10.0.0.5:8000/g/{game["id"]}/"' in phone
    settings.PUBLIC_URL = "https://rummy.example.org/"
    hosted = client.get(f"/g/{game['id']}/", HTTP_HOST="127.0.0.1:8000").content.decode()
    assert f'value="https://rummy.example.org/g/{game["id"]}/"' in hosted


@pytest.mark.parametrize("bound", ["127.0.0.1", "localhost", "::1"])
def test_share_links_of_a_server_on_loopback_name_the_address_it_answers(client, settings, monkeypatch, bound):
    """HOST=127.0.0.1: the server answers on no LAN address, so a link naming one would open
    nothing; the share links and QR codes keep the address the page was asked on."""
    from scorekeeping import links

    game = client.post("/api/games/", {"players": ["Ana", "Ben"]}, content_type="application/json").json()
    settings.SHARE_LAN_ADDRESS, settings.HOST = True, bound
    monkeypatch.setattr(links, "lan_addresses", lambda: ["192.168.1.20"])
    for asked in ("127.0.0.1:8000", "localhost:8000"):
        html = client.get(f"/g/{game['id']}/", HTTP_HOST=asked).content.decode()
        assert f'value="http://{asked}/g/{game["id"]}/"' in html
        assert "192.168.1.20" not in html
        assert "address on the local network" not in html
    settings.HOST = "0.0.0.0"  # the same page from a server on every address names the LAN address
    html = client.get(f"/g/{game['id']}/", HTTP_HOST="127.0.0.1:8000").content.decode()
    assert f'value="http://192.168.1.20:8000/g/{game["id"]}/"' in html


def test_a_stepper_at_zero_is_not_an_entry_to_complain_about(client):
    body = {"players": ["Ana", "Ben", "Cy"], "ruleset": "contract", "first_dealer": "Ana"}
    game = client.post("/api/games/", body, content_type="application/json").json()
    client.get(f"/g/{game['id']}/join/{game['edit_token']}/")
    form = {"version": "1", "number": "1", "buys-0": "0", "buys-1": "1", "buys-2": "0", "preview": "1"}
    html = client.post(f"/g/{game['id']}/rounds/", form).content.decode()
    assert "Ben&#x27;s cards left in hand (or points) are missing" in html or "Ben's cards left in hand" in html
    assert "Ana&#x27;s cards left in hand" not in html and "Cy&#x27;s cards left in hand" not in html


def test_the_scoreboard_shows_running_totals_on_demand(client):
    game = client.post(
        "/api/games/", {"players": ["Ana", "Ben"], "first_dealer": "Ana"}, content_type="application/json"
    ).json()
    headers = {"X-Game-Token": game["edit_token"]}
    for n, points in ((1, 10), (2, 25)):
        body = {"number": n, "winner": "Ana", "points": {"Ben": points}}
        client.post(f"/api/games/{game['id']}/rounds/", body, content_type="application/json", headers=headers)
    plain = client.get(f"/g/{game['id']}/").content.decode()
    assert '<span class="pts">25</span><span class="run">35</span>' in plain  # round 2: 25, 35 after it
    # Shown on demand by a box the phone ticks (CSS, no round trip); a live update keeps it ticked.
    assert '<input type="checkbox" id="show-running" hx-preserve>' in plain
    live = client.get(f"/g/{game['id']}/live/").content.decode()
    assert '<input type="checkbox" id="show-running" hx-preserve>' in live


def test_the_lan_certificate_authority_is_offered_only_when_the_server_serves_https(client, settings, tmp_path):
    settings.TLS_DIR = tmp_path
    (tmp_path / "ca.crt").write_bytes(b"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    (tmp_path / "ca.key").write_bytes(b"secret")
    settings.LAN_HTTPS = False
    assert client.get("/ca.crt").status_code == 404
    settings.LAN_HTTPS = True
    response = client.get("/ca.crt")
    assert response.status_code == 200 and response["Content-Type"] == "application/x-x509-ca-cert"
    assert response.content.startswith(b"-----BEGIN CERTIFICATE-----") and b"secret" not in response.content
    assert client.post("/ca.crt").status_code == 405


def test_the_opener_policy_is_sent_over_https_only(client):
    # Over plain http on a LAN address browsers ignore it and log an error on every page.
    assert "Cross-Origin-Opener-Policy" not in client.get("/")
    assert client.get("/", secure=True)["Cross-Origin-Opener-Policy"] == "same-origin"


def test_the_fragment_after_an_event_is_rendered_once_per_version_for_the_phones_that_follow(
    client, django_assert_max_num_queries
):
    game = new_game(client)
    first, second = Client(), Client()  # two phones with the view link only
    stale = {"HTTP_IF_NONE_MATCH": f'"v{game.version - 1}"'}
    rendered = first.get(f"/g/{game.pk}/live/", **stale)
    assert rendered.status_code == 200 and "Round 1 of 7" in rendered.content.decode()
    with django_assert_max_num_queries(3):  # the version (ETag), the game's head, the session: no render
        again = second.get(f"/g/{game.pk}/live/", **stale)
    assert again.content == rendered.content
    # A new version is a new key: nobody gets the old fragments.
    assert client.post(f"/g/{game.pk}/rounds/", round_1()).status_code == 302
    game.refresh_from_db()
    fresh = second.get(f"/g/{game.pk}/live/", HTTP_IF_NONE_MATCH=f'"v{game.version - 1}"')
    assert "Round 2 of 7" in fresh.content.decode()
    # The phone that records gets its own fragments (its entry), never the shared ones.
    mine = client.get(f"/g/{game.pk}/live/", HTTP_IF_NONE_MATCH=f'"v{game.version - 1}"', HTTP_X_ENTRY_PRISTINE="1")
    assert 'id="entry"' in mine.content.decode() and 'id="entry"' not in fresh.content.decode()


def test_the_page_of_a_phone_that_follows_is_rendered_once_per_version(client, django_assert_max_num_queries):
    game = new_game(client)
    first, second = Client(), Client()
    page = first.get(f"/g/{game.pk}/").content.decode()
    assert "Round 1 of 7" in page and "<title>Round 1 · Mexican Rummy</title>" in page
    second.get(f"/g/{game.pk}/")  # a phone's first visit: the phone remembers the game in a cookie
    with django_assert_max_num_queries(1):  # the game's head: no session, no render, no write
        again = second.get(f"/g/{game.pk}/").content.decode()
    assert again.split('name="csrfmiddlewaretoken"')[0].count("Round 1 of 7") == page.count("Round 1 of 7")
    assert 'id="entry"' not in again and 'id="table-body"' in again
    assert client.post(f"/g/{game.pk}/rounds/", round_1()).status_code == 302
    assert "Round 2 of 7" in second.get(f"/g/{game.pk}/").content.decode()
    assert 'id="entry"' in client.get(f"/g/{game.pk}/").content.decode()  # the recording phone's own page


def test_the_table_tells_a_phone_on_the_lan_where_to_trust_the_server(client, settings, tmp_path):
    game = new_game(client)
    settings.LAN_HTTPS = False
    assert "/trust/" not in client.get(f"/g/{game.pk}/").content.decode()
    settings.LAN_HTTPS = True
    html = client.get(f"/g/{game.pk}/").content.decode()
    assert '<a href="/trust/">Trust this server</a>' in html and '<a href="/ca.crt">/ca.crt</a>' in html


def test_an_unknown_address_answers_a_page_made_for_a_phone(client):
    response = client.get("/g/nosuchgame/")
    html = response.content.decode()
    assert response.status_code == 404
    assert 'name="viewport"' in html and "Nothing here" in html and 'href="/"' in html
    assert client.get("/api/nothing/").json()["detail"] == "no such address: /api/nothing/"


def test_the_rules_table_says_what_is_wild_once_and_the_contract_in_words(client):
    html = client.get("/rules/mexican/").content.decode()
    assert html.count("jokers are wild") == 0 and "Jokers are wild in every round." in html
    assert "<td>Threes</td>" in html and "<td>1 book of 3+ and 1 run of 4+</td>" in html
    assert "+ +" not in html
    contract = client.get("/rules/contract/").content.decode()
    assert 'scope="col">Wild<' not in contract and "Only jokers are wild in every round." in contract


def test_in_development_static_files_are_found_per_request_and_nothing_outside_them(client, settings, tmp_path):
    """With autorefresh (development, and these tests' settings) each file is found when asked:
    the app's, an installed app's, a file added after the start; a path that climbs out of the
    static directories, or names a file that is not there, is not found (serve/statics.py)."""
    assert settings.SERVESTATIC_AUTOREFRESH and settings.SERVESTATIC_USE_FINDERS
    settings.STATICFILES_DIRS = [*settings.STATICFILES_DIRS, tmp_path]
    assert client.get("/static/css/app.css").status_code == 200  # the middleware is built here
    assert client.get("/static/admin/css/base.css").status_code == 200  # an installed app's
    assert client.get("/static/added-after-start.css").status_code == 404
    (tmp_path / "added-after-start.css").write_text("p { color: red; }")
    answer = client.get("/static/added-after-start.css")
    assert answer.status_code == 200 and answer["Content-Length"] == "17"
    for path in ("/static/../manage.py", "/static/%2e%2e/manage.py", "/static/css/../../manage.py", "/static/nope.css"):
        assert client.get(path).status_code == 404, path
