"""A table of four phones for the browser tests: the players, round 7's hands (13 cards each),
the game made through the API, a phone that counts its taps, and the figures a timed run keeps."""

import json
import re
import time
import urllib.request

from playwright.sync_api import Page, expect

from referee.engine import find_rules, parse_cards, score_hand

from .helpers import ARTIFACTS, MEASURE

NAMES = ["Ana", "Ben", "Cy", "Dee"]
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King", "10": "Ten", "2": "Two", "3": "Three", "4": "Four"}
RANKS |= {"5": "Five", "6": "Six", "7": "Seven", "8": "Eight", "9": "Nine"}
ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
# Round 7: Ana went out; nothing is laid down before going out, so the others hold 13 each.
HANDS = {"Ben": [r + "C" for r in ORDER], "Cy": [r + "D" for r in ORDER], "Dee": [r + "H" for r in ORDER]}


def card_name(card: str) -> str:
    return f"{RANKS[card[:-1]]} of {SUITS[card[-1]]}"


def api(base: str, path: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"X-Game-Token": token} if token else {})}
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def six_rounds_played(base: str) -> tuple[str, str]:
    game = api(base, "/api/games/", {"players": NAMES, "first_dealer": "Ana"})
    for number in range(1, 7):
        body = {"number": number, "winner": "Ana", "points": {"Ben": 10, "Cy": 20, "Dee": 5}}
        api(base, f"/api/games/{game['id']}/rounds/", body, game["edit_token"])
    return game["id"], game["edit_token"]


# A person's thumb, for the figures of the timed tests (MEASURE=1): one tap every 0.4 s at most
# (finding the card included, that is quick). Unpaced, Playwright taps as fast as four browsers
# on two cores allow, which measures the machine, not the table: the behaviour is the same.
PACE = 0.4 if MEASURE else 0.0
# What a phone hears by push comes within this; the page polls every 5 s only without a stream.
PUSHED = 4000


class Phone:
    """A phone at the table: its page, and the taps made on it (with the time they took)."""

    def __init__(self, page: Page, pace: float = 0.0) -> None:
        self.page = page
        self.pace = pace
        self.taps = 0
        self.busy = 0.0
        self.live_fetches: list[float] = []
        self.streams = 0
        page.on("request", self._seen)

    def _seen(self, request) -> None:
        if "/live/" in request.url:
            self.live_fetches.append(time.monotonic())
        elif "/events/" in request.url:
            self.streams += 1

    def tap(self, locator) -> None:
        if self.pace:
            self.page.wait_for_timeout(self.pace * 1000)
        started = time.monotonic()
        locator.click()
        self.taps += 1
        self.busy += time.monotonic() - started

    def card(self, card: str) -> None:
        self.tap(self.page.locator(".keypad").get_by_role("button", name=re.compile(f"^{card_name(card)}(, wild)?$")))


def open_phones(browser, browser_context_args, base, game_id, token, count):
    phones = []
    for _ in range(count):
        context = browser.new_context(**browser_context_args)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda msg, errors=errors: errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        phone = Phone(page)
        phone.errors = errors
        page.goto(f"{base}/g/{game_id}/join/{token}/")
        expect(page.get_by_role("heading", name="Record round 7")).to_be_visible()
        phones.append(phone)
    return phones


def final_totals(page: Page, timeout: int = 5000) -> dict[str, int]:
    expect(page.locator("#round-title")).to_have_text("Game over", timeout=timeout)
    rows = page.locator(".podium li")
    totals = {}
    for i in range(rows.count()):
        text = rows.nth(i).inner_text()
        name = re.search(r"\d+\.\s*(\w+)", text).group(1)
        totals[name] = int(re.search(r"(\d+) ·", text).group(1))
    return totals


def screens(page: Page, name: str) -> None:
    """What the phone shows (its screen, not the whole page), light and dark: when measuring."""
    if not MEASURE:
        return
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(folder / f"{name}-{scheme}.png"))
    page.emulate_media(color_scheme="light")


def measured(name: str, values: dict) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "own-hands.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data[name] = values
    path.write_text(json.dumps(data, indent=2))


RULES = find_rules("mexican", [])
PENALTIES = {name: score_hand(RULES, 7, parse_cards(" ".join(cards))).points for name, cards in HANDS.items()}
