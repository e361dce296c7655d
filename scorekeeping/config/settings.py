"""Settings for the rummy referee and score-keeper: one module, configured by the environment.

DATABASE_URL   database (default: SQLite file db.sqlite3 beside manage.py)
DJANGO_DEBUG   debug mode (default off)
SECRET_KEY     required unless DJANGO_DEBUG is on
ALLOWED_HOSTS  comma-separated host names (default: any, so phones on the LAN can connect)
LAN_HTTPS      serve https on the LAN with a certificate made here (default off); TLS_DIR keeps it

and the rest in the table of docs/settings.md. This module is the one place that reads the environment:
the server, the ASGI application and the commands take these settings from here.
"""

from __future__ import annotations

from pathlib import Path
from wsgiref.headers import Headers

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from scorekeeping.config.env import env_bool, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parents[2]

DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DJANGO_DEBUG is off")
    SECRET_KEY = "django-insecure-development-only-key-never-in-production-0123456789"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["*"])
# The address other phones open for share links and QR codes on a hosted server
# (e.g. https://rummy.example.org); empty: the LAN address when asked on this machine.
PUBLIC_URL = env_str("PUBLIC_URL", "")
# HTTPS on the LAN without a proxy: the server makes a certificate authority once and serves TLS
# itself with a certificate for this machine's addresses (scorekeeping/serve/tls.py, docs/settings.md).
LAN_HTTPS = env_bool("LAN_HTTPS", False)
TLS_DIR = Path(env_str("TLS_DIR", str(BASE_DIR / ".tls")))
# A page asked on this machine shares its LAN address when the server answers on it (HOST is
# 0.0.0.0); on loopback (HOST=127.0.0.1) it shares the address it was asked on (links.py).
SHARE_LAN_ADDRESS = True
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# A server open to the internet: /games/ and /players/ show each phone only the games it opened
# (listing every game would make every view link a public one).
PRIVATE_LISTS = env_bool("PRIVATE_LISTS", False)

# The admin (a staff login on /admin/) is left out unless ADMIN_ENABLED=1; then its logins
# are throttled per address like edit tokens.
ADMIN_ENABLED = env_bool("ADMIN_ENABLED", False)

INSTALLED_APPS = [
    "scorekeeping.apps.ThrottledAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "servestatic",  # before staticfiles: runserver leaves static files to the middleware
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "rest_framework",
    "drf_spectacular",
    "referee",
    "scorekeeping",
]

# Static files first: ServeStatic's middleware is asynchronous, and under ASGI it answers a static
# file on the event loop (from memory after the first time: serve/statics.py) before any synchronous middleware
# puts the request in a thread (placed after one, it would cost every page two more thread
# switches). What SecurityMiddleware would add to those answers, SERVESTATIC_ADD_HEADERS_FUNCTION
# adds; they set no cookie and touch no database, so nothing else below concerns them. (With
# HTTPS=1 a static file asked over plain http is served, not redirected: the https pages that
# name it ask for it over https.)
MIDDLEWARE = [
    "scorekeeping.serve.statics.StaticFilesMiddleware",  # ServeStatic's, its reads kept in memory
    "scorekeeping.serve.middleware.CompressionMiddleware",  # gzip, but never what carries a secret
    "scorekeeping.serve.middleware.SecureCookiesMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "scorekeeping.serve.gate.GameWriteGate",
    "scorekeeping.serve.failures.DatabaseUnavailableMiddleware",
    "scorekeeping.serve.sessions.SessionMiddleware",  # a stale cookie is left alone (its docstring)
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scorekeeping.serve.middleware.SecurityHeadersMiddleware",
    "scorekeeping.serve.middleware.MethodNotAllowedMiddleware",
]

ROOT_URLCONF = "scorekeeping.config.urls"
WSGI_APPLICATION = "scorekeeping.config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # django-template-partials' loader (which would otherwise put itself here over Django's own),
            # over the site's templates without their indentation (config/templates.py), then the apps'.
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            ["scorekeeping.config.templates.Loader", "django.template.loaders.app_directories.Loader"],
                        )
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "scorekeeping.web.pwa.scripts",
            ],
        },
    },
]

