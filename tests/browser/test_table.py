"""A whole game at the table, in a real browser at phone size."""

import re

import pytest
from playwright.sync_api import expect

from .helpers import (
    assert_all_controls_named,
    assert_no_sideways_scroll,
    assert_thumb_sized,
    enter_round,
    entry_mode,
    past_double_tap,
    settled,
    start_game,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME = [
    # round, who went out, the cards left in the others' hands (spoken names, as a screen reader says them)
    (1, "Ana", {"Ben": ["Five of clubs"], "Cy": ["King of clubs"]}),
    (2, "Ben", {"Ana": ["Five of clubs"], "Cy": ["Two of diamonds", "Two of spades"]}),  # Cy's 2S is a mistake
    (3, "Ana", {"Ben": ["Two of clubs"], "Cy": ["Two of hearts"]}),
    (4, "Ben", {"Ana": ["Two of clubs"], "Cy": ["Two of spades"]}),
    (5, "Ana", {"Ben": ["Three of clubs"], "Cy": ["King of hearts"]}),
    (6, "Ben", {"Ana": ["Three of diamonds", "Two of clubs"], "Cy": ["Queen of spades"]}),
]
# Round 7: no one went out, so every hand holds all 13 cards; their points are typed.
LAST = {"Ana": 65, "Ben": 70, "Cy": 65}


def test_a_whole_mexican_game_by_tapping_with_a_correction(live_server, page, shoot, console_errors):
    start_game(page, live_server.url, ["Ana", "Ben", "Cy"], dealer="Ana")
    announce = page.locator(".announce")
    expect(announce).to_contain_text("Round 1 of 7")
    expect(announce).to_contain_text("7 cards each")
    expect(announce).to_contain_text("Threes and jokers are wild")
    expect(announce).to_contain_text("2 books of 3+")
    expect(announce.locator(".turns")).to_have_text(re.compile(r"Ana deals\s*Ben starts"))
    expect(announce).to_contain_text("86 cards, 1 turned up")  # 108 - 3 x 7 - 1
    expect(page.get_by_role("button", name="Three of clubs, wild")).to_be_visible()
    expect(page.get_by_role("button", name="Seven of clubs", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Joker, wild")).to_be_visible()
    shoot("table-round-1")
    assert_no_sideways_scroll(page)
    assert_all_controls_named(page)
    assert_thumb_sized(page)

    # Each tap shows the running penalty beside the name above the keypad.
    entry = page.locator("#entry")
    entry.locator(".went-out label", has_text="Ana").click()
    entry.get_by_role("radio", name="Tap cards for Ben").check()
    page.get_by_role("button", name="King of clubs", exact=True).click()
    expect(page.locator(".tap-for #tally-1")).to_have_text("10")
    page.get_by_role("button", name="Joker, wild").click()
    expect(page.locator(".tap-for #tally-1")).to_have_text("30")  # a joker left in hand: 20
    expect(page.locator(".tap-for #tally-0")).to_have_text("")
    shoot("table-tapping")
    page.get_by_role("button", name="Remove Joker").click()
    page.get_by_role("button", name="Remove King of clubs").click()
    expect(page.locator(".tap-for #tally-1")).to_have_text("")

    for number, winner, hands in GAME:
        enter_round(page, number, winner, hands)
        expect(page.locator("#round-title")).to_have_text(f"Round {number + 1} of 7")
        if number == 2:
            # The running penalty showed while tapping; the round is on the board now.
            expect(page.locator(".board tbody tr").nth(2).locator("td").nth(1).locator(".pts")).to_have_text("10")

    enter_round(page, 7, None, {}, LAST)
    expect(page.locator("#round-title")).to_have_text("Game over")
    # Correct round 2: Cy held only the two of diamonds.
    page.get_by_role("link", name="Correct round 2").click()  # the button shows "2"; its name says it all
    expect(page.get_by_role("heading", name="Correct round 2")).to_be_visible()
    entry_mode(page, "cards")  # the last round was typed as points: the phone kept that mode
    page.locator("#entry").get_by_role("radio", name="Tap cards for Cy").check()
    cy = page.locator(".player-entry", has_text="Cy")
    expect(cy.locator(".chips button")).to_have_count(2)
    shoot("correct-round")
    cy.get_by_role("button", name="Remove Two of spades").click()
    expect(cy.locator(".chips button")).to_have_count(1)
    expect(cy.locator(".penalty")).to_have_text("5")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("#round-title")).to_have_text("Game over")

    final = page.locator("section", has=page.get_by_role("heading", name="Final places"))
    expect(final.locator(".winner-banner")).to_have_text("Ana & Ben share the win!")
    places = final.locator(".podium li")
    expect(places.nth(0)).to_contain_text("1. Ana")
    expect(places.nth(0)).to_contain_text("85 · 3 rounds won")
    expect(places.nth(1)).to_contain_text("1. Ben")
    expect(places.nth(1)).to_contain_text("85 · 3 rounds won")
    expect(places.nth(2)).to_contain_text("3. Cy")
    expect(places.nth(2)).to_contain_text("110")
    expect(final).to_contain_text("Ana and Ben share place 1: 85 points each and as many rounds won.")
    # The story of the game: a line per player, drawn on the server, and its numbers as a table.
    chart = page.locator("#story svg.chart")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(3)
    box = chart.bounding_box()
    assert box is not None and 300 <= box["width"] <= 390
    page.locator("#story summary", has_text="The numbers").click()
    expect(page.locator("#story table tbody tr").nth(0)).to_contain_text("Ana")
    history = page.locator(".history")
    expect(history.locator("li").first).to_contain_text("Round 2 corrected: Cy 10 → 5")
    shoot("table-final")
    assert_no_sideways_scroll(page)
    assert_all_controls_named(page)
    assert_thumb_sized(page)
    assert console_errors == [], "\n".join(console_errors)


def test_a_refused_round_shows_the_error_and_changes_nothing(live_server, page, console_errors):
    start_game(page, live_server.url, ["Ana", "Ben", "Cy"], dealer="Ana")
    entry = page.locator("#entry")
    # A card is tapped into Ana's hand, then Ana is said to have gone out (she is no longer
    # offered for entry, but what was tapped stays until Record refuses it).
    entry.get_by_role("radio", name="Tap cards for Ana").check()
    page.get_by_role("button", name="King of spades", exact=True).click()
    entry.get_by_role("radio", name="Tap cards for Ben").check()
    page.get_by_role("button", name="Five of clubs", exact=True).click()
    entry.get_by_role("radio", name="Tap cards for Cy").check()
    page.get_by_role("button", name="Six of clubs", exact=True).click()
    entry.locator(".went-out label", has_text="Ana").click()
    expect(page.locator(".player-entry", has_text="Cy").locator(".chips button")).to_have_count(1)
    page.get_by_role("button", name="Record round 1").click()
    ana = page.locator(".player-entry", has_text="Ana")
    expect(ana.locator(".error")).to_have_text(re.compile("Ana went out, so Ana holds no cards; 1 card was entered"))
    expect(page.locator("#round-title")).to_have_text("Round 1 of 7")
    expect(page.locator(".board tbody td.total")).to_have_text(["0", "0", "0"])
    expect(page.locator(".history")).to_have_count(0)
    # What was entered is still there to fix.
    expect(page.locator("#hand-1")).to_have_value("5C")
    assert console_errors == [], "\n".join(console_errors)


def test_undo_the_last_change(live_server, page, console_errors):
    start_game(page, live_server.url, ["Ana", "Ben"], dealer="Ana")
    enter_round(page, 1, "Ana", {"Ben": ["Five of clubs"]})
    expect(page.locator("#round-title")).to_have_text("Round 2 of 7")
    page.get_by_role("button", name="Undo the last change").click()
    expect(page.locator("#round-title")).to_have_text("Round 1 of 7")
    expect(page.locator(".history li").first).to_contain_text("Undid a change to round 1")
    # The round undone is back in the form, as it was; and the undo itself can be taken back.
    expect(page.locator(".player-entry", has_text="Ben").locator(".chips button")).to_have_count(1)
    page.get_by_role("button", name="Redo").click()
    expect(page.locator("#round-title")).to_have_text("Round 2 of 7")
    expect(page.locator(".history li").first).to_contain_text("Round 1 recorded: Ana went out")
    assert console_errors == [], "\n".join(console_errors)


def test_a_refused_record_keeps_its_error_in_view_and_focused(live_server, page, console_errors):
    start_game(page, live_server.url, ["Ana", "Ben"], dealer="Ana")
    entry = page.locator("#entry")
    entry.get_by_role("radio", name="Tap cards for Ben").check()
    page.get_by_role("button", name="Five of clubs", exact=True).click()
    page.get_by_role("button", name="Record round 1").click()
    errors = page.locator("#entry-errors")
    expect(errors).to_contain_text("Choose who went out")
    expect(errors.locator("li").first).to_be_focused()
    expect(errors.locator("li").first).to_be_in_viewport()
    page.get_by_role("button", name="King of clubs", exact=True).click()  # a preview goes out and comes back
    expect(page.locator(".player-entry", has_text="Ben").locator(".chips button")).to_have_count(2)
    settled(page)
    expect(errors).to_contain_text("Choose who went out")
    assert console_errors == [], "\n".join(console_errors)


def test_a_refused_record_focuses_the_hand_it_is_about(live_server, page, console_errors):
    start_game(page, live_server.url, ["Ana", "Ben", "Cy"], dealer="Ana")
    page.locator("#entry .went-out label", has_text="Ana").click()
    entry_mode(page, "points")
    page.locator(".player-entry:has-text('Ben') input.points-input").fill("15")
    page.locator(".player-entry:has-text('Cy') input.points-input").fill("lots")
    page.get_by_role("button", name="Record round 1").click()
    error = page.locator(".player-entry:has-text('Cy') .error").first
    expect(error).to_be_focused()
    expect(error).to_be_in_viewport()
    # Nothing covers it (the Record bar stuck to the bottom of the screen, say): it is what a
    # thumb on its middle would touch.
    assert error.evaluate(
        "e => { const r = e.getBoundingClientRect();"
        " return e.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }"
    )
    assert console_errors == [], "\n".join(console_errors)


def test_a_double_tap_on_record_records_once_and_the_page_stays(live_server, page, console_errors):
    from scorekeeping.models import Round

    table = start_game(page, live_server.url, ["Ana", "Ben"], dealer="Ana")
    entry = page.locator("#entry")
    entry.locator(".went-out label", has_text="Ana").click()
    entry.get_by_role("radio", name="Tap cards for Ben").check()
    page.get_by_role("button", name="Five of clubs", exact=True).click()
    settled(page)
    record = page.get_by_role("button", name="Record round 1")
    record.scroll_into_view_if_needed()
    before = entry.evaluate("e => e.getBoundingClientRect().top")
    record.dblclick()
    expect(page.locator("#round-title")).to_have_text("Round 2 of 7")
    past_double_tap(page)
    settled(page)  # whatever the second tap could have started (a request at once) has ended
    assert Round.objects.count() == 1
    assert page.url == table
    expect(page.locator("#entry-errors li")).to_have_count(0)
    # The entry stays where it was on the screen (the scoreboard above it grew by a line a player).
    assert abs(entry.evaluate("e => e.getBoundingClientRect().top") - before) < 80
    assert console_errors == [], "\n".join(console_errors)


def _boxes_overlap(a, b):
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_a_second_tap_on_the_next_rounds_record_is_ignored_then_a_persons_tap_counts(live_server, page, console_errors):
    """The answer to Record can come back before a double tap's second tap: the next round's
    Record is then where the thumb is, and the second tap must not send that round (empty).
    The page's clock stands still from the first tap, so the second comes "moments later"
    however slow the machine; a tap on it after the half second is a person's, and counts."""
    from scorekeeping.models import Round

    page.clock.install()
    start_game(page, live_server.url, ["Ana", "Ben"], dealer="Ana")
    entry = page.locator("#entry")
    entry.locator(".went-out label", has_text="Ana").click()
    entry.get_by_role("radio", name="Tap cards for Ben").check()
    page.get_by_role("button", name="Five of clubs", exact=True).click()
    settled(page)
    # A form is submitted in the click that submits it: counted as it happens, nothing to wait for.
    page.evaluate("() => { window.submits = 0; document.addEventListener('submit', () => window.submits++); }")
    box = page.get_by_role("button", name="Record round 1").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.clock.pause_at(page.evaluate("() => Date.now()") + 1)
    page.mouse.click(x, y)
    expect(page.locator("#round-title")).to_have_text("Round 2 of 7")
    assert page.evaluate("() => window.submits") == 1
    # The second tap: the next round's Record is under the thumb, and the half second is not over.
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('button')?.textContent.trim()", [x, y])
    assert hit == "Record round 2", hit
    expect(page.locator("html[data-double-tap]")).to_have_count(1)
    page.mouse.click(x, y)
    assert page.evaluate("() => window.submits") == 1  # ignored: nothing was sent
    page.clock.resume()
    past_double_tap(page)
    settled(page)
    assert Round.objects.count() == 1
    expect(page.locator("#entry-errors li")).to_have_count(0)
    page.mouse.click(x, y)  # later, the same spot: a person's tap on Record round 2, which is sent
    assert page.evaluate("() => window.submits") == 2
    expect(page.locator("#entry-errors li").first).to_be_visible()  # and refused: nobody went out yet
    assert Round.objects.count() == 1
    assert console_errors == [], "\n".join(console_errors)


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_long_game_fits_a_narrow_phone(live_server, browser, language):
    """Shanghai's ten deals at 360 px: the header keeps one line, name, total and rounds won stay
    in view while the deals scroll, and the chart's axis title clears its legend."""
    from scorekeeping.services import RoundEntry, game_create, round_record

    game, _token = game_create(
        ruleset="shanghai",
        variants=[],
        players=["Annabelle", "Bartholomew", "Cyrillus", "Dee"],
        first_dealer="Annabelle",
    )
    played = RoundEntry(winner="Annabelle", points={"Bartholomew": 25, "Cyrillus": 40, "Dee": 10})
    for n in range(1, 10):
        round_record(game=game, number=n, entry=played)
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale=language)
    page = context.new_page()
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(f"{live_server.url}/g/{game.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.locator("header.bar").bounding_box()["height"] < 60
    wrap = page.locator("#sheet .board-wrap").bounding_box()
    for cell in (
        page.locator(".board tbody tr").first.locator("td.total"),
        page.locator(".board tbody tr").first.locator("td.wins"),
    ):
        box = cell.bounding_box()
        assert wrap["x"] <= box["x"] and box["x"] + box["width"] <= wrap["x"] + wrap["width"] + 1
    title = page.locator("#story svg.chart text.tick").last.bounding_box()
    for legend in page.locator("#story svg.chart text.legend").all():
        assert not _boxes_overlap(title, legend.bounding_box())
    context.close()


def test_buys_are_tapped_with_steppers(live_server, page, console_errors):
    start_game(page, live_server.url, ["Ana", "Ben", "Cy"], dealer="Ana", ruleset="Contract Rummy")
    # Card mode: a hand's buys sit with its cards, below the keypad.
    page.locator("#entry").get_by_role("radio", name="Tap cards for Ben").check()
    page.get_by_role("button", name="One buy more for Ben").click()
    page.get_by_role("button", name="One buy more for Ben").click()
    page.get_by_role("button", name="One buy fewer for Ben").click()
    expect(page.locator("#buys-1")).to_have_value("1")
    # Points mode: every player's points and buys in one list.
    entry_mode(page, "points")
    page.get_by_role("button", name="One buy more for Cy").click()
    expect(page.locator("#buys-2")).to_have_value("1")
    expect(page.locator("#buys-1")).to_have_value("1")
    settled(page)
    assert console_errors == [], "\n".join(console_errors)


def test_running_totals_are_one_tap_away(live_server, page, console_errors):
    start_game(page, live_server.url, ["Ana", "Ben"], dealer="Ana")
    enter_round(page, 1, "Ana", {"Ben": ["Five of clubs"]})
    enter_round(page, 2, "Ana", {"Ben": ["King of clubs"]})
    ben = page.locator("#sheet .board tbody tr", has_text="Ben")
    cell = ben.locator("td").nth(1)
    expect(cell.locator(".pts")).to_have_text("10")  # round 2 alone
    expect(cell.locator(".run")).to_be_hidden()
    toggle = page.get_by_role("checkbox", name="Running totals after each round")
    toggle.check()
    expect(cell.locator(".run")).to_have_text("15")  # 5 + 10 after round 2
    expect(cell.locator(".run")).to_be_visible()
    expect(cell.locator(".pts")).to_be_hidden()
    toggle.uncheck()
    expect(cell.locator(".pts")).to_be_visible()
    expect(cell.locator(".run")).to_be_hidden()
    assert console_errors == [], "\n".join(console_errors)


def test_the_first_qr_code_on_the_table_is_the_one_that_scores(live_server, page, shoot, console_errors):
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "edit-qr.svg" in request.url else None)
    start_game(page, live_server.url, ["Ana", "Ben"], dealer="Ana")
    codes = page.locator("#share .qr-card")
    expect(codes).to_have_count(2)
    expect(codes.first).to_contain_text("Scan to score")
    expect(codes.last).to_contain_text("Follow only")
    code = codes.first.get_by_role("img", name="QR code of the edit link: scan it to score")
    code.scroll_into_view_if_needed()
    expect(code).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 100", arg=code.element_handle())
    assert len(asked) == 1
    # Scanned, it opens the edit link: the page that scores (and asks who the phone is). The link
    # itself comes when asked for: the page carries no secret, so it is sent compressed.
    assert not page.locator("#edit-link").count()
    page.get_by_role("link", name="Show the edit link").click()
    assert page.locator("#edit-link").input_value().startswith(f"{live_server.url}/g/")
    assert "/join/" in page.locator("#edit-link").input_value()
    shoot("edit-link")
    assert console_errors == [], "\n".join(console_errors)
