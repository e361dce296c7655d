"""Several phones on one game: live updates, a refused viewer, two editors, a lost network.

Served as the start command serves the app (ASGI, `table_server`), where the change stream lives."""

import re

import pytest
from playwright.sync_api import expect

from .helpers import enter_round, screenshots, settled, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def other_phone(browser, browser_context_args):
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.errors = errors
    yield page
    context.close()


def edit_link(page):
    """The edit link, beside its QR code in the share box: fetched when asked for (the page carries no secret)."""
    if not page.locator("#edit-link").count():
        page.get_by_role("link", name="Show the edit link").click()
    return page.locator("#edit-link").input_value()


def test_a_viewer_sees_a_recorded_round_within_two_seconds(table_server, page, other_phone, console_errors):
    table = start_game(page, table_server.url, ["Ana", "Ben", "Cy"], dealer="Ana")
    view_link = page.locator("#view-link").input_value()
    assert view_link == table
    other_phone.goto(view_link)
    expect(other_phone.locator("#round-title")).to_have_text("Round 1 of 7")
    expect(other_phone.locator("#entry")).to_have_count(0)
    shoot_view = other_phone.locator(".qr svg")
    expect(shoot_view).to_be_visible()

    enter_round(page, 1, "Ana", {"Ben": ["Five of clubs"], "Cy": ["King of clubs"]})
    expect(page.locator("#round-title")).to_have_text("Round 2 of 7")
    # No reload on the viewer's phone: the poll brings the round within 2 s.
    expect(other_phone.locator("#round-title")).to_have_text("Round 2 of 7", timeout=2000)
    expect(other_phone.locator(".board tbody tr").nth(1).locator("td.total")).to_have_text("5", timeout=2000)
    screenshots(other_phone, "viewer")
    # The running totals, ticked on the viewer's phone, stay shown through the next live update.
    running = other_phone.get_by_role("checkbox", name="Running totals after each round")
    running.check()
    ben = other_phone.locator(".board tbody tr", has_text="Ben")
    expect(ben.locator("td").nth(0).locator(".run")).to_be_visible()  # round 1's cell
    expect(ben.locator("td").nth(0).locator(".pts")).to_be_hidden()
    enter_round(page, 2, "Ana", {"Ben": ["Five of clubs"], "Cy": ["King of clubs"]})
    expect(other_phone.locator("#round-title")).to_have_text("Round 3 of 7", timeout=2000)
    expect(running).to_be_checked()
    after_two = ben.locator("td").nth(1)  # 5, and 5 more: the total after round 2, shown
    expect(after_two.locator(".run")).to_have_text("10")
    expect(after_two.locator(".run")).to_be_visible()
    expect(after_two.locator(".pts")).to_be_hidden()

    assert other_phone.errors == []
    # The viewer cannot record or correct: the page says why (and the browser logs the 403).
    other_phone.goto(table_server.url + re.sub(r"^https?://[^/]+", "", table) + "rounds/1/")
    expect(other_phone.get_by_role("heading", name="This phone can follow the game, not change it")).to_be_visible()
    assert other_phone.errors == ["Failed to load resource: the server responded with a status of 403 (Forbidden)"]
    assert console_errors == []


def test_a_phone_typing_a_round_that_another_phone_records_moves_to_the_next(
    table_server, page, other_phone, console_errors
):
    """Issue 34: the second editor's last actions are "who went out" and a card; the first editor
    records the round. The second phone shows the next round (no phone is left on an old one),
    says why its typing went, and records that round itself."""
    start_game(page, table_server.url, ["Ana", "Ben"], dealer="Ana")
    link = edit_link(page)
    other_phone.goto(link)
    expect(other_phone.get_by_text("This phone can now record and correct rounds.")).to_be_visible()
    expect(other_phone.get_by_role("heading", name="Record round 1")).to_be_visible()
    assert "/join/" not in other_phone.url

    other = other_phone.locator("#entry")
    other.locator(".went-out label", has_text="Ben").click()
    other_phone.get_by_role("button", name="King of hearts", exact=True).click()
    expect(other_phone.locator("#hand-0")).to_have_value("KH")
    # Its say has landed before Ana's phone says otherwise (said at once, the later say is the
    # round's, and Ana's Record is rightly refused: test_drafts.py).
    settled(other_phone)
    enter_round(page, 1, "Ana", {"Ben": ["Five of clubs"]})
    expect(page.locator("#round-title")).to_have_text("Round 2 of 7")
    expect(other_phone.get_by_role("heading", name="Record round 2")).to_be_visible(timeout=2000)
    expect(other_phone.locator("#round-title")).to_have_text("Round 2 of 7")
    expect(other_phone.locator("#toast")).to_contain_text("recorded on another phone")  # said where the thumb is
    expect(other_phone.locator("#hand-0")).to_have_value("")
    # Ana's round stands, and the second phone records the next one.
    expect(other_phone.locator(".board tbody tr").nth(1).locator("td").nth(0).locator(".pts")).to_have_text("5")
    enter_round(other_phone, 2, "Ben", {"Ana": ["King of clubs"]})
    expect(page.locator("#round-title")).to_have_text("Round 3 of 7", timeout=2000)
    assert console_errors == []


