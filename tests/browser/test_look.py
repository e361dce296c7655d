"""The table looks like a game and reads from across it (issue 35), measured in a real browser.

At the narrowest common phone (360x740) and a common one (390x844), light and dark: the totals'
computed size, the rows in the order of the places, every total of a six-player table on the
first screen (at 390x844), each player's colour on their row, their chart line and their entry
buttons (the palette's value, 3:1 or more on the background), and the finish: the winner large
in their colour, the places, the margin, Play again and Share.
"""

import json
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from scorekeeping import colours

from .helpers import screenshots, settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eva", "Finn"]
# Four rounds of Mexican Rummy (every card scores 5, 10, 15 or 20 in round 1, and so on):
ROUNDS = [
    ("Ana", {"Ben": 20, "Cy": 50, "Dee": 45, "Eva": 15, "Finn": 30}),
    ("Ben", {"Ana": 50, "Cy": 40, "Dee": 55, "Eva": 50, "Finn": 10}),
    ("Cy", {"Ana": 50, "Ben": 5, "Dee": 40, "Eva": 25, "Finn": 45}),
    ("Dee", {"Ana": 20, "Ben": 20, "Cy": 60, "Eva": 5, "Finn": 45}),
]
# Totals: Ana 120, Ben 45, Cy 150, Dee 140, Eva 95, Finn 130: the places Ben, Eva, Ana, Finn, Dee, Cy.
PLACES = ["Ben", "Eva", "Ana", "Finn", "Dee", "Cy"]
TOTALS = {"Ana": 120, "Ben": 45, "Cy": 150, "Dee": 140, "Eva": 95, "Finn": 130}

SIZES = [
    pytest.param({"width": 360, "height": 740}, id="360x740"),
    pytest.param({"width": 390, "height": 844}, id="390x844"),
]
SCHEMES = ["light", "dark"]

CONTRAST = """
([fg, bg]) => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const linear = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => { const [r, g, b] = c.map(linear); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [a, b] = [lum(rgb(fg)), lum(rgb(bg))].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}
"""
# The background an element is drawn on: its own, else the nearest ancestor's that is not clear.
BACKGROUND = """
(el) => { for (let e = el; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
  if (c && c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c; } return 'rgb(255, 255, 255)'; }
"""


def rgb(hex_colour: str) -> str:
    return "rgb({}, {}, {})".format(*(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)))


def post(base: str, path: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"X-Game-Token": token} if token else {})}
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as refused:
        raise AssertionError(refused.read()[:600]) from None


def four_rounds(base: str) -> dict:
    game = post(base, "/api/games/", {"players": NAMES, "first_dealer": "Ana"})
    for number, (winner, points) in enumerate(ROUNDS, start=1):
        post(
            base,
            f"/api/games/{game['id']}/rounds/",
            {"number": number, "winner": winner, "points": points},
            game["edit_token"],
        )
    return game


def shade(name: str, scheme: str) -> str:
    """The palette's shade of a player of ``four_rounds`` (colours in seat order)."""
    return getattr(colours.PALETTE[NAMES.index(name)], scheme)


@pytest.fixture
def phone(browser, browser_context_args, request):
    size, scheme = request.param
    context = browser.new_context(**{**browser_context_args, "viewport": size, "color_scheme": scheme})
    page = context.new_page()
    page.scheme, page.size = scheme, size
    yield page
    context.close()


PHONES = [pytest.param((s.values[0], scheme), id=f"{s.id}-{scheme}") for s in SIZES for scheme in SCHEMES]


@pytest.mark.parametrize("phone", PHONES, indirect=True)
def test_the_scoreboard_reads_from_across_the_table(live_server, phone):
    game = four_rounds(live_server.url)
    phone.goto(f"{live_server.url}/g/{game['id']}/")
    rows = phone.locator("#scoreboard .by-place .standing")
    expect(rows).to_have_count(6)
    # In the order of the places, each with its place, name and total; the leader crowned.
    own_text = (
        "els => els.map(e => [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim())"
    )
    assert rows.locator(".name").evaluate_all(own_text) == PLACES
    assert [int(t) for t in rows.locator(".total").evaluate_all(own_text)] == [TOTALS[n] for n in PLACES]
    assert rows.locator(".place").all_inner_texts() == ["1", "2", "3", "4", "5", "6"]
    expect(rows.first.locator(".crown")).to_be_visible()
    expect(rows.nth(1)).to_contain_text("+5 last round · 50 behind")
    expect(rows.nth(5)).to_contain_text("+60 last round · 105 behind")
    # The total is the biggest number on the board: 28 px or more, bigger than every other text in it.
    sizes = phone.evaluate(
        "() => [...document.querySelectorAll('#scoreboard *')].filter(e => e.offsetParent && e.childNodes.length"
        " && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))"
        ".map(e => [e.className, parseFloat(getComputedStyle(e).fontSize)])"
    )
    total_size = min(size for cls, size in sizes if cls == "total")
    assert total_size >= 28
    seen = [(cls, size) for cls, size in sizes if cls not in ("total", "visually-hidden")]
    assert [(cls, size) for cls, size in seen if size >= total_size] == []
    # The round, the wild rank, the contract and every total on the first screen (a full table at 390x844).
    height = phone.size["height"]
    for what in ["#round-title", "#announcement .wilds", "#announcement .contract"]:
        assert phone.locator(what).bounding_box()["y"] + phone.locator(what).bounding_box()["height"] <= height
    bottoms = [box["y"] + box["height"] for box in (r.bounding_box() for r in rows.locator(".total").all())]
    if phone.size["height"] >= 844:
        assert max(bottoms) <= height, bottoms
    # Each row in its player's colour (a stripe, with the initial on it), 3:1 or more on the card.
    for i, name in enumerate(PLACES):
        row = rows.nth(i)
        stripe = row.evaluate("e => getComputedStyle(e).borderLeftColor")
        assert stripe == rgb(shade(name, phone.scheme)), (name, stripe)
        assert phone.evaluate(CONTRAST, [stripe, row.evaluate(BACKGROUND)]) >= 3, name
        swatch = row.locator(".swatch")
        expect(swatch).to_have_text(name[0])
        ink = swatch.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
        assert phone.evaluate(CONTRAST, ink) >= 4.5, (name, ink)
    # The chart draws each player's line in the same colour.
    lines = phone.locator("#story svg.chart .series polyline")
    for i, name in enumerate(NAMES):
        stroke = lines.nth(i).evaluate("e => getComputedStyle(e).stroke")
        assert stroke == rgb(shade(name, phone.scheme)), (name, stroke)
        assert phone.evaluate(CONTRAST, [stroke, lines.nth(i).evaluate(BACKGROUND)]) >= 3, name
    # The seat order, one tap away; the places again with one more.
    phone.get_by_text("Seat order").click()
    seats = phone.locator("#scoreboard .by-seat .standing")
    expect(seats.first).to_be_visible()
    expect(rows.first).to_be_hidden()
    assert seats.locator(".swatch").all_inner_texts() == [n[0] for n in NAMES]
    phone.get_by_text("Seat order").click()
    expect(rows.first).to_be_visible()
    screenshots(phone, f"table-six-{phone.size['width']}")  # the phone's page (``shoot`` takes ``page``)