# No persistent connections: the server is ASGI, where Django runs each request's code in a
# thread of its own, so a connection kept for the next request stays with a finished thread
# until the garbage collector closes it (measured: 2 server processes held 10 to 18 PostgreSQL
# connections after 100 plain GETs, and a test suite exhausted the server's 100). Django's
# documentation says so ("When using ASGI, persistent connections should be disabled"); on
# PostgreSQL a pool per process (psycopg's) hands a request an open connection instead, and
# bounds what one process may hold: processes x DATABASE_POOL_SIZE, plus one listening
# connection per process for the live streams, must stay under PostgreSQL's max_connections.
SQLITE_BUSY_SECONDS = env_float("SQLITE_BUSY_SECONDS", 5)
DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=0,
        # With the pool: a connection the server dropped (a restart, a failover) is replaced
        # when a request takes it, not handed out broken.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several gunicorn workers share the file. WAL: readers never wait for the writer, and a
    # commit is one append. A writer waits its turn for at most SQLITE_BUSY_SECONDS (well under a
    # phone's patience), then the request answers 429 "try again" (serve/failures.py), not 503.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": SQLITE_BUSY_SECONDS,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL;",
    }
else:
    pool_size = env_int("DATABASE_POOL_SIZE", 8)
    if not 1 <= pool_size <= 1000:
        raise ImproperlyConfigured(f"DATABASE_POOL_SIZE must be between 1 and 1000, not {pool_size}")
    # A request waits up to 3 s for a free connection, then answers 503 (never a 500): a busy
    # pool frees one in milliseconds, and a database that is down is told as quickly as that.
    DATABASES["default"]["OPTIONS"] = {"pool": {"min_size": 1, "max_size": pool_size, "timeout": 3}}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Rendered HTML only (fragments of a game's table per version, QR codes, the keypad): each
# process keeps its own and renders what it misses, so nothing here is another process's truth.
# A table's version leaves some ten fragments; 300 entries (the default) would evict the
# tables still playing once a few dozen games changed.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": env_int("RENDER_CACHE_ENTRIES", 5000)},
    },
    # Pictures (a recap's PNG, about 74 KB) apart, bounded in bytes: at most 256 pictures of
    # at most IMAGE_CACHE_ITEM_BYTES each (a larger one is drawn again each time): 32 MB a process.
    "images": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "images",
        "OPTIONS": {"MAX_ENTRIES": 256},
    },
}
IMAGE_CACHE_ITEM_BYTES = 128 * 1024

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("nl", "Nederlands"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "servestatic.storage.CompressedManifestStaticFilesStorage"},
}

