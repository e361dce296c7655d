"""The keyboard on the new-game page (issue 34): a phone's Next or Go on a name goes on to the next
name and never starts a game before every name is in; only the Start button starts it."""

import re

import pytest
from playwright.sync_api import expect

from scorekeeping.models import Game

from .helpers import settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_enter_on_a_name_goes_to_the_next_name_and_start_sends_them_all(live_server, page, console_errors):
    page.goto(live_server.url + "/games/new/")
    page.get_by_role("button", name="+ Add a player").click()
    expect(page.locator("#player-2")).to_be_focused()  # the new name field, once the swap settles
    settled(page)
    page.get_by_label("Player 1", exact=True).fill("Ana")
    page.keyboard.press("Enter")
    expect(page.locator("#player-1")).to_be_focused()
    page.keyboard.type("Ben")
    page.keyboard.press("Enter")  # a short game started here before: two names, then Go
    expect(page.locator("#player-2")).to_be_focused()
    assert re.search(r"/games/new/$", page.url) and Game.objects.count() == 0
    page.keyboard.type("Cy")
    page.keyboard.press("Enter")  # the last name: the keyboard closes, the form stays
    expect(page.locator("#player-2")).not_to_be_focused()
    assert page.evaluate("() => document.activeElement === document.body")
    assert Game.objects.count() == 0
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#round-title")).to_be_visible()
    assert [p.name for p in Game.objects.get().players.order_by("seat")] == ["Ana", "Ben", "Cy"]
    assert console_errors == [], "\n".join(console_errors)


def test_without_javascript_enter_on_a_name_starts_no_game(live_server, browser):
    context = browser.new_context(java_script_enabled=False, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(live_server.url + "/games/new/")
    page.get_by_label("Player 1", exact=True).fill("Ana")
    page.get_by_label("Player 2", exact=True).fill("Ben")
    page.get_by_label("Player 2", exact=True).press("Enter")  # the default button is disabled: no post
    page.wait_for_timeout(300)  # a post would have begun by now
    assert re.search(r"/games/new/$", page.url) and Game.objects.count() == 0
    expect(page.get_by_label("Player 2", exact=True)).to_have_value("Ben")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#round-title")).to_be_visible()
    assert [p.name for p in Game.objects.get().players.order_by("seat")] == ["Ana", "Ben"]
    context.close()
