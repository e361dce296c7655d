"""Score-keeping's writes, by job: tokens, games, rounds, and the history (undo).

Every function validates everything first and writes nothing when it refuses; the rules
(what a round scores, what a hand may hold) are the engine's (``referee.engine.rounds``);
the services map names to rows, lock the game, write and log.
"""

from referee.engine.rounds import CardsInput, RoundEntry
from referee.engine.words import MAX_NAME
from scorekeeping.services.drafts import (
    DraftStatus,
    HandTyped,
    draft_ahead,
    draft_current,
    draft_discard,
    draft_hand,
    draft_hands,
    draft_record,
    draft_seen,
    draft_start,
    draft_status,
    seat_claim,
    seat_holder,
    seat_leave,
    seat_of,
    seats_taken,
)
from scorekeeping.services.edit_links import game_token_replace
from scorekeeping.services.games import (
    game_again,
    game_create,
    holds_control_characters,
)
from scorekeeping.services.rounds import round_preview, round_record, round_replace
from scorekeeping.services.snapshots import round_entries, round_restore, round_snapshot
from scorekeeping.services.tokens import game_token_valid, token_hash
from scorekeeping.services.undo import game_redo, game_undo, round_remade

__all__ = [
    "MAX_NAME",
    "CardsInput",
    "DraftStatus",
    "HandTyped",
    "RoundEntry",
    "draft_ahead",
    "draft_current",
    "draft_discard",
    "draft_hand",
    "draft_hands",
    "draft_record",
    "draft_seen",
    "draft_start",
    "draft_status",
    "game_again",
    "game_create",
    "game_redo",
    "game_token_replace",
    "game_token_valid",
    "game_undo",
    "holds_control_characters",
    "round_entries",
    "round_preview",
    "round_record",
    "round_remade",
    "round_replace",
    "round_restore",
    "round_snapshot",
    "seat_claim",
    "seat_holder",
    "seat_leave",
    "seat_of",
    "seats_taken",
    "token_hash",
]
