"""Django's session middleware, except that a request whose session cookie names a session that
is gone leaves the cookie alone.

A grant gives the phone a new session key (``cycle_key``: a session id planted before cannot
share the right) and deletes the old session. A request the phone sent with the old key and that
is answered after that (the service worker's fresh copy of the table page, a fetch of the night
page) finds no session, and Django's middleware then deletes the ``sessionid`` cookie: the
browser drops the NEW cookie, since a cookie is deleted by name, and the phone that just took
its seat has lost it (seen in the browser tests: Ben's phone reached its table unseated). Only a
request that empties its own session (``flush``) deletes the cookie here; a cookie naming no
session is left as it is, and names nothing still."""

from __future__ import annotations

from django.conf import settings
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers


class SessionMiddleware(DjangoSessionMiddleware):
    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        session = getattr(request, "session", None)
        if session is None:
            return super().process_response(request, response)
        if settings.SESSION_COOKIE_NAME in request.COOKIES and session.is_empty() and not session.modified:
            if session.accessed:
                patch_vary_headers(response, ("Cookie",))
            return response
        return super().process_response(request, response)
