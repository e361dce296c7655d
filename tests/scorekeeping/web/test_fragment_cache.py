"""``{% gamecache %}``: every fragment of a game kept in the cache is keyed by the game's version,
so a fragment rendered after a change to the game is never the one kept from before it."""

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.core.cache.utils import make_template_fragment_key
from django.template import Context, Engine, Template
from django.test import Client

from tests.scorekeeping.web.games import api_game, recording_phone

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def render(source, **context):
    engine = Engine.get_default()
    template = Template("{% load fragments %}" + source, engine=engine)
    return template.render(Context({"fragment_seconds": 600, "LANGUAGE_CODE": "en", **context}))


def game(version=1, live_version=1):
    return SimpleNamespace(pk="g1", version=version, live_version=live_version)


def test_the_key_is_the_one_written_by_hand_before_the_tag():
    render('{% gamecache "table-sheet" %}sheet{% endgamecache %}', game=game(3, 5))
    assert cache.get(make_template_fragment_key('"table-sheet"', ["g1", 3, "en"])) == "sheet"
    render('{% gamecache "draft-status" live %}draft{% endgamecache %}', game=game(3, 5))
    assert cache.get(make_template_fragment_key('"draft-status"', ["g1", 5, "en"])) == "draft"
    finish = '{% gamecache "table-finish-actions" holds_token %}again{% endgamecache %}'
    render(finish, game=game(3, 5), holds_token=True)
    assert cache.get(make_template_fragment_key('"table-finish-actions"', ["g1", 3, "en", True])) == "again"


@pytest.mark.parametrize(("source", "moved"), [("", "version"), (" live", "live_version")])
def test_a_fragment_rendered_after_a_change_is_not_the_one_kept_before(source, moved):
    template = '{% gamecache "f"' + source + " %}{{ text }}{% endgamecache %}"
    assert render(template, game=game(), text="before") == "before"
    assert render(template, game=game(), text="after") == "before"  # kept: the same version
    changed = game(**{moved: 2})
    assert render(template, game=changed, text="after") == "after"
    assert render(template, game=changed, text="after", LANGUAGE_CODE="nl") == "after"


def test_a_live_fragment_follows_the_live_version_and_an_other_the_version():
    fixed = '{% gamecache "f" %}{{ text }}{% endgamecache %}'
    render(fixed, game=game(1, 1), text="before")
    assert render(fixed, game=game(1, 2), text="after") == "before"  # a draft step: nothing to redo


def test_no_template_keeps_a_fragment_without_the_tag():
    """``{% cache %}`` written by hand is where a key once lacked the version; the keypad alone keeps
    one that belongs to no game (its markup depends on the wild rank and the language only)."""
    by_hand = {
        str(path.relative_to(TEMPLATES)): len(re.findall(r"{%\s*cache\s", path.read_text()))
        for path in TEMPLATES.rglob("*.html")
    }
    assert {name: n for name, n in by_hand.items() if n} == {"includes/keypad.html": 1}


@pytest.mark.django_db
def test_the_table_of_a_phone_that_records_follows_a_change_made_elsewhere(client):
    """The change comes through the API, whose answer renders nothing: each fragment the phone
    kept for the game's first version must give way to the one for its next."""
    created = api_game(client)
    phone = recording_phone(created)
    before = phone.get(f"/g/{created['id']}/").content.decode()
    assert "Round 1 of 7" in before and "No rounds recorded yet." in before
    body = {"number": 1, "winner": "Ana", "hands": {"Ben": "4C KC", "Cy": "JK"}}
    headers = {"X-Game-Token": created["edit_token"]}
    url = f"/api/games/{created['id']}/rounds/"
    response = Client().post(url, body, content_type="application/json", headers=headers)
    assert response.status_code == 201, response.content
    after = phone.get(f"/g/{created['id']}/").content.decode()
    assert "<title>Round 2 · " in after and "Round 2 of 7" in after  # title, announcement
    assert "No rounds recorded yet." not in after and 'aria-label="Correct round 1"' in after  # history
    assert '<span class="pts">0</span>' in after and '<span class="pts">15</span>' in after  # sheet
