import os

import pytest
from hypothesis import HealthCheck, settings

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # ORM inside sync Playwright tests

# Hypothesis profiles: "dev" (the default) for a quick run at a desk; "ci" for CI, which
# derandomizes (a red CI run fails the same way again) and prints how to reproduce a failure.
# A test's own @settings(max_examples=...) still decides its number of examples.
settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci", deadline=None, derandomize=True, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


# Between tests that ask for it, Django empties the database: on PostgreSQL one TRUNCATE of every
# table, which takes their locks one by one and waits at each. A request a browser test left on
# its way takes its tables one by one too: each holding one the other wanted, PostgreSQL broke the
# deadlock by failing the TRUNCATE (CI at stop 44: "couldn't be flushed"; tests/test_flush.py).
# Here the emptying first takes every table's lock at once or none (NOWAIT, in a savepoint), so
# it never waits holding one: a request still reading finishes, then the tables are emptied.
FLUSH_LOCK_SECONDS = 30


def _execute_sql_flush_holding_every_lock(self, sql_list):
    import time

    from django.db import OperationalError, transaction

    tables = self.connection.introspection.django_table_names(only_existing=True, include_views=False)
    lock = f"LOCK TABLE {', '.join(map(self.quote_name, tables))} IN ACCESS EXCLUSIVE MODE NOWAIT"
    deadline = time.monotonic() + FLUSH_LOCK_SECONDS
    with transaction.atomic(using=self.connection.alias), self.connection.cursor() as cursor:
        while True:
            try:
                with transaction.atomic(using=self.connection.alias):  # a refused LOCK keeps none
                    cursor.execute(lock)
                break
            except OperationalError as exc:
                if getattr(exc.__cause__, "sqlstate", None) != "55P03" or time.monotonic() > deadline:
                    raise  # 55P03: lock_not_available, a table still in a request's hands
                time.sleep(0.01)  # polling a condition: the request ends by itself
        for sql in sql_list:
            cursor.execute(sql)


@pytest.fixture(scope="session", autouse=True)
def _flush_without_deadlock():
    from django.db.backends.postgresql.operations import DatabaseOperations

    plain = DatabaseOperations.execute_sql_flush
    DatabaseOperations.execute_sql_flush = _execute_sql_flush_holding_every_lock
    yield
    DatabaseOperations.execute_sql_flush = plain


# Databases for real server processes (tests/servers.py): migrated once a worker, copied for each
# test that asks for a fresh one.
@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory):
    from tests.servers import migrate_database

    url = f"sqlite:///{tmp_path_factory.mktemp('migrated') / 'template.sqlite3'}"
    migrate_database(url)
    return url


@pytest.fixture(scope="session")
def migrated_postgresql():
    from tests.servers import migrate_database, scratch_postgres

    with scratch_postgres("template") as url:
        migrate_database(url)
        yield url


@pytest.fixture
def fresh_sqlite(migrated_sqlite, tmp_path):
    from tests.servers import copy_of

    with copy_of(migrated_sqlite, tmp_path) as url:
        yield url


@pytest.fixture
def fresh_postgresql(migrated_postgresql, tmp_path):
    from tests.servers import copy_of

    with copy_of(migrated_postgresql, tmp_path) as url:
        yield url


# The test client runs each request on this thread, and Django's LocaleMiddleware leaves the
# request's language active on the thread after the response (a server thread activates the next
# request's own). Each test starts in the site's default language, whatever ran before it.
@pytest.fixture(autouse=True)
def _default_language():
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


# The caches are this process's memory (LocMemCache, shared by location across cache objects):
# what one test left there (a recap's picture, a kept story) must not count in the next, as it
# did when a test that lowers the pictures' MAX_ENTRIES found earlier tests' pictures culled
# first and its own four all kept. Each test starts with every cache empty.
@pytest.fixture(autouse=True)
def _empty_caches():
    from django.core.cache import caches

    for cache in caches.all():
        cache.clear()


# Playwright's sync API keeps its asyncio event loop running on the main thread from the first
# browser test to the end of the session (in a greenlet beside the test). Django's test client
# reaches the static files' middleware (ServeStatic's, asynchronous only) through async_to_sync,
# and once Playwright has started, a request made that way opens a database connection of its
# own: its writes commit outside the test's transaction and are never rolled back (measured: a
# game posted by the client was visible from another connection). So browser tests run in a
# pytest process of their own (.ci/test and .ci/run do: -m browser, then the rest), a run that
# mixes them puts them last, and a test that would meet Playwright's loop fails at once, saying
# why, instead of leaking rows into the tests after it.
# The browser runs collect tests/browser alone (.ci/test, .ci/run: the rest is not imported there),
# so a browser test anywhere else would run nowhere: it stops the collection instead.
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    astray = [
        item.nodeid
        for item in items
        if item.get_closest_marker("browser") and not item.nodeid.startswith("tests/browser/")
    ]
    if astray:
        raise pytest.UsageError(f"browser tests belong in tests/browser/: {', '.join(astray[:5])}")
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(autouse=True)
def _no_test_after_playwright_outside_the_browser(request):
    if not request.node.get_closest_marker("browser"):
        import asyncio

        if asyncio._get_running_loop() is not None:
            pytest.fail(
                "Playwright's event loop runs in this process: a test client here would write outside its"
                " transaction. Run the browser tests in a pytest process of their own (-m browser)."
            )
    yield
