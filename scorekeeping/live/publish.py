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
