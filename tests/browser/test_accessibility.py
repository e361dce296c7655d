"""axe-core on every page, light and dark in English, light in Dutch and Spanish on the pages whose
words are most their own (the dark scheme changes only colours, the same in every language; the
markup is the same in every language): no serious or critical violation. axe is
vendored (tests/browser/vendor) and injected into the page under test.

One exception, deliberate: ``label-content-name-mismatch`` on the card buttons (the keypad's keys
and the cards tapped into a hand or meld), whose spoken names ("Ace of clubs", "Three of clubs,
wild", "Remove Seven of clubs") say more than the symbols they show ("A♣").
"""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorekeeping.services.clubs import club_create, night_create, night_present
from scorekeeping.services.rulesets import house_rules_save
from scorekeeping.services.sittings import night_finish, sitting_draw
from tests.helpers import record

from .helpers import settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
PLAYERS = ["Ana", "Ben", "Cy"]


def _api(page: Page, method: str, url: str, data: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"X-Game-Token": token} if token else {})}
    response = page.request.fetch(url, method=method, data=json.dumps(data), headers=headers)
    assert response.ok, response.text()
    return response.json()


def _game(page: Page, base: str, rounds: int) -> str:
    """A game made through the API, opened on this phone with its edit link; ``rounds`` recorded."""
    game = _api(page, "POST", base + "/api/games/", {"players": PLAYERS, "first_dealer": "Ana"})
    for number in range(1, rounds + 1):
        if number == 7:  # nothing laid down before going out: 13 cards each, typed as points
            body = {"number": 7, "winner": "Ana", "points": {"Ben": 65, "Cy": 130}}
        else:
            body = {"number": number, "winner": PLAYERS[number % 3], "hands": {PLAYERS[(number + 1) % 3]: "5C KD"}}
            body["points"] = {PLAYERS[(number + 2) % 3]: 20}
        _api(page, "POST", f"{base}/api/games/{game['id']}/rounds/", body, game["edit_token"])
    page.goto(f"{base}/g/{game['id']}/join/{game['edit_token']}/")
    return page.url


# The dark scheme sets colours and nothing else (test_dark_scheme_sets_only_colours): in the dark,
# axe checks what colours decide; every other rule has been checked on the same page in the light.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
# The pages checked in every language: the table (its entry's names and notices), the end of a
# game, the referee's verdict, a club night from a player's phone, its results, the house editor.
OWN_WORDS = {
    "table during a round",
    "table at the end",
    "referee with a verdict",
    "club night, who are you",
    "club night, I am Ben",
    "a night's results",
    "house rules editor, faults shown",
}


