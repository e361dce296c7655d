"""Nothing moves under the thumb, and every tap answers at once (issue 34).

At the narrowest common phone (360x740) and a common one (390x844): the 2♣ key and the
Record/Send button keep their boxes (±1 px) from before who went out is chosen to after every
tap of a 13-card hand (Mexican round 7, where nothing is laid down first), on a phone that
enters for everyone and on a phone that scores its own hand; and a tapped card shows as a chip
in the next animation frame while the server's answer is held back.
"""

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .helpers import settled
from .phones import HANDS, NAMES, PENALTIES, api, six_rounds_played

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [
    pytest.param({"width": 360, "height": 740}, id="360x740"),
    pytest.param({"width": 390, "height": 844}, id="390x844"),
]

BOXES = """() => {
  const box = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return [r.x, r.y, r.width, r.height];
  };
  const key = document.getElementById('key-2C');
  const action = document.querySelector('#record-action button.primary');
  const hit = (el) => { if (!el) return false; const r = el.getBoundingClientRect();
    return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); };
  return { key: box(key), action: box(action), keyHit: hit(key), actionHit: hit(action) };
}"""


def _boxes(page):
    return page.evaluate(BOXES)


def _same(before, after, what):
    for part in ("key", "action"):
        assert before[part] is not None and after[part] is not None, (what, part, after)
        moved = [round(abs(a - b), 1) for a, b in zip(before[part], after[part], strict=True)]
        assert max(moved) <= 1, f"{part} moved {moved} px {what}: {before[part]} -> {after[part]}"
    assert after["keyHit"] and after["actionHit"], (what, after)  # nothing covers them either


@pytest.fixture
def phone(browser, browser_context_args, request):
    size = request.param
    context = browser.new_context(**{**browser_context_args, "viewport": size})
    yield context.new_page()
    context.close()


def _open(page, base, seat):
    game_id, token = six_rounds_played(base)
    page.goto(f"{base}/g/{game_id}/join/{token}/")
    if seat:
        page.get_by_role("button", name="This is me: Ben").click()
        expect(page.locator("#seat-form")).to_contain_text("This is Ben's phone.")
    else:
        page.get_by_role("button", name="I enter for everyone").click()
    expect(page.get_by_role("heading", name="Record round 7")).to_be_visible()
    settled(page)
    # The thumb's place: the keypad and the Record bar on the screen, as a person scrolls to them.
    page.locator("#record-action button.primary").scroll_into_view_if_needed()
    page.evaluate("() => window.scrollBy(0, 40)")
    settled(page)


@pytest.mark.parametrize("phone", SIZES, indirect=True)
@pytest.mark.parametrize("seat", [pytest.param(True, id="own-hand"), pytest.param(False, id="for-everyone")])
def test_the_keypad_and_record_keep_their_place_through_a_13_card_hand(table_server, phone, seat):
    page = phone
    _open(page, table_server.url, seat)
    before = _boxes(page)
    page.locator("#entry .went-out label", has_text="Ana").click()
    expect(page.locator("#draft-status" if seat else "#running")).to_contain_text("Ana")
    settled(page)
    _same(before, _boxes(page), "after choosing who went out")
    if not seat:
        page.locator("#entry .tap-for label", has_text="Ben").click()
    expect(page.get_by_role("radio", name="Tap cards for Ben")).to_be_checked()
    settled(page)
    for count, card in enumerate(HANDS["Ben"], start=1):
        page.locator(f"#key-{card}").click()
        # Ben's hand (seat 1); one for everyone moves on to Cy's at the 13th card (a full hand).
        expect(page.locator("#result-1 .chips button")).to_have_count(count)
        _same(before, _boxes(page), f"at once after card {count}")
        settled(page)
        _same(before, _boxes(page), f"after card {count}'s preview came back")
    expect(page.locator("#result-1 .penalty")).to_have_text(str(PENALTIES["Ben"]))


@pytest.mark.parametrize("phone", SIZES, indirect=True)
def test_a_tapped_card_shows_in_the_next_frame_with_the_network_held(table_server, phone):
    page = phone
    _open(page, table_server.url, seat=False)
    page.locator("#entry .went-out label", has_text="Ana").click()
    page.locator("#entry .tap-for label", has_text="Ben").click()
    settled(page)
    held = []
    page.route("**/rounds/**", lambda route: held.append(route))  # no answer comes while held
    for count, card in enumerate(["7C", "JK", "AS"], start=1):
        page.locator(f"#key-{card}").click()
        shown = page.evaluate(
            """() => new Promise((done) => requestAnimationFrame(() => done([...document.querySelectorAll(
              '#entry .player-entry.active .chips button')].map((c) => c.textContent.trim()))))"""
        )
        assert len(shown) == count, shown
    assert shown[0].startswith("7") and shown[1] and shown[2].startswith("A")
    assert page.locator("#entry .player-entry.active .chips .hint").count() == 0  # "No cards yet" went
    page.unroute("**/rounds/**")
    for route in held:
        try:
            route.continue_()
        except PlaywrightError as exc:  # a preview htmx dropped for the next one (hx-sync): gone already
            if "already handled" not in str(exc):
                raise
    settled(page)
    expect(page.locator("#entry .player-entry.active .chips button")).to_have_count(3)
    expect(page.locator("#entry .player-entry.active .penalty")).to_be_visible()


@pytest.mark.parametrize("phone", SIZES[:1], indirect=True)
def test_the_notice_after_record_leaves_by_itself_and_moves_nothing(table_server, phone):
    page = phone
    game = api(table_server.url, "/api/games/", {"players": NAMES, "first_dealer": "Ana"})
    page.goto(f"{table_server.url}/g/{game['id']}/join/{game['edit_token']}/")
    page.get_by_role("button", name="I enter for everyone").click()
    # The claim lands before the first tap. A tap made while it is on its way can be lost when
    # its answer draws the entry anew (CI lost Cy's KD so, once in two runs): a known race of the
    # product, left for issue 38, not what this test is about.
    expect(page.get_by_role("button", name="I enter for everyone")).to_have_count(0)
    page.locator("#entry .went-out label", has_text="Ana").click()
    for name, card in (("Ben", "5C"), ("Cy", "KD"), ("Dee", "JK")):
        page.locator("#entry .tap-for label", has_text=name).click()
        page.locator(f"#key-{card}").click()
    settled(page)
    page.get_by_role("button", name="Record round 1").click()
    expect(page.locator("#toast")).to_contain_text("Round 1 recorded.")
    expect(page.get_by_role("heading", name="Record round 2")).to_be_visible()
    settled(page)
    before = _boxes(page)
    expect(page.locator("#toast")).to_be_empty(timeout=10_000)  # about 8 s, with no tap
    _same(before, _boxes(page), "when the notice left")
