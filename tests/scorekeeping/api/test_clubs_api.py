"""The clubs API: a club, its members, a night's check-in and draws (its tables are ordinary
games), the night's standings worked out by hand, a season, and every refusal."""

import hashlib
import itertools
import re

import pytest

from referee.engine import find_rules, parse_cards, score_hand
from scorekeeping.models import Club, ClubTable, Game, Member, Night

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu", "Mo"]


@pytest.fixture
def api(client):
    class Api:
        def call(self, method, url, body=None, token=None, status=None, game_token=None):
            headers = {"X-Club-Token": token} if token else {}
            if game_token:
                headers["X-Game-Token"] = game_token
            response = getattr(client, method)(url, body, content_type="application/json", headers=headers)
            assert status is None or response.status_code == status, response.content
            return response

    return Api()


@pytest.fixture
def club(api):
    return api.call("post", "/api/clubs/", {"name": "Rummy club De Joker"}, status=201).json()


def night_with(api, club, names, **settings) -> str:
    base = f"/api/clubs/{club['id']}"
    body = {"ruleset": "mexican", "sittings": 3, **settings}
    night = api.call("post", f"{base}/nights/", body, token=club["organiser_token"], status=201).json()
    api.call(
        "put", f"{base}/nights/{night['id']}/present/", {"names": names}, token=club["organiser_token"], status=200
    )
    return f"{base}/nights/{night['id']}"


def test_a_club_is_made_with_an_organiser_token_kept_only_as_its_hash(api, club):
    assert set(club) == {"id", "name", "url", "page", "organiser_url", "organiser_token"}
    assert len(club["organiser_token"]) == 43 and club["url"].endswith(f"/api/clubs/{club['id']}/")
    row = Club.objects.get(pk=club["id"])
    assert row.organiser_token_hash == hashlib.sha256(club["organiser_token"].encode()).hexdigest()
    assert club["organiser_token"] not in str(Club.objects.values().get(pk=club["id"]))
    assert api.call("get", club["url"], status=200).json() == {
        "id": club["id"],
        "name": "Rummy club De Joker",
        "members": [],
        "nights": [],
    }


def test_members_are_added_once_by_name_compared_without_case_and_retired_into_the_history(api, club):
    url, token = f"/api/clubs/{club['id']}/members/", club["organiser_token"]
    answer = api.call("put", url, {"names": ["Ana", "Be\u0301a", "ana ", "Cy"]}, token=token, status=200).json()
    assert answer["members"] == [{"name": n, "active": True} for n in ["Ana", "Béa", "Cy"]]
    api.call("put", url, {"names": ["BÉA", "Dee"]}, token=token, status=200)  # Béa is there already
    assert Member.objects.filter(club_id=club["id"]).count() == 4
    api.call("delete", f"{url}Cy/", token=token, status=204)
    members = api.call("get", club["url"]).json()["members"]
    assert {"name": "Cy", "active": False} in members
    api.call("delete", f"{url}Zed/", token=token, status=404)


