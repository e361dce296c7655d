"""Engine objects as the API shows them: each shape declared once, as the serializer that renders it.

The same serializers document the OpenAPI schema and render the responses (and the rules
pages read ``rules_data``), so a field cannot be in the one and not the other. A round of
a ruleset's table (``RoundTableOutput``) is declared here once; the score-keeper's
current round extends it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .engine import Laid, Penalty, Placed, Rules, Verdict, variants_for
from .engine.cards import RANK_TEXT
from .engine.documents import document_of
from .engine.i18n import _
from .engine.scoring import rank_points
from .rulebook import house_based_on, is_house

Output = serializers.Serializer[Any]


class ComponentOutput(Output):
    class Meta:
        ref_name = "ContractComponent"

    kind = serializers.ChoiceField(choices=["book", "run"], source="kind.value")
    length = serializers.IntegerField()


class RoundTableOutput(Output):
    """A round of a ruleset's table: what is wild and what the contract asks."""

    class Meta:
        ref_name = "RoundTableBase"

    number = serializers.IntegerField()
    wild_rank = serializers.CharField(allow_null=True)
    wilds = serializers.CharField()
    contract = serializers.CharField()
    components = ComponentOutput(many=True)
    final = serializers.BooleanField()


class RulesRoundOutput(RoundTableOutput):
    class Meta:
        ref_name = "RoundTable"

    dealt = serializers.IntegerField()


class WildOutput(Output):
    class Meta:
        ref_name = "Wild"

    card = serializers.CharField(source="placed.card")
    stands_for = serializers.CharField(
        source="placed.identity", help_text="The rank ('7') in a book, or the card ('7S') in a run."
    )
    name = serializers.CharField(source="placed.identity.name")
    choices = serializers.ListField(child=serializers.CharField(), help_text="Every identity that fits this wild.")


@dataclass(frozen=True)
class _Wild:
    placed: Placed
    choices: tuple[str, ...]


class MeldOutput(Output):
    class Meta:
        ref_name = "Meld"

    kind = serializers.ChoiceField(choices=["book", "run"], source="reading.kind.value")
    description = serializers.SerializerMethodField()
    cards = serializers.SerializerMethodField()
    wilds = serializers.SerializerMethodField()
    ambiguous = serializers.BooleanField()

    def get_description(self, laid: Laid) -> str:
        return laid.reading.describe()

    def get_cards(self, laid: Laid) -> list[str]:
        return [str(p) for p in laid.reading.cards]

    @extend_schema_field(WildOutput(many=True))
    def get_wilds(self, laid: Laid) -> list[Any]:
        wilds = [_Wild(p, tuple(str(i) for i in laid.choices(p))) for p in laid.reading.wilds]
        return list(WildOutput(wilds, many=True).data)


class VerdictOutput(Output):
    class Meta:
        ref_name = "Verdict"

    action = serializers.CharField()
    legal = serializers.BooleanField()
    decided = serializers.BooleanField(
        help_text="False where the check or the search ran out of its work budget before a verdict: "
        "legal is then false without the layout being judged, and reasons say what to do instead "
        "(name what each wild stands for; lay out the melds in mind and check them)."
    )
    reasons = serializers.ListField(child=serializers.CharField())
    melds = MeldOutput(many=True)
    notes = serializers.ListField(child=serializers.CharField())
    freed = serializers.CharField(allow_null=True)
    unused = serializers.ListField(child=serializers.CharField())


class CardPointsOutput(Output):
    class Meta:
        ref_name = "CardPoints"

    card = serializers.CharField()
    name = serializers.CharField(source="card.name")
    points = serializers.IntegerField()
    wild = serializers.BooleanField()


class PenaltyOutput(Output):
    class Meta:
        ref_name = "Score"

    points = serializers.IntegerField()
    cards = CardPointsOutput(many=True)


class DeckOutput(Output):
    class Meta:
        ref_name = "DeckForPlayers"

    players = serializers.IntegerField()
    packs = serializers.IntegerField()
    jokers = serializers.IntegerField()
    cards = serializers.IntegerField(source="size")


@dataclass(frozen=True)
class _Deck:
    players: int
    packs: int
    jokers: int
    size: int