def _pump_until(page, done, tries=2000):
    """Let Playwright run the page's route handlers until ``done()``: each call into the page
    hands them the thread (no time is guessed)."""
    for _ in range(tries):
        if done():
            return
        page.evaluate("0")
    raise AssertionError("the condition never came")


def test_a_fetch_drawn_before_a_phones_own_say_does_not_draw_the_round_back(
    table_server, page, other_phone, console_errors
):
    """Seen in CI: a phone's fetch, drawn before its own "who went out" landed and answered after
    that say's answer, drew the entry back to the old winner (then anew): a card tapped between
    was lost. Every answer carries the version it was drawn at; an older one is not drawn."""
    start_game(page, table_server.url, ["Ana", "Ben", "Cy"], dealer="Ana")
    other_phone.goto(edit_link(page))
    other = other_phone.locator("#entry")
    page.locator("#entry .went-out label", has_text="Ana").click()  # the round starts on the table's phone
    expect(other.locator("input[name=winner]:checked")).to_have_value("0")
    other_phone.get_by_role("button", name="King of hearts", exact=True).click()  # typed in: its fetch says so
    settled(other_phone)
    held, holding = [], [True]
    other_phone.route("**/live/**", lambda route: held.append((route, route.fetch())) if holding else route.continue_())
    page.locator("#entry .went-out label", has_text="Ben").click()  # the other phone's fetch is drawn with Ben...
    _pump_until(other_phone, lambda: held)
    other.locator(".went-out label", has_text="Cy").click()  # ...and is still on its way as this phone says Cy
    expect(other_phone.locator("#draft-winner")).to_have_value("2")  # the say's answer is in
    other_phone.evaluate("() => { document.querySelector('form[data-entry]').mine = 'the same form'; }")
    holding.clear()  # the fetches after this one go straight through
    for route, response in held:
        route.fulfill(response=response)
    expect(page.locator("#draft-status")).to_contain_text("Cy went out")
    settled(other_phone)
    expect(other.locator("input[name=winner]:checked")).to_have_value("2")
    assert other_phone.evaluate("() => document.querySelector('form[data-entry]').mine") == "the same form"
    assert other_phone.errors == [] and console_errors == []


def test_a_round_recorded_while_a_phone_starts_typing_still_moves_it_on(
    table_server, page, other_phone, console_errors
):
    """Seen in CI: a phone's fetch asked for its untouched entry; a card was tapped before the
    answer came; the answer, the next round's entry, was left out for the typing, and the phone
    stayed on a round already recorded. Typing keeps an entry only of the same round."""
    start_game(page, table_server.url, ["Ana", "Ben"], dealer="Ana")
    other_phone.goto(edit_link(page))
    other = other_phone.locator("#entry")
    page.locator("#entry .went-out label", has_text="Ana").click()
    expect(other.locator("input[name=winner]:checked")).to_have_value("0")
    settled(other_phone)  # untouched: its fetch asks for a fresh entry
    held, holding = [], [True]
    other_phone.route("**/live/**", lambda route: held.append((route, route.fetch())) if holding else route.continue_())
    page.get_by_role("button", name="Five of clubs", exact=True).click()
    page.locator("#entry").get_by_role("button", name="Record round 1").click()
    expect(page.locator("#round-title")).to_have_text("Round 2 of 7")
    _pump_until(other_phone, lambda: held)
    other_phone.get_by_role("button", name="King of hearts", exact=True).click()  # typed in before the answer
    holding.clear()
    for route, response in held:
        route.fulfill(response=response)
    expect(other.get_by_role("heading", name="Record round 2")).to_be_visible()
    expect(other_phone.locator("#round-title")).to_have_text("Round 2 of 7")
    assert console_errors == []


