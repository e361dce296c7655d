"""What this phone remembers: the games started or joined here, and their edit tokens.

Kept in the session (stored in the database), so every worker and machine sees it.
"""

from __future__ import annotations

from django.http import HttpRequest

from .models import Game
from .services import game_token_valid

_KEY = "games"
_MAX = 30


def remember(request: HttpRequest, game_id: str, token: str | None = None) -> None:
    games: dict[str, str] = dict(request.session.get(_KEY, {}))
    known = games.pop(game_id, "")
    games[game_id] = token or known
    request.session[_KEY] = dict(list(games.items())[-_MAX:])


def game_ids(request: HttpRequest) -> list[str]:
    """Newest first."""
    return list(reversed(list(request.session.get(_KEY, {}))))


def token_for(request: HttpRequest, game_id: str) -> str | None:
    return request.session.get(_KEY, {}).get(game_id) or None


def can_edit(request: HttpRequest, game: Game) -> bool:
    return game_token_valid(game=game, token=token_for(request, game.pk))
