"""The API's plumbing: one error path, and DRF's JSON parser refusing what it would let through.

One error path for the whole API: domain errors and validation errors as 4xx JSON.

Body: ``{"detail": "<one sentence>", "errors": {"<field>": ["<message>", ...]}}``, bounded whatever
was refused (a sheet of 720 faults, a body of a thousand unknown keys): at most ``MAX_FIELDS``
fields of at most ``MAX_MESSAGES`` messages each, the rest counted in a last line ("and 698
more"), each message, field name and the detail cut short with an ellipsis.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.utils.translation import ngettext
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser as DRFJSONParser
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from referee.engine import RefereeError
from referee.engine.rounds import EntryField
from scorekeeping.errors import ErrorKey, ScorekeepingError, TooManyRequests, flatten_errors

MAX_FIELDS = 20  # fields listed in an error answer
MAX_MESSAGES = 30  # messages listed a field (a score sheet's reader lists 25 and counts the rest)
MAX_MESSAGE = 300  # characters of a message
MAX_FIELD = 100  # characters of a field's name (an unknown key is named by the client)
MAX_DETAIL = 500  # characters of the detail


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "\u2026"


def error_body(detail: str, errors: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """The one error shape, bounded (see the module's docstring)."""
    fields = list((errors or {}).items())
    bounded: dict[str, list[str]] = {}
    for name, messages in fields[:MAX_FIELDS]:
        listed = bounded.setdefault(_cut(name, MAX_FIELD), [])
        listed += [_cut(str(m), MAX_MESSAGE) for m in messages[:MAX_MESSAGES]]
        if len(messages) > MAX_MESSAGES:
            more = len(messages) - MAX_MESSAGES
            listed.append(ngettext("and {n} more", "and {n} more", more).format(n=more))
    if len(fields) > MAX_FIELDS:
        more = len(fields) - MAX_FIELDS
        said = ngettext("and {n} more field", "and {n} more fields", more).format(n=more)
        bounded.setdefault("non_field_errors", []).append(said)
    return {"detail": _cut(detail, MAX_DETAIL), "errors": bounded}


def wire_errors(errors: Mapping[ErrorKey, list[str]]) -> dict[str, list[str]]:
    """Errors under the names the API's clients know: a round's entry field spelled out
    (``hands.Ben``, ``winner``), any other field as it is named."""
    return {key.wire if isinstance(key, EntryField) else key: messages for key, messages in errors.items()}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ScorekeepingError):
        response = Response(error_body(exc.message, wire_errors(exc.errors)), status=exc.status)
        if isinstance(exc, TooManyRequests):
            response["Retry-After"] = str(exc.retry_after)
        return response
    if isinstance(exc, RefereeError):
        field = exc.field or "non_field_errors"
        return Response(error_body(str(exc), {field: [str(exc)]}), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, exceptions.ValidationError):
        errors = flatten_errors(exc.detail)
        first_field, messages = next(iter(errors.items()), ("", ["invalid input"]))
        detail = messages[0] if first_field == "non_field_errors" else f"{first_field}: {messages[0]}"
        return Response(error_body(detail, errors), status=status.HTTP_400_BAD_REQUEST)
    handled = drf_exception_handler(exc, context)
    if handled is not None and isinstance(handled.data, dict) and "detail" in handled.data:
        handled.data = error_body(str(handled.data["detail"]))
    return handled


class JSONParser(DRFJSONParser):
    """DRF's JSON parser, refusing what would otherwise answer 500 later.

    JSON nested deeper than Python's stack (the decoder recurses once per level) and a lone
    surrogate escape (``"\\ud800"``: half a character, which no text can be written with,
    neither as UTF-8 nor into a database) are refused as parse errors, 400.
    """

    def parse(self, stream: IO[Any], media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - nested too deeply") from None
        where = lone_surrogate(data)
        if where is not None:
            raise exceptions.ParseError(
                f"JSON parse error - {where} holds a lone surrogate escape (such as \\ud800), which is no character"
            )
        return data


def lone_surrogate(data: Any) -> str | None:
    """Where a decoded JSON document holds a lone surrogate, in a key or a text; None if nowhere.

    JSON's ``\\ud800`` escapes decode to half a character that no text can be written with
    (not as UTF-8, nor into a database), so a document holding one is refused whole.
    Walked with a list: a document may be as deep as the decoder allowed.
    """
    pending: list[tuple[Any, str]] = [(data, "the body")]
    while pending:
        value, at = pending.pop()
        if isinstance(value, str):
            if any("\ud800" <= ch <= "\udfff" for ch in value):
                return at
        elif isinstance(value, dict):
            for key, item in value.items():
                if any("\ud800" <= ch <= "\udfff" for ch in key):
                    return f"a key of {at}"
                pending.append((item, f"{at}.{key}" if at != "the body" else str(key)))
        elif isinstance(value, list):
            pending += [(item, f"{at}[{i}]") for i, item in enumerate(value)]
    return None