def test_a_member_is_renamed_with_their_history_and_never_onto_another_members_name(api, club):
    url, token = f"/api/clubs/{club['id']}/members/", club["organiser_token"]
    api.call("put", url, {"names": ["Ana", "Ben", "Cy"]}, token=token, status=200)
    night = night_with(api, club, ["Ana", "Ben", "Cy"], sittings=1)
    api.call("post", f"{night}/sittings/", {}, token=token, status=201)
    assert api.call("patch", f"{url}ben/", {"name": " Benjamin "}, token=token, status=200).json() == {
        "name": "Benjamin",
        "active": True,
    }
    players = api.call("get", f"{night}/").json()["sittings"][0]["tables"][0]["players"]
    assert "Benjamin" in players and "Ben" not in players  # the table holds the member, not the name
    refused = api.call("patch", f"{url}Cy/", {"name": "ANA"}, token=token, status=400).json()
    assert refused["errors"] == {"name": ["ANA is a member already"]}
    api.call("patch", f"{url}Cy/", {"name": "x" * 31}, token=token, status=400)
    api.call("patch", f"{url}Cy/", {"name": "Cy\u0000"}, token=token, status=400)
    api.call("patch", f"{url}Cy/", {"name": 7}, token=token, status=400)
    api.call("patch", f"{url}Cy/", {"name": "Cyril", "admin": True}, token=token, status=400)
    api.call("patch", f"{url}Zed/", {"name": "Zoe"}, token=token, status=404)
    assert sorted(Member.objects.filter(club_id=club["id"]).values_list("name", flat=True)) == ["Ana", "Benjamin", "Cy"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("put", "members/", {"names": ["Ana"]}),
        ("delete", "members/Ana/", None),
        ("patch", "members/Ana/", {"name": "Anna"}),
        ("post", "nights/", {"ruleset": "mexican", "sittings": 2}),
    ],
    ids=["members", "retire", "rename", "night"],
)
def test_every_write_needs_the_organisers_token_and_changes_nothing_without_it(api, club, method, path, body):
    url = f"/api/clubs/{club['id']}/{path}"
    assert "organiser" in api.call(method, url, body, status=403).json()["detail"]
    api.call(method, url, body, token="x" * 43, status=403)
    other = api.call("post", "/api/clubs/", {"name": "Another club"}, status=201).json()
    api.call(method, url, body, token=other["organiser_token"], status=403)  # another club's token
    assert Member.objects.count() == 0 and Night.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"ruleset": "mexican", "sittings": 0}, "sittings"),
        ({"ruleset": "mexican", "sittings": 13}, "sittings"),
        ({"ruleset": "contract", "sittings": 2, "table_size": 6}, "table_size"),
        ({"ruleset": "mexican", "sittings": 2, "scoring": "elo"}, "scoring"),
        ({"ruleset": "bridge", "sittings": 2}, "ruleset"),
        ({"ruleset": "mexican", "sittings": 2, "date": "1999-12-31"}, "date"),
        ({"ruleset": "mexican", "sittings": 2, "admin": True}, "admin"),
    ],
    ids=["no sitting", "13 sittings", "contract at six", "elo", "bridge", "1999", "unknown key"],
)
def test_a_night_refuses_bad_settings_by_field(api, club, body, field):
    answer = api.call("post", f"/api/clubs/{club['id']}/nights/", body, token=club["organiser_token"], status=400)
    assert field in str(answer.json()), answer.json()
    assert Night.objects.count() == 0


@pytest.mark.parametrize(
    "names",
    [[], "Ana", ["A" * 31], ["Ana\x00"], [""], [None], [["Ana"]], [7]],
    ids=["none", "not a list", "31 characters", "a NUL", "empty", "null", "a list", "a number"],
)
def test_hostile_names_are_refused_and_change_nothing(api, club, names):
    api.call("put", f"/api/clubs/{club['id']}/members/", {"names": names}, token=club["organiser_token"], status=400)
    assert Member.objects.count() == 0


