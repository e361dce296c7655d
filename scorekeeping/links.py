"""Share links: the view link anyone may have, the edit link that carries the secret, as QR codes."""

from __future__ import annotations

from functools import lru_cache

import segno
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe


def view_path(game_id: str) -> str:
    return reverse("table", args=[game_id])


def edit_path(game_id: str, token: str) -> str:
    return reverse("join", args=[game_id, token])


@lru_cache(maxsize=512)
def qr_svg(url: str) -> SafeString:
    """An inline SVG QR code, dark on white whatever the page's colours (scanners need contrast).

    A link's code never changes, so each process encodes it once (about 3 ms) and keeps it;
    the page asks for it lazily, so fragments that do not show it never build it.
    """
    svg = segno.make(url, micro=False).svg_inline(scale=4, border=2, dark="#000", light="#fff")
    return mark_safe(svg)
