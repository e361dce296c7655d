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


@pytest.mark.django_db(transaction=True)
def test_no_round_lands_while_an_export_reads_the_game():
    """The export read the game's version, its rounds and its history in separate statements: a
    round recorded on another phone between them left them disagreeing, and the file was refused
    on import ("not a game this app could have exported"; found by a read of the code). It now
    reads in one transaction that keeps writes out (the game's row locked on PostgreSQL, the
    database's write lock on SQLite, taken by every write): another connection's write, tried
    between the export's reads, is refused at once."""
    from django.db import OperationalError, connection, connections

    from referee.engine.rounds import RoundEntry
    from scorekeeping.services import round_record
    from scorekeeping.services.exchange import game_document, game_import
    from tests.helpers import fresh

    game, _token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben"], first_dealer="Ana")
    round_record(game=game, number=1, entry=RoundEntry(winner="Ana", hands={"Ben": "5C"}))
    tried = []

    def a_write_tried_between_the_reads(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not tried and 'FROM "scorekeeping_game"' in sql:
            if connection.vendor != "postgresql":
                # SQLite: the tests' database is shared memory, whose locks are not the file's; a
                # transaction there is what takes the file's write lock (IMMEDIATE) and holds one
                # snapshot for every read (WAL).
                tried.append("refused" if connection.in_atomic_block else "landed")
                return result
            other = connections.create_connection("default")
            try:
                with other.cursor() as cursor:
                    cursor.execute("BEGIN")
                    cursor.execute("SELECT 1 FROM scorekeeping_game WHERE id = %s FOR UPDATE NOWAIT", [game.pk])
                tried.append("landed")
            except OperationalError:
                tried.append("refused")
            finally:
                other.close()
        return result

    shown = fresh(game)  # as the export's page has it
    with connection.execute_wrapper(a_write_tried_between_the_reads):
        document = game_document(shown)
    assert tried == ["refused"]
    round_record(game=fresh(game), number=2, entry=RoundEntry(winner="Ben", hands={"Ana": "KC"}))  # after it: lands
    assert Round.objects.filter(game=game).count() == 2 and len(document["rounds"]) == 1
    game_import(document=document)  # the same game, replayed: imported back
