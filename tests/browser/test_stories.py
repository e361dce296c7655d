"""The players' stories in a browser (issue 26): a finished game shows its recap; the recap's link
opened in a fresh browser (a friend the link was sent to) shows the picture, and its Open Graph
tags name a PNG a messenger can fetch; a profile held in one hand (390x844) and on a room's
screen (1920x1080)."""

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from .helpers import assert_all_controls_named, assert_no_sideways_scroll, assert_thumb_sized, screenshots

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _call(base, path, body, token=None):
    headers = {"Content-Type": "application/json", **({"X-Game-Token": token} if token else {})}
    request = urllib.request.Request(base + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def finished(base, first_round_winner):
    """Mexican to the end between Ana, Ben and Cy; Ana goes out from round 2 on."""
    game = _call(base, "/api/games/", {"players": ["Ana", "Ben", "Cy"], "first_dealer": "Ana"})
    other = [n for n in ("Ben", "Cy") if n != first_round_winner]
    rounds = [(first_round_winner, {"Ana": 40, other[0]: 5})] + [("Ana", {"Ben": 10, "Cy": 5})] * 5
    rounds.append(("Ana", {"Ben": 65, "Cy": 70}))
    for number, (winner, points) in enumerate(rounds, start=1):
        body = {"number": number, "winner": winner, "points": points}
        _call(base, f"/api/games/{game['id']}/rounds/", body, game["edit_token"])
    return game


def test_a_finished_games_recap_shared_to_a_fresh_browser(live_server, page, browser, console_errors):
    base = live_server.url
    game = finished(base, "Ben")
    page.goto(game["edit_url"])
    final = page.locator("#final")
    expect(final).to_contain_text("Ana came back from 40 behind after round 1.")
    page.get_by_role("link", name="Share the recap").click()
    expect(page.get_by_role("heading", name="Ana wins with 40")).to_be_visible()
    recap_url = page.url

    friend = browser.new_context(viewport={"width": 390, "height": 844})  # nothing of the table's phone
    shared = friend.new_page()
    shared.goto(recap_url)
    picture = shared.locator("img.recap-image")
    expect(picture).to_be_visible()
    assert shared.evaluate("() => document.querySelector('img.recap-image').naturalWidth") == 1200
    image = shared.locator('meta[property="og:image"]').get_attribute("content")
    assert shared.locator('meta[property="og:title"]').get_attribute("content") == "Ana wins with 40"
    assert "came back from 40 behind" in shared.locator('meta[property="og:description"]').get_attribute("content")
    fetched = shared.request.get(image)
    assert fetched.status == 200 and fetched.headers["content-type"] == "image/png"
    assert fetched.body()[:8] == b"\x89PNG\r\n\x1a\n"
    assert_no_sideways_scroll(shared)
    assert_all_controls_named(shared)
    screenshots(shared, "recap")
    friend.close()
    assert console_errors == []


def test_a_profile_in_one_hand_and_on_a_room_screen(live_server, page, console_errors):
    base = live_server.url
    finished(base, "Ben")
    finished(base, "Cy")
    page.goto(f"{base}/players/ana/")
    expect(page.get_by_role("heading", name="Ana")).to_be_visible()
    expect(page.locator(".facts")).to_contain_text("2 (100 %)")
    expect(page.get_by_role("img", name="Rolling average, game by game")).to_be_visible()  # two games
    expect(page.get_by_role("img", name="Rating, game by game")).to_be_visible()  # the ladder's, beside it
    expect(page.get_by_role("link", name="Ben")).to_be_visible()  # head to head
    assert_no_sideways_scroll(page)
    assert_thumb_sized(page)
    assert_all_controls_named(page)
    screenshots(page, "profile-phone")
    page.set_viewport_size({"width": 1920, "height": 1080})
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    widths = page.evaluate(
        "() => [...document.querySelectorAll('svg.chart')].map(c => c.getBoundingClientRect().width)"
    )
    assert len(widths) == 2 and max(widths) <= 1920
    screenshots(page, "profile-room")
    page.get_by_role("link", name="Ben").click()
    expect(page.get_by_role("heading", name="Ben")).to_be_visible()
    assert console_errors == []
