"""Real server processes for the tests: the start command's server (``scorekeeping.serve.server``)."""

import os
import resource
import secrets
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

from scorekeeping.serve import server

ROOT = Path(__file__).resolve().parents[1]
POSTGRES = os.environ.get("LIVE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


def get(port, path, timeout=5.0, context=None):
    scheme = "https" if context else "http"
    try:
        with urllib.request.urlopen(f"{scheme}://127.0.0.1:{port}{path}", timeout=timeout, context=context) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@contextmanager
def serving(tmp_path, database_url, *, workers=3, env=None, migrate=True, context=None, open_files=None):
    """The start command's server on ``database_url``; ``open_files`` sets its soft and hard limit
    on open files (a desktop's usual 1,024, say), which the server cannot raise past."""
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "scorekeeping.config.settings_test",
        "DATABASE_URL": database_url,
        "SECRET_KEY": secrets.token_urlsafe(40),
        "DJANGO_DEBUG": "0",
        **(env or {}),
    }
    if migrate:
        migrate_database(database_url, environment)
    port = server.free_port()
    environment |= {
        "HOST": "127.0.0.1",
        "PORT": str(port),
    }  # the address it is bound to, as the start command exports it
    log = tmp_path / f"server-{port}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            server.command(bind=f"127.0.0.1:{port}", workers=workers),
            cwd=ROOT,
            env=environment,
            stdout=out,
            stderr=out,
            preexec_fn=(lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files)))
            if open_files
            else None,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if get(port, "/healthz", 1, context)[0] == 200:
                    break
            except OSError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield port, log
    finally:
        process.terminate()
        process.wait(20)


def migrate_database(url, environment=None):
    """``manage.py migrate`` on the database at ``url``, as the start command does."""
    environment = environment or {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "scorekeeping.config.settings_test",
        "DATABASE_URL": url,
        "SECRET_KEY": "migrating",
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=environment, check=True)


@contextmanager
def copy_of(template, folder):
    """A database of its own for one test, copied from a migrated ``template`` (a file copy on
    SQLite, ``CREATE DATABASE ... TEMPLATE`` on PostgreSQL): ``migrate`` runs once a worker."""
    if template.startswith("sqlite:///"):
        target = folder / f"copy-{secrets.token_hex(4)}.sqlite3"
        source = template.removeprefix("sqlite:///")
        shutil.copyfile(source, target)
        if os.path.exists(source + "-wal"):  # WAL mode: what is not checkpointed yet
            shutil.copyfile(source + "-wal", str(target) + "-wal")
        yield f"sqlite:///{target}"
        return
    with scratch_postgres("copy", template=template.rsplit("/", 1)[1]) as url:
        yield url


def database_url(settings_dict) -> str:
    """The URL of a database Django is connected to (the test database, say), for a server process."""
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{settings_dict['NAME']}"
    user = settings_dict.get("USER") or ""
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"postgresql://{user}{password}@{host}{port}/{settings_dict['NAME']}"


@contextmanager
def scratch_postgres(prefix, template=None):
    """A new PostgreSQL database for server processes (empty, or a copy of ``template``), dropped
    afterwards; skips when there is no PostgreSQL, except in CI (``LIVE_TEST_REQUIRE_POSTGRES``),
    where that fails."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    try:
        admin = psycopg.connect(POSTGRES, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        if os.environ.get("LIVE_TEST_REQUIRE_POSTGRES"):
            raise
        pytest.skip(f"no PostgreSQL at {POSTGRES} ({exc}); CI runs these with it")
    with admin:
        admin.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
    try:
        yield POSTGRES.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
