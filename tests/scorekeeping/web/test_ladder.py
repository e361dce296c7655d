"""The ladder (issue 36): every player rated with OpenSkill's Plackett-Luce model from their
finished games, in the order they were played, checked against the ``openskill`` package's own
output for the same games; the ladder's API, pages and the rating on a profile."""

import re

import pytest
from django.test.utils import override_settings
from openskill.models import PlackettLuce

from referee.engine.ladder import HISTORY_SHOWN, ladder
from referee.engine.stories import PlayedGame, PlayedRound
from scorekeeping.services import RoundEntry, game_create, round_record
from scorekeeping.services.clubs import club_create, night_create, night_present
from scorekeeping.services.sittings import sitting_draw

pytestmark = pytest.mark.django_db
JSON = "application/json"


def _finish(game, places):
    """Play ``game`` (Mexican, 7 rounds) to these final places: ``places`` lists the players best
    first, a tuple for a shared place. The first goes out every round; the k-th place after them
    scores 5(k+1) a round and 65 + 5k in round 7 (13 cards), so equal k are equal totals (and no
    rounds won between them: a shared place)."""
    winner, *rest = places
    points = {}
    for k, group in enumerate(rest):
        for name in group if isinstance(group, tuple) else (group,):
            points[name] = k
    for number in range(1, 8):
        typed = {name: (65 + 5 * k if number == 7 else 5 * (k + 1)) for name, k in points.items()}
        round_record(game=game, number=number, entry=RoundEntry(winner=winner, points=typed))


# Four games of a home server, in the order they finish; each: players in seat order, then places.
GAMES = [
    (["Ana", "Ben", "Cy"], ["Ana", "Ben", "Cy"]),
    (["Ben", "Cy", "Dee"], ["Cy", ("Ben", "Dee")]),  # Ben and Dee share second place
    (["Ana", "Cy", "Dee"], ["Dee", "Ana", "Cy"]),
    (["Ana", "Ben", "Cy", "Dee"], ["Ben", "Ana", "Dee", "Cy"]),
]


def _expected():
    """The same games through openskill directly: every player's rating after them."""
    model = PlackettLuce()
    ratings = {}
    for seats, places in GAMES:
        rank = {}
        for k, group in enumerate(places):
            for name in group if isinstance(group, tuple) else (group,):
                rank[name] = k + 1 if k == 0 else 1 + sum(len(g) if isinstance(g, tuple) else 1 for g in places[:k])
        teams = [[ratings.get(n) or model.rating(name=n)] for n in seats]
        for name, (after,) in zip(seats, model.rate(teams, ranks=[rank[n] for n in seats]), strict=True):
            ratings[name] = after
    return ratings


def _server_games():
    for seats, places in GAMES:
        game, _token = game_create(ruleset="mexican", variants=[], players=seats, first_dealer=seats[0])
        _finish(game, places)


def test_the_servers_ladder_is_openskills_plackett_luce_over_the_games_in_order(client):
    _server_games()
    answer = client.get("/api/ladder/")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    expected = _expected()
    assert body["ruleset"] == "mexican"
    # Ana, Ben, Cy played 3 or 4 games; Dee 3: everyone is rated, with 3 games or more.
    assert body["unrated"] == []
    shown = {p["name"]: p for p in body["players"]}
    for name, rating in expected.items():
        assert shown[name]["mu"] == round(rating.mu, 2)
        assert shown[name]["sigma"] == round(rating.sigma, 2)
        assert shown[name]["rating"] == round(rating.ordinal(), 2) == round(rating.mu - 3 * rating.sigma, 2)
    assert [p["name"] for p in body["players"]] == sorted(expected, key=lambda n: -expected[n].ordinal())
    assert [p["place"] for p in body["players"]] == [1, 2, 3, 4]
    assert {n: (p["games"], p["wins"]) for n, p in shown.items()} == {
        "Ana": (3, 1),
        "Ben": (3, 1),
        "Cy": (4, 1),
        "Dee": (3, 1),
    }
    assert client.get("/api/ladder/?ruleset=contract").json() == {"ruleset": "contract", "players": [], "unrated": []}
    wrong = client.get("/api/ladder/?ruleset=poker")
    assert wrong.status_code == 400 and "poker is no ruleset" in wrong.json()["detail"]
    with override_settings(PRIVATE_LISTS=True):
        assert client.get("/api/ladder/").status_code == 404


def test_three_rated_games_before_a_place_and_a_shared_rating_a_shared_place():
    def game(pk, order, places):
        rounds = (PlayedRound(1, None, dict.fromkeys(places, 0)),)
        return PlayedGame(pk, "mexican", "2026-12-04", tuple(places), rounds, places, True, order)

    tied = [game(f"g{i}", ("2026-12-04", 1, i, 1), {"Ana": 1, "Ben": 1}) for i in range(3)]
    found = ladder([*tied, game("g9", ("2026-12-04", 1, 9, 1), {"Ana": 1, "Cy": 2})], "mexican")
    ana, ben = found.players
    assert (ana.name, ana.place, ana.games, ana.wins) == ("Ana", 1, 4, 4)
    assert (ben.name, ben.games, ben.wins) == ("Ben", 3, 3)
    assert [(u.name, u.games) for u in found.unrated] == [("Cy", 1)]
    even = ladder(tied, "mexican")
    assert [(r.name, r.place) for r in even.players] == [("Ana", 1), ("Ben", 1)]  # equal ratings share
    assert [len(found.history[n]) for n in ("Ana", "Ben", "Cy")] == [4, 3, 1]