def test_thirteen_players_sit_at_tables_of_five_four_and_four_and_each_table_is_a_game(api, club):
    url = night_with(api, club, NAMES)
    token = club["organiser_token"]
    sitting = api.call("post", f"{url}/sittings/", {}, token=token, status=201).json()
    assert sitting["number"] == 1 and sitting["sitting_out"] == [] and sitting["repeated_pairs"] == 0
    assert sorted(len(t["players"]) for t in sitting["tables"]) == [4, 4, 5]
    assert sorted(itertools.chain.from_iterable(t["players"] for t in sitting["tables"])) == sorted(NAMES)
    for table in sitting["tables"]:
        game = Game.objects.get(pk=table["game"]["id"])
        assert [p.name for p in game.players.all()] == table["players"]
        # The edit link's token is the game's: it records rounds, and only its hash is kept.
        edit_token = re.search(r"/join/([^/]+)/$", table["game"]["edit_url"]).group(1)
        assert game.edit_token_hash == hashlib.sha256(edit_token.encode()).hexdigest()
    # The tables' games are the club's: they show in no server-wide list.
    assert api.call("get", "/games/").status_code == 200
    assert not any(t["game"]["id"] in api.call("get", "/games/").content.decode() for t in sitting["tables"])
    # Without the token the night shows no edit link.
    public = api.call("get", f"{url}/", status=200).json()
    assert "edit_url" not in public["sittings"][0]["tables"][0]["game"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("put", "present/", {"names": ["Zed"]}),
        ("post", "sittings/", {"force": True}),
        ("post", "sittings/1/tables/1/end/", {}),
        ("post", "finish/", {}),
    ],
    ids=["present", "draw", "end a table", "finish"],
)
@pytest.mark.parametrize(
    "token",
    [None, "", "x" * 43, "x" * 5000, "\u00e9" * 43, "other club"],
    ids=["none", "empty", "wrong", "huge", "not ascii", "another club's"],
)
def test_every_write_to_a_night_needs_its_clubs_organiser_token(api, club, method, path, body, token):
    url = night_with(api, club, NAMES[:4])
    api.call("post", f"{url}/sittings/", {}, token=club["organiser_token"], status=201)
    before = (Member.objects.count(), ClubTable.objects.filter(ended=True).count(), Game.objects.count())
    if token == "other club":
        token = api.call("post", "/api/clubs/", {"name": "Another club"}, status=201).json()["organiser_token"]
    answer = api.call(method, f"{url}/{path}", body, token=token or None, status=None)
    assert answer.status_code in (400, 403), answer.content  # a header no HTTP client can send: 400
    after = (Member.objects.count(), ClubTable.objects.filter(ended=True).count(), Game.objects.count())
    assert after == before and Night.objects.get().status == "open"


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("sittings/", {"force": "yes"}, 400, "force"),
        ("sittings/", {"force": True, "seed": 1}, 400, "seed"),
        ("sittings/9/tables/1/end/", {}, 404, "no table 1 in sitting 9"),
        ("sittings/1/tables/99999999999/end/", {}, 404, None),
        ("present/", {"names": ["Ana"] * 501}, 400, "names"),
    ],
    ids=["force not a boolean", "unknown key", "no such sitting", "huge table number", "501 names"],
)
def test_a_nights_hostile_writes_are_refused_in_words(api, club, path, body, status, words):
    url = night_with(api, club, NAMES[:4])
    api.call("post", f"{url}/sittings/", {}, token=club["organiser_token"], status=201)
    answer = api.call("post" if "present" not in path else "put", f"{url}/{path}", body, token=club["organiser_token"])
    assert answer.status_code == status, answer.content
    if words:
        assert words in answer.content.decode()
    assert ClubTable.objects.count() == 1 and not ClubTable.objects.filter(ended=True).exists()


def test_a_new_draw_waits_for_the_tables_unless_forced_and_keeps_pairs_apart(api, club):
    url = night_with(api, club, NAMES[:8])
    token = club["organiser_token"]
    first = api.call("post", f"{url}/sittings/", {}, token=token, status=201).json()
    refused = api.call("post", f"{url}/sittings/", {}, token=token, status=409).json()
    assert "still being played at table 1, 2" in refused["detail"]
    second = api.call("post", f"{url}/sittings/", {"force": True}, token=token, status=201).json()
    # Eight at two fours again: each new table must take two from each earlier one, so 4 pairs
    # meet again at best (a random draw: 4 to 12); the draw finds that least.
    assert second["number"] == 2 and second["repeated_pairs"] == 4
    assert ClubTable.objects.filter(sitting__number=1, ended=True).count() == 2
    pairs = [
        {frozenset(p) for t in s["tables"] for p in itertools.combinations(t["players"], 2)} for s in (first, second)
    ]
    assert len(pairs[0] & pairs[1]) == 4


