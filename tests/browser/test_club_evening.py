"""A whole club evening on the start command's server (issue 25): thirteen players, three
sittings, every table an ordinary game played to its end.

The organiser's phone adds the members (a pasted list), opens the night, checks in twelve by
tapping their names and draws sitting 1 (three tables of four). Ben's phone says "I am Ben" once
on the night's page: each draw takes it to Ben's table, where it scores Ben's own hand. The
other players' phones record through the API with their table's edit link (what a phone's page
posts; the browser part of that is tested at length elsewhere). The room screen, a TV at
1920x1080, follows every recorded round by push. A latecomer, Mo, is checked in before sitting
2 (tables of 5, 4 and 4: nobody sits out). The night's standings are worked out here from the
games' final places; the draws' repeated pairs are compared with 200 random draws of the same
tables; a second night makes a season. Figures go to ``artifacts/club-evening.json``.
"""

import itertools
import json
import random
import re
import statistics
import urllib.request

import pytest
from playwright.sync_api import expect

from referee.engine import find_rules, parse_cards, score_hand
from referee.engine.clubs import pair, repeated

from .helpers import (
    ARTIFACTS,
    assert_all_controls_named,
    assert_no_sideways_scroll,
    assert_thumb_sized,
    past_double_tap,
    screenshots,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MEMBERS = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]
RULES = find_rules("mexican", [])
BEN_HAND = ["5C", "9D"]  # what Ben holds when round 1 ends at his first table
PHONE = {"width": 390, "height": 844}
PUSHED = 4000  # ms: what a screen hears by push comes well within this


