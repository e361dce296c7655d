"""A round in progress (issue 15): each hand sent in on its own, recorded when all are in,
through the API; and what happens when the table does two things at once."""

import pytest
from django.test import Client

from scorekeeping.models import Change, Draft, DraftHand, Game, Round, Score, Seat
from scorekeeping.services import draft_hand, draft_start, game_create
from tests.helpers import record

from .racing import race, send

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def api(client, method, path, token=None, body=None):
    headers = {"X-Game-Token": token} if token else {}
    call = getattr(client, method)
    if body is None:
        return call(path, headers=headers)
    return call(path, body, content_type="application/json", headers=headers)


@pytest.fixture
def table(client):
    game, token = game_create(ruleset="mexican", variants=[], players=NAMES, first_dealer="Ana")
    base = f"/api/games/{game.pk}/draft/"

    def call(method, path="", body=None, token_=token):
        return api(client, method, base + path, token_, body)

    call.game, call.token = game, token
    return call


def live_version(game):
    return Game.objects.get(pk=game.pk).live_version


def test_hands_sent_in_one_by_one_are_recorded_as_one_round(table, client):
    assert table("get").status_code == 404
    started = table("put", body={"number": 1, "winner": "Ana"})
    assert started.status_code == 200, started.json()
    assert started.json() == {
        "number": 1,
        "winner": "Ana",
        "hands": {},
        "missing": ["Ben", "Cy", "Dee"],
        "penalties": {},
        "version": 1,
        "cut_bonus": False,
    }
    assert table("put", "hands/Ben/", {"cards": "4c kc"}).status_code == 200
    assert table("put", "hands/cy/", {"cards": ["JK"]}).status_code == 200  # names in any case
    draft = table("put", "hands/Dee/", {"points": 25}).json()
    assert draft["hands"] == {
        "Ben": {"cards": ["4C", "KC"], "points": None, "buys": 0, "sent_in": True},
        "Cy": {"cards": ["JK"], "points": None, "buys": 0, "sent_in": True},
        "Dee": {"cards": [], "points": 25, "buys": 0, "sent_in": True},
    }
    assert draft["missing"] == [] and draft["penalties"] == {"Ben": 15, "Cy": 20, "Dee": 25}
    assert draft["version"] == 4
    recorded = table("post", "record/", {"version": 4})
    assert recorded.status_code == 201, recorded.json()
    body = recorded.json()
    assert [r["number"] for r in body["rounds"]] == [1]
    assert {s["player"]: s["points"] for s in body["rounds"][0]["scores"]} == {"Ana": 0, "Ben": 15, "Cy": 20, "Dee": 25}
    assert Change.objects.filter(game=table.game, action="record").count() == 1
    assert not Draft.objects.filter(game=table.game).exists() and table("get").status_code == 404


def test_recording_names_every_missing_hand_and_writes_nothing(table):
    table("put", body={"number": 1, "winner": None})  # no one went out: everyone holds cards
    table("put", "hands/Ana/", {"cards": "5C"})
    refused = table("post", "record/", {})
    assert refused.status_code == 400
    errors = refused.json()["errors"]
    assert set(errors) == {"hands.Ben", "hands.Cy", "hands.Dee"}
    assert errors["hands.Cy"] == ["Cy's hand is not in yet"]
    assert not Round.objects.filter(game=table.game).exists()


def test_a_hand_is_checked_as_a_recorded_hand_is_and_a_refused_one_keeps_nothing(table):
    table("put", body={"number": 1, "winner": "Ana"})
    refused = table("put", "hands/Ben/", {"cards": "4C ZZ"})
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["hands.Ben"]
    assert "ZZ" in refused.json()["errors"]["hands.Ben"][0]
    both = table("put", "hands/Ben/", {"cards": "4C", "points": 4})
    assert both.status_code == 400 and "not both" in both.json()["detail"]
    assert table("put", "hands/Ana/", {"cards": "4C"}).status_code == 400  # went out: no hand
    assert table("put", "hands/Zed/", {"cards": "4C"}).status_code == 404
    assert table("put", "hands/Ben/", {"cards": "4C", "bogus": 1}).status_code == 400  # keys are allow-listed
    assert not DraftHand.objects.exists()


