"""Liveness, readiness, and answers a person (or a client) can read when a request cannot be served.

- ``/healthz``: the process answers (no database), for a supervisor that restarts it.
- ``/readyz``: the database answers and holds the app's tables, for a balancer that sends it work.
- A database that is down or not migrated: 503 with the API's JSON error shape under
  ``/api/``, a short page elsewhere, never a 500.
- A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: 413 naming the limit.
These pages touch neither the session nor the database, which may be what failed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.defaults import bad_request, server_error

from scorekeeping.errors import api_error, is_api
from scorekeeping.models import Game

RETRY_AFTER = "10"

logger = logging.getLogger(__name__)


def _error(request: HttpRequest, status: int, title: str, message: str) -> HttpResponse:
    if is_api(request):
        return api_error(message, status)
    context = {"title": title, "message": message}
    return render(request, "errors/unavailable.html", context, status=status)


def unavailable(request: HttpRequest) -> HttpResponse:
    response = _error(
        request,
        503,
        _("The score-keeper cannot reach its database"),
        _("Nothing was lost, and nothing you sent was saved. Try again in a moment."),
    )
    response["Retry-After"] = RETRY_AFTER
    return response


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness: answers without touching the database."""
    return HttpResponse("ok", content_type="text/plain")


@never_cache
def readyz(request: HttpRequest) -> HttpResponse:
    """Readiness: one query on the app's own table; 503 when the database is down or not migrated."""
    try:
        Game.objects.only("pk").exists()
    except DatabaseError as exc:
        response = HttpResponse(f"not ready: {type(exc).__name__}", content_type="text/plain", status=503)
        response["Retry-After"] = RETRY_AFTER
        return response
    return HttpResponse("ready", content_type="text/plain")


class DatabaseUnavailableMiddleware:
    """A view that fails on the database (down, unreachable, not migrated) answers 503, not 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
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
