"""A table's house rules on the pages (issue 37): their rules page, shown as a built-in's is, with its
link to share; the new game, the referee, a club night and a game's scoring by their slug."""

import json
import re

import pytest

from referee.engine import find_rules
from referee.engine.documents import document_of
from scorekeeping.models import Game, Night

pytestmark = pytest.mark.django_db


@pytest.fixture
def house(client):
    """Mexican Rummy, its joker costing 50 and its books called groups, saved as Grandma's."""
    document = document_of(find_rules("mexican"))
    body = {
        **document,
        "name": "Grandma's Mexican",
        "points": {**document["points"], "JK": 50},
        "words": {**document["words"], "book": "group"},
    }
    answer = client.post("/api/rulesets/", json.dumps(body), content_type="application/json")
    assert answer.status_code == 201, answer.content
    slug = answer.json()["slug"]
    # The same rules, saved again with ``based_on``: the page says what they started from.
    based = {"name": "Grandma's Exact", "based_on": "mexican", "contract_sizes": "exact"}
    exact = client.post("/api/rulesets/", json.dumps(based), content_type="application/json").json()["slug"]
    return slug, exact


def test_the_rules_page_of_house_rules_shows_them_as_a_built_ins_and_links_to_play_them(client, house):
    slug, exact = house
    page = client.get(f"/rules/{slug}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "<h1>Grandma&#x27;s Mexican</h1>" in html and "House rules" in html
    assert "<td>Threes</td>" in html and "2 groups of 3+" in html  # its round table, in its own words
    assert re.search(r"<th scope=\"row\">Joker</th><td>50</td>", html)
    assert re.search(r"<th scope=\"row\">2 to 9</th><td>5</td>", html)  # Mexican's, one value
    assert re.search(r"<th scope=\"row\">10, J, Q, K</th><td>10</td>", html)
    assert f'value="http://testserver/rules/{slug}/"' in html and 'data-copy="#rules-link"' in html
    assert f'href="/games/new/?ruleset={slug}"' in html and f'href="/referee/?ruleset={slug}"' in html
    based = client.get(f"/rules/{exact}/").content.decode()
    assert "House rules, based on Mexican Rummy" in based


def test_a_built_in_rules_page_has_no_share_box_and_the_same_links(client):
    html = client.get("/rules/mexican/").content.decode()
    assert "House rules" not in html and "rules-link" not in html
    assert 'href="/games/new/?ruleset=mexican"' in html and 'href="/referee/?ruleset=mexican"' in html
    assert re.search(r"<th scope=\"row\">Joker</th><td>20</td>", html)  # the points table, read generically
    contract = client.get("/rules/contract/").content.decode()
    assert re.search(r"<th scope=\"row\">2 to 9</th><td>face value</td>", contract)


def test_an_unknown_house_slug_has_no_rules_page(client):
    assert client.get("/rules/grandmas-mexican-00000000/").status_code == 404


def test_the_new_game_page_preselects_house_rules_and_the_game_plays_by_them(client, house):
    slug, _exact = house
    html = client.get(f"/games/new/?ruleset={slug}").content.decode()
    assert re.search(rf'value="{slug}" checked', html) and "Grandma&#x27;s Mexican" in html
    made = client.post("/games/new/", {"ruleset": slug, "player": ["Ana", "Ben"], "op": "create"})
    assert made.status_code == 302
    game = Game.objects.get()
    assert game.ruleset == slug and game.rules.penalties.joker == 50


def test_the_new_game_page_refuses_an_unknown_ruleset_in_words(client):
    html = client.get("/games/new/?ruleset=grandmas-mexican-00000000").content.decode()
    assert 'value="mexican" checked' in html  # a link to no ruleset falls back to the default


def test_a_game_of_house_rules_scores_a_hand_by_them(client, house):
    slug, _exact = house
    body = {"players": ["Ana", "Ben"], "ruleset": slug}
    game = client.post("/api/games/", body, content_type="application/json").json()
    assert game["ruleset"] == slug
    headers = {"X-Game-Token": game["edit_token"]}
    entry = {"number": 1, "winner": "Ana", "hands": {"Ben": "JK 5H"}}
    recorded = client.post(f"/api/games/{game['id']}/rounds/", entry, content_type="application/json", headers=headers)
    assert recorded.status_code == 201, recorded.content
    assert Game.objects.get().rounds.get().scores.get(player__name="Ben").points == 55  # the joker's 50


def test_variants_with_house_rules_are_refused_in_words(client, house):
    slug, _exact = house
    body = {"players": ["Ana", "Ben"], "ruleset": slug, "variants": ["kings-wild"]}
    answer = client.post("/api/games/", body, content_type="application/json")
    assert answer.status_code == 400 and "takes no variants" in answer.json()["errors"]["variants"][0]
    unknown = client.post("/api/games/", {**body, "ruleset": "nope", "variants": []}, content_type="application/json")
    assert unknown.status_code == 400 and "'nope'" in unknown.json()["errors"]["ruleset"][0]
    assert Game.objects.count() == 0


def test_the_referee_page_checks_by_house_rules(client, house):
    slug, _exact = house
    html = client.get(f"/referee/?ruleset={slug}").content.decode()
    assert re.search(rf'<option value="{slug}" selected>Grandma&#x27;s Mexican</option>', html)
    checked = client.post("/referee/", {"ruleset": slug, "round": "1", "group": ["7C 7D 7H", "8S 8D 8H"]})
    assert checked.status_code == 200 and "2 groups of 3+" in checked.content.decode()


def test_a_club_night_plays_by_house_rules_by_slug_or_pasted_link(client, house):
    slug, _exact = house
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type="application/json").json()
    headers = {"X-Club-Token": made["organiser_token"]}
    api = f"/api/clubs/{made['id']}/nights/"
    night = client.post(api, {"ruleset": slug, "sittings": 1}, content_type="application/json", headers=headers)
    assert night.status_code == 201 and night.json()["ruleset"] == slug
    refused = client.post(
        api,
        {"ruleset": slug, "variants": ["kings-wild"], "sittings": 1},
        content_type="application/json",
        headers=headers,
    )
    assert refused.status_code == 400 and "takes no variants" in refused.json()["errors"]["variants"][0]
    client.get(made["organiser_url"].split("testserver")[1])
    club = f"/c/{made['id']}/"
    page = client.get(f"{club}?ruleset={slug}").content.decode()
    assert re.search(rf'<option value="{slug}" selected>', page)
    form = {
        "ruleset": "mexican",
        "house": f"http://testserver/rules/{slug}/",
        "sittings": "1",
        "table_size": "4",
        "scoring": "rank",
    }
    assert client.post(f"{club}nights/new/", form).status_code == 302
    assert list(Night.objects.values_list("ruleset", flat=True)) == [slug, slug]
    wrong = client.post(f"{club}nights/new/", {**form, "house": "grandmas-mexican-00000000"}, follow=True)
    assert "&#x27;grandmas-mexican-00000000&#x27;" in wrong.content.decode() and Night.objects.count() == 2


