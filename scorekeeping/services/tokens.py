"""Edit tokens: made once, kept only as their SHA-256, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from scorekeeping.models import Game


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 43 characters, 256 random bits


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def game_token_valid(*, game: Game, token: str | None) -> bool:
    """Constant-time comparison of a presented edit token with the game's."""
    if not token:
        return False
    return hmac.compare_digest(token_hash(token), game.edit_token_hash)
