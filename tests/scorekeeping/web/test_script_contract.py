"""The scripts' contract (tests/scorekeeping/web/script_contract.py): each page renders the ids and data
attributes its scripts rely on, and every one a script in static/js names is listed there."""

import re
from pathlib import Path

import pytest
from django.test import Client

from referee.engine.rounds import RoundEntry
from scorekeeping.models import Game
from scorekeeping.services import round_record
from scorekeeping.services.clubs import club_create, night_create, night_present
from scorekeeping.services.sittings import sitting_draw
from tests.helpers import record
from tests.scorekeeping.web.script_contract import HOOKS, SCRIPT_OWNED

SCRIPTS = Path(__file__).resolve().parents[3] / "static" / "js"
JSON = "application/json"
HTMX = {"HX-Request": "true"}


def new_game(phone, ruleset="mexican"):
    data = {"ruleset": ruleset, "player": ["Ana", "Ben", "Cy"], "method": "named", "dealer": "0", "op": "create"}
    response = phone.post("/games/new/", data)
    assert response.status_code == 302, response.content.decode()[:500]
    return Game.objects.get(pk=response["Location"].strip("/").split("/")[-1])


def played(game, rounds=1):
    for number in range(1, rounds + 1):
        points = 100 if number == 7 else 5  # round 7: 13 cards each, at least 65
        entry = RoundEntry(winner="Ana", points={"Ben": points, "Cy": points + 5})
        round_record(game=Game.objects.get(pk=game.pk), number=number, entry=entry)
    return game


def round_1(**extra):
    return {"version": "1", "number": "1", "winner": "0", "hand-1": "4C KC", "hand-2": "JK", "active": "1", **extra}


def api_game():
    body = {"players": ["Ana", "Ben", "Cy"], "first_dealer": "Ana"}
    return Client().post("/api/games/", body, content_type=JSON).json()


def joined(created):
    phone = Client()
    assert phone.get(f"/g/{created['id']}/join/{created['edit_token']}/").status_code == 302
    return phone


def seated(created, seat):
    phone = joined(created)
    assert phone.post(f"/g/{created['id']}/seat/", {"player": str(seat)}).status_code == 302
    return phone


def page_table():
    phone = Client()
    game = played(new_game(phone))
    return phone.get(f"/g/{game.pk}/").content.decode()


def page_finished():
    phone = Client()
    game = played(new_game(phone), rounds=7)
    html = phone.get(f"/g/{game.pk}/").content.decode()
    assert 'class="winner-banner"' in html  # place.js: "#final .winner-banner"
    return html


def page_table_contract():
    phone = Client()
    return phone.get(f"/g/{new_game(phone, 'contract').pk}/").content.decode()


def page_table_round_7():
    phone = Client()
    game = played(new_game(phone), rounds=6)
    return phone.get(f"/g/{game.pk}/").content.decode()


def page_table_draft(on="ben"):
    """Ana's and Ben's phones are seated, Cy went out, Ana's phone sent in Dee's hand (Dee has no phone)."""
    body = {"players": ["Ana", "Ben", "Cy", "Dee"], "first_dealer": "Ana"}
    created = Client().post("/api/games/", body, content_type=JSON).json()
    ana, ben = seated(created, 0), seated(created, 1)
    url = f"/g/{created['id']}/rounds/"
    ana.post(url, {"number": "1", "winner": "2", "active": "0", "draft_winner": "", "preview": ""})
    ana.post(url, {"number": "1", "winner": "2", "draft_winner": "2", "active": "3", "hand-3": "KC", "op": "hand"})
    everyone = joined(created)
    everyone.post(f"/g/{created['id']}/seat/", {"player": "everyone"})
    return (ben if on == "ben" else everyone).get(f"/g/{created['id']}/").content.decode()


def page_table_draft_everyone():
    return page_table_draft(on="everyone")


