"""The stories kept as the games finish: a line per player and game, their sums, and each pair
of players' meetings."""

from __future__ import annotations

from django.db import models

from referee.rulebook import SLUG_MAX
from scorekeeping.models.games import Game


class StoryLine(models.Model):
    """One player's finished game as every story counts it (``referee.engine.history.Line``),
    kept as the games finish (``services.history``), in the transaction of the change that
    finished, corrected or undid it; rebuilt from the games by ``manage.py stories --rebuild``.

    A scope is "server" (the games in no club) or "club:<id>"; a player is a club's member (their
    id) or, on a server, a name as compared. ``position`` sorts the lines as the games were played."""

    scope = models.CharField(max_length=24)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="story_lines")
    position = models.CharField(max_length=96)
    player = models.CharField(max_length=120)
    name = models.CharField(max_length=30)
    date = models.CharField(max_length=10)
    ruleset = models.CharField(max_length=SLUG_MAX)
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    won = models.PositiveSmallIntegerField(help_text="1 for a first place (shared or not), else 0.")
    total = models.IntegerField()
    rounds = models.JSONField(help_text="[round number, penalty] of every round, in order.")
    round_count = models.PositiveSmallIntegerField()
    out = models.PositiveSmallIntegerField()
    high = models.IntegerField()
    high_at = models.PositiveSmallIntegerField()
    low = models.IntegerField()
    comeback = models.IntegerField()
    comeback_at = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    streak = models.PositiveIntegerField(default=0)
    ruleset_streak = models.PositiveIntegerField(default=0)
    mu = models.FloatField(null=True)
    sigma = models.FloatField(null=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="story_line_seat_unique")]
        indexes = [
            models.Index(fields=["scope", "position", "seat"], name="story_played"),
            models.Index(fields=["scope", "player", "position"], name="story_player"),
            models.Index(fields=["scope", "ruleset", "player", "position"], name="story_rated"),
            models.Index(fields=["scope", "ruleset", "total", "position", "seat"], name="story_lowest"),
            models.Index(fields=["scope", "ruleset", "-high", "position", "high_at", "seat"], name="story_highest"),
            models.Index(fields=["scope", "ruleset", "-out", "position", "seat"], name="story_most_out"),
            models.Index(fields=["scope", "ruleset", "-ruleset_streak", "position", "seat"], name="story_streak"),
            models.Index(fields=["scope", "ruleset", "-comeback", "position", "seat"], name="story_comeback"),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.game_id}"


class StorySums(models.Model):
    """A player's lines of one ruleset summed (``StoryLine``), with their latest name and rating:
    what the players' list and the ladder read, one row a player and ruleset however many games.
    Kept with the lines (``services.history``): a game finished last adds itself; any other change
    sums its players' lines again."""

    scope = models.CharField(max_length=24)
    player = models.CharField(max_length=120)
    ruleset = models.CharField(max_length=SLUG_MAX)
    name = models.CharField(max_length=30, help_text="As their latest line of this ruleset writes it.")
    position = models.CharField(max_length=96, help_text="Their latest line's place in the played order.")
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    rounds = models.PositiveIntegerField()
    out = models.PositiveIntegerField()
    points = models.BigIntegerField()
    low = models.IntegerField()
    high = models.IntegerField()
    total_low = models.IntegerField(help_text="The lowest game total.")
    total_high = models.IntegerField(help_text="The highest game total.")
    streak = models.PositiveIntegerField(help_text="The longest win streak reached in a game of this ruleset.")
    by_round = models.JSONField(help_text="[round number, rounds played, their penalties] of every round number.")
    rated = models.PositiveIntegerField(help_text="Rated games: those of two players or more.")
    rated_wins = models.PositiveIntegerField()
    mu = models.FloatField(null=True)
    sigma = models.FloatField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "player", "ruleset"], name="story_sums_unique"),
        ]
        indexes = [models.Index(fields=["scope", "ruleset"], name="story_sums_ruleset")]

    def __str__(self) -> str:
        return f"{self.name} in {self.scope} ({self.ruleset})"


class StoryPair(models.Model):
    """A player's finished games against one opponent, summed (``referee.engine.history.Meeting``):
    the profile's head to head, one row an opponent however many games. Kept with the sums."""

    scope = models.CharField(max_length=24)
    player = models.CharField(max_length=120)
    opponent = models.CharField(max_length=120)
    games = models.PositiveIntegerField()
    ahead = models.PositiveIntegerField()
    behind = models.PositiveIntegerField()
    difference = models.BigIntegerField(help_text="The opponent's totals less the player's, summed.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "player", "opponent"], name="story_pair_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} against {self.opponent} in {self.scope}"