def test_the_ladder_takes_a_house_slug_and_refuses_an_unknown_one(client, house):
    slug, _exact = house
    assert client.get(f"/api/ladder/?ruleset={slug}").status_code == 200
    unknown = client.get("/api/ladder/?ruleset=grandmas-mexican-00000000")
    assert unknown.status_code == 400 and "grandmas-mexican-00000000 is no ruleset" in unknown.json()["detail"]
    assert client.get(f"/ladder/?ruleset={slug}").status_code == 200
    assert client.get("/ladder/?ruleset=grandmas-mexican-00000000").status_code == 404


def test_a_house_page_says_each_difference_from_its_base_in_words(client):
    """Finding (issue 49): the saved house-rules page never mentioned "ace around", the table's key
    difference from the rules it is based on."""
    based = {"name": "Round the Corner", "based_on": "mexican", "runs": {"ace": "around"}}
    answer = client.post("/api/rulesets/", json.dumps(based), content_type="application/json")
    assert answer.status_code == 201, answer.content
    html = client.get(f"/rules/{answer.json()['slug']}/").content.decode()
    changes = html[html.index('id="changes-title"') : html.index("</section>", html.index('id="changes-title"'))]
    assert "Not as in Mexican Rummy" in changes
    assert "the ace low, high or round the corner (K-A-2)" in changes
    assert changes.count("<li>") == 1  # that one change, and nothing it did not change
    same = {"name": "Plain Mexican", "based_on": "mexican"}
    plain = client.post("/api/rulesets/", json.dumps(same), content_type="application/json").json()["slug"]
    assert "Played exactly as Mexican Rummy." in client.get(f"/rules/{plain}/").content.decode()


def test_the_table_the_recap_and_the_room_name_the_rules_played(client, house):
    """Finding (issue 49): the table and the room screen never said which rules were played, a
    house ruleset's name included."""
    slug, _exact = house
    body = {"players": ["Ana", "Ben"], "first_dealer": "Ana", "ruleset": slug}
    game = client.post("/api/games/", json.dumps(body), content_type="application/json").json()
    link = f'<a class="ruleset" href="/rules/{slug}/">Grandma&#x27;s Mexican</a>'
    assert link in client.get(f"/g/{game['id']}/").content.decode()
    assert f'href="/rules/{slug}/">Grandma&#x27;s Mexican</a>' in client.get(f"/g/{game['id']}/recap/").content.decode()
    plain = client.post("/api/games/", json.dumps({"players": ["Ana", "Ben"]}), content_type="application/json")
    assert (
        '<a class="ruleset" href="/rules/mexican/">Mexican Rummy</a>'
        in client.get(plain.json()["url"]).content.decode()
    )


def test_the_room_screens_name_the_rules_played(client, house):
    from scorekeeping.services.clubs import club_create, night_create, night_present
    from scorekeeping.services.sittings import sitting_draw

    slug, _exact = house
    club, token = club_create(name="De Joker")
    night = night_create(club=club, ruleset=slug, sittings=1)
    night_present(night=night, names=["Ana", "Ben", "Cy", "Dee"])
    drawn = sitting_draw(night=night, organiser_token=token, seed=7)
    html = client.get(f"/c/{club.pk}/nights/{night.pk}/room/").content.decode()
    assert '<span class="ruleset">Grandma&#x27;s Mexican</span>' in html
    game = drawn.tables.first().game
    assert '<span class="ruleset">Grandma&#x27;s Mexican</span>' in client.get(f"/g/{game.pk}/room/").content.decode()
