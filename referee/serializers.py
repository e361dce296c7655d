"""Serializer plumbing shared by the API's input serializers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.functional import cached_property
from rest_framework import serializers
from rest_framework.fields import SkipField, get_error_detail
from rest_framework.settings import api_settings
from rest_framework.utils.serializer_helpers import BindingDict


class InputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """An input serializer for flat JSON objects, with its fields built and bound once per class.

    For every request DRF deep-copies each declared field and binds the copy to the new
    serializer, which was most of the cost of validating a small request. The fields of an
    input serializer keep no per-request state (a field validates the value it is given
    against its own settings and keeps nothing), so each class builds its fields once, bound
    to a prototype that holds no data, and every request validates through those.

    What makes that safe is checked when the fields are built: every field is writable,
    is its own source (no dotted or renamed sources), and has no ``validate_<field>``
    method; cross-field checks go in ``validate``. Fields that need the request's context
    or an instance must not be declared on it.
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
                if field.read_only or field.source != name or hasattr(cls, f"validate_{name}"):
                    raise ImproperlyConfigured(
                        f"{cls.__qualname__}.{name}: an input serializer takes writable fields that are their "
                        "own source, without validate_<field> methods"
                    )
            cls._bound_fields = shared  # type: ignore[attr-defined]
        return shared

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        """DRF's loop over the fields, for flat fields only (see the class's checks)."""
        if not isinstance(data, Mapping):
            message = self.error_messages["invalid"].format(datatype=type(data).__name__)
            raise serializers.ValidationError({api_settings.NON_FIELD_ERRORS_KEY: [message]}, code="invalid")
        values: dict[str, Any] = {}
        errors: dict[str, Any] = {}
        for name, field in self.fields.items():
            try:
                values[name] = field.run_validation(field.get_value(data))
            except serializers.ValidationError as exc:
                errors[name] = exc.detail
            except DjangoValidationError as exc:
                errors[name] = get_error_detail(exc)
            except SkipField:
                pass
        if errors:
            raise serializers.ValidationError(errors)
        return values

    def run_validators(self, value: Any) -> None:
        # DRF first merges in the defaults of read-only fields; an input serializer has none.
        serializers.Field.run_validators(self, value)
