"""The rulesets: the built-ins listed (``GET /api/rulesets/``) and a table's house rules saved
(``POST``); a ruleset read by its slug is the referee's (``referee/api.py``).

Saving goes through the one service behind the editor's Save too
(``scorekeeping/services/rulesets.py``): the same limit per address, and rules saved before
handed back uncounted. The body's bound is refused before the body is read (the ASGI server
refuses a longer body unread, by ``body_limit``; this view refuses a declared length past it).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from referee.engine import RULESETS
from referee.engine.documents import MAX_NAME, TOP_KEYS
from referee.engine.knobs import KNOBS
from referee.representations import RulesetOutput, rules_data
from referee.rulebook import DocumentError, house_rules
from scorekeeping import ratelimit
from scorekeeping.api.drf import error_body
from scorekeeping.errors import InvalidInput
from scorekeeping.services.rulesets import house_rules_save
from scorekeeping.webkit.errors import ERROR

MAX_DOCUMENT = 64 * 1024  # bytes of a house ruleset's document: the longest is under 4 KiB written out
RULESET_PATHS = ("/api/rulesets/",)

# A house ruleset as POST /api/rulesets/ takes it: the engine's document (referee/engine/documents.py),
# every key optional beside ``based_on``. Documented loosely here; the engine's reader is the one check.
RULESET_DOCUMENT = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        key: {"type": "string", "maxLength": MAX_NAME}
        if key == "name"
        else {"type": "string", "enum": list(RULESETS)}
        if key == "based_on"
        else {"description": f"As GET /api/rulesets/<slug>/ writes it under document.{key}."}
        for key in sorted(TOP_KEYS)
    },
    "example": {"name": "Grandma's Mexican", "based_on": "mexican", "contract_sizes": "exact"},
    "description": "A table's house rules: the document of GET /api/rulesets/<slug>/, whole, or in part with"
    " based_on (a key left out is the built-in's; an object given is merged key by key, a list replaces the"
    " built-in's). Without based_on every key is needed. Unknown keys are refused by name; at most 64 KiB."
    " Its knobs and what each may hold: " + "; ".join(f"{knob.key} {knob.holds}" for knob in KNOBS if knob.holds) + ".",
}


def _faults(exc: DocumentError) -> InvalidInput:
    """The document's faults under the keys they are about (``players.min``), in the API's error shape."""
    errors: dict[str, list[str]] = {}
    for key, why in exc.faults:
        errors.setdefault(key, []).append(why)
    return InvalidInput(errors)


class RulesetsView(APIView):
    """The built-in rulesets (GET); save a table's house rules (POST), to play by their slug anywhere a
    ruleset is taken: a game, a club night, the referee, a sheet's import, the ladder."""

    @extend_schema(operation_id="rulesets_list", responses={200: RulesetOutput(many=True)})
    def get(self, request: Request) -> Response:
        """Every built-in ruleset's tables: rounds, contracts, wilds, penalties, players, variants.

        A table's house rules are not listed: they are found by their link (``GET /api/rulesets/<slug>/``).
        """
        return Response([rules_data(rules) for rules in RULESETS.values()])

    @extend_schema(
        operation_id="rulesets_create",
        request={"application/json": RULESET_DOCUMENT},
        responses={
            201: OpenApiResponse(RulesetOutput, description="Saved: the ruleset, as GET /api/rulesets/<slug>/."),
            200: OpenApiResponse(
                RulesetOutput, description="The same rules were saved before: that ruleset (never counted)."
            ),
            400: ERROR,
            413: ERROR,
            429: ERROR,
        },
    )
    def post(self, request: Request) -> Response:
        declared = request.META.get("CONTENT_LENGTH") or "0"
        if not declared.isascii() or not declared.isdigit() or int(declared) > MAX_DOCUMENT:
            said = _("The request is too large: at most {size} bytes are accepted.").format(size=f"{MAX_DOCUMENT:,}")
            return Response(error_body(said), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
        try:
            row, created = house_rules_save(document=request.data, client=ratelimit.client_key(request))
        except DocumentError as exc:
            raise _faults(exc) from None
        body = rules_data(house_rules(row.slug))
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)