def _violations(page: Page, only: list[str] | None = None) -> list[str]:
    if not page.evaluate("() => typeof axe !== 'undefined'"):  # once a page: light, then dark
        page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async (only) => {
          const options = {resultTypes: ['violations'], ...(only ? {runOnly: {type: 'rule', values: only}} : {})};
          const r = await axe.run(document, options);
          return r.violations.map(v => ({id: v.id, impact: v.impact,
            nodes: v.nodes.map(n => n.target.join(' ')).filter(t => !(v.id === 'label-content-name-mismatch'
              && document.querySelector(t)?.matches('[data-tap], [data-untap]')))}));
        }""",
        only,
    )
    return [
        f"{v['id']} ({v['impact']}): {', '.join(v['nodes'][:4])}"
        for v in result
        if v["impact"] in ("serious", "critical") and v["nodes"]
    ]


def test_dark_scheme_sets_only_colours():
    """Every declaration under ``prefers-color-scheme: dark`` in the stylesheet sets a custom
    property (a colour): the dark pages differ from the light ones in colour alone."""
    css = (Path(__file__).parents[2] / "static" / "css" / "app.css").read_text()
    blocks = re.findall(r"@media \(prefers-color-scheme: dark\) \{((?:[^{}]*\{[^{}]*\})*[^{}]*)\}", css)
    declarations = [
        d.strip() for block in blocks for rule in re.findall(r"\{([^{}]*)\}", block) for d in rule.split(";")
    ]
    assert blocks and len(blocks) == css.count("prefers-color-scheme") and declarations
    assert [d for d in declarations if d and not d.startswith("--")] == []


@pytest.fixture
def axe_page(browser, browser_context_args):
    # axe is injected as a script: the pages' Content-Security-Policy would refuse it.
    context = browser.new_context(**browser_context_args, bypass_csp=True)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("language", ["en", "nl", "es"])
def test_every_page_has_no_serious_accessibility_violation(live_server, axe_page, language):
    page = axe_page
    base = live_server.url
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    during = _game(page, base, 2)
    ended = _game(page, base, 7)
    page.goto(ended)
    expect(page.locator("#final-title")).to_be_visible()

    def referee_verdict() -> None:
        page.goto(base + "/referee/")
        for card in ("key-7C", "key-7D", "key-KH"):
            page.locator(f"#referee #{card}").click()
            settled(page)  # each tap comes back before the next, as a person's do
        page.locator("#referee button.primary[name=op][value=check]").click()
        expect(page.locator(".verdict")).to_be_visible()

    def table_while_tapping() -> None:
        page.goto(during)
        page.locator("#entry .went-out input").first.check()
        for card in ("key-5C", "key-JK"):
            page.locator(f"#entry #{card}").click()
            settled(page)
        expect(page.locator("#entry .player-entry.active .chips button")).to_have_count(2)

    def table_in_points_mode() -> None:
        page.locator("#entry [data-entry-mode]").click()
        expect(page.locator("#entry")).to_have_attribute("data-mode", "points")

    club, organiser = club_create(name="De Joker")
    night = night_create(club=club, ruleset="mexican", sittings=2)
    night_present(night=night, names=["Ana", "Ben", "Cy", "Dee", "Eve"])
    sitting_draw(night=night, organiser_token=organiser)
    waiting = night_create(club=club, ruleset="mexican", sittings=2)  # checked in, not drawn yet
    night_present(night=waiting, names=["Ana", "Ben", "Cy"])

    told = night_create(club=club, ruleset="mexican", sittings=1)  # played and finished: its results
    night_present(night=told, names=["Ana", "Ben", "Cy", "Dee"])
    game = sitting_draw(night=told, organiser_token=organiser, seed=3).tables.get().game
    for number in range(1, 8):
        late = 60 if number == 7 else 0  # 13 cards a hand in round 7
        record(game, number, "Ana", points={"Ben": late + 5, "Cy": late + 10, "Dee": late + 20})
    night_finish(night=told)

    def club_as_organiser() -> None:
        page.goto(f"{base}/c/{club.pk}/join/{organiser}/")  # the organiser's forms and every edit link

    def i_am_ben() -> None:
        page.get_by_role("button", name=re.compile("Ben")).click()
        expect(page.locator("#me-title")).to_be_visible()  # no sitting drawn: the phone waits here

    house, _created = house_rules_save(
        client="test", document={"name": "Oma's regels", "based_on": "contract", "points": {"JK": 50}}
    )

    def house_editor_with_faults() -> None:
        page.goto(base + "/rules/new/")
        page.locator("#section-players > summary").click()
        page.locator("#id_players_max").fill("10")
        expect(page.locator("#house-preview .fault-list li").first).to_be_visible()

    pages = {
        "home": base + "/",
        "new game": base + "/games/new/",
        "table during a round": table_while_tapping,
        "table in points mode": table_in_points_mode,
        "table at the end": ended,
        "referee with a verdict": referee_verdict,
        "rules": base + "/rules/mexican/",
        "games": base + "/games/",
        "players": base + "/players/",
        "import": base + "/games/import/",
        "offline": base + "/offline/",
        "club, as the organiser": club_as_organiser,
        "room screen": f"{base}/c/{club.pk}/nights/{night.pk}/room/",
        "club night, who are you": f"{base}/c/{club.pk}/nights/{waiting.pk}/",
        "club night, I am Ben": i_am_ben,
        "season": f"{base}/c/{club.pk}/season/?best=0",  # with a field's error shown
        "season, standings": f"{base}/c/{club.pk}/season/?minimum=2",
        "a night's results": f"{base}/c/{club.pk}/nights/{told.pk}/",
        "a game's room screen": ended.rstrip("/") + "/room/",
        "house rules editor": base + "/rules/new/",
        "house rules editor, faults shown": house_editor_with_faults,
        "a house ruleset's page": f"{base}/rules/{house.slug}/",
    }
    if language != "en":
        # The words differ, the markup and colours do not: Dutch and Spanish are checked on the pages
        # whose names, labels and notices are most their own (the longest words are Dutch).
        pages = {name: where for name, where in pages.items() if name in OWN_WORDS}
    found: dict[str, list[str]] = {}
    for name, where in pages.items():
        if callable(where):
            where()
        else:
            page.goto(where)
        settled(page)
        # Dark colours are the same in every language: checked in English (the longest words are Dutch).
        for scheme in ("light", "dark") if language == "en" else ("light",):
            page.emulate_media(color_scheme=scheme)
            problems = _violations(page, COLOUR_RULES if scheme == "dark" else None)
            if problems:
                found[f"{name}, {scheme}"] = problems
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)
