"""English, Dutch and Spanish: complete catalogues, the language follows the browser and sticks."""

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from referee.engine import Card, find_rules

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ["nl", "es"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_in_the_catalogue_is_translated(language):
    po = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    untranslated = [e.msgid for e in po if not e.translated() or "fuzzy" in e.flags]
    assert untranslated == []
    assert len(po) > 400


def test_every_string_in_the_code_and_templates_is_in_the_catalogues(tmp_path):
    """Extract the messages afresh from a copy of the sources: none may be missing a translation."""
    for name in ("referee", "scorekeeping", "templates", "locale"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "-l",
            "nl",
            "-l",
            "es",
            "--no-location",
            "-e",
            "html,txt,py,webmanifest",
        ],
        cwd=tmp_path,
        env={"DJANGO_SETTINGS_MODULE": "scorekeeping.settings_test", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    for language in LANGUAGES:
        fresh = polib.pofile(str(tmp_path / "locale" / language / "LC_MESSAGES" / "django.po"))
        missing = [e.msgid for e in fresh if not e.obsolete and (not e.translated() or "fuzzy" in e.flags)]
        assert missing == [], f"{language}: {missing[:10]}"


@pytest.mark.parametrize(
    ("language", "card", "wilds", "contract"),
    [
        ("en", "Seven of clubs", "Fours are wild, and jokers", "1 book of 3+ + 1 run of 4+"),
        ("nl", "Klaveren zeven", "Vieren zijn wild, en jokers", "1 drieling van 3+ + 1 reeks van 4+"),
        ("es", "Siete de tréboles", "Los cuatros son comodines, y los jokers", "1 grupo de 3+ + 1 escalera de 4+"),
    ],
)
def test_the_engine_speaks_the_active_language(language, card, wilds, contract):
    from django.utils import translation

    with translation.override(language):
        assert Card.parse("7C").name == card
        assert find_rules().wild_words(2) == wilds
        assert find_rules().contract_words(2) == contract


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "expected"),
    [("nl-NL,nl;q=0.9,en;q=0.5", "Begin een spel"), ("es-ES,es;q=0.8", "Empezar una partida"), ("fr", "Start a game")],
)
def test_the_language_follows_the_browser(client, accept, expected):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert expected in html


@pytest.mark.django_db
def test_the_chosen_language_sticks(client):
    response = client.post("/i18n/setlang/", {"language": "es", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    html = client.get("/rules/mexican/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Rummy mexicano" in html and 'lang="es"' in html


@pytest.mark.django_db
def test_api_errors_are_in_the_language_asked_for(client):
    response = client.post(
        "/api/referee/check/",
        {"round": 2, "action": "open", "melds": ["7C 7D 4H", "QS KS AS 2S"]},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert "zou om de aas heen lopen (H-A-2)" in response.json()["reasons"][0]