def test_a_phone_told_by_its_own_answer_of_another_say_shows_it_and_says_nothing_again(
    table_server, page, other_phone, console_errors
):
    """Seen in CI: two phones said who went out a moment apart. The answer to the first phone's
    next tap said the round's winner was now the other phone's, but its buttons still showed its
    own, and its tap after that said it again, undoing the other phone's say (whose Record was then
    refused). The phone now takes the round's winner from that answer."""
    start_game(page, table_server.url, ["Ana", "Ben", "Cy"], dealer="Ana")
    other_phone.goto(edit_link(page))
    other = other_phone.locator("#entry")
    expect(other.get_by_role("heading", name="Record round 1")).to_be_visible()
    other.locator(".went-out label", has_text="Ben").click()
    expect(other_phone.locator("#draft-winner")).to_have_value("1")
    expect(page.locator("#draft-status")).to_contain_text("Ben went out")
    settled(other_phone)
    other_phone.route("**/live/**", lambda route: route.abort())  # it hears only its own answers from here
    page.locator("#entry .went-out label", has_text="Ana").click()  # said after, on the table's phone
    expect(page.locator("#draft-status")).to_contain_text("Ana went out")
    for card in ("King of hearts", "Five of clubs"):
        with other_phone.expect_response(lambda r: "/rounds/" in r.url and r.request.method == "POST"):
            other_phone.get_by_role("button", name=card, exact=True).click()
        expect(other.locator("input[name=winner]:checked")).to_have_value("0")  # the round's, from the first answer on
    page.reload()
    expect(page.locator("#draft-status")).to_contain_text("Ana went out")  # not said again as Ben
    assert console_errors == []


# Each time the page's parts change, the entry's mode as it is then, before anything is drawn.
MODES_SEEN = """
window.modesSeen = [];
new MutationObserver(() => {
  const entry = document.getElementById("entry");
  if (entry) window.modesSeen.push(entry.dataset.mode);
}).observe(document, { childList: true, subtree: true });
"""


def test_a_phone_typing_points_keeps_its_place_when_another_phone_records(
    table_server, page, other_phone, console_errors
):
    """A round recorded on another phone brings this phone's entry anew by push. A phone typing
    points gets it in points at once, never drawn (nor measured) as the keypad first: the
    keypad's taller layout once moved the page by a screen's third under the thumb."""
    names = ["Ana", "Ben", "Cy", "Dee"]
    start_game(page, table_server.url, names, dealer="Ana")
    other_phone.add_init_script(MODES_SEEN)
    other_phone.goto(edit_link(page))
    other = other_phone.locator("#entry")
    expect(other.get_by_role("heading", name="Record round 1")).to_be_visible()
    other.get_by_role("button", name="Type points").click()
    expect(other).to_have_attribute("data-mode", "points")
    other_phone.evaluate("() => document.getElementById('entry').scrollIntoView({block: 'start'})")
    settled(other_phone)
    top = other.bounding_box()["y"]
    other_phone.evaluate("() => { window.modesSeen = []; }")

    enter_round(page, 1, "Ana", {"Ben": ["Five of clubs"], "Cy": ["King of clubs"], "Dee": ["Ace of spades"]})
    expect(other.get_by_role("heading", name="Record round 2")).to_be_visible(timeout=2000)
    settled(other_phone)
    modes = other_phone.evaluate("() => window.modesSeen")
    assert modes and set(modes) == {"points"}, modes
    expect(other).to_have_attribute("data-mode", "points")
    assert abs(other.bounding_box()["y"] - top) < 2, (top, other.bounding_box()["y"])
    expect(other.locator(".went-out label", has_text="Ben")).to_be_in_viewport()
    assert other_phone.errors == []
    assert console_errors == []


def test_a_double_tap_records_once(table_server, page, console_errors):
    start_game(page, table_server.url, ["Ana", "Ben"], dealer="Ana")
    entry = page.locator("#entry")
    entry.locator(".went-out label", has_text="Ana").click()
    page.get_by_role("button", name="Five of clubs", exact=True).click()
    entry.get_by_role("button", name="Record round 1").dblclick()
    expect(page.locator("#round-title")).to_have_text("Round 2 of 7")
    expect(page.locator(".history li")).to_have_count(1)
    assert console_errors == []


def test_a_lost_network_keeps_the_entry_and_sends_it_when_back(table_server, page, context):
    start_game(page, table_server.url, ["Ana", "Ben"], dealer="Ana")
    entry = page.locator("#entry")
    entry.locator(".went-out label", has_text="Ana").click()
    page.get_by_role("button", name="Nine of hearts", exact=True).click()
    expect(page.locator("#hand-1")).to_have_value("9H")
    context.set_offline(True)
    page.get_by_role("button", name="Record round 1").click()
    banner = page.locator("#offline")
    expect(banner).to_contain_text("Not sent: no network. Your entries are kept")
    expect(page.locator("#hand-1")).to_have_value("9H")
    # The draft survives a reload, too.
    context.set_offline(False)
    expect(page.locator("#round-title")).to_have_text("Round 2 of 7", timeout=5000)
    expect(page.locator(".board tbody tr").nth(1).locator("td").nth(0).locator(".pts")).to_have_text("5")
    expect(banner).to_have_count(0)


