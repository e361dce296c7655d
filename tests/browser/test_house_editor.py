"""The house-rules editor on a phone: the round table redrawn in place as a rule changes, nothing
moving under the thumb, and a save that lands on the saved ruleset's page."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from referee.models import HouseRuleset

from .helpers import assert_all_controls_named, assert_no_sideways_scroll, assert_thumb_sized, settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/editor-shots")
PHONES = {"390x844": (390, 844), "360x740": (360, 740)}


def shots(page, name):
    """What the phone shows (and the whole page), light and dark, at both phone sizes."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, (width, height) in PHONES.items():
        page.set_viewport_size({"width": width, "height": height})
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=str(SHOTS / f"{name}-{size}-{scheme}.png"))
            page.screenshot(path=str(SHOTS / f"{name}-{size}-{scheme}-full.png"), full_page=True)
    page.emulate_media(color_scheme="light")
    page.set_viewport_size({"width": 390, "height": 844})


def box(locator):
    found = locator.bounding_box()
    return round(found["x"], 1), round(found["y"], 1), round(found["width"], 1), round(found["height"], 1)


def test_changing_round_one_redraws_its_row_in_place_and_saves(live_server, page, console_errors):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/rules/new/")
    page.evaluate("window.samePage = true")
    sent = []  # what each preview sent: the first the whole form, then only the fields changed
    page.on("request", lambda r: sent.append(r.post_data or "") if r.url.endswith("/rules/new/preview/") else None)
    dealt = page.locator("#id_rounds-0-dealt")
    plus = page.get_by_role("button", name="One more: Round 1: cards dealt")
    plus.scroll_into_view_if_needed()
    before, field_before = box(plus), box(dealt)

    plus.tap()
    expect(page.locator("#preview-round-1 .dealt")).to_have_text("8")
    expect(page.locator("#house-draft")).not_to_have_value("")
    settled(page)
    assert (box(plus), box(dealt)) == (before, field_before), "the stepper moved under the thumb"
    assert page.evaluate("window.samePage") is True  # redrawn by htmx, no page load
    plus.tap()
    expect(page.locator("#preview-round-1 .dealt")).to_have_text("9")
    assert len(sent) == 2 and "rounds-6-dealt" in sent[0] and len(sent[0]) > 1500
    assert "rounds-0-dealt=9" in sent[1] and "partial=1" in sent[1] and len(sent[1]) < 300, sent[1]
    dealt.fill("8")
    expect(page.locator("#preview-round-1 .dealt")).to_have_text("8")
    page.evaluate("document.getElementById('house-draft').value = 'lost-draft'")  # as if the session forgot it
    plus.tap()
    expect(page.locator("#preview-round-1 .dealt")).to_have_text("9")  # the whole form sent again
    assert "partial=1" in sent[-2] and "rounds-6-dealt" in sent[-1]
    dealt.fill("8")
    expect(page.locator("#preview-round-1 .dealt")).to_have_text("8")

    # Too few cards for the contract: said beside round 1 and at the top, and still nothing moves.
    dealt.fill("3")
    expect(page.locator("#house-preview")).to_contain_text("1 thing to fix")
    expect(page.locator("#fault-rounds-1")).to_contain_text("the contract needs 6 cards; a hand holds at most 4")
    settled(page)
    assert box(dealt) == field_before
    dealt.fill("9")
    expect(page.locator("#preview-round-1 .dealt")).to_have_text("9")
    expect(page.locator("#fault-rounds-1")).to_be_empty()
    assert box(dealt) == field_before
    assert page.evaluate("window.samePage") is True

    page.locator("#id_name").fill("Grandma's rummy")
    page.get_by_role("button", name="Save these rules").click()
    page.wait_for_url(re.compile(r"/rules/grandmas-rummy-[0-9a-f]{8}/$"))
    saved = HouseRuleset.objects.get()
    assert saved.document["rounds"][0]["dealt"] == 9
    assert console_errors == [] or all("404" in e for e in console_errors)  # its page: another change


def test_editor_looks_right_on_phones(live_server, page, console_errors):
    page.goto(live_server.url + "/rules/new/")
    shots(page, "editor")
    page.evaluate("document.querySelectorAll('#house-editor details').forEach(d => d.open = true)")
    assert_no_sideways_scroll(page, 360)
    assert_thumb_sized(page, 360)
    assert_all_controls_named(page)
    page.locator("#id_players_max").fill("10")
    expect(page.locator("#house-preview")).to_contain_text("things to fix")
    settled(page)
    page.locator("#house-preview").scroll_into_view_if_needed()
    shots(page, "editor-faults")
    page.get_by_role("button", name="Save these rules").click()
    expect(page.locator("#fault-rounds-7")).to_contain_text("the deck holds 108")
    assert HouseRuleset.objects.count() == 0
    assert console_errors == [] or all("422" in e for e in console_errors)