LOW = "4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H 6S 7C"  # round 7: every hand holds 13 cards
HIGH = "KC KD KH KS QC QD QH QS JC JD JH JS 10C"
MID = "8C 8D 8H 8S 9C 9D 9H 9S 10D 10H 10S 3C 3D"
RULES = find_rules("mexican", [])


def _play_to_the_end(api, table, points, hands):
    """Mexican on a table's game: rounds 1 to 6 with ``points`` per player (the winner's 0), round
    7 with ``hands``; the totals, worked out here."""
    edit_token = re.search(r"/join/([^/]+)/$", table["game"]["edit_url"]).group(1)
    game_id = table["game"]["id"]
    winner = next(name for name, value in points.items() if value == 0)
    for number in range(1, RULES.last_round):
        body = {"number": number, "winner": winner, "points": {n: v for n, v in points.items() if n != winner}}
        api.call("post", f"/api/games/{game_id}/rounds/", body, game_token=edit_token, status=201)
    body = {"number": RULES.last_round, "winner": winner, "hands": hands}
    api.call("post", f"/api/games/{game_id}/rounds/", body, game_token=edit_token, status=201)
    last = {n: score_hand(RULES, RULES.last_round, parse_cards(c)).points for n, c in hands.items()}
    return {n: 6 * v + last.get(n, 0) for n, v in points.items()}


def test_the_nights_standings_are_worked_out_by_hand_from_the_final_places(api, club):
    url = night_with(api, club, NAMES[:7], sittings=1)  # 7 players: tables of 4 and 3
    token = club["organiser_token"]
    sitting = api.call("post", f"{url}/sittings/", {}, token=token, status=201).json()
    four = next(t for t in sitting["tables"] if len(t["players"]) == 4)
    three = next(t for t in sitting["tables"] if len(t["players"]) == 3)
    a, b, c, d = four["players"]
    totals = _play_to_the_end(api, four, {a: 0, b: 5, c: 5, d: 10}, {b: LOW, c: LOW, d: HIGH})
    assert totals[a] == 0 and totals[b] == totals[c] < totals[d]
    standings = api.call("get", f"{url}/", status=200).json()["standings"]
    assert {r["player"] for r in standings} == set(four["players"])  # the table of three plays on
    by = {r["player"]: r for r in standings}
    # a beats 3 of 3: 100 %; b and c beat d and tie each other: (1 + 1/2) / 3 = 50 %; d 0 %.
    assert (by[a]["percent"], by[b]["percent"], by[c]["percent"], by[d]["percent"]) == (100.0, 50.0, 50.0, 0.0)
    # The tie-break: the table's average total less one's own.
    average = sum(totals.values()) / 4
    assert [by[n]["tiebreak"] for n in (a, b, d)] == [round(average - totals[n], 2) for n in (a, b, d)]
    assert [r["place"] for r in standings] == [1, 2, 2, 4] and by[a]["sittings"] == 1
    assert (by[a]["points"], by[b]["points"], by[d]["points"]) == (11.0, 5.5, 2.0)  # 11-7-4-2, b and c share 7 + 4
    # The organiser ends the table of three as it stands (no round played: all tied at 0).
    api.call("post", f"{url}/sittings/1/tables/{three['number']}/end/", {}, token=token, status=200)
    standings = {r["player"]: r for r in api.call("get", f"{url}/").json()["standings"]}
    assert all(standings[name]["percent"] == 50.0 for name in three["players"])


