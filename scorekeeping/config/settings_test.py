"""Test settings: the real settings, with a throwaway key and plain static storage."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production-0123456789abcdef")

from scorekeeping.config.settings import *  # noqa: F403
from scorekeeping.config.settings import BASE_DIR, DATABASES, STORAGES

# The live server cannot serve hashed names before collectstatic: ServeStatic finds the files.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SERVESTATIC_USE_FINDERS = True
SERVESTATIC_AUTOREFRESH = True

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory: the live server's threads then hold their own connections and
    # really contend for the database, as gunicorn's workers do. One file per test process, so
    # that two runs on one checkout never share (and break) each other's database.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}
ADMIN_ENABLED = True  # the admin tests need it; tests/web/test_security.py checks it is off by default
SHARE_LAN_ADDRESS = False  # the live server of the browser tests listens on localhost only
