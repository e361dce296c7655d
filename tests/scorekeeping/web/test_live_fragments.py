"""After a change, the phones that follow and the other phones that record fetch fragments that
the change's own render left in the cache: no game to load, no CSRF token of another phone."""

import re

import pytest
from django.test import Client

from tests.scorekeeping.web.games import api_game, recording_phone
from tests.scorekeeping.web.markup import tags_on_one_line

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def record(phone, game_id, number, version):
    form = {"version": str(version), "number": str(number), "winner": "0", "hand-1": "4C KC", "hand-2": "JK"}
    response = phone.post(f"/g/{game_id}/rounds/", {**form, "op": "record"}, headers=HTMX)
    assert response.status_code == 200 and "roundSaved" in response.get("HX-Trigger", ""), response.content[:300]


def test_after_a_round_recorded_on_a_phone_the_others_fetch_without_loading_the_game(
    client, django_assert_max_num_queries
):
    game = api_game(client)
    recorder, second, third = recording_phone(game), recording_phone(game), recording_phone(game)
    follower = Client()
    for phone in (recorder, second, third, follower):
        phone.get(f"/g/{game['id']}/")
    record(recorder, game["id"], 1, 1)  # its answer renders round 2's fragments
    stale = {"HTTP_IF_NONE_MATCH": '"v1"'}
    with django_assert_max_num_queries(2):  # the game's row and the session: nothing else loaded
        followed = follower.get(f"/g/{game['id']}/live/", **stale).content.decode()
    assert "Round 2 of 7" in followed and 'id="entry"' not in followed
    # Rendered ahead by the recording phone's own request: still nothing of a recording phone's in it.
    assert "Correct round 1" not in followed and "Play again" not in followed and "csrfmiddlewaretoken" not in followed
    assert "Ana</span>" in followed or ">Ana<" in followed  # the scoreboard came with it
    with django_assert_max_num_queries(2):
        fresh = second.get(f"/g/{game['id']}/live/", HTTP_X_ENTRY_PRISTINE="1", **stale)
    html = fresh.content.decode()
    assert 'id="entry"' in html and "Record round 2" in html and "Round 2 of 7" in html
    assert "Correct round 1" in html  # what only a phone that records sees came with it
    # Shared by every phone that records: so nothing in it is one phone's own.
    assert "csrfmiddlewaretoken" not in html and game["edit_token"] not in html
    assert fresh["Cache-Control"] == "no-cache, no-store" or "no-store" in fresh["Cache-Control"]
    assert third.get(f"/g/{game['id']}/live/", HTTP_X_ENTRY_PRISTINE="1", **stale).content == fresh.content
    # A phone that is typing gets the scores, and a word that the game moved on, not a new form.
    typing = third.get(f"/g/{game['id']}/live/", HTTP_X_ENTRY_VERSION="1", **stale).content.decode()
    assert 'id="entry"' not in typing and "The game changed on another phone" in typing
    # Typing a round the game has not moved past (a step of a round in progress): no such word.
    calm = third.get(f"/g/{game['id']}/live/", HTTP_X_ENTRY_VERSION="2", **stale).content.decode()
    assert 'id="entry"' not in calm and "The game changed on another phone" not in calm


