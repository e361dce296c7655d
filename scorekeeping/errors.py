"""The score-keeper's domain errors: each says what is wrong, and where."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import Http404, HttpRequest

from referee.engine.rounds import EntryField

API_PREFIX = "/api/"

# What an error is about: a field of a round's entry (Ben's hand), or an input named as the
# API names it ("number", "version"). Only the API's answers spell an entry's field out.
ErrorKey = str | EntryField


def is_api(request: HttpRequest) -> bool:
    """A request to the JSON API, answered in JSON whatever goes wrong (the pages answer HTML)."""
    return request.path.startswith(API_PREFIX)


class ScorekeepingError(Exception):
    """Base: a request the score-keeper refuses, changing nothing."""

    status = 400

    def __init__(
        self,
        errors: Mapping[str, list[str]] | Mapping[EntryField, list[str]] | Mapping[ErrorKey, list[str]] | str,
        field: ErrorKey = "non_field_errors",
    ) -> None:
        if isinstance(errors, str):
            errors = {field: [errors]}
        self.errors: dict[ErrorKey, list[str]] = {key: messages for key, messages in errors.items()}
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return "; ".join(m for messages in self.errors.values() for m in messages)


class InvalidInput(ScorekeepingError):
    """400: the input breaks a rule (an unknown player, too many cards, a round out of order)."""


class NotFound(ScorekeepingError, Http404):
    """404: no such game, club or night (the selectors'), no such player in the game, or no round in
    progress. It is Django's ``Http404`` too: a page answers its 404 page and the API its JSON
    error, with nothing in between to turn one into the other."""

    status = 404


class Conflict(ScorekeepingError):
    """409: the game moved on meanwhile (a round recorded by another phone, a stale version)."""

    status = 409


class EditForbidden(ScorekeepingError):
    """403: the edit token is missing or wrong."""

    status = 403


class TooManyRequests(ScorekeepingError):
    """429: too many new games or wrong tokens from one address."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, "rate_limit")
        self.retry_after = retry_after


def flatten_errors(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """Nested validation errors as one level: ``{"rounds.0.scores.1.cards": [...]}``."""
    if isinstance(detail, dict):
        out: dict[str, list[str]] = {}
        for key, value in detail.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            if key == "non_field_errors":
                name = prefix or "non_field_errors"
            for k, v in flatten_errors(value, name).items():
                out.setdefault(k, []).extend(v)
        return out
    if isinstance(detail, list):
        out = {}
        for i, item in enumerate(detail):
            name = prefix if not isinstance(item, dict | list) else f"{prefix}[{i}]"
            for k, v in flatten_errors(item, name).items():
                out.setdefault(k, []).extend(v)
        return out
    return {prefix or "non_field_errors": [str(detail)]}