class RulesetOutput(Output):
    class Meta:
        ref_name = "Ruleset"

    slug = serializers.CharField()
    name = serializers.CharField(source="display_name")
    house = serializers.SerializerMethodField()
    based_on = serializers.SerializerMethodField()
    reference = serializers.CharField(
        source="source",
        help_text="The title of the rules document a built-in ruleset follows (empty for house rules).",
    )
    document = serializers.SerializerMethodField()
    variants_applied = serializers.ListField(child=serializers.CharField(), source="variants")
    players = serializers.SerializerMethodField()
    decks = serializers.SerializerMethodField()
    words = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField()
    penalties = serializers.SerializerMethodField()
    exact_opening = serializers.BooleanField()
    runs_may_join = serializers.BooleanField()
    layoff_on_opening_turn = serializers.BooleanField()
    swap = serializers.ChoiceField(choices=["none", "any_wild", "joker_in_run"], source="swap.value")
    buys = serializers.SerializerMethodField()
    tie_break = serializers.ChoiceField(choices=["round_wins", "shared"], source="tie_break.value")
    cut_bonus = serializers.IntegerField()
    variants = serializers.SerializerMethodField()

    @extend_schema_field(serializers.BooleanField(help_text="A table's saved house rules, not a built-in ruleset."))
    def get_house(self, rules: Rules) -> bool:
        return is_house(rules.slug)

    @extend_schema_field(
        serializers.CharField(allow_null=True, help_text="House rules: the built-in ruleset they started from.")
    )
    def get_based_on(self, rules: Rules) -> str | None:
        return (house_based_on(rules.slug) or None) if is_house(rules.slug) else None

    @extend_schema_field(
        {
            "type": "object",
            "additionalProperties": True,
            "description": "The whole ruleset as a document (the shape POST /api/rulesets/ takes): every key"
            " written out, so a copy with a change saves a house ruleset.",
        }
    )
    def get_document(self, rules: Rules) -> dict[str, Any]:
        return document_of(rules)

    @extend_schema_field({"type": "object", "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}}})
    def get_players(self, rules: Rules) -> dict[str, int]:
        return {"min": rules.min_players, "max": rules.max_players}

    @extend_schema_field(DeckOutput(many=True))
    def get_decks(self, rules: Rules) -> list[Any]:
        decks = [rules.deck(n) for n in range(rules.min_players, rules.max_players + 1)]
        rows = [_Deck(n, d.packs, d.jokers, d.size) for n, d in enumerate(decks, start=rules.min_players)]
        return list(DeckOutput(rows, many=True).data)

    @extend_schema_field(
        {
            "type": "object",
            "properties": {w: {"type": "string"} for w in ("round", "rounds", "book", "books", "run", "runs")},
        }
    )
    def get_words(self, rules: Rules) -> dict[str, str]:
        return {
            "round": _(rules.round_word),
            "rounds": _(rules.round_plural),
            "book": _(rules.book_word),
            "books": _(rules.book_plural),
            "run": _(rules.run_word),
            "runs": _(rules.run_plural),
        }

    @extend_schema_field(RulesRoundOutput(many=True))
    def get_rounds(self, rules: Rules) -> list[Any]:
        rows = [rules.in_words(r.number) for r in rules.rounds]
        return list(RulesRoundOutput(rows, many=True).data)

    @extend_schema_field(
        {
            "type": "object",
            "properties": {
                "joker": {"type": "integer"},
                "wild": {"type": "integer", "nullable": True, "description": "null: a wild scores as its rank"},
                "ace": {"type": "integer"},
                "ten_to_king": {
                    "type": "integer",
                    "nullable": True,
                    "description": "What a 10, J, Q and K each score; null where they score unalike (see by_rank).",
                },
                "two_to_nine": {
                    "type": "integer",
                    "nullable": True,
                    "description": "What a 2 to 9 each score; null: face value, or unalike (see by_rank).",
                },
                "by_rank": {
                    "type": "object",
                    "description": "What each rank scores, as the scorer counts it (a wild rank: see wild).",
                    "properties": {text: {"type": "integer"} for text in RANK_TEXT.values()},
                },
            },
        }
    )
    def get_penalties(self, rules: Rules) -> dict[str, Any]:
        p = rules.penalties
        by_rank = {RANK_TEXT[rank]: rank_points(rules, rank) for rank in RANK_TEXT}
        twos = {by_rank[str(r)] for r in range(2, 10)}
        tens = {by_rank[r] for r in ("10", "J", "Q", "K")}
        return {
            "joker": p.joker,
            "wild": p.wild,
            "ace": by_rank["A"],
            "ten_to_king": tens.pop() if len(tens) == 1 else None,
            "two_to_nine": twos.pop() if len(twos) == 1 else None,
            "by_rank": by_rank,
        }

    @extend_schema_field(
        {
            "type": "object",
            "properties": {
                "allowed": {"type": "boolean"},
                "limit": {"type": "integer", "nullable": True},
                "not_twice_in_row": {"type": "boolean"},
                "name": {"type": "string"},
            },
        }
    )
    def get_buys(self, rules: Rules) -> dict[str, Any]:
        b = rules.buys
        return {"allowed": b.allowed, "limit": b.limit, "not_twice_in_row": b.not_twice_in_row, "name": _(b.name)}

    @extend_schema_field(
        {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"slug": {"type": "string"}, "name": {"type": "string"}, "effect": {"type": "string"}},
            },
        }
    )
    def get_variants(self, rules: Rules) -> list[dict[str, str]]:
        return [{"slug": v.slug, "name": _(v.name), "effect": _(v.effect)} for v in variants_for(rules.slug)]


def verdict_data(verdict: Verdict) -> dict[str, Any]:
    return dict(VerdictOutput(verdict).data)


def penalty_data(penalty: Penalty) -> dict[str, Any]:
    return dict(PenaltyOutput(penalty).data)


def rules_data(rules: Rules) -> dict[str, Any]:
    return dict(RulesetOutput(rules).data)
