"""Installable and offline-aware, in Chromium: the manifest, the service worker, pages without network."""

import json
import time

import pytest
from playwright.sync_api import expect

from .helpers import enter_round, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_manifest_is_valid_and_chromium_finds_the_app_installable(
    live_server, browser_type, browser_type_launch_args, browser_context_args, tmp_path
):
    # A normal profile, not an incognito context: Chromium never offers to install from incognito.
    context = browser_type.launch_persistent_context(tmp_path, **browser_type_launch_args, **browser_context_args)
    page = context.new_page()
    console_errors = []
    page.on("console", lambda msg: console_errors.append(msg.text) if msg.type == "error" else None)
    page.goto(live_server.url + "/")
    manifest = json.loads(page.request.get(live_server.url + "/manifest.webmanifest").text())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}
    assert page.evaluate("navigator.serviceWorker.ready.then(r => r.active !== null)")
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == []
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["errors"] == []
    assert console_errors == []
    context.close()


# What the service worker keeps of the page: a copy whose title reads round 2 (evaluate awaits it).
COPY_OF_ROUND_2 = r"""async () => {
    for (const name of await caches.keys()) {
        const copy = await (await caches.open(name)).match(location.pathname);
        if (copy && /id="round-title">\s*Round 2 of 7/.test(await copy.text())) return true;
    }
    return false;
}"""


def test_the_rules_and_the_current_game_stay_readable_offline(live_server, page, context):
    table = start_game(page, live_server.url, ["Ana", "Ben"], dealer="Ana")
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()  # now under the service worker's control
    expect(page.locator("#round-title")).to_have_text("Round 1 of 7")
    enter_round(page, 1, "Ana", {"Ben": ["King of clubs"]})
    expect(page.locator("#round-title")).to_have_text("Round 2 of 7")
    # The worker refreshes its copy of the table after the update (once, whatever the parts swapped).
    deadline = time.monotonic() + 10
    while not page.evaluate(COPY_OF_ROUND_2):
        assert time.monotonic() < deadline, "the service worker kept no copy of round 2"
        page.wait_for_timeout(100)
    context.set_offline(True)
    page.goto(table)
    expect(page.locator("#round-title")).to_have_text("Round 2 of 7")
    expect(page.locator(".board tbody tr").nth(1).locator("td.total")).to_have_text("10")
    page.goto(live_server.url + "/rules/shanghai/")
    expect(page.get_by_role("heading", name="Shanghai Rummy")).to_be_visible()
    page.goto(live_server.url + "/players/")  # never opened here: the offline page says what works
    expect(page.get_by_role("heading", name="No network right now")).to_be_visible()
    context.set_offline(False)
