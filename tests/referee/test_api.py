"""The referee's JSON API: each action, each error, the examples of the issue."""

import pytest
from django.urls import reverse


@pytest.fixture
def check(client):
    def post(body, status=200):
        response = client.post(reverse("api-referee-check"), body, content_type="application/json")
        assert response.status_code == status, response.content
        return response.json()

    return post


def test_check_open_worked_example_is_legal(check):
    body = check({"round": 2, "action": "open", "melds": ["7C 7D 4H", "9S 10S JS QS"]})
    assert body["legal"] is True
    assert body["reasons"] == []
    assert body["melds"][0] == {
        "kind": "book",
        "description": "a book of sevens",
        "cards": ["7C", "7D", "4H=7"],
        "wilds": [{"card": "4H", "stands_for": "7", "name": "a seven", "choices": ["7"]}],
        "ambiguous": False,
    }
    assert body["melds"][1]["kind"] == "run"
    assert body["melds"][1]["cards"] == ["9S", "10S", "JS", "QS"]


def test_check_open_no_wrap(check):
    body = check({"round": 2, "action": "open", "melds": ["7C 7D 4H", "QS KS AS 2S"]})
    assert body["legal"] is False
    assert len(body["reasons"]) == 1
    assert "K-A-2" in body["reasons"][0]
    assert body["melds"] == []


def test_check_open_takes_lists_of_cards_and_symbols(check):
    body = check({"round": 2, "action": "open", "melds": [["7♣", "7♦", "4♥=7♠"], ["9♠", "10♠", "J♠", "Q♠"]]})
    assert body["legal"] is True
    assert body["melds"][0]["wilds"][0]["stands_for"] == "7S"


def test_check_open_ambiguous_wild_lists_choices(check):
    body = check({"round": 2, "action": "open", "melds": ["5S 6S 7S JK", "9H 9D 9C"]})
    assert body["legal"] is True
    assert body["melds"][0]["ambiguous"] is True
    assert body["melds"][0]["wilds"][0]["choices"] == ["4S", "8S"]


def test_check_open_with_a_hand_runs_the_solver(check):
    body = check({"round": 2, "action": "open", "hand": "7C 7D 4H 9S 10S JS QS KD 2C"})
    assert body["legal"] is True
    assert sorted(body["unused"]) == ["2C", "KD"]


def test_check_go_out(check):
    body = check({"round": 7, "action": "go_out", "melds": ["2S 3S 4S 5S 6S", "9H 10H JH QH KH", "AC 2C 3C 4C"]})
    assert body["legal"] is True
    hand = check({"round": 7, "action": "go_out", "hand": "2S 3S 4S 5S 6S 9H 10H JH QH KH AC 2C 3C 4C"})
    assert hand["legal"] is True
    assert hand["unused"] == []


def test_check_layoff(check):
    body = check({"round": 2, "action": "layoff", "target": "7C 7D 4H=7S", "cards": "7H"})
    assert body["legal"] is True
    assert body["melds"][0]["cards"] == ["7C", "7D", "4H=7S", "7H"]
    early = check({"round": 2, "action": "layoff", "target": "7C 7D 4H=7S", "cards": "7H", "opened_this_turn": True})
    assert early["legal"] is False


def test_check_swap(check):
    refused = check({"round": 2, "action": "swap", "target": "5S 6S 7S JK=8S", "cards": "8S"})
    assert refused["legal"] is False
    body = check({"round": 2, "variants": ["wild-swap"], "action": "swap", "target": "5S 6S 7S JK=8S", "cards": "8S"})
    assert body["legal"] is True
    assert body["freed"] == "JK"
    assert body["melds"][0]["cards"] == ["5S", "6S", "7S", "8S"]


def test_check_other_rulesets(check):
    body = check({"ruleset": "contract", "round": 1, "action": "open", "melds": ["5C 5D 5H 5S", "9S 9S 9H"]})
    assert body["legal"] is False
    assert "exactly 3" in body["reasons"][0]
    free = check(
        {
            "ruleset": "contract",
            "variants": ["free-meld"],
            "round": 1,
            "action": "open",
            "melds": ["5C 5D 5H 5S", "9S 9S 9H"],
        }
    )
    assert free["legal"] is True


def test_score_worked_example(client):
    response = client.post(
        reverse("api-referee-score"), {"round": 2, "cards": "4S AH KC 2D"}, content_type="application/json"
    )
    assert response.status_code == 200
    body = response.json()
    assert body["points"] == 50
    assert [c["points"] for c in body["cards"]] == [20, 15, 10, 5]
    assert body["cards"][0] == {"card": "4S", "name": "Four of spades", "points": 20, "wild": True}