@pytest.mark.parametrize("phone", PHONES[2:], indirect=True)  # 390x844, light and dark
def test_the_entry_buttons_carry_each_players_colour(live_server, phone):
    game = four_rounds(live_server.url)
    phone.goto(game["edit_url"])
    phone.get_by_role("button", name="I enter for everyone").click()
    expect(phone.get_by_role("button", name="I enter for everyone")).to_have_count(0)
    settled(phone)
    went_out = phone.locator(".went-out label")
    tap_for = phone.locator(".tap-for label")
    expect(tap_for).to_have_count(6)
    for i, name in enumerate(NAMES):
        # Unchosen: a bar in the player's colour under the name; chosen: the whole button.
        for group in (went_out, tap_for):
            face = group.nth(i).locator("input + span")
            if group.nth(i).locator("input").is_checked():  # the player whose cards are tapped: Ana at first
                expect(face).to_have_css("background-color", rgb(shade(name, phone.scheme)))
                continue
            bar = face.evaluate("e => getComputedStyle(e).boxShadow")
            assert bar.startswith(rgb(shade(name, phone.scheme))), (name, bar)
            assert phone.evaluate(CONTRAST, [rgb(shade(name, phone.scheme)), face.evaluate(BACKGROUND)]) >= 3
    tap_for.nth(2).click()  # a thumb on Cy
    chosen = tap_for.nth(2).locator("input + span")
    expect(chosen).to_have_css("background-color", rgb(shade("Cy", phone.scheme)))
    ink = chosen.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
    assert phone.evaluate(CONTRAST, ink) >= 4.5


@pytest.mark.parametrize("phone", PHONES[2:], indirect=True)
def test_the_finish_is_worth_a_cheer(live_server, phone):
    game = four_rounds(live_server.url)
    # Rounds 5 to 7: 9, 11 and 13 cards held, every card 5 or more: Eva goes out twice and wins.
    for number, winner, points in [
        (5, "Eva", {"Ana": 45, "Ben": 60, "Cy": 50, "Dee": 55, "Finn": 50}),
        (6, "Eva", {"Ana": 60, "Ben": 70, "Cy": 60, "Dee": 65, "Finn": 60}),
        (7, "Ben", {"Ana": 70, "Cy": 70, "Dee": 75, "Eva": 65, "Finn": 70}),
    ]:
        post(
            live_server.url,
            f"/api/games/{game['id']}/rounds/",
            {"number": number, "winner": winner, "points": points},
            game["edit_token"],
        )
    # Totals: Eva 95 + 65 = 160, Ben 45 + 60 + 70 = 175: Eva by 15.
    phone.goto(game["edit_url"])
    banner = phone.locator("#final .winner-banner")
    expect(banner).to_have_text("Eva wins!")
    expect(banner).to_be_in_viewport()
    assert float(banner.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px")) >= 32
    expect(banner).to_have_css("color", rgb(shade("Eva", phone.scheme)))
    assert (
        phone.evaluate(CONTRAST, [banner.evaluate("e => getComputedStyle(e).color"), banner.evaluate(BACKGROUND)]) >= 3
    )
    expect(phone.locator("#final .margin")).to_have_text("by 15 points")
    places = phone.locator("#final .podium li")
    expect(places).to_have_count(6)
    expect(places.first).to_contain_text("1. Eva")
    expect(places.first).to_contain_text("160 · 2 rounds won")
    expect(phone.locator("#final .best")).to_contain_text("Best round:")
    again = phone.get_by_role("button", name="Play again")
    share = phone.get_by_role("link", name="Share the recap")
    for button in (again, share):
        expect(button).to_be_visible()
        box = button.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 140, box
    screenshots(phone, "finish")
    share.click()
    expect(phone.get_by_role("heading", name="Eva wins with 160")).to_be_visible()
