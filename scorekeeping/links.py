"""Share links: the view link anyone may have, the edit link that carries the secret, as QR codes."""

from __future__ import annotations

import io
from functools import lru_cache
from urllib.parse import urlencode

import segno
from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from scorekeeping.serve.network import binds_everywhere, is_loopback, lan_addresses


def view_path(game_id: str) -> str:
    return reverse("table", args=[game_id])


def edit_path(game_id: str, token: str) -> str:
    return reverse("join", args=[game_id, token])


def rules_path(ruleset: str, variants: list[str]) -> str:
    """The page of the rules a game is played by: its ruleset (a table's house rules too), with its variants."""
    query = urlencode([("variant", v) for v in variants])
    return reverse("rules-detail", args=[ruleset]) + (f"?{query}" if query else "")


def night_events_path(club_id: str, night_id: int) -> str:
    """A club night's change stream: served beside Django under ASGI (``live.stream.NIGHT_PATH``)."""
    return f"/c/{club_id}/nights/{night_id}/events/"


@lru_cache(maxsize=512)
def qr_svg(url: str) -> SafeString:
    """An inline SVG QR code of a public link (the view link), dark on white whatever the page's
    colours (scanners need contrast).

    A link's code never changes, so each process encodes it once (about 3 ms) and keeps it;
    the page asks for it lazily, so fragments that do not show it never build it. Never for the
    edit link: what this keeps, it keeps in clear (``qr_document`` is for that one).
    """
    svg = segno.make(url, micro=False).svg_inline(scale=4, border=2, dark="#000", light="#fff", omitsize=True)
    return mark_safe(svg)


def qr_document(url: str) -> bytes:
    """A QR code as an SVG document of its own (an image's answer), encoded on each call and kept
    nowhere: for the edit link, whose token must not sit in any cache."""
    out = io.BytesIO()
    segno.make(url, micro=False).save(
        out, kind="svg", scale=4, border=2, dark="#000", light="#fff", xmldecl=False, omitsize=True
    )
    return out.getvalue()


LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]", "::1")


def share_base(request: HttpRequest) -> tuple[str, str]:
    """Scheme and host for links other phones must open, and where that address came from.

    ``PUBLIC_URL`` (a hosted server) wins. A page asked for on the server's own machine
    (localhost) would give phones a link they cannot open: when the server listens on every
    address (``HOST=0.0.0.0``, the start command's default) the machine's LAN address is used
    instead, with the same port. One that listens on loopback only (``HOST=127.0.0.1``) answers
    on no LAN address, so the link keeps the address the page was asked on ("loopback": only
    this machine opens it; the start command says so, and how to let phones in). Otherwise the
    address the phone used works for the others.
    """
    public = settings.PUBLIC_URL
    if public:
        return public.rstrip("/"), "public"
    host = request.get_host()
    name, _sep, port = host.rpartition(":") if host.count(":") == 1 or host.startswith("[") else (host, "", "")
    if settings.SHARE_LAN_ADDRESS and (name or host) in LOCAL_HOSTS:
        if is_loopback(settings.HOST):
            return f"{request.scheme}://{host}", "loopback"
        lan = lan_addresses() if binds_everywhere(settings.HOST) else []
        if lan:
            return f"{request.scheme}://{lan[0]}{':' + port if port else ''}", "lan"
    return f"{request.scheme}://{host}", "request"


def share_url(request: HttpRequest, path: str) -> str:
    return share_base(request)[0] + path
