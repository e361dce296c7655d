"""The games API: the contract other clients rely on, each refusal, and the example of the issue."""

import pytest

from scorekeeping.models import Change, Game, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client):
    class Api:
        def post(self, url, body, token=None, status=None):
            headers = {"X-Game-Token": token} if token else {}
            response = client.post(url, body, content_type="application/json", headers=headers)
            assert status is None or response.status_code == status, response.content
            return response

        def put(self, url, body, token=None, status=None):
            headers = {"X-Game-Token": token} if token else {}
            response = client.put(url, body, content_type="application/json", headers=headers)
            assert status is None or response.status_code == status, response.content
            return response

        def get(self, url, status=200):
            response = client.get(url)
            assert response.status_code == status, response.content
            return response.json()

    return Api()


@pytest.fixture
def created(api):
    return api.post("/api/games/", {"players": ["Ana", "Ben", "Cy", "Dee"], "first_dealer": "Ana"}, status=201).json()


ROUND_1 = {"number": 1, "winner": "Ana", "hands": {"Ben": "4C KC", "Cy": "JK", "Dee": "3D AS"}}


def test_create_game_answers_id_token_and_the_game(created):
    assert len(created["id"]) >= 12
    assert len(created["edit_token"]) >= 40
    assert created["ruleset"] == "mexican"
    assert created["variants"] == []
    assert [p["name"] for p in created["players"]] == ["Ana", "Ben", "Cy", "Dee"]
    assert created["rounds"] == []
    assert created["current_round"] == {
        "number": 1,
        "hand_size": 7,
        "wild_rank": "3",
        "wilds": "Threes and jokers are wild",
        "contract": "2 books of 3+",
        "components": [{"kind": "book", "length": 3}, {"kind": "book", "length": 3}],
        "final": False,
        "dealer": "Ana",
        "first_player": "Ben",
        "packs": 2,
        "jokers": 4,
        "stock": 79,
        "upcard": 1,
    }


def test_the_issue_example_round_by_round(api, created):
    gid, token = created["id"], created["edit_token"]
    game = api.post(f"/api/games/{gid}/rounds/", ROUND_1, token=token, status=201).json()
    scores = {s["player"]: s["points"] for s in game["rounds"][0]["scores"]}
    assert scores == {"Ana": 0, "Ben": 15, "Cy": 20, "Dee": 35}
    assert game["rounds"][0]["scores"][1]["cards"] == ["4C", "KC"]
    current = game["current_round"]
    assert (
        current["dealer"],
        current["hand_size"],
        current["first_player"],
        current["wild_rank"],
        current["stock"],
    ) == (
        "Ben",
        8,
        "Cy",
        "4",
        75,
    )
    standings = api.get(f"/api/games/{gid}/standings/")
    assert standings["finished"] is False
    assert standings["standings"] == [
        {"player": "Ana", "total": 0, "round_wins": 1, "place": 1},
        {"player": "Ben", "total": 15, "round_wins": 0, "place": 2},
        {"player": "Cy", "total": 20, "round_wins": 0, "place": 3},
        {"player": "Dee", "total": 35, "round_wins": 0, "place": 4},
    ]


def test_correct_a_round_with_put(api, created):
    gid, token = created["id"], created["edit_token"]
    api.post(f"/api/games/{gid}/rounds/", ROUND_1, token=token, status=201)
    game = api.put(
        f"/api/games/{gid}/rounds/1/",
        {"winner": "Ben", "hands": {"Ana": "AS", "Cy": "JK", "Dee": "3D"}},
        token=token,
        status=200,
    ).json()
    assert game["rounds"][0]["winner"] == "Ben"
    history = api.get(f"/api/games/{gid}/history/")["changes"]
    assert [(c["action"], c["round"]) for c in history] == [("correct", 1), ("record", 1)]
    assert history[0]["before"]["winner"] == "Ana" and history[0]["after"]["winner"] == "Ben"


