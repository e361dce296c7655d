"""The schema of an exported game: every key a document may hold, and the bounds of every value.

An import is validated against these serializers before anything is written. They check
shape only (known keys, types, lengths, numbers within their columns, dates in UTC within
years 1-9999); whether the game is one the app could have produced is decided afterwards
by replaying its history through the services that record rounds (``exchange.game_import``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from rest_framework import serializers

from referee.engine.words import MAX_NAME
from scorekeeping.models import Change, Game
from scorekeeping.webkit.serializers import FlagField, InputSerializer

FORMAT = "rummy-referee/game"
FORMAT_VERSION = 1

# Column bounds (the model fields' types), so no value can overflow a column on any database.
SMALL = 32_767  # PositiveSmallIntegerField
INT = 2_147_483_647  # IntegerField / PositiveIntegerField
MAX_CARDS_TEXT = 400  # Score.cards
# Sizes of a document, so validating and replaying one stays cheap.
MAX_PLAYERS = 20
MAX_ROUNDS = 100
MAX_HISTORY = 500


class StrictSerializer(InputSerializer):
    """An object of the document: its declared keys only, any other refused by name and place."""

    unknown_key_message = "unknown key {key!r}: a game export holds no such key"


class UTCDateTimeField(serializers.DateTimeField):
    """An ISO 8601 time with its offset, converted to UTC; refused if that leaves years 1-9999."""

    def to_internal_value(self, value: Any) -> datetime:
        if isinstance(value, str) and len(value) > 40:
            self.fail("invalid", format="ISO 8601 (YYYY-MM-DDThh:mm:ss[.uuuuuu]+HH:MM)")
        try:
            parsed = datetime.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            self.fail("invalid", format="ISO 8601 (YYYY-MM-DDThh:mm:ss[.uuuuuu]+HH:MM)")
        assert parsed is not None
        if parsed.tzinfo is None:
            raise serializers.ValidationError("a time needs its offset from UTC (an export writes +00:00)")
        try:
            return parsed.astimezone(UTC)
        except OverflowError:
            raise serializers.ValidationError(f"{value!r} falls outside the years 1-9999 in UTC") from None


class WholeNumberField(serializers.IntegerField):
    """A JSON whole number as an export writes it: not a text, a fraction or a boolean."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class TextField(serializers.CharField):
    """A JSON string as an export writes it: not a number."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            raise serializers.ValidationError(f"must be a text, not {type(data).__name__}")
        return super().to_internal_value(data)


def _int(low: int, high: int, **kwargs: Any) -> serializers.IntegerField:
    return WholeNumberField(min_value=low, max_value=high, **kwargs)


def _text(max_length: int, **kwargs: Any) -> serializers.CharField:
    return TextField(max_length=max_length, trim_whitespace=False, **kwargs)


class ScoredCardDocument(StrictSerializer):
    card = _text(8)
    points = _int(-SMALL, SMALL)
    wild = FlagField()


class ScoreDocument(StrictSerializer):
    player = _text(MAX_NAME)
    cards = _text(MAX_CARDS_TEXT, allow_blank=True)
    typed = FlagField()
    penalty = _int(0, INT)
    adjustment = _int(-INT, INT)
    points = _int(-INT, INT)
    buys = _int(0, SMALL)
    breakdown: serializers.ListSerializer[Any] = serializers.ListSerializer(
        child=ScoredCardDocument(), max_length=MAX_CARDS_TEXT
    )


class RoundDocument(StrictSerializer):
    number = _int(1, MAX_ROUNDS)
    winner = _text(MAX_NAME, allow_null=True)
    dealer = _text(MAX_NAME)
    dealt = _int(1, SMALL)
    wild_rank = _text(2, allow_null=True)
    cut_bonus = FlagField()
    scores: serializers.ListSerializer[Any] = serializers.ListSerializer(child=ScoreDocument(), max_length=MAX_PLAYERS)


class ChangeDocument(StrictSerializer):
    action = serializers.ChoiceField(choices=Change.Action.values)
    round = _int(1, MAX_ROUNDS)
    at = UTCDateTimeField()
    version = _int(2, INT)
    before = RoundDocument(allow_null=True)
    after = RoundDocument(allow_null=True)
    undoes = _int(2, INT, allow_null=True)


class GameDocument(StrictSerializer):
    """A game as ``GET /api/games/<id>/export/`` gives it, and as import takes it."""

    format = serializers.ChoiceField(choices=[FORMAT])
    format_version = _int(FORMAT_VERSION, FORMAT_VERSION)
    ruleset = _text(40)
    variants = serializers.ListField(child=_text(40), max_length=10)
    players = serializers.ListField(child=_text(MAX_NAME), max_length=MAX_PLAYERS)
    first_dealer = _text(MAX_NAME)
    first_dealer_method = serializers.ChoiceField(choices=Game.DealerMethod.values)
    created_at = UTCDateTimeField()
    version = _int(1, INT)
    rounds: serializers.ListSerializer[Any] = serializers.ListSerializer(child=RoundDocument(), max_length=MAX_ROUNDS)
    history: serializers.ListSerializer[Any] = serializers.ListSerializer(
        child=ChangeDocument(), max_length=MAX_HISTORY
    )


def as_exported(value: Any) -> Any:
    """Validated data in the form an export writes it: plain dicts and lists, times as ISO text."""
    if isinstance(value, Mapping):
        return {key: as_exported(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_exported(item) for item in value]
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def first_difference(expected: Any, actual: Any, path: str = "document") -> tuple[str, Any, Any] | None:
    """Where two exports first differ: the path, and the value each holds there."""
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        for key in expected:
            found = first_difference(expected[key], actual.get(key), f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for i, (a, b) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(a, b, f"{path}.{i}")
            if found:
                return found
        if len(expected) != len(actual):
            return (f"{path} (length)", len(expected), len(actual))
        return None
    return None if expected == actual and type(expected) is type(actual) else (path, expected, actual)
