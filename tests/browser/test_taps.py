"""A whole 7-round Mexican game on a 390x844 phone, counting every tap and every scroll.

Taps are real touches at screen coordinates (``page.touchscreen.tap``), never Playwright's
``click``, which scrolls its target into view: a tap on something off screen or under the
Record bar or a notice lands on something else, and the test sees it. After the first scroll
to the entry at the start of the game, no round scrolls the page.
"""

import json

import pytest
from playwright.sync_api import Locator, Page, expect

from referee.engine import find_rules, parse_cards, score_hand

from .helpers import box_of, settled, start_game

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cy", "Dee"]

# Per round: who went out, and the cards left in each other hand (Mexican round n deals n + 6).
ROUNDS: list[tuple[str, dict[str, list[str]]]] = [
    ("Ana", {"Ben": ["KC", "5D"], "Cy": ["AH"], "Dee": ["9S", "9H", "2C"]}),
    ("Ben", {"Ana": ["QD"], "Cy": ["JK", "4C"], "Dee": ["7H", "8H"]}),
    ("Cy", {"Ana": ["10S", "3D"], "Ben": ["6C"], "Dee": ["AS", "AC", "KH", "2D"]}),
    ("Dee", {"Ana": ["5C", "5H", "5S"], "Ben": ["JD", "QH"], "Cy": ["8C"]}),
    ("Ana", {"Ben": ["4S"], "Cy": ["9D", "10C", "JC"], "Dee": ["6H", "6D"]}),
    ("Ben", {"Ana": ["2S", "3S"], "Cy": ["KD"], "Dee": ["7C", "7S", "QC"]}),
    # Round 7: nothing is laid down before going out, so every other hand holds exactly 13.
    (
        "Cy",
        {
            "Ana": ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"],
            "Ben": ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD"],
            "Dee": ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH"],
        },
    ),
]


