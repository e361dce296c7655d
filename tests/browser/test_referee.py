"""The referee page in a real browser: the worked example, a wrap, and a wild with two choices."""

import re

import pytest
from playwright.sync_api import expect

from .helpers import assert_all_controls_named, assert_no_sideways_scroll, assert_thumb_sized

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap(page, group_label, *cards):
    page.locator(".group", has_text=group_label).get_by_role("radio").check()
    chips = page.locator(".group", has_text=group_label).locator(".chips button")
    for card in cards:
        before = chips.count()
        page.locator(".keypad").get_by_role("button", name=re.compile(f"^{card}(, wild)?$")).click()
        expect(chips).to_have_count(before + 1)


def test_referee_worked_example_is_legal(live_server, page, shoot, console_errors):
    page.goto(live_server.url + "/referee/")
    page.get_by_label("Round", exact=True).select_option("2")
    expect(page.locator("#referee")).to_contain_text("Fours and jokers are wild")
    tap(page, "Meld 1", "Seven of clubs", "Seven of diamonds", "Four of hearts")
    page.get_by_role("textbox", name="Meld 2").fill("9♠ 10♠ J♠ Q♠")
    page.get_by_role("button", name="Check").click()
    verdict = page.locator(".verdict")
    expect(verdict.locator(".headline")).to_have_text("✔ Legal")
    expect(verdict).to_contain_text("Four of hearts stands for a seven.")
    expect(verdict).to_contain_text("a run 9♠-Q♠")
    shoot("referee-legal")
    assert_no_sideways_scroll(page)
    assert_all_controls_named(page)
    assert_thumb_sized(page)
    assert console_errors == []


def test_referee_k_a_2_is_refused_with_its_reason(live_server, page, shoot, console_errors):
    page.goto(live_server.url + "/referee/?round=2")
    page.get_by_role("textbox", name="Meld 1").fill("7C 7D 4H")
    page.get_by_role("textbox", name="Meld 2").fill("QS KS AS 2S")
    page.get_by_role("button", name="Check").click()
    verdict = page.locator(".verdict")
    expect(verdict.locator(".headline")).to_have_text("✘ Not legal")
    expect(verdict.locator(".reasons li")).to_have_text(
        [re.compile(r"meld 2 \(Q♠ K♠ A♠ 2♠\) is not a run of 4\+: .*K-A-2.*never both")]
    )
    shoot("referee-illegal")
    assert console_errors == []


def test_referee_lets_the_player_name_what_a_wild_stands_for(live_server, page, console_errors):
    page.goto(live_server.url + "/referee/?round=2")
    page.get_by_role("textbox", name="Meld 1").fill("7C 7D 7H")
    page.get_by_role("textbox", name="Meld 2").fill("5S 6S 7S JK")
    page.get_by_role("button", name="Check").click()
    expect(page.locator(".verdict")).to_contain_text("Joker stands for four of spades.")
    page.get_by_role("group", name="Name what Joker stands for").get_by_role("button", name="8♠").click()
    expect(page.locator(".verdict")).to_contain_text("Joker stands for eight of spades.")
    expect(page.get_by_role("textbox", name="Meld 2")).to_have_value("5S 6S 7S JK=8S")
    assert console_errors == []


def test_referee_can_i_finds_an_opening_in_a_hand(live_server, page, shoot, console_errors):
    page.goto(live_server.url + "/referee/?round=2")
    page.get_by_text("Can I? Find it in my hand").click()
    page.get_by_role("textbox", name="Your whole hand").fill("7C 7D 4H 9S 10S JS QS KD 2C")
    page.get_by_role("button", name="Check").click()
    verdict = page.locator(".verdict")
    expect(verdict.locator(".headline")).to_have_text("✔ Legal")
    expect(verdict).to_contain_text("Left in hand: 2♣ K♦.")
    expect(verdict.get_by_text("Left in hand")).to_have_count(1)
    shoot("referee-can-i")
    assert console_errors == []


@pytest.mark.parametrize("path", ["/", "/rules/", "/rules/mexican/", "/rules/shanghai/", "/games/new/"])
def test_pages_fit_a_phone_and_name_every_control(live_server, page, shoot, console_errors, path):
    page.goto(live_server.url + path)
    assert_no_sideways_scroll(page)
    assert_all_controls_named(page)
    assert_thumb_sized(page)
    shoot("page" + (path.strip("/").replace("/", "-") or "-home"))
    assert console_errors == []


def test_referee_works_from_the_keyboard(live_server, page, console_errors):
    page.goto(live_server.url + "/referee/?round=2")
    page.get_by_role("textbox", name="Meld 1").fill("7C 7D 4H")
    page.get_by_role("textbox", name="Meld 2").fill("9S 10S JS QS")
    page.get_by_role("textbox", name="Meld 2").press("Enter")  # Enter checks, as the Check button does
    expect(page.locator(".verdict .headline")).to_have_text("✔ Legal")
    page.get_by_role("textbox", name="Meld 2").focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # past "Another meld" to the first key
    expect(page.get_by_role("button", name="Ace of clubs")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("textbox", name="Meld 1")).to_have_value("7C 7D 4H AC")
    assert console_errors == []
