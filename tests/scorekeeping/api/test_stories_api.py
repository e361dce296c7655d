"""The players' stories through the API, from two club nights played to the end by hand: a
member's profile, the club's records and a game's recap, every figure worked out here."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from referee.engine import find_rules, parse_cards, score_hand
from scorekeeping.models import Member

pytestmark = pytest.mark.django_db

RULES = find_rules("mexican", [])
LOW = "4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H 6S 7C"  # round 7: every hand holds 13 cards
HIGH = "KC KD KH KS QC QD QH QS JC JD JH JS 10C"
LOW_POINTS = score_hand(RULES, 7, parse_cards(LOW)).points
HIGH_POINTS = score_hand(RULES, 7, parse_cards(HIGH)).points


@pytest.fixture
def call(client):
    def call(method, url, body=None, status=200, **headers):
        response = getattr(client, method)(url, body, content_type="application/json", headers=headers)
        assert response.status_code == status, response.content
        return response.json() if response.content else None

    return call


def play(call, table, rounds, last):
    """``rounds``: (winner, {player: points}) for rounds 1 to 6; ``last``: (winner, {player: hand})."""
    token = re.search(r"/join/([^/]+)/$", table["game"]["edit_url"]).group(1)
    url = f"/api/games/{table['game']['id']}/rounds/"
    for number, (winner, points) in enumerate(rounds, start=1):
        call("post", url, {"number": number, "winner": winner, "points": points}, 201, **{"X-Game-Token": token})
    winner, hands = last
    call("post", url, {"number": 7, "winner": winner, "hands": hands}, 201, **{"X-Game-Token": token})


@pytest.fixture
def club(call):
    """Night 1 (4 Nov): Ana goes out every round, Ben 5 a round and LOW, Cy 10 a round and HIGH:
    Ana 0, Ben 30 + LOW, Cy 60 + HIGH. Night 2 (11 Nov): Cy goes out in round 1 (Ana 10, Ben 40),
    then Ben every round (Ana 10, Cy 5 a round; Ana HIGH, Cy LOW): Ana 60 + HIGH, Ben 40,
    Cy 25 + LOW."""
    made = call("post", "/api/clubs/", {"name": "De Joker"}, 201)
    token = {"X-Club-Token": made["organiser_token"]}
    tables = []
    for date in ("2026-11-04", "2026-11-11"):
        night = call(
            "post",
            f"/api/clubs/{made['id']}/nights/",
            {"ruleset": "mexican", "sittings": 1, "date": date},
            201,
            **token,
        )
        base = f"/api/clubs/{made['id']}/nights/{night['id']}"
        call("put", f"{base}/present/", {"names": ["Ana", "Ben", "Cy"]}, 200, **token)
        tables.append(call("post", f"{base}/sittings/", {}, 201, **token)["tables"][0])
    play(call, tables[0], [("Ana", {"Ben": 5, "Cy": 10})] * 6, ("Ana", {"Ben": LOW, "Cy": HIGH}))
    second = [("Cy", {"Ana": 10, "Ben": 40})] + [("Ben", {"Ana": 10, "Cy": 5})] * 5
    play(call, tables[1], second, ("Ben", {"Ana": HIGH, "Cy": LOW}))
    return made, tables


def test_a_members_profile_worked_out_by_hand(call, club):
    made, _tables = club
    ana = call("get", f"/api/clubs/{made['id']}/members/ana/")
    second = 60 + HIGH_POINTS
    assert {k: ana[k] for k in ("name", "games", "wins", "win_rate", "ruleset", "average", "best", "worst")} == {
        "name": "Ana",
        "games": 2,
        "wins": 1,
        "win_rate": 50.0,
        "ruleset": "mexican",
        "average": round((0 + second) / 2, 2),
        "best": 0,
        "worst": second,
    }
    assert ana["rounds_out"] == 7 and ana["longest_streak"] == 1
    assert ana["rolling_average"] == [0.0, round(second / 2, 2)]
    # Per round: night 1 all 0; night 2 rounds 1 to 6 10 each, round 7 HIGH: 5 a round, then HIGH / 2.
    assert (ana["favourite_round"], ana["worst_round"]) == (1, 7)
    ben_night_1, cy_night_1 = 30 + LOW_POINTS, 60 + HIGH_POINTS
    ben_night_2, cy_night_2 = 40, 25 + LOW_POINTS
    assert ana["head_to_head"] == [
        {
            "opponent": "Ben",
            "games": 2,
            "ahead": 1,
            "behind": 1,
            "average_difference": round(((ben_night_1 - 0) + (ben_night_2 - second)) / 2, 2),
        },
        {
            "opponent": "Cy",
            "games": 2,
            "ahead": 1,
            "behind": 1,
            "average_difference": round(((cy_night_1 - 0) + (cy_night_2 - second)) / 2, 2),
        },
    ]
    assert ana["rival"] is None  # nobody met three times
    assert ana["nemesis"] == "Ben"  # Ben and Cy each finished ahead once, in half their games: by name
    ben = call("get", f"/api/clubs/{made['id']}/members/BEN/")
    assert (ben["games"], ben["wins"], ben["rounds_out"], ben["best"]) == (2, 1, 6, 40)


def test_a_renamed_member_keeps_their_story_and_nobody_else_has_one(call, club):
    made, _tables = club
    token = {"X-Club-Token": made["organiser_token"]}
    call("patch", f"/api/clubs/{made['id']}/members/Ben/", {"name": "Benjamin"}, 200, **token)
    assert call("get", f"/api/clubs/{made['id']}/members/benjamin/")["games"] == 2
    assert call("get", f"/api/clubs/{made['id']}/members/Ben/", status=404)["detail"] == "Ben is no member of this club"
    call("get", f"/api/clubs/{made['id']}/members/{'x' * 5000}/", status=404)
    call("get", "/api/clubs/nosuchclub00/members/Ana/", status=404)
    Member.objects.create(club_id=made["id"], name="Dee", key="dee")
    dee = call("get", f"/api/clubs/{made['id']}/members/Dee/")
    assert (dee["games"], dee["average"], dee["rolling_average"], dee["nemesis"]) == (0, None, [], None)


def test_the_clubs_records_worked_out_by_hand(call, club):
    made, tables = club
    first, second = (t["game"]["id"] for t in tables)
    assert call("get", f"/api/clubs/{made['id']}/records/")["records"] == [
        # Ana's 0 on night 1; Ben's 40 on night 2 is higher.
        {
            "title": "lowest game total",
            "ruleset": "mexican",
            "player": "Ana",
            "value": 0,
            "game": first,
            "date": "2026-11-04",
        },
        # HIGH in round 7: Cy on night 1 first, Ana's equal on night 2 does not take it.
        {
            "title": "highest single-round penalty",
            "ruleset": "mexican",
            "player": "Cy",
            "value": HIGH_POINTS,
            "game": first,
            "date": "2026-11-04",
        },
        {
            "title": "most rounds gone out in one game",
            "ruleset": "mexican",
            "player": "Ana",
            "value": 7,
            "game": first,
            "date": "2026-11-04",
        },
        {
            "title": "longest win streak",
            "ruleset": "mexican",
            "player": "Ana",
            "value": 1,
            "game": first,
            "date": "2026-11-04",
        },
        # Night 2: after round 1 Ben had 40 and Cy 0, and Ben won.
        {
            "title": "biggest comeback",
            "ruleset": "mexican",
            "player": "Ben",
            "value": 40,
            "game": second,
            "date": "2026-11-11",
        },
    ]


def test_a_games_recap_worked_out_by_hand(call, club):
    _made, tables = club
    told = call("get", f"/api/games/{tables[1]['game']['id']}/recap/")
    assert told["winner"] == "Ben" and told["winners"] == ["Ben"]
    assert told["places"] == [
        {"place": 1, "player": "Ben", "total": 40},
        {"place": 2, "player": "Cy", "total": 25 + LOW_POINTS},
        {"place": 3, "player": "Ana", "total": 60 + HIGH_POINTS},
    ]
    # Running totals (Ana, Ben, Cy): 10/40/0, 20/40/5, 30/40/10, 40/40/15, 50/40/20, 60/40/25,
    # then 60 + HIGH / 40 / 25 + LOW: Ben leads alone only after round 7.
    assert told["deciding_round"] == 7
    assert told["biggest_swing"] == {"round": 7, "gainer": "Ben", "loser": "Ana", "points": HIGH_POINTS}
    assert told["round_best"] == [{"round": 1, "players": ["Cy"]}] + [
        {"round": n, "players": ["Ben"]} for n in range(2, 8)
    ]
    assert told["comeback"] == {"player": "Ben", "deficit": 40, "round": 1}
    call("get", "/api/games/nosuchgame0/recap/", status=404)


def _queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    return response.status_code, [q["sql"] for q in captured.captured_queries]


def test_the_clubs_figures_read_the_kept_lines_and_follow_every_change(client, call, club):
    made, tables = club
    records, ana = f"/api/clubs/{made['id']}/records/", f"/api/clubs/{made['id']}/members/ana/"
    for url in (records, ana):  # issue 51: a few indexed queries of the kept lines, never the rounds
        status, queries = _queries(client, url)
        assert status == 200 and len(queries) <= 9, queries
        assert not any("scorekeeping_round" in q or "scorekeeping_score" in q for q in queries)
    status, queries = _queries(client, f"/api/clubs/{made['id']}/members/Zed/")
    assert status == 404 and len(queries) == 2 and not any("scorekeeping_round" in q for q in queries)
    # What is cached is never the truth: a rename, and a round taken back, are seen at once.
    token = {"X-Club-Token": made["organiser_token"]}
    call("patch", f"/api/clubs/{made['id']}/members/Cy/", {"name": "Cyril"}, 200, **token)
    assert [r["player"] for r in call("get", records)["records"]][1] == "Cyril"
    game_token = {"X-Game-Token": re.search(r"/join/([^/]+)/$", tables[1]["game"]["edit_url"]).group(1)}
    call("post", f"/api/games/{tables[1]['game']['id']}/undo/", {}, 200, **game_token)
    assert call("get", ana)["games"] == 1  # night 2's game is not over any more
    assert [r["player"] for r in call("get", records)["records"]][-1:] != ["Ben"]  # nor Ben's comeback
