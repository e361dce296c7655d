"""The base of the API's input serializers: plain DRF serializers that refuse keys they do not declare."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers


class InputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """A request body: its declared fields, and any other key refused by name (allow-list, not deny-list).

    Unknown keys are reported with the fields' own errors, in one answer.
    """

    unknown_key_message = "unknown key {key!r}: this request takes no such key"

    def to_internal_value(self, data: Any) -> Any:
        errors: dict[str, Any] = {}
        value = None
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            errors = dict(exc.detail) if isinstance(exc.detail, Mapping) else {"non_field_errors": exc.detail}
        if isinstance(data, Mapping):
            for key in data:
                if key not in self.fields:
                    errors[str(key)] = [self.unknown_key_message.format(key=key)]
        if errors:
            raise serializers.ValidationError(errors)
        return value


class TextField(serializers.CharField):
    """A string and nothing else: DRF's CharField would take the number 0 as the name "0"."""

    default_error_messages = {"not_text": "a text is expected, not {kind}"}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("not_text", kind=type(data).__name__)
        return str(super().to_internal_value(data))


class FlagField(serializers.BooleanField):
    """JSON's true or false and nothing else: DRF's BooleanField would take "yes", "on" or 1,
    and a flag such as ``force`` should never be set by a value that merely looks like one."""

    default_error_messages = {"not_flag": "true or false is expected, not {value!r}"}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("not_flag", value=data if isinstance(data, int | float) else type(data).__name__)
        return data
