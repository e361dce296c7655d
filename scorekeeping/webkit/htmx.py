"""The request type of views behind django-htmx's middleware (as its documentation types it)."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def refused(request: HtmxHttpRequest, status: int) -> int:
    """The status of a refused form: 422 (409 for a conflict, 429, 403) to a plain POST; to htmx,
    which swaps the re-rendered form in place, 200, so the browser logs no failed request.
    (htmx's own config swaps no 4xx: this is the one place that decides.)"""
    return 200 if request.htmx else status
