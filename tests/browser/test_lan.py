"""At a real table the phones open a LAN address over plain http: not a secure context.

Chromium is started with a host name mapped to the live server (``table.test``), which makes
an insecure origin as a LAN address does: no Wake Lock API, no service worker.
"""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .helpers import start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STATE = "() => [window.isSecureContext, 'wakeLock' in navigator, 'serviceWorker' in navigator]"
PLAYING = (
    "() => { const v = document.querySelector('video.wake-video'); return !!v && !v.paused && v.currentTime > 0; }"
)


@pytest.fixture
def lan_page(browser_type, browser_type_launch_args, browser_context_args):
    args = [*browser_type_launch_args["args"], "--host-resolver-rules=MAP table.test 127.0.0.1"]
    browser = browser_type.launch(**{**browser_type_launch_args, "args": args})
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    yield page
    browser.close()


def test_over_plain_http_the_screen_stays_awake_by_video_and_the_page_says_what_needs_https(live_server, lan_page):
    page = lan_page
    base = f"http://table.test:{urlsplit(live_server.url).port}"
    url = start_game(page, base, ["Ana", "Ben"])
    assert urlsplit(url).hostname == "table.test"
    assert page.evaluate(STATE) == [False, False, False]  # what a phone on the LAN gets
    expect(page.locator("#insecure-note")).to_be_visible()
    expect(page.locator("#insecure-note")).to_contain_text("https")
    assert not page.evaluate(PLAYING)  # nothing plays before the first tap
    page.locator("#entry .went-out label", has_text="Ana").click()
    page.wait_for_function(PLAYING, timeout=5000)
    video = page.locator("video.wake-video")
    assert video.evaluate("v => v.muted && v.loop && v.playsInline")
    # Said once: the next visit does not repeat it; the video comes back with the next tap.
    page.reload()
    expect(page.locator("#round-title")).to_be_visible()
    expect(page.locator("#insecure-note")).to_be_hidden()
    page.locator("#entry .went-out label", has_text="Ben").click()
    page.wait_for_function(PLAYING, timeout=5000)
    assert page.errors == [], "\n".join(page.errors)


def test_on_a_secure_origin_the_wake_lock_api_keeps_the_screen_awake(live_server, page, console_errors):
    start_game(page, live_server.url, ["Ana", "Ben"])
    assert page.evaluate(STATE) == [True, True, True]  # localhost is a secure context
    expect(page.locator("#insecure-note")).to_be_hidden()
    page.locator("#entry .went-out label", has_text="Ana").click()
    expect(page.locator("video.wake-video")).to_have_count(0)
    assert console_errors == [], "\n".join(console_errors)