def test_a_ratings_history_is_told_for_the_latest_hundred_games():
    """A chart a phone can show and an answer of a bounded size, however long the history."""
    games = [
        PlayedGame(
            f"g{i:03d}",
            "mexican",
            "2026-12-04",
            ("Ana", "Ben"),
            (PlayedRound(1, "Ana", {"Ana": 0, "Ben": 5}),),
            {"Ana": 1, "Ben": 2},
            True,
            ("2026-12-04", 1, i, 1),
        )
        for i in range(HISTORY_SHOWN + 20)
    ]
    found = ladder(games, "mexican")
    ana = found.rating_of("Ana")
    assert ana.games == HISTORY_SHOWN + 20 and len(found.history["Ana"]) == HISTORY_SHOWN
    assert found.history["Ana"][0].game == "g020" and found.history["Ana"][-1].rating == ana.rating


def test_a_clubs_ladder_the_members_rating_and_its_pages(client, django_assert_max_num_queries):
    club, token = club_create(name="De Joker")
    night = night_create(club=club, ruleset="mexican", sittings=4)
    night_present(night=night, names=["Ana", "Ben"])
    results = [["Ana", "Ben"], ["Ana", "Ben"], ["Ben", "Ana"], ["Ana", "Ben"]]
    for places in results:
        _finish(sitting_draw(night=night, organiser_token=token, seed=1).tables.get().game, places)
    body = client.get(f"/api/clubs/{club.pk}/ladder/").json()
    model = PlackettLuce()
    ana, ben = model.rating(), model.rating()
    history = []
    for places in results:
        first, second = (ana, ben) if places[0] == "Ana" else (ben, ana)
        [[first], [second]] = model.rate([[first], [second]], ranks=[1, 2])
        ana, ben = (first, second) if places[0] == "Ana" else (second, first)
        history.append(round(ana.ordinal(), 2))
    assert [(p["name"], p["rating"], p["games"], p["wins"]) for p in body["players"]] == [
        ("Ana", round(ana.ordinal(), 2), 4, 3),
        ("Ben", round(ben.ordinal(), 2), 4, 1),
    ]
    member = client.get(f"/api/clubs/{club.pk}/members/ana/").json()
    assert (member["rating"], member["rating_ruleset"]) == (round(ana.ordinal(), 2), "mexican")
    assert [step["rating"] for step in member["rating_history"]] == history
    assert (member["games"], member["wins"], member["rounds_out"]) == (4, 3, 21)
    page = client.get(f"/c/{club.pk}/ladder/")
    html = page.content.decode()
    assert page.status_code == 200 and '<header class="bar">' in html
    assert html.index(">Ana</a>") < html.index(">Ben</a>") and f"{round(ana.ordinal(), 2):.2f}" in html
    tv = client.get(f"/c/{club.pk}/ladder/?tv=1").content.decode()
    assert '<header class="bar">' not in tv and 'class="ladder room"' in tv
    assert client.get(f"/c/{club.pk}/ladder/?ruleset=poker").status_code == 404
    profile = client.get(f"/c/{club.pk}/members/Ana/").content.decode()
    assert f'<span class="rating">{round(ana.ordinal(), 2):.2f}</span>' in profile and "place 1 of 2" in profile
    ids = re.findall(r' id="([^"]+)"', profile)  # two charts, each titled by an id of its own
    assert "rating-chart-title" in ids and "chart-title" in ids and len(ids) == len(set(ids))
    with django_assert_max_num_queries(5):  # the club, its members, the ruleset, the ratings: the kept lines only
        assert client.get(f"/c/{club.pk}/ladder/").status_code == 200


def test_the_ladder_and_a_profile_speak_plain_words(client):
    """Issue 50: the ladder spoke statistics ("mu minus three sigma"), was empty until a player had
    3 games without saying why, and a profile's "Favourite round 1" was ambiguous."""
    club, token = club_create(name="De Joker")
    night = night_create(club=club, ruleset="mexican", sittings=4)
    night_present(night=night, names=["Ana", "Ben"])
    _finish(sitting_draw(night=night, organiser_token=token, seed=1).tables.get().game, ["Ana", "Ben"])
    html = client.get(f"/c/{club.pk}/ladder/").content.decode()
    assert "sigma" not in html and "careful estimate of how strong a player is" in html
    assert "Nobody is on the ladder yet: a rating shows once a player has finished 3 games" in html
    assert re.search(r"Ana\s*<span class=\"hint\">· 2 more games before a rating shows", html)
    profile = client.get(f"/c/{club.pk}/members/Ana/").content.decode()
    assert "Favourite round" not in profile
    assert re.search(r"<dt>Best round, on average</dt>\s*<dd>Round \d</dd>", profile)


def test_an_organiser_hides_the_ladder_and_no_rating_shows_anywhere(client):
    """Issue 50: some players want no rated games: the organiser's switch hides the ladder, its
    page says why, and no member's page or answer shows a rating; showing it again brings it back."""
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type="application/json").json()
    club_id = made["id"]
    # A stranger cannot: the organiser's right is needed.
    assert client.post(f"/c/{club_id}/ladder/shown/", {"shown": "0"}).status_code == 403
    client.get(made["organiser_url"].split("testserver")[1])
    assert client.post(f"/c/{club_id}/ladder/shown/", {"shown": "0"}).status_code == 302
    page = client.get(f"/c/{club_id}/ladder/")
    assert page.status_code == 404 and "This club keeps no ladder" in page.content.decode()
    assert client.get(f"/api/clubs/{club_id}/ladder/").status_code == 404
    assert f'href="/c/{club_id}/ladder/"' not in client.get(f"/c/{club_id}/").content.decode()
    client.post(f"/c/{club_id}/ladder/shown/", {"shown": "1"})
    assert client.get(f"/c/{club_id}/ladder/").status_code == 200
