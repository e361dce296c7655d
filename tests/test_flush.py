"""Between two tests that served a real browser, the database is emptied (one TRUNCATE of every
table) while a request the last test left on its way may still be reading. That request takes its
tables one at a time, as TRUNCATE does: each holding one the other wants, PostgreSQL broke the
deadlock by failing the TRUNCATE ("Database test_postgres_gw0 couldn't be flushed", CI at stop 44).
The emptying now takes every table's lock at once or none (tests/conftest.py)."""

import re
import threading

import pytest
from django.core.management import call_command
from django.core.management.color import no_style
from django.core.management.sql import sql_flush
from django.db import connection, connections

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's TRUNCATE locks; CI runs it there"),
]


def test_emptying_the_database_waits_for_a_late_request_and_deadlocks_with_none():
    # The tables in the order the emptying names (and locks) them.
    truncate = next(sql for sql in sql_flush(no_style(), connection) if sql.startswith("TRUNCATE"))
    named = re.findall(r'"([^"]+)"', truncate)
    first, last = named[0], named[-1]
    outcome: dict[str, object] = {}

    def late_request() -> None:
        """Reads the last table, then (once the emptying has begun) the first, in one transaction."""
        try:
            with connections["default"].cursor() as cursor:
                cursor.execute("BEGIN")
                cursor.execute(f'SELECT count(*) FROM "{last}"')
                holding.set()
                # A condition, not a time: the emptying has sent its statement (waiting, or refused).
                for _ in range(1000):
                    cursor.execute("SELECT pg_stat_clear_snapshot()")  # a transaction sees one snapshot
                    cursor.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                        " AND pid <> pg_backend_pid() AND (query ILIKE 'TRUNCATE%' OR query ILIKE 'LOCK%')"
                    )
                    if cursor.fetchone()[0]:
                        outcome["met"] = True
                        break
                    cursor.execute("SELECT pg_sleep(0.01)")
                cursor.execute(f'SELECT count(*) FROM "{first}"')
                cursor.execute("COMMIT")
            outcome["done"] = True
        except Exception as exc:  # the failure is the finding, asserted below
            outcome["late"] = repr(exc)
        finally:
            connections["default"].close()

    holding = threading.Event()
    thread = threading.Thread(target=late_request)
    thread.start()
    assert holding.wait(10), outcome
    call_command("flush", interactive=False, verbosity=0)
    thread.join(30)
    assert outcome == {"met": True, "done": True}
