"""Games, players, rounds, scores and the history of every change (``games``); clubs, their
nights and tables (``clubs``); the stories kept as games finish (``stories``).

The rules live in the engine and the writes in ``services/``; these are the tables. A round stores the rules it
was scored with (wild rank, cards dealt, dealer) and every score its points and
breakdown, so a written score never changes when the tables would say otherwise later.
"""

from scorekeeping.models.clubs import Club, ClubTable, Member, Night, Sitting
from scorekeeping.models.games import Change, Draft, DraftHand, Game, Player, RateLimit, Round, Score, Seat, new_game_id
from scorekeeping.models.stories import StoryLine, StoryPair, StorySums

__all__ = [
    "Change",
    "Club",
    "ClubTable",
    "Draft",
    "DraftHand",
    "Game",
    "Member",
    "Night",
    "Player",
    "RateLimit",
    "Round",
    "Score",
    "Seat",
    "Sitting",
    "StoryLine",
    "StoryPair",
    "StorySums",
    "new_game_id",
]
