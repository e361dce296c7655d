"""The house-rules editor (issue 37): /rules/new/ and its live preview, by the Django test client."""

import gzip
import re
from pathlib import Path

import pytest
from django import forms
from django.contrib.staticfiles import finders
from django.http import QueryDict

from referee.models import HouseRuleset
from scorekeeping.web.house import Editor
from tests.scorekeeping.web.markup import tags_on_one_line

pytestmark = pytest.mark.django_db

NEW, PREVIEW = "/rules/new/", "/rules/new/preview/"


def posted(start="mexican", **changes):
    """What the page posts as it is first drawn (every field as the GET draws it, a box ticked
    as "on"), with ``changes`` (``rounds-0-dealt`` etc.)."""
    editor = Editor.start(start)
    data = QueryDict(mutable=True)
    for form in (editor.form, editor.rounds.management_form, *editor.rounds.forms):
        for field in form:
            value = field.value()
            if isinstance(field.field, forms.BooleanField):
                if value:
                    data[field.html_name] = "on"
            else:
                data[field.html_name] = "" if value is None else str(value)
    for key, value in changes.items():
        data[key.replace("__", "-")] = value
    return data


def row(html, number):
    found = re.search(rf'<tr id="preview-round-{number}"[^>]*>(.*?)</tr>', html, re.S)
    assert found, f"no row {number} in the preview"
    cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", found.group(1), re.S)
    return [" ".join(re.sub(r"<[^>]+>", "", cell).split()) for cell in cells]


def slot(html, key):
    """The faults shown beside the field (or section) a document key names."""
    found = re.search(rf'<div class="fault-slot" id="fault-{key.replace(".", "-")}"[^>]*>(.*?)</div>', html, re.S)
    assert found, f"no fault slot for {key}"
    return re.findall(r'<p class="error">(.*?)</p>', found.group(1))


def test_new_page_shows_the_default_ruleset_to_change(client):
    html = tags_on_one_line(client.get(NEW).content.decode())
    assert 'value="Mexican Rummy (house rules)"' in html
    assert 'name="rounds-0-dealt" value="7"' in html
    assert 'name="rounds-TOTAL_FORMS" value="7"' in html
    assert row(html, 1) == ["1", "7", "Threes and jokers are wild 2 books of 3+", "93"]
    assert row(html, 7)[:2] == ["7", "13"]
    assert 'hx-post="/rules/new/preview/"' in html and 'action="/rules/new/"' in html


def test_new_page_starts_from_another_builtin(client):
    html = tags_on_one_line(client.get(NEW, {"from": "contract"}).content.decode())
    assert 'value="Contract Rummy (house rules)"' in html
    assert 'name="jokers_mode" value="per_player" checked' in html
    assert row(html, 1) == ["1", "10", "Only jokers are wild 2 groups of exactly 3", "75"]


def test_new_page_from_an_unknown_slug_starts_from_the_default(client):
    html = client.get(NEW, {"from": "<script>"}).content.decode()
    assert 'value="Mexican Rummy (house rules)"' in html


def test_new_page_starts_from_a_saved_house_ruleset(client):
    response = client.post(NEW, posted(name="Grandma's", rounds__0__dealt="8"))
    slug = response["Location"].split("/")[-2]
    html = client.get(NEW, {"from": slug}).content.decode()
    assert "Grandma&#x27;s (house rules)" in html
    assert row(html, 1)[:2] == ["1", "8"]


def test_preview_redraws_the_changed_round(client):
    html = client.post(PREVIEW, posted(rounds__0__dealt="10", players="4"), HTTP_HX_REQUEST="true").content.decode()
    assert row(html, 1) == ["1", "10", "Threes and jokers are wild 2 books of 3+", "67"]
    assert row(html, 2)[:2] == ["2", "8"]
    assert html.count('hx-swap-oob="true"') == 1  # no fault to show or to empty: only the draft's id
    assert "<form" not in html


def draft_of(html):
    return re.search(r'id="house-draft" value="([^"]*)" hx-swap-oob="true"', html)[1]


def test_a_change_sends_only_its_field_and_gets_back_only_what_it_changes(client):
    """The first preview keeps the whole form as a draft; then a stepper tap sends the draft's id and
    the one field, and the answer holds the preview and only the fault slots that change."""
    first = client.post(PREVIEW, posted(), HTTP_HX_REQUEST="true").content.decode()
    draft = draft_of(first)
    tap = {"draft": draft, "partial": "1", "rounds-0-dealt": "3", "shown": ""}
    html = client.post(PREVIEW, tap, HTTP_HX_REQUEST="true").content.decode()
    assert slot(html, "rounds.1") == ["the contract needs 6 cards; a hand holds at most 4"]
    assert html.count('class="fault-slot"') == 1 and draft_of(html) == draft
    fixed = {"draft": draft, "partial": "1", "rounds-0-dealt": "8", "shown": "fault-rounds-1"}
    html = client.post(PREVIEW, fixed, HTTP_HX_REQUEST="true").content.decode()
    assert slot(html, "rounds.1") == [] and html.count('class="fault-slot"') == 1  # emptied, the one shown
    assert row(html, 1)[:2] == ["1", "8"]
    assert len(html.encode()) < 6_000
    other = {"draft": draft, "partial": "1", "players_max": "5", "shown": ""}
    html = client.post(PREVIEW, other, HTTP_HX_REQUEST="true").content.decode()
    assert row(html, 1)[:2] == ["1", "8"]  # the draft keeps every change before


