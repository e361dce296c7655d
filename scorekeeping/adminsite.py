"""The admin site, with its login throttled like edit tokens: wrong passwords are counted per address."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse

from scorekeeping import ratelimit


class ThrottledAdminSite(admin.AdminSite):
    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        if request.method != "POST":
            return super().login(request, extra_context)
        lim, key = ratelimit.limit("login"), ratelimit.client_key(request)
        try:
            ratelimit.take(lim, key)
        except ratelimit.RateLimited as exc:
            return HttpResponse(
                str(exc),
                content_type="text/plain; charset=utf-8",
                status=429,
                headers={"Retry-After": str(exc.retry_after)},
            )
        response = super().login(request, extra_context)
        if request.user.is_authenticated:
            ratelimit.give_back(lim, key)  # only wrong passwords use up the allowance
        return response
