"""A serializer field for cards: one string in the card notation, or a list of card strings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scorekeeping.webkit.serializers import TextField

from .engine import RefereeError
from .rulebook import SLUG_MAX, rules_for

MAX_CARDS_TEXT = 400
MAX_CARDS = 60


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "maxLength": MAX_CARDS_TEXT, "example": "7C 7D 4H=7S"},
            {"type": "array", "items": {"type": "string", "maxLength": 12}, "maxItems": MAX_CARDS},
        ],
        "description": "Cards in the notation of RULES.md: a string such as '7C 7D 4H=7S' or a list ['7C', '7D'].",
    }
)
class CardsField(serializers.Field):  # type: ignore[type-arg]
    default_error_messages: ClassVar[dict[str, str | _StrPromise]] = {
        "invalid": "Expected cards as a string ('7C 7D JK') or a list of card strings.",
        "too_long": f"At most {MAX_CARDS_TEXT} characters of cards.",
        "too_many": f"At most {MAX_CARDS} cards.",
    }

    def to_internal_value(self, data: Any) -> str | list[str]:
        if isinstance(data, str):
            if len(data) > MAX_CARDS_TEXT:
                self.fail("too_long")
            return data
        if isinstance(data, list) and all(isinstance(item, str) for item in data):
            if len(data) > MAX_CARDS:
                self.fail("too_many")
            if any(len(item) > 12 for item in data):
                self.fail("invalid")
            return list(data)
        self.fail("invalid")
        raise AssertionError("unreachable")

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(
    {
        "type": "array",
        "maxItems": 20,
        "items": {
            "oneOf": [
                {"type": "string", "maxLength": MAX_CARDS_TEXT, "example": "9S 10S JS QS"},
                {"type": "array", "items": {"type": "string", "maxLength": 12}, "maxItems": MAX_CARDS},
            ]
        },
        "description": "The melds, each a string of cards or a list of card strings.",
    }
)
class MeldsField(CardsField):
    """A list of melds, each as ``CardsField`` takes it."""

    default_error_messages: ClassVar[dict[str, str | _StrPromise]] = {
        **CardsField.default_error_messages,
        "not_a_list": "Expected a list of melds.",
        "too_many_melds": "At most 20 melds.",
    }

    def to_internal_value(self, data: Any) -> list[str | list[str]]:  # type: ignore[override]
        if not isinstance(data, list):
            self.fail("not_a_list")
        if len(data) > 20:
            self.fail("too_many_melds")
        melds: list[str | list[str]] = []
        for i, meld in enumerate(data):
            try:
                melds.append(super().to_internal_value(meld))
            except serializers.ValidationError as exc:
                raise serializers.ValidationError({str(i): exc.detail}) from None
        return melds


class RulesetField(TextField):
    """A ruleset's slug: a built-in, or a house ruleset a table saved; any other is refused, named."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", SLUG_MAX)
        kwargs.setdefault("help_text", "A built-in ruleset's slug, or a saved house ruleset's (POST /api/rulesets/).")
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        slug = super().to_internal_value(data)
        try:
            rules_for(slug)
        except RefereeError as exc:
            raise serializers.ValidationError(str(exc)) from None
        return slug