def test_a_lost_draft_is_said_and_a_stranger_keeps_nothing_but_the_forms_fields(client):
    lost = client.post(PREVIEW, {"draft": "nothing", "partial": "1", "name": "X"}, HTTP_HX_REQUEST="true")
    assert lost.status_code == 204 and lost["HX-Trigger"] == "house-draft-lost"
    first = client.post(PREVIEW, {**posted(), "evil": "x" * 10_000}, HTTP_HX_REQUEST="true").content.decode()
    draft = client.session["house_drafts"][draft_of(first)]
    assert "evil" not in draft and all(len(v) <= 80 for v in draft.values())
    for _ in range(6):
        client.post(PREVIEW, posted(), HTTP_HX_REQUEST="true")
    assert len(client.session["house_drafts"]) == 4


def test_preview_of_an_impossible_document_shows_its_faults_instead(client):
    html = client.post(PREVIEW, posted(rounds__0__dealt="3")).content.decode()
    assert "<table" not in html
    assert "2 things to fix" not in html and "1 thing to fix" in html
    assert slot(html, "rounds.1") == ["the contract needs 6 cards; a hand holds at most 4"]
    assert '<a href="#fault-rounds-1">Round 1</a>: the contract needs 6 cards' in html


IMPOSSIBLE = [
    ({"rounds__0__dealt": "3"}, "rounds.1", "the contract needs 6 cards; a hand holds at most 4"),
    (
        {"players_max": "10"},
        "rounds.7",
        "10 players of 13 cards and the upcard need 131 cards; the deck holds 108",
    ),
    ({"runs_min": "2"}, "runs.min", "greater than or equal to 3"),  # the knob's own bound
    ({"rounds__0__meld_1": "run", "rounds__0__size_1": "2"}, "rounds.1.contract.1.size", "from 4 to 13"),
    ({"points_K": "500"}, "points.K", "less than or equal to 100"),
    ({"books_min": "4"}, "rounds.1.contract.1.size", "3 is smaller than books.min (4)"),
    ({"players_min": "5", "players_max": "3"}, "players", "below min"),
]


@pytest.mark.parametrize(
    ("changes", "key", "words"),
    IMPOSSIBLE,
    ids=["short-hand", "small-deck", "run-of-2", "meld-of-2", "500", "book-min", "min-over-max"],
)
def test_an_impossible_document_is_refused_beside_its_field(client, changes, key, words):
    response = client.post(NEW, posted(op="save", **changes))
    assert response.status_code == 422
    html = response.content.decode()
    assert any(words in why for why in slot(html, key)), slot(html, key)
    assert "thing" in re.search(r'<h2 id="preview-title">(.*?)</h2>', html, re.S).group(1)
    assert HouseRuleset.objects.count() == 0


def test_every_fault_shows_at_once(client):
    response = client.post(NEW, posted(rounds__0__dealt="3", points_K="500", name=""))
    html = response.content.decode()
    assert slot(html, "name") and slot(html, "points.K") and slot(html, "rounds.1")
    assert "3 things to fix" in html


def test_a_good_document_is_saved_once_and_shown(client):
    response = client.post(NEW, posted(name="Grandma’s rummy", rounds__0__dealt="8", rounds__0__wild_rank="2"))
    row_saved = HouseRuleset.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/rules/{row_saved.slug}/"
    assert row_saved.name == "Grandma’s rummy" and row_saved.based_on == "mexican"
    assert row_saved.document["rounds"][0] == {
        "dealt": 8,
        "contract": [{"meld": "book", "size": 3}, {"meld": "book", "size": 3}],
        "wild_rank": "2",
        "final": False,
    }
    again = client.post(NEW, posted(name="Grandma’s rummy", rounds__0__dealt="8", rounds__0__wild_rank="2"))
    assert again["Location"] == response["Location"] and HouseRuleset.objects.count() == 1


def test_a_contract_ruleset_round_trips_with_jokers_per_player(client):
    client.post(NEW, posted("contract", name="Ours"))
    assert HouseRuleset.objects.get().document["deck"] == [
        {"players": [3], "packs": 2, "jokers": 2},
        {"players": [4], "packs": 2, "jokers": 3},
        {"players": [5], "packs": 2, "jokers": 4},
    ]