def test_a_round_recorded_on_the_page_loads_the_game_once_for_its_answer_and_the_other_phones(client):
    """The Record's answer and what it renders ahead for the other phones (``warm``: a follower's
    fragments, a fresh form, the page) share one ``Table`` per request and version: after the
    write, the game's players, rounds, scores and changes are each read once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = api_game(client)
    recorder = recording_phone(game)
    recorder.get(f"/g/{game['id']}/")
    with CaptureQueriesContext(connection) as queries:
        record(recorder, game["id"], 1, 1)
    sql = [q["sql"] for q in queries.captured_queries]
    written = next(i for i, q in enumerate(sql) if q.startswith('UPDATE "scorekeeping_game"'))
    after = [q for q in sql[written:] if q.startswith("SELECT")]
    read = {t: sum(f'FROM "scorekeeping_{t}"' in q for q in after) for t in ("player", "score", "draft", "game")}
    assert read == {"player": 1, "score": 1, "draft": 1, "game": 1}, after
    # The changes: the latest (what the others are told) and the history, each once.
    assert sum('FROM "scorekeeping_change"' in q for q in after) == 2, after


def test_a_form_from_a_shared_fragment_posts_with_the_token_htmx_sends(client):
    game = api_game(client)
    phone = recording_phone(game, enforce_csrf_checks=True)
    page = phone.get(f"/g/{game['id']}/").content.decode()
    token = re.search(r'"x-csrftoken": "([^"]+)"', page).group(1)  # hx-headers on the body
    fragment = phone.get(f"/g/{game['id']}/live/", HTTP_X_ENTRY_PRISTINE="1").content.decode()
    assert 'id="entry"' in fragment and "csrfmiddlewaretoken" not in fragment
    form = {"version": "1", "number": "1", "winner": "0", "hand-1": "4C", "hand-2": "JK", "op": "record"}
    refused = phone.post(f"/g/{game['id']}/rounds/", form, headers=HTMX)
    assert refused.status_code == 403  # no token: CSRF protection holds
    saved = phone.post(f"/g/{game['id']}/rounds/", form, headers={**HTMX, "X-CSRFToken": token})
    assert saved.status_code == 200 and "roundSaved" in saved["HX-Trigger"]


def test_play_again_works_without_javascript_from_a_cached_form(client):
    game = api_game(client, names=("Ana", "Ben"))
    headers = {"X-Game-Token": game["edit_token"]}
    for number in range(1, 8):
        body = {"number": number, "winner": "Ana", "points": {"Ben": 100 if number == 7 else 10}}
        created = client.post(
            f"/api/games/{game['id']}/rounds/", body, content_type="application/json", headers=headers
        )
        assert created.status_code == 201, created.json()
    phones = [recording_phone(game, enforce_csrf_checks=True) for _ in range(2)]
    pages = [p.get(f"/g/{game['id']}/").content.decode() for p in phones]
    for page in pages:
        assert '<form id="play-again"' in page and "Final places" in page
    tokens = [re.search(r'name="csrfmiddlewaretoken" value="([^"]+)" form="play-again"', p).group(1) for p in pages]
    # The second page took the form from the cache; each phone's own token sits outside it.
    assert pages[0].split('<form id="play-again"')[1].split("</form>")[0] in pages[1]
    response = phones[1].post(f"/g/{game['id']}/again/", {"csrfmiddlewaretoken": tokens[1]})
    assert response.status_code == 302 and response["Location"].startswith("/g/")
    assert response["Location"] != f"/g/{game['id']}/"


def test_the_first_page_opened_after_a_change_finds_it_rendered(client, django_assert_max_num_queries):
    game = api_game(client)
    recorder, follower = recording_phone(game), Client()
    follower.get(f"/g/{game['id']}/")
    record(recorder, game["id"], 1, 1)  # renders the followers' page of round 2 ahead
    with django_assert_max_num_queries(2):  # the game's row and the session
        page = follower.get(f"/g/{game['id']}/").content.decode()
    assert "Round 2 of 7" in page and "<title>Round 2 · " in page
    body = page.split('id="table-body"')[1].split("<footer")[0]  # the footer's language form has its own
    assert "Record round 2" not in page and game["edit_token"] not in page and "csrfmiddlewaretoken" not in body


def test_a_recording_phone_opens_the_table_without_loading_players_or_rounds(client, django_assert_max_num_queries):
    game = api_game(client)
    first, second = recording_phone(game), recording_phone(game)
    first.get(f"/g/{game['id']}/")
    record(first, game["id"], 1, 1)
    first.get(f"/g/{game['id']}/")
    with django_assert_max_num_queries(2):  # the game's row and the session: every part is cached
        page = second.get(f"/g/{game['id']}/").content.decode()
    assert "Record round 2" in page and "This is me: Ben" in page
    assert game["edit_token"] not in page and "Show the edit link" in page  # its own link, asked for


def test_a_seat_is_taken_without_javascript_from_a_cached_form():
    game = api_game(Client())
    phones = [recording_phone(game, enforce_csrf_checks=True) for _ in range(2)]
    pages = [tags_on_one_line(p.get(f"/g/{game['id']}/").content.decode()) for p in phones]
    form = [page.split('<form id="seat-pick"')[1].split("</form>")[0] for page in pages]
    assert form[0] == form[1] and "csrfmiddlewaretoken" not in form[1]  # the second came from the cache
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)" form="seat-pick"', pages[1]).group(1)
    ben = re.search(r'name="player" value="(\d+)" aria-label="This is me: Ben"', form[1]).group(1)
    assert phones[1].post(f"/g/{game['id']}/seat/", {"player": ben}).status_code == 403  # no token: refused
    taken = phones[1].post(f"/g/{game['id']}/seat/", {"player": ben, "csrfmiddlewaretoken": token})
    assert taken.status_code == 302
    assert "This is <strong>Ben</strong>'s phone." in phones[1].get(f"/g/{game['id']}/").content.decode()


def test_an_entry_typed_for_a_round_since_recorded_is_replaced_whatever_was_typed(client):
    """Issue 34: a phone whose last action was "who went out" (its form typed in) stayed on round 1
    after another phone recorded it. An entry of a round that is no longer the one to play is
    replaced by the next round's; one typed for the round still to play keeps its typing."""
    game = api_game(client)
    recorder, typing = recording_phone(game), recording_phone(game)
    typing.get(f"/g/{game['id']}/")
    record(recorder, game["id"], 1, 1)
    stale = {"HTTP_IF_NONE_MATCH": '"v1"', "HTTP_X_ENTRY_PRISTINE": "0", "HTTP_X_ENTRY_VERSION": "1"}
    moved_on = typing.get(f"/g/{game['id']}/live/", HTTP_X_ENTRY_ROUND="1", **stale).content.decode()
    assert 'id="entry"' in moved_on and "Record round 2" in moved_on
    assert "The round you were entering was recorded on another phone" in moved_on
    fresh = typing.get(f"/g/{game['id']}/live/", HTTP_X_ENTRY_PRISTINE="1", HTTP_IF_NONE_MATCH='"v1"').content
    assert b"The round you were entering" not in fresh  # the word is this phone's: not shared
    kept = typing.get(f"/g/{game['id']}/live/", HTTP_X_ENTRY_ROUND="2", **stale).content.decode()
    assert 'id="entry"' not in kept and "The game changed on another phone" in kept
    for hostile in ("", "abc", "-1", "9" * 30):
        odd = typing.get(f"/g/{game['id']}/live/", HTTP_X_ENTRY_ROUND=hostile, **stale)
        assert odd.status_code == 200
    page = typing.get(f"/g/{game['id']}/").content.decode()
    assert 'data-round="2"' in page  # what the phone's script sends back as X-Entry-Round


