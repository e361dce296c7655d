"""The API's one error shape: ``{"detail": what is wrong, "errors": {field: [reasons]}}``.

``ERROR`` documents it in the OpenAPI schema; ``api_error`` answers it for a refusal made outside a
view (a middleware, a failure page), where no field is at fault.
"""

from __future__ import annotations

from django.http import JsonResponse
from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

ERROR = inline_serializer(
    "Error",
    {
        "detail": serializers.CharField(),
        "errors": serializers.DictField(child=serializers.ListField(child=serializers.CharField())),
    },
)


def api_error(message: str, status: int) -> JsonResponse:
    """The API's one error shape for a refusal made outside a view: what is wrong, no field."""
    return JsonResponse({"detail": message, "errors": {}}, status=status)
