"""Answers a person (or a client) can read when a request cannot be served:

- A database that is down or not migrated: 503 with the API's JSON error shape under
  ``/api/``, a short page elsewhere (``DatabaseUnavailableMiddleware``).
- SQLite busy past its wait (``SQLITE_BUSY_SECONDS``: many tables writing at once): 429 "try
  again", with Retry-After; the write was rolled back whole.
- A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: 413 naming the limit; under ``/api/`` a 400 or
  a 500 in the API's JSON error shape too.
These pages touch neither the session nor the database, which may be what failed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.defaults import bad_request, server_error

from scorekeeping.errors import is_api
from scorekeeping.serve.health import RETRY_AFTER
from scorekeeping.webkit.errors import api_error

logger = logging.getLogger(__name__)


def _error(request: HttpRequest, status: int, title: str, message: str, retry_after: str = "") -> HttpResponse:
    if is_api(request):
        response: HttpResponse = api_error(message, status)
    else:
        response = render(request, "errors/unavailable.html", {"title": title, "message": message}, status=status)
    if retry_after:
        response["Retry-After"] = retry_after
    return response


def unavailable(request: HttpRequest) -> HttpResponse:
    title = _("The score-keeper cannot reach its database")
    said = _("Nothing was lost, and nothing you sent was saved. Try again in a moment.")
    return _error(request, 503, title, said, RETRY_AFTER)


def busy(request: HttpRequest) -> HttpResponse:
    title = _("The score-keeper is busy")
    said = _("Many tables are writing at once: nothing you sent was saved. Try again in a moment.")
    return _error(request, 429, title, said, "1")


class DatabaseUnavailableMiddleware:
    """A view that fails on the database (down, unreachable, not migrated) answers 503, not 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, OperationalError) and "database is locked" in str(exception):
            logger.warning("database busy: a write waited %s s for SQLite's lock", settings.SQLITE_BUSY_SECONDS)
            return busy(request)
        if isinstance(exception, DatabaseError):
            # What failed, for whoever reads the log (the answer only says "try again"); not the
            # path, which may hold an edit token.
            reason = (str(exception).strip().splitlines() or [""])[0][:200]
            logger.warning("database unavailable: %s: %s", type(exception).__name__, reason)
            return unavailable(request)
        return None


def handler400(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        message = _("The request is too large: at most {size} bytes are accepted.").format(size=f"{limit:,}")
        return _error(request, 413, _("Too large"), message)
    if is_api(request):
        return api_error(_("Bad request."), 400)
    return bad_request(request, exception or Exception())


def handler500(request: HttpRequest) -> HttpResponse:
    if is_api(request):
        return api_error(_("Something went wrong on the server."), 500)
    return server_error(request)