def call(base, method, path, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        base + path, data, {"Content-Type": "application/json", **(headers or {})}, method=method
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def on_a_phone(page, name):
    """Held in one hand at 360 to 430 px: no sideways scroll, every control thumb-sized and named;
    screenshots (light and dark) when measuring."""
    assert_no_sideways_scroll(page)
    assert_thumb_sized(page)
    assert_all_controls_named(page)
    screenshots(page, name)


def edit_token(table):
    return re.search(r"/join/([^/]+)/$", table["game"]["edit_url"]).group(1)


def points(players, number, winner):
    """Every other player's points in a round: multiples of 5 a hand can make (round 7: 13 cards)."""
    base = 65 if number == RULES.last_round else 5
    others = [p for p in players if p != winner]
    return {p: base + 5 * ((i + number) % 4) for i, p in enumerate(others)}


def open_page(browser, viewport, errors):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def test_a_club_evening_of_thirteen_players_three_sittings_and_a_season(table_server, browser):
    base = table_server.url
    club = call(base, "POST", "/api/clubs/", {"name": "De Joker"})
    api = f"/api/clubs/{club['id']}"
    organiser_headers = {"X-Club-Token": club["organiser_token"]}
    errors: list[str] = []

    # The organiser: members from a pasted list, a night of three sittings, twelve checked in.
    organiser = open_page(browser, PHONE, errors)
    organiser.goto(club["organiser_url"])
    expect(organiser.get_by_role("heading", name="De Joker")).to_be_visible()
    expect(organiser.locator("details", has_text="Add, rename or retire members")).to_have_attribute("open", "")
    organiser.get_by_label("New members: one name a line (paste a list)").fill("\n".join(MEMBERS))
    organiser.get_by_role("button", name="Add", exact=True).click()
    expect(organiser.get_by_text("The club has 12 members.")).to_be_visible()
    organiser.get_by_text("A new club night").click()
    organiser.get_by_label("Sittings (full games, tables drawn anew each time)").fill("3")
    organiser.get_by_role("button", name="Open the night").click()
    expect(organiser.get_by_text("A club night of 3 sittings is open")).to_be_visible()
    night_id = call(base, "GET", f"{api}/")["nights"][0]["id"]
    for name in MEMBERS:
        organiser.get_by_role("checkbox", name=name, exact=True).check()
    organiser.get_by_role("button", name="Check in").click()
    expect(organiser.get_by_text("12 players are here.")).to_be_visible()
    on_a_phone(organiser, "club-organiser")

    # Ben's phone: one tap a night.
    ben = open_page(browser, PHONE, errors)
    night_page = f"{base}/c/{club['id']}/nights/{night_id}/"
    ben.goto(night_page)
    ben.get_by_role("button", name="I am Ben").click()
    expect(ben.get_by_role("heading", name="You are Ben")).to_be_visible()
    expect(ben.locator("body.streaming")).to_have_count(1)  # the night's stream is open: the draw comes by push
    on_a_phone(ben, "club-night-ben")

    room = open_page(browser, {"width": 1920, "height": 1080}, errors)
    room.goto(f"{base}/c/{club['id']}/nights/{night_id}/room/")
    expect(room.locator("body.streaming")).to_have_count(1)

    night_url = f"{api}/nights/{night_id}"
    met: dict[tuple[str, str], int] = {}
    comparisons = []
    for sitting in (1, 2, 3):
        if sitting == 2:  # the latecomer, typed in before the second draw
            organiser.reload()
            organiser.get_by_label("Someone new: one name a line").fill("Mo")
            organiser.get_by_role("button", name="Check in").click()
            expect(organiser.get_by_text("13 players are here.")).to_be_visible()
        organiser.get_by_role("button", name="Draw the next sitting").click()
        expect(organiser.get_by_text(f"Sitting {sitting} is drawn")).to_be_visible()
        night = call(base, "GET", f"{night_url}/", headers=organiser_headers)
        drawn = night["sittings"][-1]
        tables = drawn["tables"]
        sizes = sorted((len(t["players"]) for t in tables), reverse=True)
        assert sizes == ([4, 4, 4] if sitting == 1 else [5, 4, 4]) and drawn["sitting_out"] == []
        assert sorted(p for t in tables for p in t["players"]) == sorted(night["present"])
        comparisons.append(compare_with_random_draws(drawn, met, night["present"], sizes))
        for table in tables:
            for a, b in itertools.combinations(table["players"], 2):
                met[pair(a, b)] = met.get(pair(a, b), 0) + 1

        # The draw takes Ben's phone to Ben's table by itself, seated as Ben.
        mine = next(t for t in tables if "Ben" in t["players"])
        expect(ben).to_have_url(f"{base}/g/{mine['game']['id']}/", timeout=PUSHED)
        expect(ben.locator("#seat-form")).to_contain_text("This is Ben's phone.")
        cards = room.locator(".room-table-card")
        expect(cards).to_have_count(len(tables), timeout=PUSHED)
        expect(room.locator(".room h1")).to_contain_text(f"Sitting {sitting}", timeout=PUSHED)

        for number in range(1, RULES.last_round + 1):
            for table in tables:
                players = table["players"]
                winner = players[number % len(players)]
                card = room.locator(".room-table-card", has_text=f"Table {table['number']}")
                if table is mine and number == 1 and winner != "Ben":
                    ben_scores_his_own_hand(base, ben, table, winner, card)
                else:
                    body = {"number": number, "winner": winner, "points": points(players, number, winner)}
                    game_path = f"/api/games/{table['game']['id']}/rounds/"
                    call(base, "POST", game_path, body, {"X-Game-Token": edit_token(table)})
                # The room screen follows every recorded round by push.
                expect(card).to_contain_text(
                    "Finished" if number == RULES.last_round else f"{number} of 7 rounds played", timeout=PUSHED
                )
        expect(ben.get_by_role("link", name="Back to the club night")).to_be_visible(timeout=PUSHED)
        ben.get_by_role("link", name="Back to the club night").click()
        expect(ben.get_by_role("heading", name="You are Ben")).to_be_visible()
        organiser.reload()

    # The night's standings, worked out here from every game's final places.
    night = call(base, "GET", f"{night_url}/")
    expected = standings_by_hand(base, night)
    got = {r["player"]: (r["percent"], r["sittings"]) for r in night["standings"]}
    assert got == expected
    assert {r["player"]: r["sittings"] for r in night["standings"]}["Mo"] == 2  # came late: ranked on two
    # The room screen shows them, brought there by push.
    expect(room.locator(".room-table tbody tr")).to_have_count(13)
    shown = room.locator(".room-table tbody tr").evaluate_all(  # the name, not the initial on its colour
        "rows => rows.map(tr => [...tr.children].map(c => (c.querySelector('.name') || c).innerText.trim()))"
    )
    assert shown == [[str(r["place"]), r["player"], str(r["percent"]), str(r["sittings"])] for r in night["standings"]]
    call(base, "POST", f"{night_url}/finish/", {}, organiser_headers)

    # A second night (one sitting of three tables) makes a season.
    second = call(
        base, "POST", f"{api}/nights/", {"ruleset": "mexican", "sittings": 1, "date": "2099-01-01"}, organiser_headers
    )
    call(base, "PUT", f"{api}/nights/{second['id']}/present/", {"names": MEMBERS}, organiser_headers)
    drawn = call(base, "POST", f"{api}/nights/{second['id']}/sittings/", {}, organiser_headers)
    for table in drawn["tables"]:
        for number in range(1, RULES.last_round + 1):
            winner = table["players"][0]
            body = {"number": number, "winner": winner, "points": points(table["players"], number, winner)}
            call(base, "POST", f"/api/games/{table['game']['id']}/rounds/", body, {"X-Game-Token": edit_token(table)})
    second_night = call(base, "GET", f"{api}/nights/{second['id']}/")
    organiser.goto(f"{base}/c/{club['id']}/season/")
    rows = organiser.locator("table.board tbody tr")
    expect(rows).to_have_count(13)
    on_a_phone(organiser, "club-season")
    season = call(base, "GET", f"{api}/season/")["standings"]
    firsts = {r["player"]: r["percent"] for r in night["standings"]}
    seconds = {r["player"]: r["percent"] for r in second_night["standings"]}
    for row in season:
        nights = [n[row["player"]] for n in (firsts, seconds) if row["player"] in n]
        assert row["nights"] == len(nights) and abs(row["percent"] - sum(nights) / len(nights)) <= 0.01
    assert {r["player"]: r["nights"] for r in season}["Mo"] == 1
    assert errors == [], errors

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "club-evening.json").write_text(json.dumps({"draws": comparisons}, indent=2))


