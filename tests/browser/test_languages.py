"""The table in the table's language: switching, the spoken announcement, Dutch and Spanish pages."""

import re

import pytest
from playwright.sync_api import expect

from .helpers import assert_no_sideways_scroll, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("language", "label", "round_title", "speech_start", "wilds"),
    [
        ("nl", "Nederlands", "Ronde 1 van 7", "Ronde 1 van 7. Geef ieder 7 kaarten.", "Drieën en jokers zijn wild"),
        (
            "es",
            "Español",
            "Ronda 1 de 7",
            "Ronda 1 de 7. Da a cada jugador 7 cartas.",
            "Los treses y los jokers son comodines",
        ),
    ],
)
def test_switch_language_and_hear_the_announcement_in_it(
    live_server, page, shoot, console_errors, language, label, round_title, speech_start, wilds
):
    table = start_game(page, live_server.url, ["Ana", "Ben", "Cy", "Dee"], dealer="Ana")
    page.get_by_label("Language").select_option(label=label)
    expect(page.locator("#round-title")).to_have_text(round_title)
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator(".announce .wilds")).to_have_text(wilds)
    assert page.url == table
    # The choice sticks, page after page.
    page.goto(live_server.url + "/rules/mexican/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    # Speech is stubbed in the page: what the app hands to speechSynthesis is recorded.
    page.add_init_script(
        "window.spoken = []; speechSynthesis.speak = (u) => window.spoken.push({text: u.text, lang: u.lang});"
    )
    page.goto(table)
    page.locator("[data-speak]").click()
    utterance = page.evaluate("window.spoken[0]")
    assert utterance["lang"] == language
    assert utterance["text"].startswith(speech_start)
    assert "Ana" in utterance["text"] and "Ben" in utterance["text"]
    keypad = page.locator(".keypad")
    name = {"nl": "Klaveren zeven", "es": "Siete de tréboles"}[language]
    expect(keypad.get_by_role("button", name=name, exact=True)).to_be_visible()
    shoot(f"table-{language}")
    assert_no_sideways_scroll(page)
    assert console_errors == []


def test_a_refusal_is_explained_in_the_chosen_language(live_server, page, console_errors):
    page.goto(live_server.url + "/referee/?round=2")
    page.get_by_label("Language").select_option(label="Nederlands")
    page.get_by_role("textbox", name="Melding 1").fill("7C 7D 4H")
    page.get_by_role("textbox", name="Melding 2").fill("QS KS AS 2S")
    page.get_by_role("button", name="Controleren", exact=True).click()
    expect(page.locator(".verdict .headline")).to_have_text("✘ Niet toegestaan")
    expect(page.locator(".verdict .reasons li")).to_have_text([re.compile("zou om de aas heen lopen")])
    assert console_errors == []


def test_a_language_chosen_before_the_page_script_ran_still_counts(live_server, page):
    """A slow phone: the page is drawn and the language chosen before its script has run (seen
    in CI: the choice was lost and the page stayed English). The script, once it runs, sends it."""
    page.route(re.compile(r"/static/js/page\b[^/]*\.js$"), lambda route: route.abort())
    page.goto(live_server.url + "/rules/")
    page.get_by_label("Language").select_option(label="Nederlands")
    expect(page.locator("html")).to_have_attribute("lang", "en")  # no script yet: nothing sent
    script = page.locator("script[src*='/js/page']").get_attribute("src")
    page.unroute_all()
    page.add_script_tag(url=script)
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    # Back on a page drawn in Dutch, the choice the page was drawn with sends nothing again.
    page.reload()
    expect(page.get_by_label("Taal")).to_have_value("nl")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
