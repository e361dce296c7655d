"""Saving a table's house rules: ``POST /api/rulesets/`` (the reads are the referee's, ``referee/api.py``).

The site adds what the referee app cannot hold: the limit per address, counted in the database
like new games, and the body's bound, refused before the body is read (the ASGI server refuses a
longer body unread, by ``body_limit``; this view refuses a declared length past it).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from referee.api import RULESET_DOCUMENT, RulesetListView
from referee.representations import RulesetOutput, rules_data
from referee.rulebook import DocumentError, house_rules, ruleset_save
from scorekeeping.access import creating, uncount
from scorekeeping.api.drf import error_body
from scorekeeping.errors import InvalidInput
from scorekeeping.webkit.errors import ERROR

MAX_DOCUMENT = 64 * 1024  # bytes of a house ruleset's document: the longest is under 4 KiB written out
RULESET_PATHS = ("/api/rulesets/",)


def _faults(exc: DocumentError) -> InvalidInput:
    """The document's faults under the keys they are about (``players.min``), in the API's error shape."""
    errors: dict[str, list[str]] = {}
    for key, why in exc.faults:
        errors.setdefault(key, []).append(why)
    return InvalidInput(errors)


class RulesetsView(RulesetListView):
    """The built-in rulesets (GET); save a table's house rules (POST), to play by their slug anywhere a
    ruleset is taken: a game, a club night, the referee, a sheet's import, the ladder."""

    @extend_schema(
        operation_id="rulesets_create",
        request={"application/json": RULESET_DOCUMENT},
        responses={
            201: OpenApiResponse(RulesetOutput, description="Saved: the ruleset, as GET /api/rulesets/<slug>/."),
            200: OpenApiResponse(RulesetOutput, description="The same rules were saved before: that ruleset."),
            400: ERROR,
            413: ERROR,
            429: ERROR,
        },
    )
    def post(self, request: Request) -> Response:
        declared = request.META.get("CONTENT_LENGTH") or "0"
        if not declared.isdigit() or int(declared) > MAX_DOCUMENT:
            said = _("The request is too large: at most {size} bytes are accepted.").format(size=f"{MAX_DOCUMENT:,}")
            return Response(error_body(said), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
        with creating(request, limit="rulesets"):
            try:
                row, created = ruleset_save(document=request.data)
            except DocumentError as exc:
                raise _faults(exc) from None
        if not created:
            uncount(request, "rulesets")  # nothing was written: the rules were saved before
        body = rules_data(house_rules(row.slug))
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)
