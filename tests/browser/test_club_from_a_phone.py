"""A club run from a phone, start to finish (issue 50), at 390x844: a new organiser starts the club
on its page with eight members pasted, opens a night, checks them in and draws: the tables drawn
are what the organiser sees. Every member's phone says "I am" once; the tables are played to
their end (through the API, as a table's phones post), the organiser finishes the night, and
every phone shows its own card. The results page printed to PDF by Chromium fits two A4 pages."""

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from .helpers import ARTIFACTS, MEASURE, assert_all_controls_named, assert_no_sideways_scroll, screenshots

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MEMBERS = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
PHONE = {"width": 390, "height": 844}
PUSHED = 4000  # ms


def post(base, path, body, token):
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json", "X-Game-Token": token}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def play_to_the_end(base, table_link, players):
    game, token = re.search(r"/g/([^/]+)/join/([^/]+)/", table_link).groups()
    for number in range(1, 8):
        late = 60 if number == 7 else 0  # 13 cards a hand in round 7
        points = {p: late + 5 * i for i, p in enumerate(players) if i}
        post(base, f"/api/games/{game}/rounds/", {"number": number, "winner": players[0], "points": points}, token)


def test_a_new_organiser_runs_a_night_from_a_phone_and_every_player_gets_their_card(table_server, browser):
    base = table_server.url
    organiser = browser.new_context(viewport=PHONE).new_page()
    organiser.goto(base + "/")
    organiser.get_by_role("link", name="Start a club").click()
    organiser.get_by_label("The club's name").fill("De Joker")
    organiser.get_by_label("Members: one name a line (paste a list; you can add more later)").fill("\n".join(MEMBERS))
    organiser.get_by_role("button", name="Start the club").click()
    expect(organiser.get_by_role("heading", name="De Joker")).to_be_visible()
    expect(organiser.locator("#organiser-link")).to_have_attribute("open", "")  # the organiser's link, offered to keep
    assert organiser.locator("#organiser-url").input_value().startswith(base)

    organiser.get_by_text("A new club night").click()
    organiser.get_by_label("Sittings (full games, tables drawn anew each time)").fill("2")
    organiser.get_by_role("button", name="Open the night").click()
    for name in MEMBERS:
        organiser.get_by_role("checkbox", name=name, exact=True).check()
    organiser.get_by_role("button", name="Check in").click()
    expect(organiser.get_by_text("8 players are here.")).to_be_visible()
    night_page = base + organiser.get_by_role("link", name="I play tonight").get_attribute("href")

    phones = {}
    for name in MEMBERS:
        phone = browser.new_context(viewport=PHONE).new_page()
        phone.goto(night_page)
        phone.get_by_role("button", name=f"I am {name}").click()
        expect(phone.get_by_role("heading", name=f"You are {name}")).to_be_visible()
        phones[name] = phone

    for sitting in (1, 2):
        organiser.get_by_role("button", name="Draw the next sitting").click()
        expect(organiser.get_by_text(f"Sitting {sitting} is drawn")).to_be_visible()
        drawn = organiser.locator(f"[id$='-sitting-{sitting}']")
        expect(drawn).to_be_in_viewport()  # the new tables are what the organiser sees
        tables = organiser.locator(f"[id$='-sitting-{sitting}'] + ul li")
        expect(tables.first).to_be_in_viewport()
        if sitting == 1:
            assert_no_sideways_scroll(organiser)
            assert_all_controls_named(organiser)
            screenshots(organiser, "club-phone-drawn")
        for i in range(tables.count()):
            link = tables.nth(i).get_by_role("link", name="Edit link").get_attribute("href")
            players = [p.strip() for p in tables.nth(i).inner_text().split(":", 1)[1].split("·")[0].split(",")]
            play_to_the_end(base, link, players)

    organiser.reload()
    organiser.get_by_text("Finish the night…").click()
    organiser.get_by_role("button", name="Yes, finish the night").click()
    expect(organiser.get_by_role("link", name="The night's results")).to_be_visible()

    for name, phone in phones.items():
        phone.goto(night_page)
        card = phone.locator("#my-night")
        expect(card, f"{name}'s phone").to_be_visible()
        expect(card).to_contain_text(re.compile(r"Place \d of 8"))
        expect(phone.get_by_role("list", name="Your tables").locator("li")).to_have_count(2)
    results = phones["Ana"]
    expect(results.get_by_role("heading", name="The night's results")).to_be_visible()
    expect(results.get_by_role("heading", name="Best moments")).to_be_visible()
    assert_no_sideways_scroll(results)
    assert_all_controls_named(results)
    screenshots(results, "club-night-results")

    pdf = results.pdf(format="A4", print_background=False)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert 1 <= pages <= 2, pages
    if MEASURE:  # for a person to look at
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "night-results.pdf").write_bytes(pdf)
