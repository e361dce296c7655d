"""Serializer plumbing shared by the API's input serializers."""

from __future__ import annotations

from django.utils.functional import cached_property
from rest_framework import serializers
from rest_framework.utils.serializer_helpers import BindingDict


class InputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """An input serializer whose fields are built and bound once per class.

    For every request DRF deep-copies each declared field and binds the copy to the new
    serializer, which was most of the cost of validating a small request. The fields of an
    input serializer keep no per-request state (a field validates the value it is given
    against its own settings and keeps nothing), so each class builds its fields once, bound
    to a prototype that holds no data, and every request validates through those. Fields
    that need the request's context or the instance (none here) must not be declared on it.
    """

    @cached_property
    def fields(self) -> BindingDict:
        return type(self)._shared_fields()

    @classmethod
    def _shared_fields(cls) -> BindingDict:
        shared: BindingDict | None = cls.__dict__.get("_bound_fields")
        if shared is None:
            prototype = cls()
            shared = BindingDict(prototype)
            for name, field in prototype.get_fields().items():
                shared[name] = field
            cls._bound_fields = shared  # type: ignore[attr-defined]
        return shared