def page_live_told():
    created = api_game()
    one, other = joined(created), joined(created)
    other.get(f"/g/{created['id']}/")
    form = {"version": "1", "number": "1", "winner": "0", "hand-1": "4C KC", "hand-2": "JK", "op": "record"}
    assert one.post(f"/g/{created['id']}/rounds/", form, headers=HTMX).status_code == 200
    return other.get(f"/g/{created['id']}/live/", headers=HTMX).content.decode()


def page_refused():
    phone = Client()
    game = new_game(phone)
    response = phone.post(f"/g/{game.pk}/rounds/", round_1(**{"hand-0": "2C"}))
    assert response.status_code == 422
    return response.content.decode()


def page_preview():
    phone = Client()
    game = new_game(phone)
    return phone.post(f"/g/{game.pk}/rounds/", {**round_1(), "preview": "1"}, headers=HTMX).content.decode()


def page_rechecked():
    phone = Client()
    game = new_game(phone)
    form = round_1(winner="", refused="1", preview="1")
    return phone.post(f"/g/{game.pk}/rounds/", form, headers=HTMX).content.decode()


def _night():
    club, token = club_create(name="De Joker")
    night = night_create(club=club, ruleset="mexican", sittings=1)
    night_present(night=night, names=["Ana", "Ben", "Cy", "Dee"])
    tables = list(sitting_draw(night=night, organiser_token=token, seed=7).tables.all())
    return club, night, tables


def page_club_night():
    club, night, _tables = _night()
    return Client().get(f"/c/{club.pk}/nights/{night.pk}/").content.decode()


def page_club_night_results():
    club, night, tables = _night()
    game = tables[0].game
    for number in range(1, 8):
        late = 60 if number == 7 else 0  # 13 cards each in round 7
        record(game, number, "Ana", points={"Ben": late + 5, "Cy": late + 10, "Dee": late + 15})
    return Client().get(f"/c/{club.pk}/nights/{night.pk}/").content.decode()


def page_club_room():
    club, night, _tables = _night()
    return Client().get(f"/c/{club.pk}/nights/{night.pk}/room/").content.decode()


def page_game_room():
    phone = Client()
    return phone.get(f"/g/{played(new_game(phone)).pk}/room/").content.decode()


def page_club_organiser():
    phone = Client()
    return phone.get(phone.post("/clubs/new/", {"name": "De Joker", "names": "Ana\nBen"})["Location"]).content.decode()


def page_rules_detail():
    body = {"name": "Grandma's Mexican", "based_on": "mexican"}
    slug = Client().post("/api/rulesets/", body, content_type=JSON).json()["slug"]
    return Client().get(f"/rules/{slug}/").content.decode()


PAGES = {
    "home": lambda: Client().get("/").content.decode(),
    "new-game": lambda: Client().get("/games/new/").content.decode(),
    "house-editor": lambda: Client().get("/rules/new/").content.decode(),
    "table": page_table,
    "finished": page_finished,
    "table-contract": page_table_contract,
    "table-round-7": page_table_round_7,
    "table-draft": page_table_draft,
    "table-draft-everyone": page_table_draft_everyone,
    "live-told": page_live_told,
    "refused": page_refused,
    "preview": page_preview,
    "rechecked": page_rechecked,
    "club-night": page_club_night,
    "club-night-results": page_club_night_results,
    "club-room": page_club_room,
    "game-room": page_game_room,
    "rules-detail": page_rules_detail,
    "club-organiser": page_club_organiser,
}


def rendered(html, hook):
    """Whether the page has the hook: an id (or one of that prefix), or a data attribute."""
    if hook.startswith("#"):
        name = hook[1:]
        value = re.escape(name[:-1]) + r'[^"]+' if name.endswith("*") else re.escape(name)
        return re.search(rf'\sid="{value}"', html) is not None
    return re.search(rf"\s{re.escape(hook)}[\s=>/]", html) is not None


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(PAGES))
def test_each_page_renders_the_ids_and_data_attributes_its_scripts_rely_on(name):
    html = PAGES[name]()
    expected = sorted(hook for hook, where in HOOKS.items() if name in where.pages)
    assert expected, f"{name}: no hook names this page"
    assert [hook for hook in expected if not rendered(html, hook)] == []


