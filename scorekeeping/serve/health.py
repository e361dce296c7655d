"""Liveness and readiness, for a supervisor and a balancer:

- ``/healthz``: the process answers (no database), for a supervisor that restarts it.
- ``/readyz``: the database answers and holds the app's tables, for a balancer that sends it work.
"""

from __future__ import annotations

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache

from scorekeeping.models import Game

RETRY_AFTER = "10"


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
