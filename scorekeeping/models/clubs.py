"""A club: its members, its nights, their sittings and tables (each table an ordinary game)."""

from __future__ import annotations

from django.db import models

from referee.rulebook import SLUG_MAX
from scorekeeping import colours
from scorekeeping.models.games import Game, new_game_id


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
