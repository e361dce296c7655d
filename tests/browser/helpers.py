import os
import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

ARTIFACTS = Path(os.environ.get("ARTIFACTS_DIR", Path(__file__).resolve().parents[2] / "artifacts"))
# MEASURE=1: pace the taps like a thumb and save screenshots, for the figures in the docs; CI
# runs without (the behaviour is the same, only the waiting goes).
MEASURE = os.environ.get("MEASURE") == "1"

# Every control needs a name a screen reader can say.
UNNAMED_CONTROLS = """
() => {
  const controls = [...document.querySelectorAll('button, input:not([type=hidden]), select, textarea, a[href]')];
  const visible = controls.filter(el => el.offsetParent !== null || el.closest('.segmented'));
  const nameOf = el => {
    if (el.getAttribute('aria-label')) return el.getAttribute('aria-label');
    const by = el.getAttribute('aria-labelledby');
    if (by) return by.split(' ').map(id => document.getElementById(id)?.textContent || '').join(' ');
    if (el.id) { const l = document.querySelector(`label[for="${el.id}"]`); if (l) return l.textContent; }
    const wrap = el.closest('label'); if (wrap) return wrap.textContent;
    if (el.tagName === 'BUTTON' || el.tagName === 'A') return el.textContent;
    return el.getAttribute('title') || '';
  };
  return visible.filter(el => !nameOf(el).trim()).map(el => el.outerHTML.slice(0, 120));
}
"""


def assert_no_sideways_scroll(page: Page, width: int = 360) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow}px at {width}px"
    page.set_viewport_size({"width": 390, "height": 844})


SMALL_TARGETS = """
() => [...document.querySelectorAll(
    'button, select, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), .segmented input + span')]
  .filter(el => el.offsetParent !== null && !el.classList.contains('default-submit'))
  .map(el => [el, el.getBoundingClientRect()])
  .filter(([el, r]) => r.height < 43.5 || (el.tagName === 'BUTTON' && r.width < 43.5))
  .map(([el, r]) => `${Math.round(r.width)}x${Math.round(r.height)} ${el.outerHTML.slice(0, 80)}`)
"""


def assert_thumb_sized(page: Page, width: int = 360) -> None:
    """Every button, field and choice is at least 44 px to the thumb, at the narrowest phone."""
    page.set_viewport_size({"width": width, "height": 800})
    small = page.evaluate(SMALL_TARGETS)
    page.set_viewport_size({"width": 390, "height": 844})
    assert small == []


def assert_all_controls_named(page: Page) -> None:
    assert page.evaluate(UNNAMED_CONTROLS) == []


def settled(page: Page) -> None:
    """Wait until htmx has no request in flight and nothing swapping or settling."""
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")).to_have_count(0)


def box_of(locator: Locator) -> dict[str, float]:
    """Where ``locator`` is on the screen. An element drawn anew between finding it and measuring
    it (a push came in) has no box: the new one is measured."""
    for _ in range(20):
        expect(locator).to_be_visible()
        box = locator.bounding_box()
        if box is not None:
            return box
    raise AssertionError(f"{locator} kept being drawn anew")


def start_game(
    page: Page, base: str, names: list[str], dealer: str | None = None, ruleset: str = "Mexican Rummy"
) -> str:
    page.goto(base + "/games/new/")
    if not ruleset.startswith("Mexican"):
        page.get_by_role("radio", name=ruleset).check()
        expect(page.get_by_text("Players, clockwise")).to_be_visible()
        settled(page)  # the form comes back for the new rules: an add tapped before would be undone
    inputs = page.locator("input[name=player]")
    expect(inputs).to_have_count(2)
    for count in range(3, len(names) + 1):
        page.get_by_role("button", name="+ Add a player").click()
        expect(inputs).to_have_count(count)  # one round trip at a time, so no answer overtakes the names
        # htmx focuses the new name field once the swap settles; typing before that would land there.
        expect(page.locator(f"#player-{count - 1}")).to_be_focused()
    settled(page)
    for i, name in enumerate(names):
        field = page.get_by_label(f"Player {i + 1}", exact=True)
        field.fill(name)
        expect(field).to_have_value(name)
    settled(page)
    if dealer:
        page.get_by_label("I'll name the dealer").check()
        page.get_by_label("Dealer", exact=True).select_option(label=dealer)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#round-title")).to_be_visible()
    # The table's scripts run once the page is parsed: a tap before that is the page without
    # JavaScript (a stepper is then a form sent whole), and the next tap lands on a page reloading.
    page.wait_for_load_state("domcontentloaded")
    return page.url


