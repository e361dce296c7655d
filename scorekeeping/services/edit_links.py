"""Replacing a leaked edit link: a new token, and every right made from the old one revoked."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scorekeeping.errors import EditForbidden
from scorekeeping.models import Game
from scorekeeping.selectors.tables import is_club_table
from scorekeeping.services.tokens import new_token, token_hash
from scorekeeping.services.versioning import locked, touch


def game_token_replace(*, game: Game) -> str:
    """A new edit token for the game (returned once; its hash replaces the old one's). The old
    edit link stops working, and so does every phone's right made from it: a grant is the old
    token's hash, which no longer matches. Every open phone hears of it (the live version moves)."""
    if is_club_table(game_id=game.pk):  # before the lock: an ended table says this, not "closed"
        raise EditForbidden(
            _("A club table's edit link is made from the organiser's token: only the organiser can replace it")
        )
    with transaction.atomic():
        game = locked(game, None)
        token = new_token()
        game.edit_token_hash = token_hash(token)
        game.save(update_fields=["edit_token_hash", "updated_at"])
        touch(game)
    return token
