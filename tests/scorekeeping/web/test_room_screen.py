"""The club night's room screen and the organiser's page (issue 35, "a table that looks like a
game"): running totals while no table has finished, the nights told apart by their number, and a
ticked name checked in at once (htmx), the Check in button still there without JavaScript."""

import datetime as dt

import pytest

from scorekeeping.models import Member, Night
from scorekeeping.services import RoundEntry, round_record
from scorekeeping.services.clubs import club_create, member_retire, night_create, night_present
from scorekeeping.services.sittings import night_finish, sitting_draw, table_end
from tests.scorekeeping.web.markup import tags_on_one_line, without_layout

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _night_of_two_tables():
    """A club night of two tables of four (one sitting), nothing recorded yet."""
    club, token = club_create(name="De Joker")
    night = night_create(club=club, ruleset="mexican", sittings=1)
    night_present(night=night, names=NAMES)
    tables = list(sitting_draw(night=night, organiser_token=token, seed=7).tables.order_by("number"))
    return club, night, tables


def _record(table, number, winner_seat, points_by_seat):
    players = list(table.game.players.order_by("seat"))
    points = {players[seat].name: value for seat, value in points_by_seat.items()}
    round_record(game=table.game, number=number, entry=RoundEntry(winner=players[winner_seat].name, points=points))
    return [p.name for p in players]


def _room(client, club, night):
    return client.get(f"/c/{club.pk}/nights/{night.pk}/room/")


def test_before_any_table_finishes_the_room_shows_the_running_totals_lowest_first(client):
    club, night, (one, two) = _night_of_two_tables()
    first = _record(one, 1, 0, {1: 20, 2: 5, 3: 35})
    second = _record(two, 1, 1, {0: 15, 2: 20, 3: 50})
    page = _room(client, club, night)
    rows = [(r.player, r.total, r.table, r.place) for r in page.context["running"]]
    # Equal totals: the round won first (Mexican Rummy breaks a table's ties by rounds won).
    assert rows == [
        (first[0], 0, 1, 1),
        (second[1], 0, 2, 1),
        (first[2], 5, 1, 3),
        (second[0], 15, 2, 4),
        (first[1], 20, 1, 5),
        (second[2], 20, 2, 5),
        (first[3], 35, 1, 7),
        (second[3], 50, 2, 8),
    ]
    html = without_layout(page.content.decode())
    assert "Running totals: no table has finished yet." in html
    shown = [html.index(f'<span class="name">{name}</span></span></th>') for name, *_rest in rows]
    assert shown == sorted(shown)  # the standings' rows in that order


def test_equal_totals_are_ranked_by_rounds_won_then_share_a_place(client):
    club, night, (one, two) = _night_of_two_tables()
    first = _record(one, 1, 0, {1: 10, 2: 5, 3: 10})
    _record(one, 2, 1, {0: 10, 2: 5, 3: 5})  # Ana and Ben 10 with a round won each, Cy 10 with none
    second = _record(two, 1, 0, {1: 10, 2: 30, 3: 40})
    rows = [(r.player, r.total, r.place) for r in _room(client, club, night).context["running"]]
    tied = sorted(first[:2])  # one table, one key: by name
    assert rows == [
        (second[0], 0, 1),
        (tied[0], 10, 2),
        (tied[1], 10, 2),
        (first[2], 10, 4),  # then by table
        (second[1], 10, 4),
        (first[3], 15, 6),
        (second[2], 30, 7),
        (second[3], 40, 8),
    ]


def test_a_table_not_started_joins_the_running_totals_with_its_first_round(client):
    club, night, (one, _two) = _night_of_two_tables()
    page = _room(client, club, night)
    assert page.context["running"] == []
    assert "The standings come with the first finished table." in page.content.decode()
    first = _record(one, 1, 0, {1: 20, 2: 5, 3: 35})
    running = _room(client, club, night).context["running"]
    assert [r.player for r in running] == [first[0], first[2], first[1], first[3]]


def test_once_a_table_finishes_the_night_standings_replace_the_running_totals(client):
    club, night, (one, _two) = _night_of_two_tables()
    _record(one, 1, 0, {1: 20, 2: 5, 3: 35})
    table_end(night=night, sitting=1, table=1)
    page = _room(client, club, night)
    html = page.content.decode()
    assert page.context["running"] == [] and page.context["standings"]
    assert "Running totals" not in html and "Standings of the night" in html


def test_the_room_screen_has_no_site_header_or_footer_but_its_title_main_and_language(client):
    club, night, tables = _night_of_two_tables()
    html = _room(client, club, night).content.decode()
    assert "<header" not in html and "<footer" not in html and 'name="language"' not in html
    assert '<html lang="en">' in html and '<main id="main">' in html and "<title>De Joker · Night 1 · " in html
    game_room = client.get(f"/g/{tables[0].game_id}/room/").content.decode()
    assert "<header" not in game_room and "<footer" not in game_room and '<main id="main">' in game_room
    assert "<header" in client.get(f"/c/{club.pk}/").content.decode()  # the other pages keep theirs


