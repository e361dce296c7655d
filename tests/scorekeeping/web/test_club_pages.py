"""A club's page: anyone with the club link sees its nights, tables and standings; the organiser
link keeps the organiser's token on the phone (a cookie for the club's pages only), and only
that phone sees each table's edit link."""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeping.models import Member, Night, Sitting
from scorekeeping.services import RoundEntry, round_record
from scorekeeping.services.clubs import club_create, night_create, night_present
from scorekeeping.services.sittings import night_finish, sitting_draw
from scorekeeping.web.clubs import NIGHTS_IN_FULL
from tests.scorekeeping.web.markup import without_layout

pytestmark = pytest.mark.django_db


def test_the_organiser_link_shows_the_tables_edit_links_and_the_club_link_does_not(client):
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type="application/json").json()
    token, base = made["organiser_token"], f"/api/clubs/{made['id']}"
    headers = {"X-Club-Token": token}
    night = client.post(f"{base}/nights/", {"sittings": 1}, content_type="application/json", headers=headers).json()
    names = {"names": ["Ana", "Ben", "Cy", "Dee"]}
    client.put(f"{base}/nights/{night['id']}/present/", names, content_type="application/json", headers=headers)
    drawn = client.post(f"{base}/nights/{night['id']}/sittings/", {}, content_type="application/json", headers=headers)
    edit_url = drawn.json()["tables"][0]["game"]["edit_url"]

    page = client.get(f"/c/{made['id']}/").content.decode()
    assert "De Joker" in page and "Table 1" in page and edit_url.split("/", 3)[3] not in page
    joined = client.get(made["organiser_url"].split("testserver")[1])
    assert joined.status_code == 302 and joined["Location"] == f"/c/{made['id']}/"
    assert joined.cookies[f"club-{made['id']}"]["path"] == f"/c/{made['id']}/"
    assert joined["Referrer-Policy"] == "no-referrer"
    page = client.get(f"/c/{made['id']}/")
    assert edit_url.split("/", 3)[3] in page.content.decode() and "no-store" in page["Cache-Control"]


def test_a_wrong_organiser_link_is_refused_and_no_club_is_404(client):
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type="application/json").json()
    refused = client.get(f"/c/{made['id']}/join/{'x' * 43}/")
    assert refused.status_code == 403 and "organiser" in refused.content.decode()
    assert f"club-{made['id']}" not in refused.cookies
    assert client.get("/c/nosuchclub00/").status_code == 404


def test_the_room_screen_shows_the_tables_of_the_sitting_with_their_codes(client):
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type="application/json").json()
    headers = {"X-Club-Token": made["organiser_token"]}
    base = f"/api/clubs/{made['id']}"
    night = client.post(f"{base}/nights/", {"sittings": 2}, content_type="application/json", headers=headers).json()
    names = {"names": ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]}
    client.put(f"{base}/nights/{night['id']}/present/", names, content_type="application/json", headers=headers)
    room = f"/c/{made['id']}/nights/{night['id']}/room/"
    assert "No table drawn yet." in client.get(room).content.decode()
    drawn = client.post(f"{base}/nights/{night['id']}/sittings/", {}, content_type="application/json", headers=headers)
    tables = drawn.json()["tables"]
    page = client.get(room)
    html = page.content.decode()
    assert "no-store" in page["Cache-Control"]
    assert html.count("<svg") >= len(tables) and "Table 2" in html and "Not started yet" in html
    # The test server holds no streams: the screen's poller is asked every 5 s by live.js.
    assert "data-live-poller" in html and "sse-connect" not in html
    assert tables[0]["game"]["edit_url"].split("/join/")[1] not in html  # anyone's screen: view links
    fragment = client.get(room, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in fragment and "Table 1" in fragment
    assert client.get(f"/c/{made['id']}/nights/999/room/").status_code == 404


def test_the_organiser_opens_a_night_checks_in_and_draws_from_the_club_page(client):
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type="application/json").json()
    club = f"/c/{made['id']}/"
    # Without the organiser link, no form works and nothing changes.
    refused = client.post(f"{club}nights/new/", {"ruleset": "mexican", "sittings": "2", "table_size": "4"})
    assert refused.status_code == 403 and not client.get(club).context["nights"]
    client.get(made["organiser_url"].split("testserver")[1])
    assert "Open the night" in client.get(club).content.decode()
    form = {"ruleset": "mexican", "sittings": "2", "table_size": "4", "scoring": "percentage"}
    assert client.post(f"{club}nights/new/", form).status_code == 302
    night = client.get(club).context["nights"][0]["night"]
    checked = client.post(f"{club}nights/{night.pk}/present/", {"more": "Ana\nBen\nCy\n\nDee\nEve"}, follow=True)
    assert "5 players are here." in checked.content.decode()
    member_ids = [str(m.pk) for m in night.club.members.all() if m.name != "Eve"]  # Eve left early
    client.post(f"{club}nights/{night.pk}/present/", {"member": member_ids})
    landed = client.post(f"{club}nights/{night.pk}/draw/")
    # The organiser lands on the tables just drawn (issue 50: they were below the fold).
    assert landed["Location"] == f"{club}#night-{night.pk}-sitting-1"
    drawn = client.get(club).content.decode()
    assert f'<h3 id="night-{night.pk}-sitting-1">' in drawn
    assert "Sitting 1 is drawn" in drawn and "Table 1" in drawn and "/join/" in drawn  # the edit link
    again = client.post(f"{club}nights/{night.pk}/draw/", follow=True).content.decode()
    assert "still being played at table 1" in again  # said, and nothing drawn
    assert Sitting.objects.filter(night_id=night.pk).count() == 1
    bad = client.post(f"{club}nights/new/", {**form, "table_size": "9"}, follow=True).content.decode()
    assert "table_size" in bad and len(client.get(club).context["nights"]) == 1


