"""Games as the API shows them: each shape declared once, as the serializer that renders it.

The serializers document the OpenAPI schema and render the responses, so the two cannot
disagree. A game comes from ``selectors.game_get`` (everything prefetched: a game renders
in a fixed number of queries). The current round extends the referee's round table.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from referee.representations import RoundTableOutput
from scorekeeping import colours as palette
from scorekeeping.links import edit_path, view_path
from scorekeeping.models import Change, DraftHand, Game, Round, Score
from scorekeeping.selectors import Standings, game_current_round, game_standings
from scorekeeping.services.drafts import DraftStatus

Output = serializers.Serializer[Any]


class IsoDateTimeField(serializers.DateTimeField):
    """A time as Python writes it (``2026-11-30T22:00:00+00:00``), as the API always has."""

    def to_representation(self, value: datetime) -> str:
        return value.isoformat()


class ScoredCardOutput(Output):
    class Meta:
        ref_name = "ScoredCard"

    card = serializers.CharField()
    points = serializers.IntegerField()
    wild = serializers.BooleanField()


class RoundScoreOutput(Output):
    class Meta:
        ref_name = "RoundScore"

    player = serializers.CharField(source="player.name")
    points = serializers.IntegerField()
    penalty = serializers.IntegerField()
    adjustment = serializers.IntegerField()
    cards = serializers.SerializerMethodField()
    typed = serializers.BooleanField()
    buys = serializers.IntegerField()
    breakdown = ScoredCardOutput(many=True)

    def get_cards(self, score: Score) -> list[str]:
        return score.cards.split() if score.cards else []


class RecordedRoundOutput(Output):
    class Meta:
        ref_name = "RecordedRound"

    number = serializers.IntegerField()
    winner = serializers.CharField(source="winner.name", allow_null=True, default=None)
    dealer = serializers.CharField(source="dealer.name")
    hand_size = serializers.IntegerField(source="dealt")
    wild_rank = serializers.SerializerMethodField()
    cut_bonus = serializers.BooleanField()
    scores = RoundScoreOutput(many=True, source="scores.all")

    def get_wild_rank(self, rnd: Round) -> str | None:
        return rnd.wild_rank or None


class CurrentRoundOutput(RoundTableOutput):
    class Meta:
        ref_name = "CurrentRound"

    hand_size = serializers.IntegerField()
    wilds = serializers.CharField(source="wild_words")
    dealer = serializers.CharField(source="dealer.name")
    first_player = serializers.CharField(source="first_player.name")
    packs = serializers.IntegerField()
    jokers = serializers.IntegerField()
    stock = serializers.IntegerField()
    upcard = serializers.IntegerField()


class StandingOutput(Output):
    class Meta:
        ref_name = "Standing"

    player = serializers.CharField(source="player.name")
    total = serializers.IntegerField()
    round_wins = serializers.IntegerField()
    place = serializers.IntegerField()


class StandingsOutput(Output):
    class Meta:
        ref_name = "Standings"

    finished = serializers.BooleanField()
    standings = StandingOutput(many=True, source="rows")
    winners = serializers.SerializerMethodField()
    notes = serializers.ListField(child=serializers.CharField())

    def get_winners(self, standings: Standings) -> list[str]:
        return [p.name for p in standings.winners]


class SeatOutput(Output):
    class Meta:
        ref_name = "Seat"

    name = serializers.CharField()
    seat = serializers.IntegerField()
    colour = serializers.CharField(
        help_text=f"The player's colour, kept for the game: one of {', '.join(palette.KEYS)}."
    )


class GameOutput(Output):
    """A game: players, every round with each score, the round to deal next, the standings.

    Context: ``base_url`` (scheme and host) makes the links absolute; ``token``, given only
    to a caller that proved it has it, adds the edit link.
    """

    class Meta:
        ref_name = "Game"

    id = serializers.CharField(source="pk")
    url = serializers.SerializerMethodField(help_text="The game's table page: the view link.")
    edit_url = serializers.SerializerMethodField(
        help_text="The edit link (carries the token); only for a caller that has the token."
    )
    ruleset = serializers.CharField()
    variants = serializers.ListField(child=serializers.CharField())
    version = serializers.IntegerField()
    created_at = IsoDateTimeField()
    players = SeatOutput(many=True, source="players.all")
    first_dealer = serializers.SerializerMethodField()
    first_dealer_method = serializers.ChoiceField(choices=Game.DealerMethod.values)
    rounds = RecordedRoundOutput(many=True, source="rounds.all")
    current_round = serializers.SerializerMethodField()
    finished = serializers.SerializerMethodField()
    standings = serializers.SerializerMethodField()

    def _base(self) -> str:
        return str(self.context.get("base_url", ""))

    def get_url(self, game: Game) -> str:
        return self._base() + view_path(game.pk)

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_edit_url(self, game: Game) -> str | None:
        token = self.context.get("token")
        return self._base() + edit_path(game.pk, token) if token else None

    def get_first_dealer(self, game: Game) -> str:
        return str(game.players.all()[game.first_dealer_seat].name)

    @extend_schema_field(CurrentRoundOutput(allow_null=True))
    def get_current_round(self, game: Game) -> dict[str, Any] | None:
        current = game_current_round(game=game)
        return None if current is None else dict(CurrentRoundOutput(current).data)

    def _standings(self, game: Game) -> Standings:
        """The standings, worked out once per game rendered (``finished`` and ``standings`` share them)."""
        cache: dict[str, Standings] = self.__dict__.setdefault("_standings_by_game", {})
        if game.pk not in cache:
            cache[game.pk] = game_standings(game=game)
        return cache[game.pk]

    def get_finished(self, game: Game) -> bool:
        return self._standings(game).finished

    @extend_schema_field(StandingsOutput)
    def get_standings(self, game: Game) -> dict[str, Any]:
        return dict(StandingsOutput(self._standings(game)).data)


class NewGameOutput(GameOutput):
    class Meta:
        ref_name = "NewGame"

    edit_token = serializers.CharField(help_text="The secret that lets a phone record and correct rounds.")


class ChangeOutput(Output):
    class Meta:
        ref_name = "Change"

    id = serializers.IntegerField(source="pk")
    action = serializers.ChoiceField(choices=Change.Action.values)
    round = serializers.IntegerField(source="round_number")
    at = IsoDateTimeField()
    version = serializers.IntegerField()
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    undoes = serializers.IntegerField(source="undoes_id", allow_null=True)
    undone = serializers.SerializerMethodField()

    def get_undone(self, change: Change) -> bool:
        return bool(getattr(change, "is_undone", False))


def game_data(game: Game, *, base_url: str = "", token: str | None = None) -> dict[str, Any]:
    """The game as the API shows it (``GameOutput``)."""
    return dict(GameOutput(game, context={"base_url": base_url, "token": token}).data)


def standings_data(standings: Standings) -> dict[str, Any]:
    return dict(StandingsOutput(standings).data)


def change_data(change: Change) -> dict[str, Any]:
    return dict(ChangeOutput(change).data)


class DraftHandOutput(Output):
    class Meta:
        ref_name = "DraftHand"

    cards = serializers.SerializerMethodField()
    points = serializers.IntegerField(allow_null=True, help_text="Points typed instead of cards.")
    buys = serializers.IntegerField()
    sent_in = serializers.BooleanField(source="done", help_text="False while the hand is still being typed.")

    def get_cards(self, hand: DraftHand) -> list[str]:
        return hand.cards.split() if hand.cards else []


class DraftOutput(Output):
    """The round in progress: who went out, the hands kept so far, who is still missing."""

    class Meta:
        ref_name = "Draft"

    number = serializers.IntegerField(source="draft.number")
    winner = serializers.CharField(source="draft.winner.name", allow_null=True, default=None)
    hands = serializers.SerializerMethodField()
    missing = serializers.SerializerMethodField()
    penalties = serializers.SerializerMethodField()
    version = serializers.IntegerField(source="draft.version")
    cut_bonus = serializers.BooleanField(source="draft.cut_bonus", help_text="Liverpool: the cutter cut exactly right.")

    @extend_schema_field(serializers.DictField(child=DraftHandOutput()))
    def get_hands(self, status: DraftStatus) -> dict[str, Any]:
        names = {p.pk: p.name for p in status.players}
        return {
            names[p.pk]: DraftHandOutput(status.hands[p.pk]).data
            for p in status.players
            if p.pk in status.hands and p.pk != status.draft.winner_id
        }

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_missing(self, status: DraftStatus) -> list[str]:
        return [p.name for p in status.missing]

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_penalties(self, status: DraftStatus) -> dict[str, int]:
        """What each hand sent in scores, as recording would write it."""
        names = {p.pk: p.name for p in status.players}
        return {names[pk]: points for pk, points in status.penalties.items()}


def draft_data(status: DraftStatus) -> dict[str, Any]:
    return dict(DraftOutput(status).data)
