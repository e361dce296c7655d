"""Games, players, rounds, scores and the history of every change.

The rules live in the engine and the writes in ``services/``; these are the tables. A round stores the rules it
was scored with (wild rank, cards dealt, dealer) and every score its points and
breakdown, so a written score never changes when the tables would say otherwise later.
"""

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


class Club(models.Model):
    """A club: its members, its nights and the games its draws made. Its id is the club link
    (72 random bits, like a game's); the organiser's token is kept only as its SHA-256."""

    id = models.CharField(primary_key=True, max_length=16, default=new_game_id, editable=False)
    name = models.CharField(max_length=60)
    organiser_token_hash = models.CharField(max_length=64)
    creator_key = models.CharField(
        max_length=64, blank=True, help_text="SHA-256 of the address that made the club: its draws count there."
    )
    ladder_shown = models.BooleanField(
        default=True, help_text="The organiser's choice: a club that wants no rated games keeps no ladder on show."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    """A player with a stable identity across the club's games; ``key`` is the name as compared
    (NFC, case folded). A retired member keeps their history."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(max_length=30)
    key = models.CharField(max_length=30)
    colour = models.CharField(
        max_length=12, choices=colours.CHOICES, default=colours.KEYS[0], help_text="Kept across the club's games."
    )
    active = models.BooleanField(default=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        constraints = [models.UniqueConstraint(fields=["club", "key"], name="member_key_unique")]

    def __str__(self) -> str:
        return self.name


class Night(models.Model):
    """A club night: its game, its planned sittings, the tables' preferred size and its scoring."""

    class Status(models.TextChoices):
        OPEN = "open", "open"
        FINISHED = "finished", "finished"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField()
    ruleset = models.CharField(max_length=SLUG_MAX)  # a built-in's slug or a house ruleset's
    variants = models.JSONField(default=list, blank=True)
    sittings = models.PositiveSmallIntegerField()
    table_size = models.PositiveSmallIntegerField()
    scoring = models.CharField(max_length=12, default="percentage")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    present = models.ManyToManyField(Member, related_name="nights_present", blank=True)
    version = models.PositiveIntegerField(default=1, help_text="Goes up with every change of the night.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-date", "-id"]

    def __str__(self) -> str:
        return f"{self.club} on {self.date}"


class Sitting(models.Model):
    """One full game at every table of a night, with the tables drawn anew."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="sittings_drawn")
    number = models.PositiveSmallIntegerField()
    sitting_out = models.ManyToManyField(Member, related_name="+", blank=True)
    repeated_pairs = models.PositiveSmallIntegerField(default=0)
    seed = models.BigIntegerField(help_text="The draw's random seed: the draw is random but recorded.")
    drawn_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night", "number"]
        constraints = [models.UniqueConstraint(fields=["night", "number"], name="sitting_number_unique")]

    def __str__(self) -> str:
        return f"sitting {self.number} of {self.night}"


class ClubTable(models.Model):
    """One table of a sitting: an ordinary game, its members in seat order; ``ended`` when the
    organiser ended it unfinished (its standings as they were)."""

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="club_table")
    members = models.JSONField(default=list, help_text="The members' ids in seat order.")
    ended = models.BooleanField(default=False)
    token_generation = models.PositiveSmallIntegerField(
        default=0, help_text="How often the organiser replaced the table's edit link (its token is derived with it)."
    )

    class Meta:
        ordering = ["sitting", "number"]
        constraints = [models.UniqueConstraint(fields=["sitting", "number"], name="club_table_number_unique")]

    def __str__(self) -> str:
        return f"table {self.number} of {self.sitting}"


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