def test_each_tile_shows_its_players_in_their_colours_and_the_round_it_is_on(client):
    club, night, (one, _two) = _night_of_two_tables()
    _record(one, 1, 0, {1: 20, 2: 5, 3: 35})
    html = _room(client, club, night).content.decode()
    for player in one.game.players.all():
        assert f'<li class="pc-{player.colour}' in html and f'<span class="name">{player.name}</span>' in html
    assert "Round 2 of 7" in html and "Round 1 of 7" in html  # table 1 on its second round, table 2 on its first


def test_two_nights_on_one_date_are_told_apart_by_their_number(client):
    club, _token = club_create(name="De Joker")
    date = dt.date(2026, 12, 3)
    first = night_create(club=club, ruleset="mexican", sittings=1, date=date)
    second = night_create(club=club, ruleset="mexican", sittings=1, date=date)
    html = client.get(f"/c/{club.pk}/").content.decode()
    assert "Night 2 · 3 December 2026" in html and "Night 1 · 3 December 2026" in html
    assert html.index("Night 2 · 3 December 2026") < html.index("Night 1 · 3 December 2026")  # newest first
    assert "Night 1 · 3 December 2026" in client.get(f"/c/{club.pk}/nights/{first.pk}/").content.decode()
    room = client.get(f"/c/{club.pk}/nights/{second.pk}/room/").content.decode()
    assert "Night 2 · 3 December 2026" in room and "<title>De Joker · Night 2 · 3 December</title>" in room


def test_a_nights_number_counts_the_clubs_nights_in_the_order_they_were_opened(client):
    club, _token = club_create(name="De Joker")
    other, _other_token = club_create(name="De Troef")
    night_create(club=other, ruleset="mexican", sittings=1)  # another club's night counts for that club only
    dates = [dt.date(2026, 1, 7) + dt.timedelta(weeks=week) for week in range(6)]
    for date in reversed(dates):  # opened latest date first: the number follows the opening
        night_create(club=club, ruleset="mexican", sittings=1, date=date)
    html = client.get(f"/c/{club.pk}/").content.decode()
    for number, date in enumerate(reversed(dates), start=1):
        assert f"Night {number} · {date.day} {date:%B} {date.year}" in html  # in full or listed


def _organiser(client):
    club, token = club_create(name="De Joker")
    client.get(f"/c/{club.pk}/join/{token}/")
    night = night_create(club=club, ruleset="mexican", sittings=1)
    night_present(night=night, names=["Ana", "Ben", "Cy"])
    Member.objects.create(club=club, name="Dee", key="dee")
    return club, night, {m.name: m.pk for m in club.members.all()}


def _present(night):
    return sorted(Night.objects.get(pk=night.pk).present.values_list("name", flat=True))


def test_a_ticked_name_is_checked_in_at_once_and_an_unticked_one_out(client):
    club, night, ids = _organiser(client)
    url = f"/c/{club.pk}/nights/{night.pk}/present/"
    page = tags_on_one_line(client.get(f"/c/{club.pk}/").content.decode())
    assert f'hx-post="{url}" hx-vals=\'{{"tick": "{ids["Dee"]}"}}\'' in page  # each box posts itself
    assert ">Check in</button>" in page  # and the form's own button, for the names typed and without JavaScript
    htmx = {"HX-Request": "true"}
    ticked = [ids["Ana"], ids["Ben"], ids["Cy"], ids["Dee"]]
    said = client.post(url, {"tick": ids["Dee"], "member": ticked}, headers=htmx)
    assert said.status_code == 200 and said.content.decode() == '<span class="said">4 players are here.</span>'
    assert _present(night) == ["Ana", "Ben", "Cy", "Dee"]
    # Unticked: Ben out, the others as they are (a box's post names only its own member).
    said = client.post(url, {"tick": ids["Ben"], "member": [ids["Ana"]]}, headers=htmx)
    assert "3 players are here." in said.content.decode() and _present(night) == ["Ana", "Cy", "Dee"]


def test_a_tick_for_a_retired_member_or_a_finished_night_is_refused_beside_the_list(client):
    club, night, ids = _organiser(client)
    url = f"/c/{club.pk}/nights/{night.pk}/present/"
    htmx = {"HX-Request": "true"}
    member_retire(club=club, name="Dee")
    refused = client.post(url, {"tick": ids["Dee"], "member": [ids["Dee"]]}, headers=htmx)
    assert refused.status_code == 200 and "Dee is no member of this club" in refused.content.decode()
    assert 'class="error"' in refused.content.decode() and _present(night) == ["Ana", "Ben", "Cy"]
    night_finish(night=night)
    closed = client.post(url, {"tick": ids["Ana"]}, headers=htmx).content.decode()
    assert "This night is finished" in closed and _present(night) == ["Ana", "Ben", "Cy"]


def test_without_javascript_check_in_sends_the_whole_list_and_a_stranger_is_refused(client):
    club, night, ids = _organiser(client)
    url = f"/c/{club.pk}/nights/{night.pk}/present/"
    done = client.post(url, {"member": [ids["Ana"], ids["Dee"]], "more": "Eve"}, follow=True)
    assert "3 players are here." in done.content.decode() and _present(night) == ["Ana", "Dee", "Eve"]
    stranger = client.__class__()
    assert stranger.post(url, {"tick": ids["Ben"], "member": [ids["Ben"]]}).status_code == 403
    assert client.get(url).status_code == 405
    assert _present(night) == ["Ana", "Dee", "Eve"]