class Thumb:
    """Taps like a thumb: at the centre of what it sees, counting; never scrolls to find it."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0

    def tap(self, target: Locator) -> None:
        box = target.bounding_box()
        assert box is not None, f"{target} is not on the page"
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        viewport = self.page.viewport_size
        assert viewport is not None
        assert y - box["height"] / 2 >= 0 and y + box["height"] / 2 <= viewport["height"], f"{target} is off screen"
        # Nothing lies over it (the sticky Record bar, a notice): the thumb would hit that instead.
        hit = self.page.evaluate(
            "([x, y, el]) => { const h = document.elementFromPoint(x, y);"
            " return !h ? 'nothing' : el.contains(h) ? '' : h.outerHTML.slice(0, 120); }",
            [x, y, target.element_handle()],
        )
        assert hit == "", f"{target} is covered at ({x:.0f}, {y:.0f}) by {hit}"
        self.page.touchscreen.tap(x, y)
        self.taps += 1


def scroll_y(page: Page) -> float:
    return page.evaluate("() => window.scrollY")


def entry_in_view(page: Page) -> None:
    """The whole entry for one player is on screen at once: whose cards, the keypad, that hand, Record."""
    height = page.viewport_size["height"]
    for selector in (
        "#entry .went-out",
        "#entry .tap-for",
        "#entry .keypad",
        "#entry .player-entry.active",
        "#entry button.primary",
    ):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (
            f"{selector} is not in view: {box}"
        )


def play_by_cards(
    page: Page, thumb: Thumb, number: int, winner: str, hands: dict[str, list[str]], double: bool = False
) -> None:
    entry = page.locator("#entry")
    expect(entry.get_by_role("heading", name=f"Record round {number}")).to_be_visible()
    settled(page)  # a person's next tap comes after the page has settled
    entry_in_view(page)
    thumb.tap(entry.locator(".went-out label", has_text=winner))
    for name, cards in hands.items():
        radio = entry.get_by_role("radio", name=f"Tap cards for {name}")
        if not radio.is_checked():
            thumb.tap(
                entry.locator(".tap-for label").filter(has=page.get_by_role("radio", name=f"Tap cards for {name}"))
            )
        expect(radio).to_be_checked()
        for card in cards:
            thumb.tap(page.locator(f"#key-{card}"))
        expect(page.locator(f".player-entry[data-seat='{PLAYERS.index(name)}'] .chips button")).to_have_count(
            len(cards)
        )
    for name, cards in hands.items():  # the preview behind the last tap is back: it drew every hand
        expect(page.locator(f"#result-{PLAYERS.index(name)}")).to_have_attribute("data-hand", " ".join(cards))
    settled(page)
    entry_in_view(page)
    record = entry.locator("button.primary")
    box = box_of(record)  # where the thumb taps, before its tap replaces the page (measured again if redrawn)
    thumb.tap(record)
    if double:  # the second tap of a double tap, where the first one was, moments later
        assert box is not None
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


@pytest.mark.once
def test_a_whole_game_costs_cards_plus_players_taps_and_no_scroll(live_server, page, console_errors):
    start_game(page, live_server.url, PLAYERS, dealer="Dee")
    page.locator("#entry").scroll_into_view_if_needed()
    page.evaluate("() => document.getElementById('entry').scrollIntoView({block: 'start'})")  # the one scroll
    thumb = Thumb(page)
    counts = []
    for number, (winner, hands) in enumerate(ROUNDS, start=1):
        before_taps, before_y = thumb.taps, scroll_y(page)
        play_by_cards(page, thumb, number, winner, hands, double=number == 2)
        if number < 7:
            expect(page.locator("#round-title")).to_have_text(f"Round {number + 1} of 7")
        else:
            expect(page.locator("#round-title")).to_have_text("Game over")
        toast = page.locator("#toast")
        expect(toast).to_have_attribute("role", "status")
        expect(toast).to_contain_text(f"Round {number} recorded.")
        if number == 2:  # the double tap recorded once: round 3's entry is untouched
            expect(page.locator("#entry input[name=winner]:checked")).to_have_count(0)
            expect(page.locator(".history li")).to_have_count(2)
        if number == 3:
            # A mistake costs one tap: Undo in the notice brings the round back into the form as it
            # was, and Redo in the next notice takes that back (these taps are not the round's).
            extra = Thumb(page)
            extra.tap(toast.get_by_role("button", name="Undo"))
            expect(toast).to_contain_text("Undone: the recording of round 3")
            expect(page.locator("#entry-title")).to_have_text("Record round 3")
            expect(page.locator("#hand-3")).to_have_value("AS AC KH 2D")
            settled(page)
            extra.tap(toast.get_by_role("button", name="Redo"))
            expect(page.locator("#round-title")).to_have_text("Round 4 of 7")
            expect(toast).to_contain_text("Redone.")
            before_y = scroll_y(page)
        cards = sum(len(c) for c in hands.values())
        taps = thumb.taps - before_taps
        counts.append({"round": number, "cards": cards, "taps": taps})
        if number == 7:
            # Each full hand of 13 moved the keypad on by itself: the cards, who went out and Record.
            assert taps == cards + 2, counts
        else:
            assert taps <= cards + len(PLAYERS), counts
        # The page the user looks at did not need scrolling; it may only have been kept in place,
        # until the finish, which comes into view by itself.
        if number < 7:
            entry_in_view(page)
            assert abs(scroll_y(page) - before_y) < 400, (before_y, scroll_y(page))
        else:
            expect(page.locator("#final .winner-banner")).to_be_in_viewport()
    # The board has every hand, summed as the engine scores it.
    totals = page.locator(".board tbody td.total").all_inner_texts()
    assert len(totals) == 4
    print("card mode taps per round:", json.dumps(counts))
    assert console_errors == [], "\n".join(console_errors)


@pytest.mark.once
def test_a_whole_game_in_points_mode_costs_players_plus_two_taps(live_server, page, console_errors):
    # The same game typed as points: each hand's penalty as the engine scores those cards.
    rules = find_rules()
    penalties = [
        {name: score_hand(rules, number, parse_cards(" ".join(cards))).points for name, cards in hands.items()}
        for number, (_winner, hands) in enumerate(ROUNDS, start=1)
    ]
    start_game(page, live_server.url, PLAYERS, dealer="Dee")
    page.evaluate("() => document.getElementById('entry').scrollIntoView({block: 'start'})")
    thumb = Thumb(page)
    entry = page.locator("#entry")
    thumb.tap(entry.get_by_role("button", name="Type points"))  # once: the phone remembers the mode
    expect(entry).to_have_attribute("data-mode", "points")
    counts = []
    for number, ((winner, _hands), points) in enumerate(zip(ROUNDS, penalties, strict=True), start=1):
        before = thumb.taps
        expect(entry.get_by_role("heading", name=f"Record round {number}")).to_be_visible()
        expect(entry).to_have_attribute("data-mode", "points")
        settled(page)  # a person's next tap comes after the page has settled
        thumb.tap(entry.locator(".went-out label", has_text=winner))
        names = [n for n in PLAYERS if n in points]
        for i, name in enumerate(names):
            field = page.locator(f"#points-{PLAYERS.index(name)}")
            # Who went out moved the focus to the first field; Enter ("Next") moves it on.
            expect(field).to_be_focused()
            page.keyboard.type(str(points[name]))
            if i < len(names) - 1:
                page.keyboard.press("Enter")
        for name in names:  # the preview behind the last key is back: it scored every hand
            expect(page.locator(f"#result-{PLAYERS.index(name)} .penalty")).to_have_text(str(points[name]))
        settled(page)
        thumb.tap(entry.locator("button.primary"))
        if number < 7:
            expect(page.locator("#round-title")).to_have_text(f"Round {number + 1} of 7")
        taps = thumb.taps - before + (1 if number == 1 else 0)  # the mode toggle, once
        counts.append({"round": number, "taps": taps})
        assert taps <= len(PLAYERS) + 2, counts
    expect(page.locator("#round-title")).to_have_text("Game over")
    totals = dict(
        zip(
            page.locator(".board tbody th .name").all_inner_texts(),
            [int(t) for t in page.locator(".board tbody td.total").all_inner_texts()],
            strict=True,
        )
    )
    assert totals == {name: sum(p.get(name, 0) for p in penalties) for name in PLAYERS}
    print("points mode taps per round:", json.dumps(counts))
    assert console_errors == [], "\n".join(console_errors)
