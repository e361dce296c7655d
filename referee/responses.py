"""A JSON response rendered at once, for the hottest endpoints."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from rest_framework.renderers import JSONRenderer

_RENDERER = JSONRenderer()


def rendered(data: Any) -> HttpResponse:
    """``Response(data)`` with the same body and headers, rendered here rather than later.

    A DRF ``Response`` is a template response, rendered after the view through the
    negotiated renderer. The API speaks JSON only, so rendering with DRF's JSON renderer
    here gives the same bytes and saves about 8 microseconds a request (docs/performance.md).
    """
    return HttpResponse(_RENDERER.render(data), content_type=_RENDERER.media_type)
