"""Installable and offline-aware: the web app manifest, the service worker and the offline page."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe

from referee.engine import RULESETS

# The scripts every page loads, in order: htmx, its SSE extension, then ours, each named by its job
# (modules: each its own scope, strict, run in order once the page is parsed, as the deferred htmx).
SCRIPTS = [
    "vendor/htmx.min.js",
    "vendor/htmx-ext-sse.js",
    "js/page.js",
    "js/entry.js",
    "js/place.js",
    "js/guards.js",
    "js/live.js",
    "js/offline.js",
    "js/wake.js",
]
STATIC_SHELL = ["css/app.css", *SCRIPTS, "icons/icon.svg", "icons/icon-192.png"]


def scripts(request: HttpRequest) -> dict[str, list[dict[str, str | bool]]]:
    """A context processor: the scripts ``base.html`` loads (the same list the offline shell keeps)."""
    return {"scripts": [{"path": path, "module": path.startswith("js/")} for path in SCRIPTS]}


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/manifest.webmanifest", content_type="application/manifest+json")


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    pages = [reverse("home"), reverse("offline"), reverse("rules"), reverse("referee")]
    pages += [reverse("rules-detail", args=[slug]) for slug in RULESETS]
    shell = pages + [static(path) for path in STATIC_SHELL]
    # Hashed static names change with every deploy, and so does the cache.
    version = hashlib.sha256(json.dumps(shell).encode()).hexdigest()[:12]
    response = render(
        request,
        "pwa/sw.js",
        {"shell": json.dumps(shell), "version": version},
        content_type="application/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/offline.html")


@require_safe
def trust(request: HttpRequest) -> HttpResponse:
    """How a phone trusts this server's LAN authority (``LAN_HTTPS=1``): compare its fingerprint, install, remove."""
    path = settings.TLS_DIR / "ca.crt"
    if not settings.LAN_HTTPS or not path.is_file():
        raise Http404
    from scorekeeping.serve.tls import fingerprint

    return render(request, "pwa/trust.html", {"fingerprint": fingerprint(path)})


@require_safe
def certificate_authority(request: HttpRequest) -> HttpResponse:
    """The LAN certificate authority (``LAN_HTTPS=1``), to install on a phone once: public, never its key."""
    path = settings.TLS_DIR / "ca.crt"
    if not settings.LAN_HTTPS or not path.is_file():
        raise Http404
    response = HttpResponse(path.read_bytes(), content_type="application/x-x509-ca-cert")
    response["Content-Disposition"] = 'attachment; filename="rummy-referee-ca.crt"'
    return response