def test_the_other_phones_are_told_whose_phone_made_a_change_once(client):
    """Issue 34: a round recorded on Ana's seated phone is told on every other phone, followers too,
    as "Round 1 recorded by Ana's phone."; a change from a phone without a seat (or the REST API)
    as made "on another phone". The notice carries the version it is about, so a phone that made
    the change, or was told of it already, does not show it again (static/js/place.js)."""
    game = api_game(client)
    ana, other = recording_phone(game), recording_phone(game)
    ana.post(f"/g/{game['id']}/seat/", {"player": "0"})
    ana.post(f"/g/{game['id']}/rounds/", {"number": "1", "winner": "1", "op": "record"})  # the draft: Ben went out
    ana.post(f"/g/{game['id']}/rounds/", {"number": "1", "winner": "1", "active": "0", "hand-0": "5C", "op": "hand"})
    client.put(
        f"/api/games/{game['id']}/draft/hands/Cy/",
        {"cards": "KD", "number": 1},
        content_type="application/json",
        HTTP_X_GAME_TOKEN=game["edit_token"],
    )
    recorded = ana.post(f"/g/{game['id']}/rounds/", {"number": "1", "winner": "1", "op": "record"})
    assert recorded.status_code in (200, 302)
    told = other.get(f"/g/{game['id']}/live/", HTTP_X_ENTRY_PRISTINE="1").content.decode()
    assert re.search(r'<p data-version="(\d+)" data-told>Round 1 recorded by Ana&#x27;s phone\.</p>', told), told[-800:]
    follower = Client().get(f"/g/{game['id']}/live/").content.decode()
    assert "Round 1 recorded by Ana&#x27;s phone." in follower
    body = {"number": 2, "winner": "Ana", "hands": {"Ben": "5C", "Cy": "KD"}}
    made = client.post(
        f"/api/games/{game['id']}/rounds/", body, content_type="application/json", HTTP_X_GAME_TOKEN=game["edit_token"]
    )
    assert made.status_code == 201, made.content  # the REST API: no seat
    told = other.get(f"/g/{game['id']}/live/", HTTP_X_ENTRY_PRISTINE="1").content.decode()
    assert "Round 2 recorded on another phone." in told
