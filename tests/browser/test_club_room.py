"""The room screen of a club night on a TV (1920x1080, read from 4 metres): the tables of the
sitting and the night's standings, brought up to date by push when a table records a round."""

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _call(base, method, path, body, headers):
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json", **headers}, method=method
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def test_the_room_screen_follows_the_tables_by_push_in_type_read_across_a_room(table_server, browser):
    base = table_server.url
    club = _call(base, "POST", "/api/clubs/", {"name": "De Joker"}, {})
    organiser = {"X-Club-Token": club["organiser_token"]}
    night = _call(base, "POST", f"/api/clubs/{club['id']}/nights/", {"sittings": 2}, organiser)
    names = {"names": ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]}
    _call(base, "PUT", f"/api/clubs/{club['id']}/nights/{night['id']}/present/", names, organiser)
    tables = _call(base, "POST", f"/api/clubs/{club['id']}/nights/{night['id']}/sittings/", {}, organiser)["tables"]

    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    screen = context.new_page()
    errors: list[str] = []
    screen.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    screen.goto(f"{base}/c/{club['id']}/nights/{night['id']}/room/")
    cards = screen.locator(".room-table-card")
    expect(cards).to_have_count(2)
    expect(cards.first).to_contain_text("Not started yet")
    expect(screen.locator("body.streaming")).to_have_count(1)  # the night's stream is open
    # Read from 4 m: even the small print (a table's round and leader) 27 px or more, headings larger.
    sizes = screen.evaluate(
        "() => ['.room-table-card .hint', '.room-table-card h3', '.room h1'].map("
        "s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize))"
    )
    body = screen.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.room-table-card p:not(.hint)')).fontSize)"
    )
    assert body >= 32 and sizes[0] >= 27 and sizes[1] > body and sizes[2] > sizes[1], (body, sizes)
    assert screen.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")

    table = tables[0]
    token = re.search(r"/join/([^/]+)/$", table["game"]["edit_url"]).group(1)
    winner, *others = table["players"]
    body = {"number": 1, "winner": winner, "points": dict.fromkeys(others, 5)}
    _call(base, "POST", f"/api/games/{table['game']['id']}/rounds/", body, {"X-Game-Token": token})
    card = cards.filter(has_text=f"Table {table['number']}")
    expect(card).to_contain_text("1 of 7 rounds played", timeout=3000)  # by push, no reload
    expect(card).to_contain_text(f"leads: {winner} 0")
    assert errors == [], errors
    context.close()


def test_a_room_screen_without_its_stream_asks_every_five_seconds(table_server, browser):
    """A stream refused (a buffering proxy, the per-address cap of a hundred phones behind one
    router) leaves the screen asking for what changed instead, as the table does."""
    base = table_server.url
    club = _call(base, "POST", "/api/clubs/", {"name": "De Joker"}, {})
    organiser = {"X-Club-Token": club["organiser_token"]}
    night = _call(base, "POST", f"/api/clubs/{club['id']}/nights/", {"sittings": 1}, organiser)
    names = {"names": ["Ana", "Ben", "Cy"]}
    _call(base, "PUT", f"/api/clubs/{club['id']}/nights/{night['id']}/present/", names, organiser)
    table = _call(base, "POST", f"/api/clubs/{club['id']}/nights/{night['id']}/sittings/", {}, organiser)["tables"][0]
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    screen = context.new_page()
    screen.route("**/events/**", lambda route: route.fulfill(status=429, body="too many streams"))
    screen.goto(f"{base}/c/{club['id']}/nights/{night['id']}/room/")
    card = screen.locator(".room-table-card")
    expect(card).to_contain_text("Not started yet")
    token = re.search(r"/join/([^/]+)/$", table["game"]["edit_url"]).group(1)
    winner, *others = table["players"]
    body = {"number": 1, "winner": winner, "points": dict.fromkeys(others, 5)}
    _call(base, "POST", f"/api/games/{table['game']['id']}/rounds/", body, {"X-Game-Token": token})
    expect(card).to_contain_text("1 of 7 rounds played", timeout=8000)  # the next ask, within 5 s
    expect(screen.locator("body.streaming")).to_have_count(0)
    context.close()


def test_a_games_room_screen_reads_from_across_the_room_and_follows_by_push(table_server, browser):
    base = table_server.url
    game = _call(base, "POST", "/api/games/", {"players": ["Ana", "Ben", "Cy"], "first_dealer": "Ana"}, {})
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    screen = context.new_page()
    screen.goto(f"{base}/g/{game['id']}/room/")
    expect(screen.locator("#room-round")).to_have_text("Round 1 of 7")
    expect(screen.locator("body.streaming")).to_have_count(1)
    sizes = screen.evaluate(
        "() => ['.room .announce dd', '.room-table td', '#room-round', '.room .announce .big'].map("
        "s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize))"
    )
    assert min(sizes) >= 27 and sizes[2] >= 48 and sizes[3] >= 64, sizes  # 4 m away
    assert screen.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    body = {"number": 1, "winner": "Ben", "points": {"Ana": 10, "Cy": 5}}
    _call(base, "POST", f"/api/games/{game['id']}/rounds/", body, {"X-Game-Token": game["edit_token"]})
    expect(screen.locator("#room-round")).to_have_text("Round 2 of 7", timeout=3000)  # by push
    expect(screen.locator(".room-table tbody tr").first).to_contain_text("Ben")
    context.close()