def test_a_season_counts_the_best_nights_between_two_dates(api, club):
    token = club["organiser_token"]
    for date, order in (("2026-11-04", ["Ana", "Ben", "Cy"]), ("2026-11-11", ["Ben", "Ana", "Cy"])):
        url = night_with(api, club, ["Ana", "Ben", "Cy"], sittings=1, table_size=3, date=date)
        table = api.call("post", f"{url}/sittings/", {}, token=token, status=201).json()["tables"][0]
        _play_to_the_end(api, table, {order[0]: 0, order[1]: 5, order[2]: 10}, {order[1]: LOW, order[2]: HIGH})
    season = api.call("get", f"/api/clubs/{club['id']}/season/?from=2026-11-01&to=2026-11-30&best=1").json()
    assert [(r["player"], r["percent"], r["nights"], r["place"]) for r in season["standings"]] == [
        ("Ana", 100.0, 2, 1),
        ("Ben", 100.0, 2, 1),
        ("Cy", 0.0, 2, 3),
    ]
    all_nights = api.call("get", f"/api/clubs/{club['id']}/season/").json()["standings"]
    assert [(r["player"], r["percent"]) for r in all_nights] == [("Ana", 75.0), ("Ben", 75.0), ("Cy", 0.0)]
    one = api.call("get", f"/api/clubs/{club['id']}/season/?from=2026-11-10").json()["standings"]
    assert [(r["player"], r["nights"]) for r in one] == [("Ben", 1), ("Ana", 1), ("Cy", 1)]
    api.call("get", f"/api/clubs/{club['id']}/season/?from=tomorrow", status=400)
    api.call("get", f"/api/clubs/{club['id']}/season/?best=0", status=400)


def test_the_season_page_shows_the_same_standings_and_says_which_field_is_wrong(api, club, client):
    token = club["organiser_token"]
    for date, order in (("2026-11-04", ["Ana", "Ben", "Cy"]), ("2026-11-11", ["Ben", "Ana", "Cy"])):
        url = night_with(api, club, ["Ana", "Ben", "Cy", "Dee"][: 3 if date.endswith("04") else 4], date=date)
        tables = api.call("post", f"{url}/sittings/", {}, token=token, status=201).json()["tables"]
        table = tables[0]
        seated = table["players"]
        points = {name: 5 * i for i, name in enumerate(sorted(seated, key=[*order, "Dee"].index))}
        hands = dict(zip(sorted((n for n in points if points[n]), key=points.get), [LOW, MID, HIGH], strict=False))
        _play_to_the_end(api, table, points, hands)
    page = client.get(f"/c/{club['id']}/season/")
    rows = [(r.player, r.percent, r.nights, r.place) for r in page.context["standings"]]
    # Night 1 (three players): Ana 100 %, Ben 50 %, Cy 0 %. Night 2 (four): Ben 100 %, Ana 2/3,
    # Cy 1/3, Dee 0 %. Averaged from the nights' own figures, rounded once: (100 + 66.67) / 2
    # would say 83.34.
    assert rows == [("Ana", 83.33, 2, 1), ("Ben", 75.0, 2, 2), ("Cy", 16.67, 2, 3), ("Dee", 0.0, 1, 4)]
    html = page.content.decode()
    assert "Standings of the season" in html and '<th scope="row">Dee</th>' in html
    best = client.get(f"/c/{club['id']}/season/?start=2026-11-01&end=2026-11-30&best=1&minimum=2").context
    assert [(r.player, r.percent, r.counted, r.qualified) for r in best["standings"]] == [
        ("Ana", 100.0, 1, True),
        ("Ben", 100.0, 1, True),
        ("Cy", 33.33, 1, True),
        ("Dee", 0.0, 1, False),  # one night of the two needed: listed, not placed
    ]
    refused = client.get(f"/c/{club['id']}/season/?start=yesterday&best=0")
    assert refused.status_code == 200 and set(refused.context["form"].errors) == {"start", "best"}
    assert not refused.context["standings"]


def test_a_finished_night_takes_no_more_draws_or_check_ins(api, club):
    url = night_with(api, club, NAMES[:4])
    token = club["organiser_token"]
    api.call("post", f"{url}/sittings/", {}, token=token, status=201)
    api.call("post", f"{url}/finish/", {}, token=token, status=200)
    assert api.call("get", f"{url}/").json()["status"] == "finished"
    api.call("post", f"{url}/sittings/", {"force": True}, token=token, status=409)
    api.call("put", f"{url}/present/", {"names": ["Zed"]}, token=token, status=409)
    assert not Member.objects.filter(name="Zed").exists()


