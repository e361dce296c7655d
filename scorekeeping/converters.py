"""URL converters: a game's id is matched by its shape, so no other text reaches the database."""

from __future__ import annotations

from django.urls import register_converter


class GameIdConverter:
    """What ``new_game_id`` makes (URL-safe base64): letters, digits, ``-`` and ``_``."""

    regex = "[A-Za-z0-9_-]{1,16}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


# Once, when this module is first imported (by the URL modules that use ``<game:...>``).
register_converter(GameIdConverter, "game")
register_converter(GameIdConverter, "club")  # a club's id has a game's shape