def ben_scores_his_own_hand(base, ben, table, winner, card):
    """Round 1 at Ben's first table, hand by hand: the winner's phone says who went out (API),
    the others send their hands (API), Ben taps his own two cards on his phone and sends them,
    and records the round there once every hand is in."""
    game = f"/api/games/{table['game']['id']}"
    headers = {"X-Game-Token": edit_token(table)}
    call(base, "PUT", f"{game}/draft/", {"number": 1, "winner": winner}, headers)
    expect(ben.locator("#draft-status")).to_contain_text(f"{winner} went out", timeout=PUSHED)
    for name, value in points(table["players"], 1, winner).items():
        if name != "Ben":
            call(base, "PUT", f"{game}/draft/hands/{name}/", {"number": 1, "points": value}, headers)
    expect(card.locator(".entering")).to_have_text("Entering: Ben", timeout=PUSHED)  # the room sees who is left
    keypad = ben.locator(".keypad")
    keypad.get_by_role("button", name=re.compile(r"^Five of clubs(, wild)?$")).click()
    keypad.get_by_role("button", name=re.compile(r"^Nine of diamonds(, wild)?$")).click()
    # Both cards are in Ben's hand before it is sent (one went missing once in a sequential run).
    bens = ben.locator("#entry .player-entry", has=ben.locator(".player-name", has_text="Ben"))
    expect(bens.locator("input.hand-input")).to_have_value(" ".join(BEN_HAND))
    ben.get_by_role("button", name="Send in Ben's hand").click()
    expect(ben.locator("#draft-status")).to_contain_text("Every hand is in", timeout=PUSHED)
    past_double_tap(ben)
    ben.get_by_role("button", name="Record round 1").click()
    expect(ben.locator("#round-title")).to_contain_text("Round 2 of 7")
    expected = score_hand(RULES, 1, parse_cards(" ".join(BEN_HAND))).points
    standings = call(base, "GET", f"{game}/standings/")
    ben_row = next(r for r in standings["standings"] if r["player"] == "Ben")
    assert ben_row["total"] == expected


def standings_by_hand(base, night):
    """Each player's average over their sittings of (players beaten + ties / 2) / (table size - 1)."""
    shares: dict[str, list[float]] = {}
    for sitting in night["sittings"]:
        for table in sitting["tables"]:
            places = {
                r["player"]: r["place"]
                for r in call(base, "GET", f"/api/games/{table['game']['id']}/standings/")["standings"]
            }
            size = len(places)
            for name, place in places.items():
                beaten = sum(1 for other in places.values() if other > place)
                tied = sum(1 for other in places.values() if other == place) - 1
                shares.setdefault(name, []).append(100 * (beaten + tied / 2) / (size - 1))
    return {name: (round(sum(v) / len(v), 2), len(v)) for name, v in shares.items()}


