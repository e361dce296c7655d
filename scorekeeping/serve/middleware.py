"""Response headers that Django 5.2 does not set itself: a Content-Security-Policy without inline scripts,
and ``Secure`` on every cookie sent over https; and compression for what carries no secret."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import render
from django.utils.translation import gettext as _

from scorekeeping.errors import is_api
from scorekeeping.webkit.errors import api_error

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


COMPRESSED = ("text/html", "image/svg+xml")  # the pages and the charts; static files come compressed already


class CompressionMiddleware(GZipMiddleware):
    """Django's gzip (its BREACH padding included) for the pages and the charts, where they carry
    no secret: a response marked ``no-store`` (an edit link, a seat's right, a token: docs/web.md)
    is sent as it is, so that no page a stranger can make reflect text compresses a secret beside
    it. The API's JSON and the streams are left alone."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.streaming or "no-store" in response.get("Cache-Control", ""):
            return response
        if not response.get("Content-Type", "").startswith(COMPRESSED):
            return response
        return super().process_response(request, response)


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CSP)
        if request.is_secure():
            # Over plain http on a LAN address browsers ignore it, with a console error on every page.
            response.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        return response


class SecureCookiesMiddleware:
    """Every cookie set over https is ``Secure``: the session (the grant), the CSRF token, the
    messages, the language and the ``edit-<id>`` cookie (the token itself), whether https comes
    from the LAN certificate (``LAN_HTTPS``) or a proxy (``HTTPS``). A phone that later types the
    plain http address then sends none of them in clear. It sits first, so it sees the cookies
    every other middleware and view set."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.is_secure():
            for morsel in response.cookies.values():
                morsel["secure"] = True
        return response


class MethodNotAllowedMiddleware:
    """A 405 says, in words, which methods the address takes (Django's own has an empty body).

    Under ``/api/`` in the API's JSON error shape; elsewhere a short page with a way back.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content:
            return response
        allowed = response.get("Allow", "")
        message = _("This address does not answer {method}; it takes {allowed}.").format(
            method=request.method, allowed=allowed
        )
        if is_api(request):
            answer: HttpResponse = api_error(message, 405)
        else:
            answer = render(request, "errors/not_allowed.html", {"message": message}, status=405)
        answer["Allow"] = allowed
        return answer