def test_the_organiser_adds_a_pasted_list_renames_and_retires_members_from_the_club_page(client):
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type="application/json").json()
    club = f"/c/{made['id']}/"
    assert client.post(f"{club}members/", {"names": "Ana"}).status_code == 403
    client.get(made["organiser_url"].split("testserver")[1])
    added = client.post(f"{club}members/", {"names": "Ana\r\nben\n\n  Cy  \nBEN\n"}, follow=True).content.decode()
    assert "The club has 3 members." in added
    by_name = {m.name: m.pk for m in Member.objects.filter(club_id=made["id"])}
    assert set(by_name) == {"Ana", "ben", "Cy"}
    renamed = client.post(f"{club}members/", {"member": by_name["ben"], "name": "Ben", "action": "rename"}, follow=True)
    assert "ben is now Ben." in renamed.content.decode()
    clash = client.post(f"{club}members/", {"member": by_name["Cy"], "name": "ana", "action": "rename"}, follow=True)
    assert "ana is a member already" in clash.content.decode()
    retired = client.post(f"{club}members/", {"member": by_name["Cy"], "action": "retire"}, follow=True)
    assert "Cy is retired" in retired.content.decode() and 'aria-label="Retire Cy"' not in retired.content.decode()
    assert dict(Member.objects.filter(club_id=made["id"]).values_list("name", "active")) == {
        "Ana": True,
        "Ben": True,
        "Cy": False,
    }
    empty = client.post(f"{club}members/", {"names": " \n "}, follow=True).content.decode()
    assert "one a line" in empty


def test_the_room_screen_says_who_is_still_entering_their_hand(client):
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type="application/json").json()
    headers = {"X-Club-Token": made["organiser_token"]}
    base = f"/api/clubs/{made['id']}"
    night = client.post(f"{base}/nights/", {"sittings": 1}, content_type="application/json", headers=headers).json()
    names = {"names": ["Ana", "Ben", "Cy", "Dee"]}
    client.put(f"{base}/nights/{night['id']}/present/", names, content_type="application/json", headers=headers)
    drawn = client.post(f"{base}/nights/{night['id']}/sittings/", {}, content_type="application/json", headers=headers)
    table = drawn.json()["tables"][0]
    game = f"/api/games/{table['game']['id']}"
    token = {"X-Game-Token": table["game"]["edit_url"].split("/join/")[1].strip("/")}
    room = f"/c/{made['id']}/nights/{night['id']}/room/"
    assert "Entering:" not in client.get(room).content.decode()
    first, second, *rest = table["players"]
    client.put(f"{game}/draft/", {"number": 1, "winner": first}, content_type="application/json", headers=token)
    hand = {"number": 1, "points": 5}
    sent = client.put(f"{game}/draft/hands/{second}/", hand, content_type="application/json", headers=token)
    assert sent.status_code == 200, sent.content
    html = client.get(room).content.decode()
    assert f"Entering: {', '.join(rest)}" in html  # the one who went out and the hand sent in aside