def test_undo(api, created):
    gid, token = created["id"], created["edit_token"]
    api.post(f"/api/games/{gid}/rounds/", ROUND_1, token=token, status=201)
    game = api.post(f"/api/games/{gid}/undo/", {}, token=token, status=200).json()
    assert game["rounds"] == []
    history = api.get(f"/api/games/{gid}/history/")["changes"]
    assert [(c["action"], c["undone"]) for c in history] == [("undo", False), ("record", True)]
    error = api.post(f"/api/games/{gid}/undo/", {}, token=token, status=400).json()
    assert error["errors"] == {"undo": ["There is nothing to undo"]}


@pytest.mark.parametrize("token", [None, "wrong-token"])
def test_writes_without_the_right_token_are_403_and_change_nothing(api, created, token):
    gid = created["id"]
    for call in (
        lambda: api.post(f"/api/games/{gid}/rounds/", ROUND_1, token=token),
        lambda: api.put(f"/api/games/{gid}/rounds/1/", ROUND_1, token=token),
        lambda: api.post(f"/api/games/{gid}/undo/", {}, token=token),
    ):
        response = call()
        assert response.status_code == 403
        assert "edit token" in response.json()["detail"]
    assert Round.objects.count() == 0 and Change.objects.count() == 0
    assert Game.objects.get(pk=gid).version == 1


def test_unknown_game_is_404(api):
    for url in ("/api/games/nope/", "/api/games/nope/standings/", "/api/games/nope/history/"):
        assert api.get(url, status=404)["detail"]
    # No text but a game id's shape reaches the database (PostgreSQL refuses a NUL byte).
    for url in ("/api/games/no%00pe/", "/api/games/no%20pe/", "/api/games/" + "x" * 17 + "/"):
        assert api.get(url, status=404)["detail"]
    assert api.post("/api/games/nope/rounds/", ROUND_1, token="x", status=404).json()["detail"]


def test_recording_a_recorded_round_is_409(api, created):
    gid, token = created["id"], created["edit_token"]
    api.post(f"/api/games/{gid}/rounds/", ROUND_1, token=token, status=201)
    error = api.post(
        f"/api/games/{gid}/rounds/",
        {**ROUND_1, "winner": "Ben", "hands": {"Ana": "2C", "Cy": "JK", "Dee": "3D"}},
        token=token,
        status=409,
    ).json()
    assert "Someone already recorded round 1" in error["detail"]
    assert error["errors"]["number"]


def test_stale_version_is_409_saying_what_changed(api, created):
    gid, token = created["id"], created["edit_token"]
    api.post(f"/api/games/{gid}/rounds/", {**ROUND_1, "version": 1}, token=token, status=201)
    round_2 = {"number": 2, "winner": "Ben", "hands": {"Ana": "2C", "Cy": "5C", "Dee": "6C"}, "version": 1}
    error = api.post(f"/api/games/{gid}/rounds/", round_2, token=token, status=409).json()
    assert error["detail"] == "The game changed on another phone since you loaded it: round 1 was recorded"


BAD_ROUNDS = [
    ({**ROUND_1, "number": 3}, "number", "Out of order: round 1 is next, not round 3"),
    ({**ROUND_1, "hands": {"Ana": "2C", "Ben": "4C", "Cy": "JK", "Dee": "3D"}}, "hands.Ana", "Ana went out"),
    ({**ROUND_1, "hands": {"Ben": "4C", "Cy": "JK"}}, "hands.Dee", "are missing"),
    ({**ROUND_1, "hands": {"Ben": "4C", "Cy": "JK", "Zed": "3D"}}, "hands.Zed", "no player named 'Zed'"),
    ({**ROUND_1, "hands": {"Ben": "4C 4C", "Cy": "4C", "Dee": "3D"}}, "hands", "4C appears 3 times"),
    (
        {**ROUND_1, "hands": {"Ben": "4C", "Cy": "JK"}, "points": {"Dee": -10}},
        "points.Dee",
        "whole number of 0 or more",
    ),
    ({**ROUND_1, "hands": {"Ben": "4C", "Cy": "JK"}, "points": {"Dee": 2.5}}, "points.Dee", "valid integer"),
    ({**ROUND_1, "hands": {"Ben": "4Q", "Cy": "JK", "Dee": "3D"}}, "hands.Ben", "'4Q' is not a card"),
    ({**ROUND_1, "hands": {"Ben": 7, "Cy": "JK", "Dee": "3D"}}, "hands.Ben", "Expected cards"),
    ({"winner": "Ana"}, "number", "required"),
    ({**ROUND_1, "version": 2**31}, "version", "less than or equal to 2147483647"),  # past the column
    ({**ROUND_1, "version": -1}, "version", "greater than or equal to 0"),
]


