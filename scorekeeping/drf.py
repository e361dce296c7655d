"""The API's plumbing: one error path, JSON-only content negotiation, a direct JSON parser.

One error path for the whole API: domain errors and validation errors as 4xx JSON.

Body: ``{"detail": "<one sentence>", "errors": {"<field>": ["<message>", ...]}}``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, Any

from rest_framework import exceptions, status
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.parsers import JSONParser as DRFJSONParser
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.json import strict_constant
from rest_framework.views import exception_handler as drf_exception_handler

from referee.engine import RefereeError

from .errors import ScorekeepingError, TooManyRequests, flatten_errors


def error_body(detail: str, errors: dict[str, list[str]] | None = None) -> dict[str, Any]:
    return {"detail": detail, "errors": errors or {}}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ScorekeepingError):
        response = Response(error_body(exc.message, exc.errors), status=exc.status)
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


class JSONOnlyNegotiation(BaseContentNegotiation):
    """The API speaks JSON only: take the one parser and renderer without weighing headers."""

    def select_parser(self, request: Request, parsers: Iterable[BaseParser]) -> BaseParser | None:
        content_type = (request.content_type or "").split(";")[0].strip()
        return next((p for p in parsers if p.media_type == content_type), None)

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))
        return renderer, renderer.media_type


class JSONParser(DRFJSONParser):
    """DRF's JSON parser, reading the body in one piece.

    DRF hands its parser the body (already in memory) as a stream and decodes it through a
    codec reader; ``json.loads`` takes the bytes as they are (UTF-8, -16 or -32, as RFC 8259
    allows). NaN and Infinity are refused as DRF refuses them.
    """

    def parse(self, stream: IO[bytes], media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = json.loads(stream.read(), parse_constant=strict_constant if self.strict else None)
        except ValueError as exc:  # includes UnicodeDecodeError
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None
        except RecursionError:  # json's decoder recurses once per level of nesting
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
