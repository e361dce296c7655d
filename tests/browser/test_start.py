"""A game started in a few taps (issue 35), counted in a real browser at 390x844 and 360x740.

A tap is a click or a key that is no letter of a name (Enter, "Next" on a phone's keyboard); the
letters of the names typed are not taps. A new table of four from home: at most 6 taps. The same
table again from home's tile: at most 3 (it is 1: Play again).
"""

import re

import pytest
from playwright.sync_api import expect

from scorekeeping.models import Game

from .helpers import assert_no_sideways_scroll, assert_thumb_sized, settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(params=[({"width": 390, "height": 844}, "light"), ({"width": 360, "height": 740}, "dark")], ids=str)
def phone(browser, browser_context_args, request):
    size, scheme = request.param
    context = browser.new_context(**{**browser_context_args, "viewport": size, "color_scheme": scheme})
    page = context.new_page()
    page.size = size
    yield page
    context.close()


class Taps:
    def __init__(self, page):
        self.page, self.count = page, 0

    def click(self, locator):
        locator.click()
        self.count += 1

    def key(self, key):
        self.page.keyboard.press(key)
        self.count += 1


def test_a_new_table_of_four_then_the_same_table_again(live_server, phone, console_errors):
    page = phone
    page.goto(live_server.url + "/")
    taps = Taps(page)
    taps.click(page.get_by_role("link", name="Start a game"))
    first = page.get_by_label("Player 1", exact=True)
    box = first.bounding_box()
    assert box["y"] + box["height"] <= page.size["height"], "the first name is below the fold"
    taps.click(first)
    page.keyboard.type("Ana")
    taps.key("Enter")  # Next: on to the second name
    expect(page.get_by_label("Player 2", exact=True)).to_be_focused()
    page.keyboard.type("Ben")
    for n, name in ((3, "Cy"), (4, "Dee")):
        taps.click(page.get_by_role("button", name="+ Add a player"))
        expect(page.get_by_label(f"Player {n}", exact=True)).to_be_focused()
        page.keyboard.type(name)
    settled(page)
    taps.click(page.get_by_role("button", name="Start the game"))
    expect(page.locator("#round-title")).to_contain_text("Round 1")
    assert taps.count <= 6, taps.count
    first_game = Game.objects.get()
    assert [(p.name, p.colour) for p in first_game.players.all()] == [
        ("Ana", "blue"),
        ("Ben", "red"),
        ("Cy", "green"),
        ("Dee", "pink"),
    ]

    page.goto(live_server.url + "/")  # another evening: home
    tile = page.locator(".tile").first
    expect(tile.get_by_role("link")).to_have_accessible_name(
        re.compile(r"^Ana · Ben · Cy · Dee Mexican Rummy · today .* Round 1 of 7$")
    )
    assert_thumb_sized(page, 360)
    home_link = page.locator(".bar .home").bounding_box()
    assert home_link["width"] >= 44 and home_link["height"] >= 44
    taps = Taps(page)
    taps.click(tile.get_by_role("button", name="Play again"))
    expect(page.locator("#round-title")).to_contain_text("Round 1")
    assert taps.count <= 3, taps.count
    again = Game.objects.exclude(pk=first_game.pk).get()
    assert [p.name for p in again.players.all()] == ["Ana", "Ben", "Cy", "Dee"]
    assert again.first_dealer_seat == (first_game.first_dealer_seat + 1) % 4  # the deal a seat on
    assert [p.colour for p in again.players.all()] == ["blue", "red", "green", "pink"]
    assert console_errors == [], "\n".join(console_errors)


def test_a_colour_per_seat_the_rules_as_choices_and_the_variants_folded(live_server, phone, console_errors):
    page = phone
    page.goto(live_server.url + "/games/new/")
    first = page.get_by_label("Player 1", exact=True)
    first.fill("Ana")
    page.get_by_label("Colour of player 1").select_option("gold")
    settled(page)
    expect(page.locator(".colour-pick").first).to_have_class("colour-pick pc-gold")
    expect(page.get_by_label("Player 1", exact=True)).to_have_value("Ana")  # the round trip kept the name
    assert_no_sideways_scroll(page, 360)
    assert_thumb_sized(page, 360)
    page.get_by_role("radio", name="Contract Rummy").check()
    settled(page)
    expect(page.get_by_role("radio", name="Contract Rummy")).to_be_checked()
    summary = page.locator("details.variants summary")
    expect(summary).to_have_text("Variants: none")
    summary.click()
    page.locator("details.variants input[type=checkbox]").first.check()
    settled(page)
    expect(page.locator("details.variants")).to_have_attribute("open", "")
    expect(summary).not_to_have_text("Variants: none")
    assert console_errors == [], "\n".join(console_errors)
