"""The referee's JSON API: check a layout, score a hand, read a ruleset (built-in or house rules) by its slug.

The list of built-in rulesets and saving house rules are the site's (``scorekeeping/api/rulesets.py``),
which holds the limits."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeping.webkit.errors import ERROR
from scorekeeping.webkit.serializers import FlagField, InputSerializer

from .engine import DEFAULT_RULESET, Action, UnknownRuleset
from .fields import CardsField, MeldsField
from .representations import PenaltyOutput, RulesetOutput, VerdictOutput, penalty_data, rules_data, verdict_data
from .services import referee_check, referee_rules, referee_score


class RulesInput(InputSerializer):
    ruleset = serializers.CharField(default=DEFAULT_RULESET, max_length=40)
    variants = serializers.ListField(child=serializers.CharField(max_length=40), default=list, max_length=10)
    round = serializers.IntegerField(min_value=1, max_value=1000)
    players = serializers.IntegerField(min_value=1, max_value=20, required=False, allow_null=True, default=None)


class CheckView(APIView):
    """Check a proposed opening, layoff, wild swap or go-out against a round's contract."""

    class InputSerializer(RulesInput):
        """What to check: the rules and round, the action, and melds or a hand (open, go out) or a target
        and cards (lay off, swap)."""

        class Meta:
            ref_name = "CheckInput"

        action = serializers.ChoiceField(choices=Action.ALL)
        melds = MeldsField(required=False)
        hand = CardsField(required=False, help_text="A whole hand: the solver looks for an opening or a go-out.")
        target = CardsField(required=False, help_text="The exposed meld, with its declared wilds.")
        cards = CardsField(required=False)
        opened_this_turn = FlagField(default=False)
        buys = serializers.IntegerField(
            min_value=0,
            max_value=200,
            required=False,
            allow_null=True,
            default=None,
            help_text='Buys (or "May I?"s) made this round: 2 more cards each. Default: the most the rules allow.',
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            action = attrs["action"]
            if action in (Action.OPEN, Action.GO_OUT):
                if ("melds" in attrs) == ("hand" in attrs):
                    raise serializers.ValidationError({"melds": f"{action} takes either melds or a hand, not both."})
            else:
                missing = {f: f"{action} needs {f}." for f in ("target", "cards") if f not in attrs}
                if missing:
                    raise serializers.ValidationError(missing)
            return attrs

    @extend_schema(request=InputSerializer, responses={200: VerdictOutput, 400: ERROR})
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        verdict = referee_check(
            ruleset=data["ruleset"],
            variants=data["variants"],
            round_number=data["round"],
            action=data["action"],
            melds=data.get("melds"),
            hand=data.get("hand"),
            target=data.get("target"),
            cards=data.get("cards"),
            players=data["players"],
            opened_this_turn=data["opened_this_turn"],
            buys=data["buys"],
        )
        return Response(verdict_data(verdict))


class ScoreView(APIView):
    """Penalty points for the cards left in a hand, card by card."""

    class InputSerializer(RulesInput):
        """The rules and round, and the cards left in a hand."""

        class Meta:
            ref_name = "ScoreInput"

        cards = CardsField()

    @extend_schema(request=InputSerializer, responses={200: PenaltyOutput, 400: ERROR})
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        penalty = referee_score(
            ruleset=data["ruleset"],
            variants=data["variants"],
            round_number=data["round"],
            cards=data["cards"],
            players=data["players"],
        )
        return Response(penalty_data(penalty))


VARIANTS_PARAM = OpenApiParameter(
    "variants", str, description="Comma-separated variant slugs to apply, e.g. 'kings-wild,buy-discard'."
)


def _variants(request: Request) -> list[str]:
    raw = request.query_params.get("variants", "")
    return [v.strip() for v in raw.split(",") if v.strip()]


class RulesetDetailView(APIView):
    """One ruleset's tables, a built-in (with variants applied when asked) or a table's house rules."""

    @extend_schema(parameters=[VARIANTS_PARAM], responses={200: RulesetOutput, 400: ERROR, 404: ERROR})
    def get(self, request: Request, slug: str) -> Response:
        try:
            rules = referee_rules(ruleset=slug, variants=_variants(request))
        except UnknownRuleset as exc:
            raise NotFound(str(exc)) from None
        return Response(rules_data(rules))
