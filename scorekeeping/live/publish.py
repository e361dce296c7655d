"""What a write calls to tell every server process that a game changed (the publish side: the
services import this and nothing else of the live transport)."""

from __future__ import annotations

from django.db import connection

from scorekeeping.models import Game

CHANNEL = "scorekeeping_games"


def announce(game: Game) -> None:
    """Tell every server process that ``game`` is at its new version; call it inside the write's
    transaction (PostgreSQL delivers the notification at commit, and never for a rollback)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{game.pk} {game.live_version}"])


NIGHT_PREFIX = "night:"


def night_key(club_id: str, night_id: int) -> str:
    """A club night's channel among the games' (a game's id never holds a colon)."""
    return f"{NIGHT_PREFIX}{club_id}:{night_id}"


def announce_night(club_id: str, night_id: int, version: int) -> None:
    """As ``announce``, for a club night (the room screen and the night's pages follow it)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{night_key(club_id, night_id)} {version}"])
