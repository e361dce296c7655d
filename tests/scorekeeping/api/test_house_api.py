"""A table's house rules through the API (issue 37): saved by POST /api/rulesets/, read back whole by
their slug, and played by that slug wherever a ruleset is taken; a hostile document is refused
by key and writes nothing."""

import json

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import RULESETS, find_rules
from referee.engine.documents import document_of, rules_from_document
from referee.models import HouseRuleset
from tests.referee.engine.house_documents import documents

pytestmark = pytest.mark.django_db

URL = "/api/rulesets/"


def grandmas():
    """Mexican Rummy whose joker costs 50: the whole document, as GET writes it."""
    document = document_of(find_rules("mexican"))
    return {**document, "name": "Grandma's Mexican", "points": {**document["points"], "JK": 50}}


def post(client, body, **extra):
    text = body if isinstance(body, str) else json.dumps(body)
    return client.post(URL, text, content_type="application/json", **extra)


@pytest.fixture
def saved(client):
    response = post(client, grandmas())
    assert response.status_code == 201, response.content
    return response.json()


def test_a_saved_ruleset_reads_back_the_same_by_its_slug(client, saved):
    assert saved["slug"].startswith("grandmas-mexican-") and len(saved["slug"]) <= 40
    assert saved["name"] == "Grandma's Mexican" and saved["house"] is True and saved["based_on"] is None
    assert saved["document"] == grandmas()
    assert saved["penalties"]["joker"] == 50
    read = client.get(reverse("api-ruleset", args=[saved["slug"]]))
    assert read.status_code == 200 and read.json() == saved
    assert HouseRuleset.objects.get().document == saved["document"]


def test_the_same_rules_saved_again_are_the_same_ruleset(client, saved):
    again = post(client, grandmas())
    assert again.status_code == 200 and again.json() == saved
    assert HouseRuleset.objects.count() == 1


def test_a_partial_document_takes_the_rest_from_based_on_and_remembers_it(client):
    body = {"name": "Exact Mexican", "based_on": "mexican", "contract_sizes": "exact"}
    answer = post(client, body)
    assert answer.status_code == 201, answer.content
    data = answer.json()
    assert data["based_on"] == "mexican" and data["exact_opening"] is True
    assert data["document"] == {
        **document_of(find_rules("mexican")),
        "name": "Exact Mexican",
        "contract_sizes": "exact",
    }


def test_a_built_in_ruleset_carries_its_document_and_is_no_house_ruleset(client):
    data = client.get(reverse("api-ruleset", args=["contract"])).json()
    assert data["house"] is False and data["based_on"] is None
    assert data["document"] == document_of(find_rules("contract"))
    listed = client.get(URL).json()
    assert [r["slug"] for r in listed] == list(RULESETS)  # the built-ins, and nothing else


def test_house_rules_are_never_listed(client, saved):
    assert saved["slug"] not in [r["slug"] for r in client.get(URL).json()]


DEEP = '{"name": "Deep", "based_on": "mexican", "players": ' + "[" * 1000 + "]" * 1000 + "}"
HOSTILE = [
    ("unknown key", {"name": "X", "based_on": "mexican", "colour": "red"}, 400, "document.colour", "is not a key"),
    (
        "unknown inner key",
        {"name": "X", "based_on": "mexican", "players": {"min": 2, "max": 4, "x": 1}},
        400,
        "players.x",
        "is not a key",
    ),
    ("a list", [], 400, "document", "must be an object"),
    ("a string", '"open"', 400, "document", "must be an object"),
    ("null", None, 400, "document", "must be an object"),
    ("a number", 7, 400, "document", "must be an object"),
    ("nested 1000 deep", DEEP, 400, "", "nested too deeply"),
    (
        "a googol",
        {"name": "X", "based_on": "mexican", "players": {"min": 10**100, "max": 4}},
        400,
        "players.min",
        "from 2 to 10, not 10000000000000000000",
    ),
    ("5000 digits", '{"name": "X", "players": {"min": 1' + "0" * 5000 + "}}", 400, "", "JSON parse error"),
    (
        "a float",
        {"name": "X", "based_on": "mexican", "table": {**grandmas()["table"], "cut_bonus": 1.5}},
        400,
        "table.cut_bonus",
        "whole number",
    ),
    (
        "a boolean for a number",
        {"name": "X", "based_on": "mexican", "players": {"min": True, "max": 4}},
        400,
        "players.min",
        "whole number",
    ),
    ("61 characters", {"name": "n" * 61, "based_on": "mexican"}, 400, "name", "1 to 60 characters"),
    ("blank name", {"name": "   ", "based_on": "mexican"}, 400, "name", "1 to 60 characters"),
    ("right-to-left override", {"name": "Gran\u202edma", "based_on": "mexican"}, 400, "name", "U+202E"),
    ("zero-width space", {"name": "Grandma\u200b", "based_on": "mexican"}, 400, "name", "U+200B"),
    ("a control character", {"name": "Gran\x00dma", "based_on": "mexican"}, 400, "name", "control character"),
    ("a lone surrogate", '{"name": "Gran\\ud800", "based_on": "mexican"}', 400, "", "lone surrogate"),
    ("an unknown base", {"name": "X", "based_on": "gin"}, 400, "based_on", "not gin"),
    ("nothing", {}, 400, "name", "is missing"),
    ("an object for based_on", {"name": "X", "based_on": {}}, 400, "based_on", "must be one of mexican"),
    (
        "a list for a wild rank",
        {"name": "X", "based_on": "mexican", "rounds": [{**grandmas()["rounds"][0], "wild_rank": []}]},
        400,
        "rounds.1.wild_rank",
        "must be a rank",
    ),
]


