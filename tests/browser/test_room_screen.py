"""The club night's room screen on a TV (issue 35, "a table that looks like a game"), measured at
1920x1080 in light and dark: the whole screen is the night's (no site header or footer, no
scrollbar), the standings' rows 40 px and more, in the order of the running totals while no table
has finished, each table a tile with its players in their colours (the palette's shade, 3:1 or
more on the tile, the initial on it and the name beside it), the round it is on and who is still
entering, its QR code 200 px wide and more; no serious axe violation; and on a 390 px phone no
sideways scroll."""

import json
import re
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeping import colours

from .helpers import screenshots

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu", "Mo", "Ned", "Olu", "Pia"]
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
TV = {"width": 1920, "height": 1080}
PLAYED = [2, 2, 1, 0]  # the rounds each table has played

CONTRAST = """
([fg, bg]) => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const linear = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => { const [r, g, b] = c.map(linear); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [a, b] = [lum(rgb(fg)), lum(rgb(bg))].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}
"""
# Each tile's players as drawn: name, initial, colour class, the swatch's colour, the tile's.
TILES = """
() => [...document.querySelectorAll('.room-table-card')].map(card => ({
  table: card.querySelector('h3').textContent,
  round: card.querySelector('.tile-round').textContent.trim(),
  background: getComputedStyle(card).backgroundColor,
  qr: card.querySelector('.qr svg').getBoundingClientRect().width,
  players: [...card.querySelectorAll('.tile-players li')].map(li => ({
    name: li.querySelector('.name').textContent,
    initial: li.querySelector('.swatch').textContent,
    key: [...li.classList].find(c => c.startsWith('pc-')).slice(3),
    swatch: getComputedStyle(li.querySelector('.swatch')).backgroundColor,
    visible: li.querySelector('.name').getBoundingClientRect().width > 20,
  })),
}))
"""
ROWS = """
() => [...document.querySelectorAll('.room-table tbody tr')].map(tr => ({
  cells: [...tr.children].map(c => (c.querySelector('.name') || c).innerText.trim()),
  size: Math.min(...[...tr.children].map(c => parseFloat(getComputedStyle(c).fontSize))),
}))
"""


def call(base, method, path, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        base + path, data, {"Content-Type": "application/json", **(headers or {})}, method=method
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def rgb(hex_colour):
    return "rgb({}, {}, {})".format(*(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)))


def a_night_under_way(base):
    """Sixteen players at four tables of four; tables 1 to 3 have played a round or two, table 4
    has not started; at table 1 a round is being entered hand by hand. The players' totals and
    rounds won, by name, as the games' standings say."""
    club = call(base, "POST", "/api/clubs/", {"name": "De Joker"})
    organiser = {"X-Club-Token": club["organiser_token"]}
    api = f"/api/clubs/{club['id']}"
    night = call(base, "POST", f"{api}/nights/", {"sittings": 2}, organiser)
    call(base, "PUT", f"{api}/nights/{night['id']}/present/", {"names": NAMES}, organiser)
    tables = call(base, "POST", f"{api}/nights/{night['id']}/sittings/", {}, organiser)["tables"]
    assert sorted(len(t["players"]) for t in tables) == [4, 4, 4, 4]
    figures = {}
    for index, table in enumerate(tables):
        game = f"/api/games/{table['game']['id']}"
        token = {"X-Game-Token": re.search(r"/join/([^/]+)/$", table["game"]["edit_url"]).group(1)}
        players = table["players"]
        for number in range(1, PLAYED[index] + 1):
            winner = players[(number + index) % 4]
            points = {p: 5 * (1 + (i * 3 + number + index) % 7) for i, p in enumerate(players) if p != winner}
            call(base, "POST", f"{game}/rounds/", {"number": number, "winner": winner, "points": points}, token)
        played = call(base, "GET", f"{game}/standings/")
        if index < 3:
            for row in played["standings"]:
                figures[row["player"]] = (row["total"], row["round_wins"], table["number"])
        if index == 0:  # a round in progress, hand by hand: one hand in, two to come
            call(base, "PUT", f"{game}/draft/", {"number": 3, "winner": players[0]}, token)
            call(base, "PUT", f"{game}/draft/hands/{players[1]}/", {"number": 3, "points": 5}, token)
    return club, night, tables, figures


def assert_running_totals(rows, figures):
    """The rows: place, name, total, table; lowest total first, ties by rounds won (Mexican
    Rummy's tie-break), equal keys sharing a place."""
    key = {name: (total, -wins) for name, (total, wins, _table) in figures.items()}
    shown = [(int(place), name, int(total), int(table)) for place, name, total, table in (r["cells"] for r in rows)]
    assert sorted(name for _place, name, _total, _table in shown) == sorted(figures)
    for place, name, total, table in shown:
        assert (total, table) == (figures[name][0], figures[name][2]), (name, figures[name])
        assert place == 1 + sum(k < key[name] for k in key.values()), (name, place)
    assert [key[name] for _place, name, _total, _table in shown] == sorted(key.values())
    assert shown[0][0] == 1