def test_too_few_present_is_said_in_words(api, club):
    url = night_with(api, club, ["Ana"])
    answer = api.call("post", f"{url}/sittings/", {}, token=club["organiser_token"], status=400).json()
    assert "1 player present: a table of this game needs at least 2" in str(answer)


def test_creating_clubs_is_limited_as_games_are_and_a_draws_games_never_count(api, client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "create": (2, 3600)}
    api.call("post", "/api/clubs/", {"name": ""}, status=400)  # a refused club is not counted
    made = api.call("post", "/api/clubs/", {"name": "De Joker"}, status=201).json()
    url = night_with(api, made, NAMES[:12])  # three tables of four: three new games
    api.call("post", f"{url}/sittings/", {}, token=made["organiser_token"], status=201)
    assert Game.objects.count() == 3
    api.call("post", "/api/clubs/", {"name": "Second"}, status=201)  # the draw's games did not count
    refused = api.call("post", "/api/clubs/", {"name": "Third"}, status=429).json()
    assert "Too many" in refused["detail"] and Club.objects.count() == 2
    assert client.post("/api/games/", {"players": ["A", "B"]}, content_type="application/json").status_code == 429


# --- what a club evening needs, and no more (issue 33, finding 6) ----------------------------


def test_a_clubs_draws_count_against_the_address_that_made_it(api, club, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "club_tables": (4, 3600)}
    token = club["organiser_token"]
    first = night_with(api, club, NAMES[:12])  # three tables of four
    api.call("post", f"{first}/sittings/", {}, token=token, status=201)
    games = Game.objects.count()
    refused = api.call("post", f"{first}/sittings/", {"force": True}, token=token, status=429)
    assert "Too many tables drawn" in refused.json()["detail"] and refused["Retry-After"]
    assert Game.objects.count() == games and Night.objects.get().sittings_drawn.count() == 1
    # Another club made from the same address shares the count; a draw that fits still goes.
    second = api.call("post", "/api/clubs/", {"name": "Second"}, status=201).json()
    url = night_with(api, second, NAMES[:4])
    api.call("post", f"{url}/sittings/", {}, token=second["organiser_token"], status=201)
    api.call("post", f"{url}/sittings/", {"force": True}, token=second["organiser_token"], status=429)


def test_a_night_seats_at_most_200_and_a_draw_makes_at_most_60_tables(api, club):
    token = club["organiser_token"]
    base = f"/api/clubs/{club['id']}"
    many = [f"Player {n}" for n in range(201)]
    api.call("put", f"{base}/members/", {"names": many[:200]}, token=token, status=200)
    night = api.call("post", f"{base}/nights/", {"sittings": 1, "table_size": 2}, token=token, status=201).json()
    url = f"{base}/nights/{night['id']}"
    refused = api.call("put", f"{url}/present/", {"names": many}, token=token, status=400).json()
    assert refused["detail"] == "A night seats at most 200 players"
    assert Night.objects.get().present.count() == 0
    api.call("put", f"{url}/present/", {"names": many[:130]}, token=token, status=200)
    refused = api.call("post", f"{url}/sittings/", {}, token=token, status=400).json()
    assert "A draw makes at most 60 tables, not 65" in refused["detail"]
    assert Game.objects.count() == 0


def test_a_club_holds_at_most_four_nights_on_one_date(api, club):
    base = f"/api/clubs/{club['id']}"
    for _ in range(4):
        api.call("post", f"{base}/nights/", {"sittings": 1}, token=club["organiser_token"], status=201)
    refused = api.call("post", f"{base}/nights/", {"sittings": 1}, token=club["organiser_token"], status=409)
    assert "at most 4 nights on one date" in refused.json()["detail"]
    assert Night.objects.count() == 4