def test_a_typed_entry_survives_a_reload(table_server, page, console_errors):
    start_game(page, table_server.url, ["Ana", "Ben"], dealer="Ana")
    page.locator("#entry .went-out label", has_text="Ana").click()
    page.get_by_role("button", name="Queen of spades", exact=True).click()
    page.reload()
    expect(page.locator("#hand-1")).to_have_value("QS")
    expect(page.locator(".player-entry", has_text="Ben").locator(".penalty")).to_have_text("10")
    assert console_errors == []


def _requests(page):
    seen = []
    page.on("request", lambda request: seen.append(request.url))
    return seen


def _asked_so_far(page, seen: list[str]) -> list[str]:
    """What the page has asked by now, without waiting for a guessed time: the page asks for a
    marker and the test waits to see it. A page's requests are seen in the order it makes them,
    so one its timers made before (they go out as the timer fires, within ``run_for``) has been
    seen by then; not one htmx holds back in a queue (``hx-sync``) behind an answer, nor what the
    service worker fetches itself. The marker is one the service worker leaves to the network
    (a request it answers is never seen where a route is set, as in the polling test). The
    markers themselves are left out."""
    marker = f"/healthz?asked={len(seen)}"
    with page.expect_request(lambda request: request.url.endswith(marker)):
        page.evaluate("url => { fetch(url); }", marker)
    return [url for url in seen if "?asked=" not in url]


def test_an_idle_table_sends_nothing_but_its_stream(table_server, page, console_errors):
    start_game(page, table_server.url, ["Ana", "Ben"], dealer="Ana")
    expect(page.locator("body.streaming")).to_have_count(1)  # this page's stream is open: counted from here
    seen = _requests(page)
    page.clock.install()  # the page's timers run on Playwright's clock: ten seconds pass at once
    page.reload()
    expect(page.locator("#round-title")).to_have_text("Round 1 of 7")
    expect(page.locator("body.streaming")).to_have_count(1)  # loaded: the stream is open
    loaded = _asked_so_far(page, seen)
    page.clock.run_for(10_000)
    idle = _asked_so_far(page, seen)[len(loaded) :]
    assert idle == [], idle  # ten seconds: not one request
    streams = [url for url in loaded if "/events/" in url]
    assert len(streams) == 1 and "?v=" in streams[0], loaded
    assert console_errors == []


def test_a_change_reaches_a_second_phone_by_push_without_polling(table_server, page, other_phone, console_errors):
    table = start_game(page, table_server.url, ["Ana", "Ben"], dealer="Ana")
    seen = _requests(other_phone)
    other_phone.clock.install()  # the page's timers on Playwright's clock: ten seconds pass at once
    other_phone.goto(table.replace("/join/", "/"))  # the view link: this phone only follows
    expect(other_phone.locator("#round-title")).to_have_text("Round 1 of 7")
    expect(other_phone.locator("body.streaming")).to_have_count(1)
    other_phone.clock.run_for(10_000)
    other_phone.clock.resume()  # and on from there in real time, for the push
    fetches = [url for url in _asked_so_far(other_phone, seen) if "/live/" in url]
    assert fetches == [], fetches  # no poll while nothing changes
    enter_round(page, 1, "Ana", {"Ben": ["Five of clubs"]})
    expect(other_phone.locator("#round-title")).to_have_text("Round 2 of 7", timeout=1500)
    fetches = [url for url in seen if "/live/" in url]
    # A fetch of what changed after each event: who went out (the round in progress, told to every
    # phone since issue 49) and the Record, one fetch when the two come within the stream's window.
    assert 1 <= len(fetches) <= 2, fetches
    assert len([url for url in seen if "/events/" in url]) == 1
    assert other_phone.errors == []


def test_without_a_stream_the_page_polls_every_five_seconds(table_server, page, other_phone, console_errors):
    table = start_game(page, table_server.url, ["Ana", "Ben"], dealer="Ana")
    other_phone.route("**/events/**", lambda route: route.abort())  # a proxy that will not stream
    seen = _requests(other_phone)
    other_phone.clock.install()  # the page's timers on Playwright's clock: eleven seconds at once
    other_phone.goto(table)
    expect(other_phone.locator("#round-title")).to_have_text("Round 1 of 7")
    for _second in (5, 10):  # each poll answered before the clock moves on (a busy machine answers late)
        with other_phone.expect_response(lambda response: "/live/" in response.url):
            other_phone.clock.run_for(5_000)
    other_phone.clock.run_for(1_000)
    polls = [url for url in _asked_so_far(other_phone, seen) if "/live/" in url]
    assert len(polls) == 2, polls  # at 5 s and 10 s, not every second
    enter_round(page, 1, "Ana", {"Ben": ["Five of clubs"]})
    expect(other_phone.locator("#round-title")).to_have_text("Round 2 of 7", timeout=6000)
    expect(other_phone.locator("#offline")).to_have_count(0)  # nothing said about it