def test_the_room_screen_fills_a_tv_with_the_standings_and_a_tile_per_table(table_server, browser):
    base = table_server.url
    club, night, tables, figures = a_night_under_way(base)
    context = browser.new_context(viewport=TV, bypass_csp=True)  # axe is injected
    screen = context.new_page()
    errors = []
    screen.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    screen.goto(f"{base}/c/{club['id']}/nights/{night['id']}/room/")
    expect(screen.locator(".room-table-card")).to_have_count(4)
    expect(screen.locator("body.streaming")).to_have_count(1)
    expect(screen.locator(".running-note")).to_have_text("Running totals: no table has finished yet.")
    for scheme in ("light", "dark"):
        screen.emulate_media(color_scheme=scheme)
        # The whole screen is the night's, and it fits: no header, footer or language picker.
        assert screen.evaluate("() => document.querySelectorAll('header, footer, .bar, .foot, #language').length") == 0
        assert screen.evaluate("() => document.documentElement.lang") == "en"
        assert screen.locator("main").count() == 1 and screen.title().startswith("De Joker · Night 1 · ")
        overflow = screen.evaluate(
            "() => [document.documentElement.scrollWidth - innerWidth,"
            " document.documentElement.scrollHeight - innerHeight]"
        )
        assert overflow[0] <= 0 and overflow[1] <= 0, (scheme, overflow)
        # The standings: 40 px and more, in the order of the running totals.
        rows = screen.evaluate(ROWS)
        assert len(rows) == 12 and min(r["size"] for r in rows) >= 40, rows
        assert_running_totals(rows, figures)
        # Each table a tile: its players in their colours, its round, its code.
        tiles = screen.evaluate(TILES)
        by_number = {f"Table {t['number']}": t for t in tables}
        for tile in tiles:
            table = by_number[tile["table"]]
            game = call(base, "GET", f"/api/games/{table['game']['id']}/")
            colour_of = {p["name"]: p["colour"] for p in game["players"]}
            assert sorted(p["name"] for p in tile["players"]) == sorted(table["players"])
            for player in tile["players"]:
                assert player["key"] == colour_of[player["name"]], player
                shade = getattr(colours.BY_KEY[player["key"]], scheme)
                assert player["swatch"] == rgb(shade), (scheme, player)
                assert screen.evaluate(CONTRAST, [player["swatch"], tile["background"]]) >= 3, (scheme, player)
                assert player["initial"] == player["name"][0] and player["visible"], player
            assert tile["qr"] >= 200, tile
        rounds = {tile["table"]: tile["round"] for tile in tiles}
        assert rounds == {"Table 1": "Round 3 of 7", "Table 2": "Round 3 of 7", "Table 3": "Round 2 of 7",
                          "Table 4": "Round 1 of 7"}  # fmt: skip
        table_1 = tables[0]["players"]
        entering = screen.locator(".room-table-card", has_text="Table 1").locator(".entering")
        expect(entering).to_have_text(f"Entering: {table_1[2]}, {table_1[3]}")
        problems = axe_violations(screen)
        assert problems == [], (scheme, problems)
    screenshots(screen, "room-screen-tv")
    assert errors == [], errors

    # On a phone it stacks: nothing scrolls sideways.
    screen.set_viewport_size({"width": 390, "height": 844})
    for scheme in ("light", "dark"):
        screen.emulate_media(color_scheme=scheme)
        assert screen.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        assert screen.evaluate(TILES)[0]["qr"] >= 200
    screenshots(screen, "room-screen-phone")
    context.close()


def axe_violations(page):
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
             .filter(v => v.impact === 'serious' || v.impact === 'critical')
             .map(v => `${v.id}: ${v.nodes.map(n => n.target.join(' ')).slice(0, 4).join(', ')}`)"""
    )
    return found


def test_two_tables_fill_the_tv_as_well_as_four(table_server, browser):
    """Issue 50: with two tables about 55 % of the room screen was empty. Their tiles are set
    larger, one to a row, and still nothing scrolls."""
    base = table_server.url
    club = call(base, "POST", "/api/clubs/", {"name": "De Joker"})
    organiser = {"X-Club-Token": club["organiser_token"]}
    api = f"/api/clubs/{club['id']}"
    night = call(base, "POST", f"{api}/nights/", {"sittings": 2}, organiser)
    call(base, "PUT", f"{api}/nights/{night['id']}/present/", {"names": NAMES[:8]}, organiser)
    call(base, "POST", f"{api}/nights/{night['id']}/sittings/", {}, organiser)
    screen = browser.new_context(viewport=TV).new_page()
    screen.goto(f"{base}/c/{club['id']}/nights/{night['id']}/room/")
    expect(screen.locator(".room-table-card")).to_have_count(2)
    for scheme in ("light", "dark"):
        screen.emulate_media(color_scheme=scheme)
        overflow = screen.evaluate(
            "() => [document.documentElement.scrollWidth - innerWidth,"
            " document.documentElement.scrollHeight - innerHeight]"
        )
        assert overflow[0] <= 0 and overflow[1] <= 0, (scheme, overflow)
        tiles = screen.evaluate(TILES)
        assert all(tile["qr"] >= 200 for tile in tiles), tiles
        used = screen.evaluate(
            "() => { const r = document.querySelector('.room-tables').getBoundingClientRect();"
            " return (r.width * r.height) / (innerWidth * innerHeight); }"
        )
        assert used >= 0.3, used  # the tiles' share of the screen (it was about a sixth)
    screenshots(screen, "room-screen-two-tables")