def test_steppers_and_rounds_work_without_javascript(client):
    html = tags_on_one_line(client.post(NEW, posted(op="step:rounds-0-dealt:+1")).content.decode())
    assert 'name="rounds-0-dealt" value="8"' in html and row(html, 1)[:2] == ["1", "8"]
    html = tags_on_one_line(client.post(NEW, posted(op="step:players_min:-1")).content.decode())
    assert 'name="players_min" value="2"' in html  # held at its bound
    html = tags_on_one_line(client.post(NEW, posted(op="add-round")).content.decode())
    assert 'name="rounds-TOTAL_FORMS" value="8"' in html and row(html, 8)[:2] == ["8", "13"]
    html = tags_on_one_line(client.post(NEW, posted(op="remove-round")).content.decode())
    assert 'name="rounds-TOTAL_FORMS" value="6"' in html and "preview-round-7" not in html
    assert HouseRuleset.objects.count() == 0


def test_add_round_by_htmx_answers_the_form_only(client):
    html = client.post(NEW, posted(op="add-round"), HTTP_HX_REQUEST="true").content.decode()
    assert html.lstrip().startswith('<form id="house-editor"') and "preview-round-8" in html


HOSTILE = {
    "1000-rounds": {"rounds__TOTAL_FORMS": "1000"},
    "huge-number": {"rounds__0__dealt": "9" * 40, "points_A": "1e9"},
    "arabic-digit": {"players_min": "٣"},
    "nul-in-name": {"name": "a\x00b"},
    "long-name": {"name": "é" * 61},
    "unknown-choice": {"runs_ace": "sideways", "rounds__0__meld_1": "straight", "rounds__0__wild_rank": "Z"},
    "bad-step": {"op": "step:__class__:+1"},
    "negative": {"jokers": "-1", "rounds__0__size_1": "-3"},
}


@pytest.mark.parametrize("changes", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_posts_are_field_errors_never_a_500(client, changes):
    response = client.post(NEW, posted(**changes, **({} if "op" in changes else {"op": "save"})))
    assert response.status_code in (200, 422)
    assert client.post(PREVIEW, posted(**changes)).status_code == 200
    assert HouseRuleset.objects.count() == 0
    if "op" not in changes:
        assert response.status_code == 422 and 'class="error"' in response.content.decode()


def test_missing_fields_and_unknown_fields(client):
    assert client.post(NEW, {}).status_code == 422
    assert client.post(NEW, {"rounds-TOTAL_FORMS": "3"}).status_code == 422
    assert client.post(PREVIEW, {"anything": "x"}).status_code == 200
    response = client.post(NEW, posted(evil="1", table="{}", document="x"))
    assert response.status_code == 302  # unknown fields are ignored
    assert HouseRuleset.objects.count() == 1


def test_the_preview_takes_only_post(client):
    assert client.get(PREVIEW).status_code == 405
    assert client.put(NEW).status_code == 405


def test_the_editor_and_the_api_save_through_one_door_under_one_limit(client, settings):
    """The editor's Save and POST /api/rulesets/ count against one limit per address; rules saved
    before are found again at either door, never counted and never refused."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "rulesets": (2, 3600)}
    first = client.post(NEW, posted(name="One", op="save"))
    assert first.status_code == 302
    api = client.post("/api/rulesets/", {"name": "Two", "based_on": "mexican"}, content_type="application/json")
    assert api.status_code == 201
    refused = client.post(NEW, posted(name="Three", op="save"))
    assert refused.status_code == 429 and "Retry-After" in refused
    assert "house rulesets" in refused.content.decode()
    again = client.post(NEW, posted(name="One", op="save"))  # at the limit: saved before
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert HouseRuleset.objects.count() == 2


def test_a_phone_downloads_the_editor_of_any_ruleset_in_under_80_kb(client):
    """The largest editor a ruleset can make (twenty rounds of five melds, ten players), as a phone
    gets it: the page compressed, and each script and style sheet as the production storage keeps
    it compressed (ServeStatic's gzip; this counts gzip at level 9, no brotli)."""
    from scorekeeping.services.rulesets import house_rules_save

    melds = [{"meld": "book", "size": 3}] * 2 + [{"meld": "run", "size": 4}] * 3
    rounds = [{"dealt": 20, "contract": melds, "wild_rank": "2", "final": False}] * 20
    document = {"name": "Twenty rounds", "based_on": "contract", "rounds": rounds, "table": {"buys": {"limit": 10}}}
    house, _created = house_rules_save(document=document, client="test")
    answer = client.get(NEW, {"from": house.slug}, HTTP_ACCEPT_ENCODING="gzip")
    assert answer.status_code == 200 and answer["Content-Encoding"] == "gzip"
    html = gzip.decompress(answer.content).decode()
    assert html.count('name="rounds-19-dealt"') == 1  # all twenty rounds are drawn
    assets = re.findall(r'<(?:script|link)[^>]+(?:src|href)="(/static/[^"]+\.(?:js|css))"', html)
    assert any(a.endswith("editor.js") for a in assets) and any(a.endswith(".css") for a in assets)
    sizes = {
        path: len(gzip.compress(Path(finders.find(path.removeprefix("/static/"))).read_bytes(), 9)) for path in assets
    }
    total = len(answer.content) + sum(sizes.values())
    assert total < 80_000, (len(answer.content), sizes)
