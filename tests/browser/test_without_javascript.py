"""The round entry without JavaScript, at the narrowest and a common phone size: every tap is a
full form post, and each lands where the entry is, taking out the card its chip shows."""

import pytest
from playwright.sync_api import expect

from scorekeeping.services import RoundEntry, game_create, round_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 360, "height": 740}, {"width": 390, "height": 844}]


@pytest.mark.parametrize("viewport", SIZES, ids=["360x740", "390x844"])
def test_a_chip_takes_out_its_own_card_and_the_entry_stays_in_view(live_server, browser, viewport):
    game, token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben", "Cy"], first_dealer="Ana")
    context = browser.new_context(java_script_enabled=False, viewport=viewport, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/g/{game.pk}/join/{token}/")
    page.get_by_label("Ana", exact=True).check()  # went out
    page.get_by_label("Tap cards for Ben").check()
    page.locator("#hand-1").fill("7C,7D 4H")  # typed, with a comma as people type
    page.locator("#key-5S").click()  # a keypad tap: a full post
    entry = page.locator("#entry")
    top = entry.evaluate("e => e.getBoundingClientRect().top")
    assert -1 <= top < viewport["height"] / 2, top  # the page came back at the entry, not at its top
    chips = page.get_by_role("group", name="Cards in Ben's hand").get_by_role("button")
    expect(chips).to_have_count(4)
    page.get_by_role("button", name="Remove Seven of diamonds").click()
    expect(page.locator("#hand-1")).to_have_value("7C 4H 5S")
    expect(chips).to_have_count(3)
    assert page.get_by_role("button", name="Remove Seven of diamonds").count() == 0
    assert page.get_by_role("button", name="Remove Four of hearts").count() == 1
    assert -1 <= entry.evaluate("e => e.getBoundingClientRect().top") < viewport["height"] / 2
    context.close()


def test_the_running_totals_show_without_javascript(live_server, browser):
    game, _token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben"], first_dealer="Ana")
    round_record(game=game, number=1, entry=RoundEntry(winner="Ana", hands={"Ben": "5C"}))
    context = browser.new_context(java_script_enabled=False, viewport=SIZES[0], is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/g/{game.pk}/")
    cell = page.locator("#sheet .board tbody tr", has_text="Ben").locator("td").nth(0)
    expect(cell.locator(".run")).to_be_hidden()
    page.get_by_role("checkbox", name="Running totals after each round").check()  # CSS does the rest
    expect(cell.locator(".run")).to_be_visible()
    expect(cell.locator(".pts")).to_be_hidden()
    context.close()
