"""Four phones, one truth (issue 34): a whole Mexican game on four seated phones and one that
follows, served as the start command serves it.

Before each Record every phone's last action is one of: tapped who went out, tapped a card (into
a hand another phone had sent in), sent its hand (that phone then records), did nothing, or
followed only; the seated phones rotate the first four over the rounds. After each Record every
phone shows the next round (its title, its wild cards, its own entry) within 2 s, the idle phone
and the follower are told whose phone recorded it, and after round 7 every phone has the winner
in view.
"""

import json
import re
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from .helpers import flight_log, flight_recorder, past_double_tap, settled
from .phones import HANDS, NAMES, api, measured

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROLES = ["went out", "tapped a card", "sent its hand", "did nothing"]
SHOWN = 2000  # ms: every phone shows the next round within this of the Record


def _put(base, path, body, token):
    headers = {"Content-Type": "application/json", "X-Game-Token": token}
    request = urllib.request.Request(base + path, json.dumps(body).encode(), headers, method="PUT")
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status in (200, 201), answer.status


def _game(base, game_id):
    with urllib.request.urlopen(f"{base}/api/games/{game_id}/", timeout=30) as answer:
        return json.loads(answer.read())


ONE_CARD = {"Ana": "5S", "Ben": "5C", "Cy": "KD", "Dee": "JK"}
SUIT = {"Ana": "S", "Ben": "C", "Cy": "D", "Dee": "H"}


def _hand(number, name):
    """What ``name`` holds when another player went out: 13 cards of one suit in round 7, where
    nothing is laid down before going out; one card before."""
    if number < 7:
        return [ONE_CARD[name]]
    return [card[:-1] + SUIT[name] for card in HANDS["Ben"]]


def test_four_phones_and_a_follower_all_show_each_round_and_the_finish(table_server, browser, browser_context_args):
    base = table_server.url
    game = api(base, "/api/games/", {"players": NAMES, "first_dealer": "Ana"})
    game_id, token = game["id"], game["edit_token"]
    contexts = [browser.new_context(**browser_context_args) for _ in range(5)]
    pages = [context.new_page() for context in contexts]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        flight_recorder(page)  # each tap, request and swap, for a failure to say what happened
    seated, follower = pages[:4], pages[4]
    for page, name in zip(seated, NAMES, strict=True):
        page.goto(f"{base}/g/{game_id}/join/{token}/")
        # Asked where it lands, without scrolling: one tap on the name.
        ask = page.get_by_role("heading", name="Who is this phone?")
        expect(ask).to_be_in_viewport()
        me = page.get_by_role("button", name=f"This is me: {name}")
        expect(me).to_be_in_viewport(ratio=1)
        me.click()
        expect(page.locator("#seat-form")).to_contain_text(f"This is {name}'s phone.")
    follower.goto(f"{base}/g/{game_id}/")
    expect(follower.locator("#round-title")).to_have_text("Round 1 of 7")

    seconds = {}
    for number in range(1, 8):
        started = time.monotonic()
        roles = {NAMES[(i + number - 1) % 4]: ROLES[i] for i in range(4)}
        phone = dict(zip(NAMES, seated, strict=True))
        winner = next(n for n, r in roles.items() if r == "went out")
        recorder = next(n for n, r in roles.items() if r == "sent its hand")
        # Who went out, tapped on the winner's own phone, as soon as it shows the round.
        phone[winner].locator("#entry .went-out label", has_text=winner).click()
        try:
            expect(phone[recorder].locator("#draft-status")).to_contain_text(f"{winner} went out")
        except AssertionError as failure:
            raise AssertionError(f"round {number}, {winner}'s phone:\n{flight_log(phone[winner])[-6000:]}") from failure
        # The hands of the phone that does nothing and of the one that will tap a card come in from
        # elsewhere (another phone, the REST API); then that phone taps a card into its own hand.
        for name, role in roles.items():
            if role in ("did nothing", "tapped a card"):
                cards = " ".join(_hand(number, name))
                _put(base, f"/api/games/{game_id}/draft/hands/{name}/", {"cards": cards, "number": number}, token)
        tapper = next(n for n, r in roles.items() if r == "tapped a card")
        expect(phone[tapper].locator("#draft-status")).to_contain_text(f"{tapper} ✓")
        settled(phone[tapper])
        phone[tapper].locator("#key-7H").click()
        # The recorder taps its own hand, sends it in, and records the round.
        page = phone[recorder]
        settled(page)
        for card in _hand(number, recorder):
            page.locator(f"#key-{card}").click()
        expect(page.locator("#entry .player-entry.active .chips button")).to_have_count(len(_hand(number, recorder)))
        page.get_by_role("button", name=f"Send in {recorder}'s hand").click()
        record = page.get_by_role("button", name=f"Record round {number}")
        expect(record).to_be_visible()
        past_double_tap(page)  # a person's next tap, not a double tap's second (which is ignored)
        record.click()
        if number < 7:
            expect(page.locator("#round-title")).to_have_text(f"Round {number + 1} of 7", timeout=SHOWN)
            current = _game(base, game_id)["current_round"]
            # The phones that did nothing, and the one that only follows, are told whose phone it was.
            idle = next(n for n, r in roles.items() if r == "did nothing")
            for other in (phone[idle], follower):
                told = f"Round {number} recorded by {recorder}'s phone."
                expect(other.locator("#toast")).to_contain_text(told, timeout=SHOWN)
            assert current["number"] == number + 1
            for name, other in [*phone.items(), ("follower", follower)]:
                title = other.locator("#round-title")
                expect(title, f"{name}'s phone after round {number}").to_have_text(
                    f"Round {number + 1} of 7", timeout=SHOWN
                )
                expect(other.locator("#announcement .wilds")).to_have_text(current["wilds"], timeout=SHOWN)
                if name != "follower":
                    entry = other.locator("#entry")
                    expect(entry.get_by_role("heading", name=f"Record round {number + 1}")).to_be_visible(timeout=SHOWN)
                    expect(entry.locator("#seat-form")).to_contain_text(f"This is {name}'s phone.", timeout=SHOWN)
                    expect(entry.locator(".went-out input:checked")).to_have_count(0)
        seconds[number] = round(time.monotonic() - started, 2)
    # The finish on every phone: the winner in view, the places, and Play again on the phones that hold the link.
    expect(phone[recorder].locator("#round-title")).to_have_text("Game over", timeout=SHOWN)
    final = _game(base, game_id)["standings"]
    assert final["finished"]
    winners = final["winners"]
    for name, page in [*zip(NAMES, seated, strict=True), ("follower", follower)]:
        banner = page.locator("#final .winner-banner")
        expect(banner, f"{name}'s phone").to_have_text(re.compile(re.escape(winners[0])), timeout=SHOWN)
        expect(banner, f"{name}'s phone").to_be_in_viewport(timeout=SHOWN)
        expect(page.locator("#entry")).to_have_count(0)
        if name != "follower":
            expect(page.get_by_role("button", name="Play again")).to_be_visible()
    seconds[7] = round(time.monotonic() - started, 2)  # to the winner in view on every phone
    assert errors == []
    measured("four phones, a whole game", {"first tap to every phone on the next round, s, by round": seconds})
    for context in contexts:
        context.close()