# Security headers; HTTPS-only settings are switched on by HTTPS=1 behind a TLS proxy.
HTTPS = env_bool("HTTPS", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = None  # sent over https only, by scorekeeping.serve.middleware
X_FRAME_OPTIONS = "DENY"
# Over https (a proxy's, or the LAN certificate's) no cookie travels in clear: these settings for
# Django's own cookies, SecureCookiesMiddleware for every cookie of a request made over https.
SESSION_COOKIE_SECURE = HTTPS or LAN_HTTPS
CSRF_COOKIE_SECURE = HTTPS or LAN_HTTPS
LANGUAGE_COOKIE_SECURE = HTTPS or LAN_HTTPS
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = 31536000 if HTTPS else 0
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None


def static_file_headers(headers: Headers, path: str, url: str) -> None:
    """What SecurityMiddleware gives every answer, given to static files too: ServeStatic answers
    them before it (see MIDDLEWARE). HSTS over plain http is ignored by browsers (RFC 6797)."""
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = SECURE_REFERRER_POLICY
    if SECURE_HSTS_SECONDS:
        headers["Strict-Transport-Security"] = f"max-age={SECURE_HSTS_SECONDS}"


# ServeStatic serves what collectstatic wrote: hashed names cached for ten years (immutable), the
# others for a minute, gzip copies to the browsers that take them.
SERVESTATIC_ADD_HEADERS_FUNCTION = static_file_headers

# Rate limits, counted in the database: (events, seconds) per client address.
RATE_LIMITS = {
    "create": (env_int("RATE_LIMIT_CREATE", 30), 3600),  # new games an hour
    # tables drawn an hour for the clubs one address made: a 60-table room drawing a sitting every
    # half hour, with room to spare
    "club_tables": (env_int("RATE_LIMIT_CLUB_TABLES", 240), 3600),
    "rulesets": (env_int("RATE_LIMIT_RULESETS", 30), 3600),  # house rulesets saved an hour
    "token": (env_int("RATE_LIMIT_TOKEN", 10), 600),  # wrong edit tokens in ten minutes
    "login": (env_int("RATE_LIMIT_LOGIN", 10), 600),  # wrong admin passwords in ten minutes
}

# What one server process holds (scorekeeping/capacity.py derives the rest from its open-file limit).
LIVE_HEARTBEAT = env_float("LIVE_HEARTBEAT", 20)  # seconds between a stream's keep-alive comments
LIVE_TICK = env_float("LIVE_TICK", 0.2)  # SQLite: seconds between looks at the open games' versions
LIVE_COALESCE = env_float("LIVE_COALESCE", 0.5)  # changes of one game closer than this are told as one
LIVE_STREAMS_MAX = env_int("LIVE_STREAMS_MAX", 0)  # 0: three quarters of the connections the open files allow
LIVE_STREAMS_PER_GAME = env_int("LIVE_STREAMS_PER_GAME", 1000)  # one game's followers, per process
LIVE_STREAMS_PER_CLIENT = env_int("LIVE_STREAMS_PER_CLIENT", 50)  # one address on one game, per process
LIVE_STREAMS_PER_ADDRESS = env_int("LIVE_STREAMS_PER_ADDRESS", 0)  # one address in all; 0: a quarter of the streams
PENDING_PER_ADDRESS = env_int("PENDING_PER_ADDRESS", 64)  # connections one address may hold while sending headers
HEADER_TIMEOUT = env_float("HEADER_TIMEOUT", 10)  # seconds a client may take to send its request's headers
GAME_WRITES_IN_FLIGHT = env_int("GAME_WRITES_IN_FLIGHT", 0)  # 0: a quarter of the database pool (at least 2)
BODY_TIMEOUT = env_float("BODY_TIMEOUT", 20)  # seconds a request body may stall between two pieces (408)
# The start command's address, workers and trusted proxies (read here, like every setting:
# nothing outside this module reads the environment).
HOST = env_str("HOST", "0.0.0.0")
PORT = env_int("PORT", 8000)
WEB_CONCURRENCY = env_int("WEB_CONCURRENCY", 3)
FORWARDED_ALLOW_IPS = env_str("FORWARDED_ALLOW_IPS", "127.0.0.1")
for _name, _value in (
    ("LIVE_HEARTBEAT", LIVE_HEARTBEAT),
    ("LIVE_TICK", LIVE_TICK),
    ("LIVE_STREAMS_PER_GAME", LIVE_STREAMS_PER_GAME),
    ("LIVE_STREAMS_PER_CLIENT", LIVE_STREAMS_PER_CLIENT),
    ("PENDING_PER_ADDRESS", PENDING_PER_ADDRESS),
    ("HEADER_TIMEOUT", HEADER_TIMEOUT),
    ("BODY_TIMEOUT", BODY_TIMEOUT),
    ("PORT", PORT),
    ("WEB_CONCURRENCY", WEB_CONCURRENCY),
):
    if not 0 < _value <= 1_000_000:
        raise ImproperlyConfigured(f"{_name} must be above 0 (and at most 1,000,000), not {_value}")
for _name, _value, _most in (
    ("LIVE_STREAMS_MAX", LIVE_STREAMS_MAX, 1_000_000),
    ("LIVE_STREAMS_PER_ADDRESS", LIVE_STREAMS_PER_ADDRESS, 1_000_000),
    ("GAME_WRITES_IN_FLIGHT", GAME_WRITES_IN_FLIGHT, 1000),
    ("LIVE_COALESCE", LIVE_COALESCE, 60),
):
    if not 0 <= _value <= _most:
        raise ImproperlyConfigured(f"{_name} must be from 0 to {_most:,}, not {_value}")

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    "EXCEPTION_HANDLER": "scorekeeping.api.drf.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["scorekeeping.api.drf.JSONParser"],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Rummy referee and score-keeper API",
    "DESCRIPTION": "Checks melds, layoffs, wild swaps and go-outs against the rules of Mexican Rummy, "
    "Contract Rummy, Liverpool and Shanghai, scores hands, and keeps games.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_tokens": {"()": "scorekeeping.config.redaction.RedactTokens"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact_tokens"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}

if not HTTPS:
    # The start command serves plain HTTP on the table's own network (phones open
    # http://<this machine>:8000), where HTTPS-only cookies and redirects would lock them
    # out. Behind a TLS proxy set HTTPS=1 and these checks apply again. (The session cookie's
    # check is W010 here: Django says W012 only when it finds its own session middleware by name.)
    SILENCED_SYSTEM_CHECKS = ["security.W004", "security.W008", "security.W010", "security.W016"]