@pytest.mark.parametrize(("body", "status", "key", "said"), [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
def test_a_hostile_document_is_refused_by_key_and_writes_nothing(client, body, status, key, said):
    answer = post(client, body)  # a text is sent as it is: JSON a client wrote by hand
    assert answer.status_code == status, answer.content
    data = answer.json()
    assert said in (data["errors"][key][0] if key else data["detail"])
    assert len(answer.content) < 10_000
    assert HouseRuleset.objects.count() == 0


def test_a_document_of_many_faults_is_answered_in_bounded_words(client):
    rounds = [{"dealt": 99, "contract": [{"meld": "flush", "size": 99}], "wild_rank": "Z" * 500}] * 20
    body = {"name": "X" * 500, "based_on": "mexican", "rounds": rounds, **{f"k{i}": i for i in range(500)}}
    answer = post(client, body)
    assert answer.status_code == 400
    data = answer.json()
    assert sum(len(m) for m in data["errors"].values()) <= 26 and len(answer.content) < 8_000
    assert all(len(m) < 300 for messages in data["errors"].values() for m in messages)
    assert HouseRuleset.objects.count() == 0


def test_a_body_over_64_kib_is_refused_unread(client):
    body = json.dumps({"name": "X", "based_on": "mexican", "pad": "x" * 70 * 1024})
    answer = post(client, body)
    assert answer.status_code == 413
    assert "at most 65,536 bytes" in answer.json()["detail"]
    assert HouseRuleset.objects.count() == 0


def test_saving_is_limited_per_address_and_a_refused_or_repeated_one_is_not_counted(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "rulesets": (2, 3600)}
    assert post(client, {"name": "Nope", "based_on": "gin"}).status_code == 400  # uncounted
    assert post(client, {"name": "One", "based_on": "mexican"}).status_code == 201
    assert post(client, {"name": "One", "based_on": "mexican"}).status_code == 200  # uncounted
    assert post(client, {"name": "Two", "based_on": "mexican"}).status_code == 201
    refused = post(client, {"name": "Three", "based_on": "mexican"})
    assert refused.status_code == 429 and "Retry-After" in refused
    assert "house rulesets" in refused.json()["detail"]
    again = post(client, {"name": "One", "based_on": "mexican"})  # at the limit: saved before, nothing to write
    assert again.status_code == 200 and again.json()["name"] == "One"
    assert post(client, {"name": "Four", "based_on": "mexican"}, REMOTE_ADDR="10.0.0.9").status_code == 201
    assert HouseRuleset.objects.count() == 3


@pytest.mark.parametrize(("language", "yes"), [("nl", "Ja"), ("es", "Sí")])
def test_a_house_rulesets_name_is_shown_as_typed_in_every_language(client, language, yes):
    saved = post(client, {"name": "Yes", "based_on": "mexican"}).json()
    assert saved["name"] == "Yes"
    read = client.get(reverse("api-ruleset", args=[saved["slug"]]), headers={"accept-language": language}).json()
    assert read["name"] == "Yes" and read["document"]["name"] == "Yes"
    page = client.get(f"/rules/{saved['slug']}/", headers={"accept-language": language}).content.decode()
    title = page.split("<h1", 1)[1].split("</h1>", 1)[0]
    assert "Yes" in title and yes not in title  # the page's title is the name as typed
    builtin = client.get(reverse("api-ruleset", args=["mexican"]), headers={"accept-language": "es"}).json()
    assert builtin["name"] == "Rummy mexicano"  # a built-in's name is the catalogue's word


def test_the_summary_of_points_says_what_the_scorer_does(client):
    points = {**document_of(find_rules("mexican"))["points"], "2": 2, "3": 3, "10": 10, "J": 11, "Q": 12, "K": 13}
    body = {"name": "Uneven", "based_on": "mexican", "points": {**points, "wild": None}, "wilds": {"ranks": ["2"]}}
    saved = post(client, body).json()
    assert saved["penalties"]["two_to_nine"] is None and saved["penalties"]["ten_to_king"] is None
    assert saved["penalties"]["by_rank"] == {**{r: points[r] for r in points if r not in ("JK", "wild")}}
    scored = client.post(
        reverse("api-referee-score"),
        {"ruleset": saved["slug"], "round": 1, "cards": "2C 3C JC KC"},
        content_type="application/json",
    ).json()
    by_card = {c["card"]: (c["points"], c["wild"]) for c in scored["cards"]}
    # 2 is wild in every round (wilds.ranks) and scores as its rank; 3 is round 1's wild rank
    assert by_card == {"2C": (2, True), "3C": (3, True), "JC": (11, False), "KC": (13, False)}
    assert scored["points"] == 2 + 3 + 11 + 13


def test_an_unknown_slug_is_404_naming_it(client):
    for slug in ("gin", "grandmas-mexican-00000000", "x" * 60):
        answer = client.get(reverse("api-ruleset", args=[slug]))
        assert answer.status_code == 404
        assert repr(slug[:40]) in answer.json()["detail"]


def test_a_house_ruleset_takes_no_variants(client, saved):
    answer = client.get(reverse("api-ruleset", args=[saved["slug"]]), {"variants": "kings-wild"})
    assert answer.status_code == 400
    assert "takes no variants" in answer.json()["errors"]["variants"][0]
    body = {"ruleset": saved["slug"], "variants": ["kings-wild"], "round": 1, "cards": "JK"}
    scored = client.post(reverse("api-referee-score"), body, content_type="application/json")
    assert scored.status_code == 400 and "takes no variants" in scored.json()["errors"]["variants"][0]


def test_the_referee_scores_and_checks_by_house_rules(client, saved):
    body = {"ruleset": saved["slug"], "round": 1, "cards": "JK 5H"}
    scored = client.post(reverse("api-referee-score"), body, content_type="application/json")
    assert scored.status_code == 200 and scored.json()["points"] == 55
    plain = client.post(reverse("api-referee-score"), {**body, "ruleset": "mexican"}, content_type="application/json")
    assert plain.json()["points"] == 25
    check = {"ruleset": saved["slug"], "round": 1, "action": "open", "melds": ["7C 7D 7H", "8S 8D 8H"]}
    checked = client.post(reverse("api-referee-check"), check, content_type="application/json")
    assert checked.status_code == 200 and checked.json()["legal"] is True  # two books, as in Mexican
    short = client.post(reverse("api-referee-check"), {**check, "melds": ["7C 7D 7H"]}, content_type="application/json")
    assert short.json()["legal"] is False


def test_an_unknown_ruleset_is_refused_by_the_referee_naming_it(client):
    body = {"ruleset": "grandmas-mexican-00000000", "round": 1, "cards": "JK"}
    answer = client.post(reverse("api-referee-score"), body, content_type="application/json")
    assert answer.status_code == 400
    assert "'grandmas-mexican-00000000'" in answer.json()["errors"]["ruleset"][0]


def test_the_openapi_schema_documents_saving_a_ruleset(client):
    schema = client.get("/api/schema/?format=json").json()
    create = schema["paths"]["/api/rulesets/"]["post"]
    assert create["operationId"] == "rulesets_create"
    assert set(create["responses"]) == {"200", "201", "400", "413", "429"}
    assert create["requestBody"]["content"]["application/json"]["schema"]["additionalProperties"] is False
    ruleset = schema["components"]["schemas"]["Ruleset"]["properties"]
    assert {"document", "house", "based_on"} <= set(ruleset)


def test_the_server_refuses_a_longer_document_before_reading_it():
    from scorekeeping.config.asgi import body_limit

    assert body_limit("/api/rulesets/") == 64 * 1024 < body_limit("/api/games/")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents(), st.integers(1, 250), st.integers(1, 250))
def test_any_house_document_round_trips_through_the_api(client, document, a, b):
    """A document within the bounds, saved, is read back whole by its slug; saved again as read, it
    is the same ruleset (200, the same slug), and it plays as the engine reads the document."""
    address = {"REMOTE_ADDR": f"198.51.{a}.{b}"}  # a crowd of tables, not one address past its limit
    saved = post(client, document, **address)
    assert saved.status_code in (200, 201), saved.content[:300]
    slug = saved.json()["slug"]
    read = client.get(f"{URL}{slug}/").json()
    assert read == saved.json()
    expected = document_of(rules_from_document(document, slug="house"))
    assert read["document"] == expected
    again = post(client, read["document"], **address)
    assert (again.status_code, again.json()["slug"]) == (200, slug)
