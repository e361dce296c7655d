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


def test_the_engine_speaks_english_on_its_own_and_what_is_bound_inside_a_block():
    from referee.engine import i18n

    class Recording:
        def __init__(self):
            self.asked = []

        def gettext(self, message):
            self.asked.append(message)
            return {"seven": "SEVEN"}.get(message, message)

        def ngettext(self, singular, plural, n):
            self.asked.append(plural)
            return singular if n == 1 else plural

    assert i18n.ENGLISH.gettext("{rank} of {suit}") == "{rank} of {suit}"
    assert i18n.ENGLISH.ngettext("one", "many", 2) == "many"
    recording = Recording()
    with i18n.translating(recording):
        assert Card.parse("7C").name == "SEVEN of clubs"
        with i18n.translating(i18n.ENGLISH):
            assert Card.parse("7C").name == "Seven of clubs"
        assert i18n.ngettext("one", "many", 1) == "one"
    assert recording.asked == ["{rank} of {suit}", "seven", "clubs", "many"]
    assert Card.parse("7C").name == "Seven of clubs"  # unbound again: the installed default


@pytest.mark.parametrize("language", ["en", "nl", "es"])
def test_a_remembered_catalogue_says_what_django_says(language):
    from django.utils import translation

    from referee.language import Catalogue

    catalogue = Catalogue(language)
    singular = "{cards} appears twice; a run holds each card once"
    plural = "{cards} appear twice; a run holds each card once"
    for _ in range(2):  # looked up, then remembered
        with translation.override(language):
            assert catalogue.gettext("{rank} of {suit}") == translation.gettext("{rank} of {suit}")
            for n in (1, 2):
                assert catalogue.ngettext(singular, plural, n) == translation.ngettext(singular, plural, n)
    with translation.override("en" if language != "en" else "nl"):  # the active language does not leak in
        assert catalogue.gettext("seven") == Catalogue(language).gettext("seven")


def test_a_catalogue_remembers_a_bounded_number_of_messages(monkeypatch):
    from referee import language

    monkeypatch.setattr(language, "MAX_REMEMBERED", 3)
    catalogue = language.Catalogue("nl")
    for i in range(10):
        assert catalogue.gettext(f"not a message {i}") == f"not a message {i}"
    assert catalogue.gettext("seven") == "zeven"
    assert len(catalogue._singular) == 3


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "name"), [("nl", "Klaveren zeven"), ("es", "Siete de tréboles"), ("en", "Seven of clubs")]
)
def test_each_request_binds_its_own_language(client, accept, name):
    from django.utils import translation

    response = client.post(
        "/api/referee/score/", {"round": 2, "cards": "7C"}, content_type="application/json", HTTP_ACCEPT_LANGUAGE=accept
    )
    assert response.json()["cards"][0]["name"] == name
    with translation.override("en"):  # nothing the request bound outlives it
        assert Card.parse("7C").name == "Seven of clubs"


def test_remembered_catalogues_are_forgotten_when_the_languages_change():
    from django.test import override_settings

    from referee.language import catalogue

    catalogue("nl").gettext("seven")
    assert catalogue.cache_info().currsize >= 1
    with override_settings(LOCALE_PATHS=[]):
        assert catalogue.cache_info().currsize == 0
