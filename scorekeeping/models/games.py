"""A game: its players, rounds and scores, its history of changes, the round in progress and the
phones seated at it; the rate-limit counters."""

from __future__ import annotations

import secrets

from django.db import models
from django.db.models.functions import Lower

from referee.engine import Rules
from referee.rulebook import SLUG_MAX, rules_for
from scorekeeping import colours


def new_game_id() -> str:
    return secrets.token_urlsafe(9)  # 12 characters, 72 random bits


class Game(models.Model):
    class DealerMethod(models.TextChoices):
        """How the first dealer was chosen: the one list the forms, the API and the export take."""

        NAMED = "named", "named"
        RANDOM = "random", "random"
        DRAW = "draw", "drawn for"

    id = models.CharField(primary_key=True, max_length=16, default=new_game_id, editable=False)
    ruleset = models.CharField(max_length=SLUG_MAX)  # a built-in's slug or a house ruleset's
    variants = models.JSONField(default=list, blank=True)
    edit_token_hash = models.CharField(max_length=64, help_text="SHA-256 of the edit token; the token is never stored.")
    first_dealer_seat = models.PositiveSmallIntegerField()
    first_dealer_method = models.CharField(max_length=10, choices=DealerMethod.choices)
    version = models.PositiveIntegerField(default=1, help_text="Goes up by one with every change.")
    live_version = models.PositiveIntegerField(
        default=1,
        help_text="Goes up with every change the phones should see: each version, each step of a round in progress.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.ruleset} game {self.id}"

    @property
    def rules(self) -> Rules:
        """The game's ruleset with its variants, as the engine plays it."""
        return rules_for(self.ruleset, self.variants)

    @property
    def ruleset_name(self) -> str:
        """The ruleset as players name it, in the active language ("Mexican Rummy")."""
        return self.rules.display_name


class Player(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField(help_text="0-based, clockwise")
    name = models.CharField(max_length=30)
    colour = models.CharField(
        max_length=12, choices=colours.CHOICES, default=colours.KEYS[0], help_text="Marks the player everywhere."
    )

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="player_seat_unique"),
            models.UniqueConstraint("game", Lower("name"), name="player_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    winner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    dealt = models.PositiveSmallIntegerField()
    wild_rank = models.CharField(max_length=2, blank=True, help_text="The rank wild in this round, besides jokers.")
    cut_bonus = models.BooleanField(default=False, help_text="Liverpool: the cutter cut exactly the cards needed.")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return f"round {self.number} of {self.game_id}"


class Score(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="scores")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="scores")
    cards = models.CharField(max_length=400, blank=True, help_text="The cards left in hand, when tapped in.")
    typed = models.BooleanField(default=False, help_text="Points typed directly instead of cards.")
    penalty = models.IntegerField(help_text="Points for the cards left in hand.")
    adjustment = models.IntegerField(default=0, help_text="Bonuses, e.g. Liverpool's -50 for the cut.")
    points = models.IntegerField(help_text="penalty + adjustment: what the round adds to the total.")
    buys = models.PositiveSmallIntegerField(default=0)
    breakdown = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["round", "player__seat"]
        constraints = [models.UniqueConstraint(fields=["round", "player"], name="score_player_unique")]

    def __str__(self) -> str:
        return f"{self.player} {self.points}"


class Change(models.Model):
    """One change to a game, with the round before and after: the game's history."""

    class Action(models.TextChoices):
        RECORD = "record", "recorded"
        CORRECT = "correct", "corrected"
        UNDO = "undo", "undid"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=10, choices=Action.choices)
    round_number = models.PositiveSmallIntegerField()
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    undoes = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="undone_by")
    version = models.PositiveIntegerField(help_text="The game's version after this change.")
    by = models.CharField(
        max_length=30, blank=True, default="", help_text="The player whose seated phone made the change, if one did."
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "-id"]

    def __str__(self) -> str:
        return f"{self.action} round {self.round_number}"


class Draft(models.Model):
    """A round in progress: who went out, and the hands each phone sends in for it (issue 15).

    One per game and round number; the one whose number is the round to record next is the
    round in progress. Recording the round deletes it; an undo of the round before leaves it
    waiting, with its hands, until that round is recorded again."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="drafts")
    number = models.PositiveSmallIntegerField()
    winner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    cut_bonus = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1, help_text="Goes up by one with every change to this draft.")
    hands_version = models.PositiveIntegerField(
        default=0, help_text="The version a hand was last sent in at (0: none yet): what a Record must have seen."
    )
    started_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="draft_number_unique")]

    def __str__(self) -> str:
        return f"draft of round {self.number} of {self.game_id}"


class DraftHand(models.Model):
    """One player's hand for a round in progress: cards or typed points, buys; ``done`` once sent in."""

    draft = models.ForeignKey(Draft, on_delete=models.CASCADE, related_name="hands")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    cards = models.CharField(max_length=400, blank=True)
    points = models.IntegerField(null=True, blank=True, help_text="Points typed instead of cards.")
    buys = models.PositiveSmallIntegerField(default=0)
    done = models.BooleanField(default=False, help_text="Sent in: counted when the round is recorded.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["draft", "player"], name="draft_hand_player_unique")]

    def __str__(self) -> str:
        return f"{self.player} in {self.draft}"


class Seat(models.Model):
    """Which phone scores which player's own hand: the latest phone to claim a seat holds it.
    A seat is no permission (recording needs the edit link): it says whose hand a phone shows."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    phone = models.CharField(max_length=64, help_text="SHA-256 of a random id kept in the phone's session.")
    claimed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="seat_player_unique")]
        indexes = [models.Index(fields=["game", "phone"])]

    def __str__(self) -> str:
        return f"{self.player} on a phone"


class RateLimit(models.Model):
    """A counter per key and time window, in the database so every worker and machine shares it."""

    key = models.CharField(max_length=200)
    window = models.BigIntegerField(help_text="Start of the window, in seconds since the epoch.")
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "window"], name="ratelimit_key_window_unique")]
        indexes = [models.Index(fields=["window"])]

    def __str__(self) -> str:
        return f"{self.key} {self.count}"
