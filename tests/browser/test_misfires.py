"""What the table's screen must never do at 360 and 390 px (issue 22): offer what cannot be
entered. Each test runs at both sizes, on the start command's server."""

import json
import urllib.request

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 360, "height": 740}, {"width": 390, "height": 844}]
NAMES = ["Ana", "Ben", "Cy", "Dee"]


def new_game(base):
    body = json.dumps({"players": NAMES, "first_dealer": "Dee"}).encode()
    request = urllib.request.Request(f"{base}/api/games/", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


@pytest.mark.parametrize("viewport", SIZES, ids=["360x740", "390x844"])
def test_the_player_who_went_out_is_not_offered_for_entry(table_server, browser, viewport):
    game = new_game(table_server.url)
    context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{table_server.url}/g/{game['id']}/join/{game['edit_token']}/")
    tap_for = page.locator(".tap-for")
    expect(tap_for.get_by_label("Tap cards for Ana")).to_be_attached()
    page.locator("#entry .went-out label", has_text="Ana").click()  # one phone for the table: Ana went out
    expect(tap_for.get_by_label("Tap cards for Ana")).to_be_hidden()
    expect(tap_for.get_by_label("Tap cards for Ana")).to_be_disabled()
    expect(tap_for.locator("label:visible")).to_have_count(3)
    # With a round in progress (a phone says who it is), the page the server renders says so too.
    page.get_by_role("button", name="This is me: Ben").click()
    expect(page.get_by_role("button", name="Send in Ben's hand")).to_be_visible()
    page.locator("#entry .went-out label", has_text="Cy").click()  # Cy went out, this time
    expect(page.locator("#draft-status")).to_contain_text("Cy went out")
    page.reload()
    expect(tap_for.get_by_label("Tap cards for Cy")).to_be_hidden()
    expect(tap_for.get_by_label("Tap cards for Ana")).to_be_enabled()
    assert tap_for.get_by_label("Tap cards for Cy").is_disabled()
    context.close()


@pytest.mark.parametrize("viewport", SIZES, ids=["360x740", "390x844"])
def test_a_phone_that_was_offline_catches_up_by_itself_and_says_it_may_be_behind(table_server, browser, viewport):
    game = new_game(table_server.url)
    context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{table_server.url}/g/{game['id']}/")  # a phone that follows
    expect(page.locator("#round-title")).to_have_text("Round 1 of 7")
    context.set_offline(True)
    body = json.dumps({"number": 1, "winner": "Ana", "hands": {"Ben": "5C", "Cy": "KD", "Dee": "JK"}}).encode()
    headers = {"Content-Type": "application/json", "X-Game-Token": game["edit_token"]}
    request = urllib.request.Request(f"{table_server.url}/api/games/{game['id']}/rounds/", body, headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 201
    # Offline, the page cannot know; a look it makes fails and it says it may be behind.
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator("body.stale")).to_have_count(1, timeout=10_000)
    expect(page.locator("#table-body")).to_have_attribute("data-stale-text", "Reconnecting… this page may be behind.")
    context.set_offline(False)  # the network is back: the page fetches what changed, and the mark goes
    expect(page.locator("#round-title")).to_have_text("Round 2 of 7", timeout=10_000)
    expect(page.locator("body.stale")).to_have_count(0)
    context.close()