BAD_CHECKS = [
    (
        {"round": 2, "action": "open", "melds": ["7C 7D 4X"]},
        "melds",
        "meld 1: card 3: '4X' is not a card (unknown suit 'X'",
    ),
    (
        {"round": 2, "action": "open", "melds": ["7C 7D 7H", "9S 1S JS QS"]},
        "melds",
        "meld 2: card 2: '1S' is not a card",
    ),
    ({"round": 2, "action": "open", "hand": "7C 7D ZZ"}, "hand", "card 3: 'ZZ' is not a card"),
    ({"round": 2, "action": "open", "hand": "7C 7C 7C 9S 10S JS QS"}, "hand", "7C appears 3 times"),
    (
        {"round": 9, "action": "open", "melds": ["7C 7D 7H"]},
        "round",
        "Mexican Rummy has no round 9: it plays rounds 1-7",
    ),
    ({"round": 0, "action": "open", "melds": ["7C 7D 7H"]}, "round", "greater than or equal to 1"),
    ({"ruleset": "gin", "round": 1, "action": "open", "melds": ["7C"]}, "ruleset", "Unsupported ruleset: 'gin'"),
    ({"variants": ["nope"], "round": 1, "action": "open", "melds": ["7C"]}, "variants", "Unsupported variant: 'nope'"),
    ({"variants": ["free-meld"], "round": 1, "action": "open", "melds": ["7C"]}, "variants", "belongs to contract"),
    ({"round": 1, "action": "dance", "melds": ["7C"]}, "action", "not a valid choice"),
    ({"round": 1, "action": "open"}, "melds", "open takes either melds or a hand"),
    ({"round": 1, "action": "open", "melds": ["7C"], "hand": "7C"}, "melds", "not both"),
    ({"round": 1, "action": "layoff", "target": "7C 7D 7H"}, "cards", "layoff needs cards"),
    ({"round": 1, "action": "swap"}, "target", "swap needs target"),
    ({"round": 1, "action": "open", "melds": [7]}, "melds", "Expected cards as a string"),
    ({"round": 1, "action": "layoff", "target": "7C 7D 7H", "cards": "7S=QQ"}, "cards", "cards: card 1: '7S=QQ'"),
    ({"round": 1, "action": "open", "melds": ["7C"], "players": 9}, "players", "for 2-6 players, not 9"),
    ({"round": "two", "action": "open", "melds": ["7C"]}, "round", "valid integer"),
]


@pytest.mark.parametrize(("body", "field", "message"), BAD_CHECKS, ids=[b[2][:40] for b in BAD_CHECKS])
def test_check_bad_input_is_400_naming_the_field(check, body, field, message):
    error = check(body, status=400)
    assert message in error["detail"]
    assert any(name.split(".")[0] == field for name in error["errors"]), error["errors"]


@pytest.mark.parametrize("payload", ["{bad json", "[]", "null", '"open"'])
def test_check_malformed_json_is_400(client, payload):
    response = client.post(reverse("api-referee-check"), payload, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"]


@pytest.mark.parametrize(
    ("payload", "why"),
    [
        (b'{"round": NaN, "action": "open"}', "Out of range float values are not JSON compliant"),
        (b'{"round": 2, "action": "\xff"}', "JSON parse error"),
        (b"[" * 100_000, "JSON parse error - nested too deeply"),
    ],
    ids=["NaN", "bad UTF-8", "nested too deeply"],
)
def test_check_refuses_nan_bad_utf8_and_deep_nesting(client, payload, why):
    response = client.post(reverse("api-referee-check"), payload, content_type="application/json")
    assert response.status_code == 400
    assert why in response.json()["detail"]


def test_check_is_post_only(client):
    assert client.get(reverse("api-referee-check")).status_code == 405


def test_score_refuses_impossible_copies(client):
    response = client.post(
        reverse("api-referee-score"), {"round": 2, "cards": "4S 4S 4S"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["errors"] == {"cards": ["4S appears 3 times, but the 2 packs hold only 2"]}


def test_rulesets_list_and_detail(client):
    listed = client.get(reverse("api-rulesets")).json()
    assert [r["slug"] for r in listed] == ["mexican", "contract", "liverpool", "shanghai", "may-i"]
    mexican = client.get(reverse("api-ruleset", args=["mexican"])).json()
    assert mexican["rounds"][1] == {
        "number": 2,
        "dealt": 8,
        "wild_rank": "4",
        "wilds": "Fours and jokers are wild",
        "contract": "1 book of 3+ and 1 run of 4+",
        "components": [{"kind": "book", "length": 3}, {"kind": "run", "length": 4}],
        "final": False,
    }
    by_rank = {"A": 15, **{str(r): 5 for r in range(2, 10)}, "10": 10, "J": 10, "Q": 10, "K": 10}
    assert mexican["penalties"] == {
        "joker": 20,
        "wild": 20,
        "ace": 15,
        "ten_to_king": 10,
        "two_to_nine": 5,
        "by_rank": by_rank,
    }
    contract = client.get(reverse("api-ruleset", args=["contract"])).json()["penalties"]
    assert contract["two_to_nine"] is None and contract["by_rank"]["7"] == 7  # face value
    assert {v["slug"] for v in mexican["variants"]} >= {"wild-swap", "kings-wild", "single-deck"}
    kings = client.get(reverse("api-ruleset", args=["mexican"]), {"variants": "kings-wild"}).json()
    assert {r["wild_rank"] for r in kings["rounds"]} == {"K"}
    shanghai = client.get(reverse("api-ruleset", args=["shanghai"])).json()
    assert shanghai["rounds"][9]["contract"] == "3 sequences of exactly 5"


def test_ruleset_unknown_is_404_and_bad_variant_400(client):
    assert client.get(reverse("api-ruleset", args=["gin"])).status_code == 404
    response = client.get(reverse("api-ruleset", args=["mexican"]), {"variants": "free-meld"})
    assert response.status_code == 400
    assert "variants" in response.json()["errors"]


def test_check_refuses_a_key_it_does_not_take(client):
    body = {"round": 2, "action": "open", "melds": ["7C 7D 7H", "9S 10S JS QS"], "cheat": True}
    response = client.post(reverse("api-referee-check"), body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"] == {"cheat": ["unknown key 'cheat': this request takes no such key"]}
