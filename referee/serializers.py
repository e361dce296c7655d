"""Serializer plumbing shared by the API's input serializers."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class InputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """An input serializer whose fields keep no per-request state.

    DRF deep-copies every declared field for every request, which is most of the cost of
    a small request. Here the deep copy is made once per class, and each request binds
    its own shallow copies of those fields.
    """

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        cls = type(self)
        templates: dict[str, serializers.Field[Any, Any, Any, Any]] | None = cls.__dict__.get("_field_templates")
        if templates is None:
            templates = super().get_fields()
            cls._field_templates = templates  # type: ignore[attr-defined]
        return {name: _shallow_copy(field) for name, field in templates.items()}


def _shallow_copy(field: serializers.Field[Any, Any, Any, Any]) -> serializers.Field[Any, Any, Any, Any]:
    # copy.copy would go through __reduce_ex__; a field is a plain object with a __dict__.
    clone = object.__new__(type(field))
    clone.__dict__.update(field.__dict__)
    return clone