def test_every_page_a_hook_names_is_rendered_by_the_test():
    assert {page for hook in HOOKS.values() for page in hook.pages} <= set(PAGES)


def _camel_to_data(name):
    return "data-" + re.sub(r"[A-Z]", lambda m: "-" + m.group().lower(), name)


def named_by(source):
    """The ids and data attributes a script names, as the contract writes them."""
    found = set()
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)  # not in comments
    source = re.sub(r"^\s*//.*$", "", source, flags=re.M)
    for literal in re.findall(r"\"[^\"\n]*\"|'[^'\n]*'|`[^`]*`", source):
        body = literal[1:-1]
        if re.search(r"getElementById\(\s*$", source[: source.find(literal)]):
            body = "#" + body
        for name, templated in re.findall(r"#([A-Za-z][\w-]*)(\$\{)?", body):
            found.add(f"#{name}*" if templated else f"#{name}")
        found.update(f"data-{name}" for name in re.findall(r"\[data-([\w-]+)", body))
    found.update(f"#{n}" for n in re.findall(r"getElementById\(\s*[\"']([\w-]+)[\"']\s*\)", source))
    found.update(f"#{n}*" for n in re.findall(r"getElementById\(\s*`([\w-]+)\$\{", source))
    found.update(f"#{n}" for n in re.findall(r"\.id\s*[!=]==\s*[\"']([\w-]+)[\"']", source))
    found.update(f"#{n}*" for n in re.findall(r"\.id\??\.startsWith\(\s*[\"']([\w-]+)[\"']", source))
    found.update(re.findall(r"(?:has|get|set|remove)Attribute\(\s*[\"'](data-[\w-]+)[\"']", source))
    found.update(_camel_to_data(n) for n in re.findall(r"\bdataset\??\.(\w+)", source))
    for keys in re.findall(r"\bdataset\[([^\]]*)\]", source):
        found.update(_camel_to_data(n) for n in re.findall(r"[\"'](\w+)[\"']", keys))
    return found


def test_every_id_and_data_attribute_a_script_names_is_in_the_contract():
    scripts = sorted(SCRIPTS.glob("*.js"))
    assert len(scripts) >= 8
    unlisted = {
        f"{path.name}: {name}"
        for path in scripts
        for name in named_by(path.read_text())
        if name not in HOOKS and name not in SCRIPT_OWNED
    }
    assert unlisted == set(), "list these in tests/scorekeeping/web/script_contract.py"


def test_each_hook_is_named_by_the_scripts_it_lists():
    def mentions(source, hook):
        if hook.startswith("#"):
            return hook[1:].rstrip("*") in source
        camel = re.sub(r"-(\w)", lambda m: m.group(1).upper(), hook.removeprefix("data-"))
        return hook in source or re.search(rf"\b{camel}\b", source) is not None

    unused = [
        f"{hook}: {script}"
        for hook, where in HOOKS.items()
        for script in where.scripts
        if not mentions((SCRIPTS / script).read_text(), hook)
    ]
    assert unused == []


def test_the_extraction_finds_each_kind_of_name():
    source = """
      document.getElementById("poller"); document.getElementById(`preview-round-${round}`);
      form.querySelector(`#hand-${seat}`); document.querySelectorAll("#poller, [data-live-poller]");
      if (event.detail.target?.id === "record-action") {}  if (target?.id?.startsWith("result-")) {}
      el.hasAttribute("data-draft"); el.dataset.wakeWebm; send.dataset[x ? "replaceHand" : "sendHand"];
      // document.getElementById("in-a-comment");
    """
    assert named_by(source) == {
        "#poller", "#preview-round-*", "#hand-*", "data-live-poller", "#record-action", "#result-*",
        "data-draft", "data-wake-webm", "data-replace-hand", "data-send-hand",
    }  # fmt: skip