@pytest.mark.parametrize(("body", "field", "message"), BAD_ROUNDS, ids=[b[2][:40] for b in BAD_ROUNDS])
def test_bad_rounds_are_400_naming_the_field_and_change_nothing(api, created, body, field, message):
    gid, token = created["id"], created["edit_token"]
    error = api.post(f"/api/games/{gid}/rounds/", body, token=token, status=400).json()
    assert any(message in m for m in error["errors"].get(field, [])), error
    assert message in error["detail"] or field in error["detail"] or error["errors"][field]
    assert api.get(f"/api/games/{gid}/")["version"] == 1
    assert Round.objects.count() == 0


BAD_GAMES = [
    ({"players": ["Ana"]}, "players", "for 2-6 players, not 1"),
    ({"players": ["Ana", "ana"]}, "players.1", "already at the table"),
    ({"players": ["Ana", "Ben"], "ruleset": "gin"}, "ruleset", "Unsupported ruleset"),
    ({"players": ["Ana", "Ben"], "variants": ["free-meld"]}, "variants", "belongs to contract"),
    ({"players": ["Ana", "Ben"], "first_dealer": "Zed"}, "first_dealer", "not one of the players"),
    ({"players": ["Ana", "Ben"], "draw": {"Ana": "KS", "Ben": "KD"}}, "draw", "tie with the highest card"),
    ({"players": ["A\u0000na", "Ben"]}, "players.0", "Null characters are not allowed"),
    ({}, "players", "required"),
]


@pytest.mark.parametrize(("body", "field", "message"), BAD_GAMES, ids=[b[2] for b in BAD_GAMES])
def test_bad_games_are_400_naming_the_field(api, body, field, message):
    error = api.post("/api/games/", body, status=400).json()
    assert any(message in m for m in error["errors"].get(field, [])), error
    assert Game.objects.count() == 0


def test_draw_for_dealer_through_the_api(api):
    game = api.post("/api/games/", {"players": ["Ana", "Ben"], "draw": {"Ana": "2S", "Ben": "AH"}}, status=201).json()
    assert (game["first_dealer"], game["first_dealer_method"]) == ("Ana", "draw")  # the ace is low


def test_reads_need_no_token_and_never_show_it(api, created):
    game = api.get(f"/api/games/{created['id']}/")
    assert "edit_token" not in game
    assert created["edit_token"] not in str(game)


def test_reading_a_game_over_the_api_takes_fixed_queries(api, created, django_assert_num_queries):
    gid, token = created["id"], created["edit_token"]
    api.post(f"/api/games/{gid}/rounds/", ROUND_1, token=token, status=201)
    with django_assert_num_queries(4):
        api.get(f"/api/games/{gid}/")
    with django_assert_num_queries(4):
        api.get(f"/api/games/{gid}/standings/")


def test_methods_not_allowed(client, created):
    assert client.delete(f"/api/games/{created['id']}/").status_code == 405
    assert client.get(f"/api/games/{created['id']}/rounds/").status_code == 405


def test_game_has_the_url_of_its_table_page(api, created, client):
    assert created["url"] == f"http://testserver/g/{created['id']}/"
    assert client.get(created["url"]).status_code == 200
