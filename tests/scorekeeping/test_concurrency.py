"""Several phones at once, against a live server with real concurrent requests.

On PostgreSQL (CI runs the suite with DATABASE_URL) the game row lock and the unique
round number decide; on SQLite the database takes one writer at a time.
"""

import pytest

from scorekeeping.models import Change, Round, Score
from scorekeeping.services import game_create

from .racing import race


def _race(url, bodies, token):
    return race([(url, body, token) for body in bodies])


@pytest.mark.django_db(transaction=True)
def test_same_round_from_several_phones_is_recorded_once(live_server):
    game, token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben", "Cy", "Dee"], first_dealer="Ana")
    names = ["Ana", "Ben", "Cy", "Dee"]
    bodies = []
    for winner in names * 2:  # eight phones, each with its own idea of who went out
        others = [n for n in names if n != winner]
        bodies.append(
            {"number": 1, "winner": winner, "hands": dict(zip(others, ["4C KC", "JK", "3D AS"], strict=True))}
        )
    results = _race(f"{live_server.url}/api/games/{game.pk}/rounds/", bodies, token)
    statuses = sorted(status for status, _ in results)
    assert statuses == [201] + [409] * 7, results
    conflicts = [body for status, body in results if status == 409]
    assert all("Someone already recorded round 1" in body["detail"] for body in conflicts)
    winner_body = next(body for status, body in results if status == 201)
    assert Round.objects.filter(game=game).count() == 1
    assert Score.objects.filter(round__game=game).count() == 4
    assert Change.objects.filter(game=game).count() == 1
    totals = {r["player"]: r["total"] for r in winner_body["standings"]["standings"]}
    stored = {s.player.name: s.points for s in Score.objects.filter(round__game=game).select_related("player")}
    assert totals == stored
    assert sum(stored.values()) == 15 + 20 + 35


@pytest.mark.django_db(transaction=True)
def test_a_double_tap_records_the_round_once(live_server):
    game, token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben"], first_dealer="Ana")
    body = {"number": 1, "winner": "Ana", "hands": {"Ben": "4C"}, "version": game.version}
    results = _race(f"{live_server.url}/api/games/{game.pk}/rounds/", [body, body], token)
    assert sorted(status for status, _ in results) == [201, 409]
    assert Round.objects.filter(game=game).count() == 1