def compare_with_random_draws(drawn, met, present, sizes):
    """The draw's repeated pairs against 200 random draws of the same tables (same players, same
    sizes): the draw keeps players apart at least as well as the best of chance on average."""
    rng = random.Random(25)
    chance = []
    for _ in range(200):
        players = list(present)
        rng.shuffle(players)
        at, tables = 0, []
        for size in sizes:
            tables.append(players[at : at + size])
            at += size
        chance.append(repeated(tables, met))
    measured = repeated([t["players"] for t in drawn["tables"]], met)
    assert measured == drawn["repeated_pairs"]
    if met:  # the first draw has nobody to keep apart
        assert measured < statistics.mean(chance), (measured, statistics.mean(chance))
    return {
        "sitting": drawn["number"],
        "repeated_pairs": measured,
        "random_draws_mean": round(statistics.mean(chance), 2),
        "random_draws_min": min(chance),
        "random_draws_max": max(chance),
    }


def test_a_draw_takes_the_phone_to_its_table_without_losing_its_session_to_a_fetch_on_its_way(table_server, browser):
    """Taking a phone to its table gives it a new session (the old one is deleted). A fetch of the
    night page sent with the old session and answered after that finds no session, and Django
    then deletes the session cookie: the phone reached its table and could not score there (403
    on Send; seen once in CI). The way to the table now waits in the night page's one queue of
    requests, so no fetch of the page is on its way meanwhile and the next one has the new session.
    Here a fetch is started just as the phone asks its way to the table, and answered after that."""
    base = table_server.url
    club = call(base, "POST", "/api/clubs/", {"name": "De Joker"})
    api, headers = f"/api/clubs/{club['id']}", {"X-Club-Token": club["organiser_token"]}
    night = call(base, "POST", f"{api}/nights/", {"ruleset": "mexican", "sittings": 1}, headers)
    call(base, "PUT", f"{api}/nights/{night['id']}/present/", {"names": ["Ana", "Ben", "Cy", "Dee"]}, headers)
    # Requests a service worker makes are not routed: the phone has none here.
    ben = browser.new_context(viewport=PHONE, service_workers="block").new_page()
    night_page = f"{base}/c/{club['id']}/nights/{night['id']}/"
    ben.goto(night_page)
    ben.get_by_role("button", name="I am Ben").click()
    expect(ben.locator("body.streaming")).to_have_count(1)

    fetches = []

    def go(route):  # a fetch of the night page starts as the phone asks its way to its table
        fetches.append(None)  # from now on the page's fetches wait
        ben.evaluate("htmx.trigger('#night-poller', 'changed')")
        route.continue_()

    def fetch(route):
        if fetches and route.request.headers.get("hx-request"):
            fetches.append(route)
        else:
            route.continue_()

    def table(route):  # on the way to the table: the fetches that waited are answered first (as sent)
        for waiting in [f for f in fetches if f is not None]:
            waiting.fulfill(response=waiting.fetch())
        fetches.clear()
        route.continue_()

    ben.route(f"{night_page}go/", go)
    ben.route(night_page, fetch)
    ben.route(re.compile(r".*/g/[A-Za-z0-9_-]+/$"), table)
    drawn = call(base, "POST", f"{api}/nights/{night['id']}/sittings/", {}, headers)
    mine = next(t for t in drawn["tables"] if "Ben" in t["players"])
    expect(ben).to_have_url(f"{base}/g/{mine['game']['id']}/", timeout=PUSHED)
    expect(ben.locator("#seat-form")).to_contain_text("This is Ben's phone.")
    # Ben's phone may score Ben's hand: a round in progress, his two cards tapped and sent in.
    winner = next(p for p in mine["players"] if p != "Ben")
    game_api = f"/api/games/{mine['game']['id']}"
    call(base, "PUT", f"{game_api}/draft/", {"number": 1, "winner": winner}, {"X-Game-Token": edit_token(mine)})
    expect(ben.locator("#draft-status")).to_contain_text(f"{winner} went out", timeout=PUSHED)
    ben.locator(".keypad").get_by_role("button", name=re.compile(r"^Five of clubs(, wild)?$")).click()
    ben.get_by_role("button", name="Send in Ben's hand").click()
    expect(ben.locator("#draft-status")).to_contain_text("Ben ✓", timeout=PUSHED)
    assert any(c["name"] == "sessionid" for c in ben.context.cookies())
    ben.context.close()
