"""The PostgreSQL listener's connection: the database's settings, and only libpq's own options."""

from django.db import connections
from psycopg.conninfo import conninfo_to_dict

from scorekeeping.live.hub import _conninfo
from scorekeeping.live.stream import event, last_seen


def test_the_listener_connects_as_django_does_with_libpq_options_only(monkeypatch):
    settings = {
        **connections["default"].settings_dict,
        "NAME": "rummy",
        "USER": "table",
        "PASSWORD": "two words",
        "HOST": "db.example",
        "PORT": 5433,
        "OPTIONS": {"sslmode": "require", "server_side_binding": True, "isolation_level": 1},
    }
    monkeypatch.setattr(connections["default"], "settings_dict", settings)
    assert conninfo_to_dict(_conninfo()) == {
        "dbname": "rummy",
        "user": "table",
        "password": "two words",
        "host": "db.example",
        "port": "5433",
        "sslmode": "require",
    }


def test_where_a_client_stands_comes_from_last_event_id_then_the_page():
    assert last_seen({"headers": [(b"last-event-id", b"12")], "query_string": b"v=3"}) == 12
    assert last_seen({"headers": [], "query_string": b"v=3"}) == 3
    assert last_seen({"headers": [(b"last-event-id", b"x1")], "query_string": b""}) is None
    assert last_seen({"headers": [], "query_string": b"v=" + b"9" * 12}) is None  # bounded
    assert last_seen({"headers": [], "query_string": b"v=%D9%A3"}) is None  # ASCII digits only, not "٣"
    assert event(7) == b"id: 7\nevent: change\ndata: 7\n\n"