def test_a_single_games_room_screen_shows_the_round_to_deal_and_the_standings_large(client):
    made = client.post(
        "/api/games/", {"ruleset": "mexican", "players": ["Ana", "Ben", "Cy"]}, content_type="application/json"
    ).json()
    room = f"/g/{made['id']}/room/"
    html = client.get(room).content.decode()
    assert "Round 1 of 7" in html and 'class="room"' in html and "0 rounds played" in html
    body = {"number": 1, "winner": "Ben", "points": {"Ana": 10, "Cy": 5}}
    made_round = client.post(
        f"/api/games/{made['id']}/rounds/", body, content_type="application/json", headers=_edit(made)
    )
    assert made_round.status_code == 201, made_round.content
    fragment = client.get(room, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in fragment and "Round 2 of 7" in fragment and "1 round played" in fragment
    rows = [(r.player.name, r.total, r.place) for r in client.get(room).context["standings"].rows]
    assert rows == [("Ben", 0, 1), ("Cy", 5, 2), ("Ana", 10, 3)]
    # Each row in its player's colour (seat order: Ana blue, Ben red, Cy green), the initial on it.
    shown = re.findall(
        r'<tr class="pc-(\w+)"><td>\d</td><th scope="row"><span class="who"><span class="swatch" '
        r'aria-hidden="true">(\w)</span><span class="name">(\w+)</span>',
        without_layout(client.get(room).content.decode()),
    )
    assert shown == [("red", "B", "Ben"), ("green", "C", "Cy"), ("blue", "A", "Ana")]
    assert f'href="{room}"' in client.get(f"/g/{made['id']}/").content.decode()
    assert client.get("/g/nosuchgame0/room/").status_code == 404


def _edit(made):
    return {"X-Game-Token": made["edit_token"]}


def _club_of(nights):
    """A club of four members and ``nights`` finished nights, a week apart: one sitting each, one
    table whose first round is played (the night then finished, the table ended as it stands)."""
    club, token = club_create(name="De Joker")
    names = ["Ana", "Ben", "Cy", "Dee"]
    for week in range(nights):
        date = dt.date(2026, 1, 7) + dt.timedelta(weeks=week)
        night = night_create(club=club, ruleset="mexican", sittings=1, date=date)
        night_present(night=night, names=names)
        table = sitting_draw(night=night, organiser_token=token).tables.get()
        players = [p.name for p in table.game.players.all()]
        points = {n: 5 * (i + 1) for i, n in enumerate(players[1:])}
        round_record(game=table.game, number=1, entry=RoundEntry(winner=players[0], points=points))
        if week < nights - 1:
            night_finish(night=night)
    return club, night


PAGES = {
    "club": "/c/{club}/",
    "night": "/c/{club}/nights/{night}/",
    "room": "/c/{club}/nights/{night}/room/",
    "season": "/c/{club}/season/",
    "records": "/c/{club}/records/",
    "member": "/c/{club}/members/Ana/",
    "no such member": "/c/{club}/members/Zed/",
}


def _queries(client, page):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(page)
    assert response.status_code in (200, 404)
    return len(captured.captured_queries)


@pytest.mark.parametrize("page", PAGES.values(), ids=PAGES.keys())
def test_a_club_page_costs_as_many_queries_after_twenty_nights_as_after_one(client, page):
    counts = []
    for nights in (1, 20):
        club, night = _club_of(nights)
        url = page.format(club=club.pk, night=night.pk)
        counts.append(_queries(client.__class__(), url))
    assert counts[0] == counts[1] <= 12


def test_the_club_page_shows_the_newest_nights_in_full_and_lists_the_older_ones(client):
    club, _newest = _club_of(20)
    nights = list(Night.objects.filter(club=club).order_by("-date"))
    page = client.get(f"/c/{club.pk}/")
    html = page.content.decode()
    assert len(re.findall(r"<h3 id=\"night-\d+-sitting-1\">\s*Sitting 1\s*</h3>", html)) == NIGHTS_IN_FULL
    assert [item["night"] for item in page.context["nights"]] == nights[:NIGHTS_IN_FULL]
    for night in nights[NIGHTS_IN_FULL:]:  # the older ones a line each, linked to their night
        assert f'href="/c/{club.pk}/nights/{night.pk}/"' in html
    assert "Older nights" in html and "?page=2" not in html  # twenty nights fit on one page
    further = client.get(f"/c/{club.pk}/?page=2").content.decode()
    assert "No older club night." in further and 'href="?page=1"' in further and "<h3>" not in further


def test_finishing_the_night_is_asked_in_words_and_a_stray_tap_changes_nothing(client):
    """Issue 35: "Finish the night" sat under "Draw" with no confirmation, and one tap ended a night
    at round 0. It is a fold of its own now ("Finish the night…"), saying how many tables still
    play, and the server finishes a night only with the confirmation."""
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type="application/json").json()
    club = f"/c/{made['id']}/"
    client.get(made["organiser_url"].split("testserver")[1])
    form = {"ruleset": "mexican", "sittings": "2", "table_size": "4", "scoring": "percentage"}
    client.post(f"{club}nights/new/", form)
    night = client.get(club).context["nights"][0]["night"]
    client.post(f"{club}nights/{night.pk}/present/", {"more": "Ana\nBen\nCy\nDee\nEve\nFay\nGus\nHal"})
    client.post(f"{club}nights/{night.pk}/draw/")
    page = client.get(club).content.decode()
    assert "Finish the night…" in page and "Tables still playing: 2. They end as they stand." in page
    assert page.index("Draw the next sitting") < page.index("Finish the night…")
    stray = client.post(f"{club}nights/{night.pk}/finish/", follow=True).content.decode()
    assert "The night was not finished" in stray
    night.refresh_from_db()
    assert night.status == "open"
    done = client.post(f"{club}nights/{night.pk}/finish/", {"confirm": "1"}, follow=True).content.decode()
    night.refresh_from_db()
    assert "The night is finished." in done and night.status != "open"