def test_only_the_round_to_record_next_can_be_in_progress(table):
    record(table.game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"})
    stale = table("put", body={"number": 1, "winner": "Ben"})
    assert stale.status_code == 409 and "already recorded" in stale.json()["detail"]
    assert table("put", body={"number": 3, "winner": "Ben"}).status_code == 400
    assert table("put", body={"number": 2, "winner": "Zed"}).status_code == 404
    assert table("put", body={"number": 2, "winner": "Ben"}).status_code == 200


def test_a_hand_for_a_round_recorded_meanwhile_is_refused_with_409(table):
    table("put", body={"number": 1, "winner": "Ana"})
    record(table.game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"})  # one phone typed it all in
    late = table("put", "hands/Ben/", {"cards": "9C", "number": 1})
    assert late.status_code == 409 and "already recorded round 1" in late.json()["detail"].lower()
    assert table("put", "hands/Ben/", {"cards": "9C"}).status_code == 409  # no round in progress
    assert Score.objects.get(round__game=table.game, player__name="Ben").cards == "4C"


def test_a_new_winner_sets_their_own_hand_aside_and_the_old_winner_is_missing(table):
    table("put", body={"number": 1, "winner": "Ana"})
    table("put", "hands/Ben/", {"cards": "4C"})
    table("put", "hands/Cy/", {"cards": "5C"})
    moved = table("put", body={"number": 1, "winner": "Cy"}).json()
    assert moved["winner"] == "Cy" and moved["missing"] == ["Ana", "Dee"]
    assert set(moved["hands"]) == {"Ben"}  # Cy's hand is set aside, not lost
    back = table("put", body={"number": 1, "winner": "Ana"}).json()
    assert back["hands"]["Cy"]["cards"] == ["5C"] and back["missing"] == ["Dee"]


def test_an_undo_of_the_round_before_leaves_the_round_in_progress_waiting(table, client):
    record(table.game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"})
    table("put", body={"number": 2, "winner": "Ben"})
    table("put", "hands/Ana/", {"cards": "7C 7D"})
    undone = api(client, "post", f"/api/games/{table.game.pk}/undo/", table.token, {})
    assert undone.status_code == 200
    assert table("get").status_code == 404  # round 1 is to record again first
    assert table("put", "hands/Cy/", {"cards": "8C", "number": 2}).status_code == 409
    record(table.game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"})
    waiting = table("get").json()
    assert waiting["number"] == 2 and waiting["hands"]["Ana"]["cards"] == ["7C", "7D"]


def test_a_correction_of_an_earlier_round_leaves_the_round_in_progress_alone(table, client):
    record(table.game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"})
    table("put", body={"number": 2, "winner": "Ben"})
    table("put", "hands/Ana/", {"cards": "7C 7D"})
    body = {"winner": "Ana", "hands": {"Ben": "4C", "Cy": "5C", "Dee": "9C"}}
    assert api(client, "put", f"/api/games/{table.game.pk}/rounds/1/", table.token, body).status_code == 200
    assert table("get").json()["hands"]["Ana"]["cards"] == ["7C", "7D"]


def test_every_write_needs_the_edit_token_and_reading_does_not(table):
    table("put", body={"number": 1, "winner": "Ana"})
    for method, path, body in [
        ("put", "", {"number": 1, "winner": "Ben"}),
        ("put", "hands/Ben/", {"cards": "4C"}),
        ("post", "record/", {}),
        ("delete", "", None),
    ]:
        assert table(method, path, body, token_=None).status_code == 403
        assert table(method, path, body, token_="wrong").status_code == 403
    assert table("get", token_=None).status_code == 200
    assert Draft.objects.get().winner.name == "Ana" and not DraftHand.objects.exists()


def test_a_draft_is_discarded_on_request(table):
    table("put", body={"number": 1, "winner": "Ana"})
    table("put", "hands/Ben/", {"cards": "4C"})
    assert table("delete").status_code == 204
    assert table("get").status_code == 404 and table("delete").status_code == 404
    assert not DraftHand.objects.exists()


def test_each_step_the_table_should_see_is_an_event_and_typing_is_not(table):
    game = table.game
    before = live_version(game)
    draft_start(game=game, number=1, winner="Ana")
    assert live_version(game) == before + 1
    draft_hand(game=game, name="Ben", cards="4C", done=False)  # still typing: kept, no event
    assert live_version(game) == before + 1
    assert DraftHand.objects.get().cards == "4C" and not DraftHand.objects.get().done
    draft_hand(game=game, name="Ben", cards="4C 5C")
    assert live_version(game) == before + 2
    draft_hand(game=game, name="Ben", cards="4C", done=False)  # a late keystroke's save: the hand stays in
    assert live_version(game) == before + 2
    assert DraftHand.objects.get().cards == "4C 5C" and DraftHand.objects.get().done
    draft_hand(game=game, name="Ben", cards="4C 5C 6C")  # sent in again, fixed
    assert live_version(game) == before + 3 and DraftHand.objects.get().cards == "4C 5C 6C"
    assert Game.objects.get(pk=game.pk).version == game.version  # no new version of the game itself


SHANGHAI = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]


@pytest.mark.django_db(transaction=True)
def test_eight_phones_at_once_lose_nothing_and_double_nothing(live_server):
    """Eight clients send hands at the same moment (one player's hand twice, from two phones),
    then eight ask to record at the same moment: one round, eight scores, one history entry."""
    game, token = game_create(ruleset="shanghai", variants=["more-players"], players=SHANGHAI, first_dealer="P1")
    base = f"{live_server.url}/api/games/{game.pk}/draft/"
    assert send(base, {"number": 1, "winner": "P1"}, token, "PUT")[0] == 200
    hands = ["5C KD", "JK 2H", "7S", "AC AD", "9H 10H", "QS", "4D"]
    calls = [
        (f"{base}hands/{name}/", {"cards": cards}, token, "PUT")
        for name, cards in zip(SHANGHAI[1:], hands, strict=True)
    ]
    calls.append((f"{base}hands/P2/", {"cards": "5C KD"}, token, "PUT"))  # the same hand again, from another phone
    results = race(calls)
    assert [status for status, _body in results] == [200] * 8, results
    assert DraftHand.objects.filter(draft__game=game).count() == 7  # one per player, none doubled
    assert DraftHand.objects.filter(draft__game=game, done=True).count() == 7
    recorded = race([(f"{base}record/", {}, token)] * 8)
    statuses = sorted(status for status, _body in recorded)
    assert statuses[0] == 201 and statuses.count(201) == 1, recorded
    assert all(status in (404, 409) for status in statuses[1:]), recorded
    assert Round.objects.filter(game=game).count() == 1
    assert Score.objects.filter(round__game=game).count() == 8
    assert Change.objects.filter(game=game).count() == 1
    stored = {s.player.name: s.cards for s in Score.objects.filter(round__game=game).select_related("player")}
    assert stored == {"P1": "", **dict(zip(SHANGHAI[1:], hands, strict=True))}
    assert not Draft.objects.filter(game=game).exists()


def test_a_seat_is_no_permission(table):
    viewer = Client()
    assert (
        viewer.put(
            f"/api/games/{table.game.pk}/draft/", {"number": 1, "winner": "Ana"}, content_type="application/json"
        ).status_code
        == 403
    )


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("", {"number": 1, "winner": "Ana", "extra": 1}, 400),  # unknown key
        ("", {"number": 10**12, "winner": "Ana"}, 400),  # past the column and the rules
        ("", {"number": 1, "winner": "A\u0000na"}, 400),  # a control character
        ("", {"number": 1, "winner": "Ana", "cut_bonus": "maybe"}, 400),  # not a yes or no
        ("", {"number": 1, "winner": "Ana", "cut_bonus": 10**12}, 400),
        ("", {"number": 1, "winner": "Ana", "cut_bonus": True}, 400),  # Mexican has no cut bonus
        ("hands/Ben/", {"points": 10**15}, 400),
        ("hands/Ben/", {"buys": -1, "cards": "4C"}, 400),
        ("hands/Ben/", {"cards": "4C" * 400}, 400),  # longer than any hand
        ("hands/Ben/", {"cards": ["4C", 7]}, 400),
        ("hands/Ben/", {"cards": "4C", "number": 10**12}, 400),  # a round no game has
        ("hands/Ben/", {"cards": "4C", "number": 0}, 400),
        ("hands/B\u0301en/", {"cards": "4C"}, 404),  # odd Unicode: no such player
        ("hands/" + "x" * 5000 + "/", {"cards": "4C"}, 404),
        ("record/", {"version": 2**31}, 400),  # past the column
        ("record/", {"version": -1}, 400),
    ],
)
def test_hostile_input_is_refused_by_name_and_changes_nothing(table, path, body, status):
    table("put", body={"number": 1, "winner": "Ana"})
    before = (Draft.objects.get().version, live_version(table.game), DraftHand.objects.count())
    response = table("post" if path == "record/" else "put", path, body)
    assert response.status_code == status, response.content[:300]
    assert response.json()["detail"]  # the usual error shape, saying what is wrong
    assert (Draft.objects.get().version, live_version(table.game), DraftHand.objects.count()) == before


def test_a_seat_form_with_nonsense_changes_nothing(table):
    phone = Client()
    assert phone.get(f"/g/{table.game.pk}/join/{table.token}/").status_code == 302
    before = live_version(table.game)
    for value in ("9" * 40, "-1", "Ben", "\u0663"):
        response = phone.post(f"/g/{table.game.pk}/seat/", {"player": value})
        assert response.status_code == 302  # read as "no seat": nothing to leave, nothing taken
    assert live_version(table.game) == before and not Seat.objects.exists()


def test_a_liverpool_round_in_progress_carries_the_cut_bonus_as_a_round_typed_at_once(client):
    """Issue 23: every option of a round recorded at once, the round in progress has too."""
    game, token = game_create(ruleset="liverpool", variants=[], players=NAMES, first_dealer="Ana")
    base = f"/api/games/{game.pk}/draft/"
    started = api(client, "put", base, token, {"number": 1, "winner": "Ana", "cut_bonus": True})
    assert started.status_code == 200 and started.json()["cut_bonus"] is True
    again = api(client, "put", base, token, {"number": 1, "winner": "Ana"})  # absent: left as it is
    assert again.json()["cut_bonus"] is True and again.json()["version"] == 1
    for name, cards in (("Ben", "4C"), ("Cy", "5D"), ("Dee", "6D")):
        assert api(client, "put", f"{base}hands/{name}/", token, {"cards": cards}).status_code == 200
    version = api(client, "get", base).json()["version"]
    assert api(client, "post", f"{base}record/", token, {"version": version}).status_code == 201
    # The same round typed at once, in a second game: the same scores.
    other, _token = game_create(ruleset="liverpool", variants=[], players=NAMES, first_dealer="Ana")
    record(other, 1, "Ana", {"Ben": "4C", "Cy": "5D", "Dee": "6D"}, cut_bonus=True)
    drafted = {s.player.name: s.points for s in Round.objects.get(game=game).scores.all()}
    typed = {s.player.name: s.points for s in Round.objects.get(game=other).scores.all()}
    assert drafted == typed and min(drafted.values()) < 0 and Round.objects.get(game=game).cut_bonus


def test_the_cut_bonus_is_refused_where_the_rules_have_none(table):
    refused = table("put", body={"number": 1, "winner": "Ana", "cut_bonus": True})
    assert refused.status_code == 400 and "has no cut bonus" in str(refused.json())
    assert not Draft.objects.exists()


def test_a_round_in_progress_is_told_with_the_version_of_the_hands_it_shows(table):
    """The draft is read first, its hands a moment later: a hand sent in between is shown, so the
    version told (what a page sends with Record) is the one with that hand, not the one before."""
    from scorekeeping.services.drafts import draft_status

    table("put", body={"number": 1, "winner": "Ana"})
    table("put", "hands/Ben/", {"points": 10})
    table("put", "hands/Cy/", {"points": 20})
    read_before = Draft.objects.select_related("winner").get(game=table.game)
    table("put", "hands/Dee/", {"points": 30})  # sent in between the two reads
    status = draft_status(table.game, read_before)
    assert [p.name for p in status.missing] == []
    assert status.draft.version == Draft.objects.get(game=table.game).version == read_before.version + 1
    assert status.draft.winner.name == "Ana"
    recorded = table("post", "record/", {"version": status.draft.version})
    assert recorded.status_code == 201, recorded.json()
