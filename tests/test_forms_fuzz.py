"""No form post answers 500, whatever it holds: the pages' counterpart of test_api_fuzz.

Random field sets (the fields each form has, plus stray ones) with random values: text in
any script, numbers as text, very long values, repeated fields. A refused post may answer
4xx or show its errors; it must never crash, and a refused round must not be recorded.
"""

import pytest
from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeping.models import Game, Round

pytestmark = [pytest.mark.django_db, pytest.mark.once]

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# A generous limit: the fuzzer creates games much faster than a table would.
NO_LIMITS = override_settings(RATE_LIMITS={"create": (100_000, 3600), "token": (100_000, 600)})

VALUES = st.one_of(
    st.text(max_size=30),
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.sampled_from(["", "0", "1", "2", "7", "-1", "none", "7C 7D 4H", "JK", "4H=7S", "AS KS", "99", "1e9", "NaN"]),
    st.sampled_from(["record", "check", "can", "add", "remove", "up", "down", "create", "tap", "group", "clear"]),
    st.text(min_size=300, max_size=600),
    # What a database may refuse (PostgreSQL stores no NUL byte) or a terminal may act on.
    st.sampled_from(["A\x00na", "\x00", "7C\x00", "\x1b[31mAna", "Ana\u200d", "[" * 5000]),
)


def form(keys):
    """A form: each key present or not, some repeated, with random values."""
    return st.dictionaries(st.sampled_from(keys), st.lists(VALUES, min_size=1, max_size=3), max_size=len(keys))


REFEREE_KEYS = [
    "ruleset", "variant", "round", "players", "action", "opened_this_turn", "group", "active", "declare",
    "op", "tap", "untap", "stray",
]  # fmt: skip
NEW_GAME_KEYS = ["ruleset", "variant", "player", "method", "dealer", "draw", "op", "stray"]
ENTRY_KEYS = [
    "version", "number", "winner", "active", "op", "tap", "untap", "preview", "cut_bonus",
    "hand-0", "hand-1", "hand-2", "points-0", "points-1", "points-2", "buys-0", "buys-1", "stray",
]  # fmt: skip


@FUZZ
@given(form(REFEREE_KEYS), st.booleans())
def test_the_referee_page_never_crashes(client, data, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    assert client.post("/referee/", data, **headers).status_code < 500
    assert client.get("/referee/", data).status_code < 500


@FUZZ
@given(form(NEW_GAME_KEYS))
def test_the_new_game_form_never_crashes(client, data):
    with NO_LIMITS:
        response = client.post("/games/new/", data)
    assert response.status_code < 500


@pytest.fixture
def table(client):
    with NO_LIMITS:
        response = client.post(
            "/games/new/",
            {"ruleset": "mexican", "player": ["Ana", "Ben", "Cy"], "method": "named", "dealer": "0", "op": "create"},
        )
    assert response.status_code == 302
    game = Game.objects.get(pk=response["Location"].strip("/").split("/")[-1])
    # This phone may record: the fuzzer reaches the entry, not a 403 page.
    assert client.post(f"/g/{game.pk}/rounds/", {"number": "1", "preview": "1"}).status_code == 200
    return game


@FUZZ
@given(form(ENTRY_KEYS), st.booleans())
def test_the_round_entry_never_crashes_and_records_only_a_whole_round(client, table, data, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    before = Round.objects.filter(game=table).count()
    response = client.post(f"/g/{table.pk}/rounds/", data, **headers)
    assert response.status_code < 500
    after = Round.objects.filter(game=table).count()
    assert after - before in (0, 1)
    if after > before:  # what was recorded is a whole round: every player scored
        assert Round.objects.filter(game=table).latest("number").scores.count() == 3
    assert client.post(f"/g/{table.pk}/rounds/1/", data, **headers).status_code < 500
    assert client.post(f"/g/{table.pk}/undo/", data, **headers).status_code < 500


@FUZZ
@given(st.one_of(st.text(max_size=200), st.just('{"format": 1}'), st.just("[]"), st.just('{"players": null}')))
def test_importing_any_text_never_crashes(client, text):
    with NO_LIMITS:
        assert client.post("/games/import/", {"document": text}).status_code < 500


@FUZZ
@given(form(["ruleset", "variant", "round", "players", "action", "variants", "page", "stray"]), st.booleans())
def test_no_page_crashes_on_any_query(client, table, query, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    for path in (
        "/", "/referee/", "/rules/", "/rules/mexican/", "/rules/shanghai/", "/games/", "/players/",
        f"/g/{table.pk}/", f"/g/{table.pk}/live/", f"/g/{table.pk}/sheet/", f"/g/{table.pk}/export.csv",
        f"/g/{table.pk}/rounds/1/", "/api/rulesets/mexican/",
    ):  # fmt: skip
        assert client.get(path, query, **headers).status_code < 500, path