def enter_round(
    page: Page, number: int, winner: str | None, hands: dict[str, list[str]], points: dict[str, int] | None = None
) -> None:
    """Record a round the way a player does: tap who went out, then each hand's cards on the keypad
    (or type a hand's points)."""
    entry = page.locator("#entry")
    expect(entry.get_by_role("heading", name=re.compile(f"Record round {number}"))).to_be_visible()
    entry.locator(".went-out label", has_text=winner or "No one").click()
    if hands:
        entry_mode(page, "cards")
    for name, cards in hands.items():
        radio = entry.get_by_role("radio", name=f"Tap cards for {name}")
        if not radio.is_checked():
            label = page.get_by_role("radio", name=f"Tap cards for {name}")
            entry.locator(".tap-for label").filter(has=label).click()  # a thumb taps the name
        expect(radio).to_be_checked()
        for card in cards:
            page.locator(".keypad").get_by_role("button", name=re.compile(f"^{card}(, wild)?$")).click()
        expect(page.locator(f".player-entry:has-text('{name}') .chips button")).to_have_count(len(cards))
    if points:
        entry_mode(page, "points")
    for name, value in (points or {}).items():
        field = page.locator(f".player-entry:has-text('{name}') input.points-input")
        field.fill(str(value))
        field.blur()  # a change previews the round: let it come back before Record is tapped
        settled(page)
    entry.get_by_role("button", name=f"Record round {number}").click()
    past_double_tap(page)


def past_double_tap(page: Page) -> None:
    """Wait for a person's next tap: a second tap where Record (or Send) was, within half a
    second, is a double tap's and ignored by design (static/js/guards.js says while it lasts)."""
    expect(page.locator("html[data-double-tap]")).to_have_count(0)


def entry_mode(page: Page, mode: str) -> None:
    """Switch the entry to card mode (the keypad) or points mode (a number field per player)."""
    toggle = page.locator("#entry").get_by_role("button", name="Type points")
    if (toggle.get_attribute("aria-pressed") == "true") != (mode == "points"):
        toggle.click()
    expect(page.locator("#entry")).to_have_attribute("data-mode", mode)


# What a page did, for a failure to say: each tap's target and each htmx request, swap and error,
# with the page's clock (ms). Installed before the page loads (``flight_recorder``), read after.
_RECORDER = """(() => {
  const log = window.__flight = [];
  const note = (...parts) => log.push([Math.round(performance.now()), ...parts].join(" "));
  document.addEventListener("click", (e) => note("click", e.target.outerHTML?.slice(0, 80), e.defaultPrevented), true);
  for (const type of ["beforeRequest", "afterRequest", "sendError", "beforeSwap", "oobBeforeSwap", "sseMessage"]) {
    document.addEventListener(`htmx:${type}`, (e) => note(type, e.detail?.elt?.id || e.detail?.elt?.tagName,
      e.detail?.requestConfig?.verb ?? "", e.detail?.pathInfo?.requestPath ?? "", e.detail?.xhr?.status ?? "",
      e.detail?.target?.id ?? "", e.detail?.shouldSwap ?? ""), true);
  }
  // What each request says (its headers, the start of its fields; no token), and the entry after each swap.
  const said = (fields) => JSON.stringify(fields || {}, (key, value) => (/csrf/i.test(key) ? undefined : value));
  document.addEventListener("htmx:configRequest", (e) => setTimeout(() => note("headers",
    said(e.detail.headers), said(e.detail.parameters).slice(0, 200)), 0), true);
  document.addEventListener("htmx:afterSettle", () => {
    const form = document.querySelector("form[data-entry]");
    note("settled round", form?.dataset.round, "dirty", form?.dataset.dirty);
  }, true);
})()"""


def flight_recorder(page: Page) -> None:
    page.add_init_script(_RECORDER)


def flight_log(page: Page) -> str:
    return page.evaluate("() => (window.__flight || []).join('\\n')")


def screenshots(page, name):
    """Save a full-page screenshot of ``page``, light and dark, under artifacts/screenshots/:
    screenshots are for a person to look at, taken when measuring only."""
    if not MEASURE:
        return
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(folder / f"{name}-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")
