"""Browser tests: Playwright driving Chromium's headless shell (Debian's chromium-headless-shell; set
CHROMIUM_PATH=/usr/bin/chromium for the whole browser) at phone size, against a live server."""

import os
import time

import pytest

from .helpers import screenshots


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell"),
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def console_errors(page):
    """Every console error and uncaught exception on the page; a test ends by asserting none."""
    errors = []
    # Name the element behind a Content-Security-Policy violation, not only the directive.
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => console.error('CSP', e.violatedDirective,"
        " e.sourceFile, e.lineNumber, (e.target && e.target.outerHTML || '').slice(0, 160)))"
    )
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


@pytest.fixture
def shoot(page):
    """Save a full-page screenshot of the test's page, light and dark (``screenshots``)."""
    return lambda name: screenshots(page, name)


@pytest.fixture(scope="session")
def table_server(django_db_setup, tmp_path_factory):
    """The app as the start command serves it (gunicorn + uvicorn workers, ASGI), on the test
    database: what the change stream needs (Django's live server is WSGI, where the page polls)."""
    from types import SimpleNamespace

    from django.db import connection

    from tests.servers import database_url, serving

    from .helpers import MEASURE

    folder = tmp_path_factory.mktemp("table-server")
    # A game's changes closer than LIVE_COALESCE are told as one at the end of that window (0.5 s
    # in production). The tests wait for each push, so a test writing every moment would wait out
    # the window at each step: they run with 0.05 s, still a window, and ten times the pushes
    # (the coalescing itself is tested in tests/scorekeeping/test_live_hub.py). It found a race
    # the production window hid (a late request cost a phone its session: serve/sessions.py).
    # MEASURE=1 keeps the production value.
    env = {} if MEASURE else {"LIVE_COALESCE": "0.05"}
    url = database_url(connection.settings_dict)
    with serving(folder, url, workers=2, migrate=False, env=env) as (port, log):
        yield SimpleNamespace(url=f"http://127.0.0.1:{port}", log=log)


@pytest.fixture(autouse=True)
def _quiet_before_the_flush(request):
    """After a test that holds a database for its server, before the database is emptied: every
    browser context the test left open is closed (its pages stop asking), and the server's
    requests still on their way finish. Emptying (a TRUNCATE of every table) while a server
    process still reads two of them can deadlock with it (CI saw it once)."""
    if request.node.get_closest_marker("django_db"):
        request.getfixturevalue("_django_db_helper")  # set up first, so emptied after this
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()
    from django.db import connection

    if connection.vendor != "postgresql" or not request.node.get_closest_marker("django_db"):
        return
    busy = (
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        " AND (state = 'idle in transaction' OR (state = 'active' AND query NOT ILIKE 'LISTEN%'))"
    )
    deadline = time.monotonic() + 10
    with connection.cursor() as cursor:
        while True:
            cursor.execute(busy)
            if cursor.fetchone()[0] == 0 or time.monotonic() > deadline:
                return
            time.sleep(0.02)  # polling a condition: the server's own requests end by themselves
