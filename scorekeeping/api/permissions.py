"""The API's guards: one permission class per kind of right, on every view that writes.

- ``GameEditToken``: the game's edit token in ``X-Game-Token``, for every write to a game.
- ``ClubOrganiser``: the organiser's token in ``X-Club-Token``, for every write to a club.

Each reads the row its right is about (404 when there is none), checks the token presented
(``access``: SHA-256 compared in constant time; a wrong token counts against its address, 429
past the limit, a right one is never refused), then hands the view the row: ``game_of(view)``,
``club_of(view)``. A method the view does not answer is left to DRF (405), and a read (GET,
HEAD, OPTIONS) to the view. The API holds no session, so a seat's right ("I am Ben" at a club
table) is the pages' only (``web.guards``).

A token presented to a read (the edit link added to a game, a night's edit links) is checked
here too: ``edit_token_if_valid``, ``organiser_token_if_presented``.
"""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from scorekeeping.access import check_organiser, check_token, token_if_valid
from scorekeeping.api.writes import presented_token
from scorekeeping.models import Club, Game
from scorekeeping.selectors import game_head
from scorekeeping.selectors.clubs import club_get

CLUB_TOKEN = "X-Club-Token"


def _writes(request: Request, view: APIView) -> bool:
    """Whether the request is a write the view answers (anything else is no guard's business)."""
    method = (request.method or "").lower()
    return request.method not in SAFE_METHODS and hasattr(view, method)


class GameEditToken(BasePermission):
    """A write to a game: the game (404), then its edit token (403, or 429 past the wrong-token limit)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if _writes(request, view):
            game = game_head(game_id=view.kwargs["game_id"])
            check_token(request, game, presented_token(request))
            setattr(view, "guarded_game", game)  # noqa: B010 (this request's view only)
        return True


class ClubOrganiser(BasePermission):
    """A write to a club: the club (404), then the organiser's token (403, or 429 past the limit)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if _writes(request, view):
            club, token = club_organised(request, view.kwargs["club_id"])
            setattr(view, "guarded_club", (club, token))  # noqa: B010 (this request's view only)
        return True


def game_of(view: APIView) -> Game:
    """The game ``GameEditToken`` let this write through for (its row alone)."""
    game: Game = getattr(view, "guarded_game")  # noqa: B009
    return game


def club_of(view: APIView) -> tuple[Club, str]:
    """The club ``ClubOrganiser`` let this write through for, and the organiser's token."""
    club: tuple[Club, str] = getattr(view, "guarded_club")  # noqa: B009
    return club


def club_organised(request: Request, club_id: str) -> tuple[Club, str]:
    """The club (404) once the organiser's token says the caller organises it (403; 429): the
    check of ``ClubOrganiser``, for a write that names its club in the body (a sheet's import)."""
    club = club_get(club_id=club_id)
    token = request.headers.get(CLUB_TOKEN)
    check_organiser(request, club, token)
    return club, token or ""


def edit_token_if_valid(request: Request, game: Game) -> str | None:
    """The edit token presented to a read, if it is the game's (a wrong one counts; 429 past the limit)."""
    return token_if_valid(request, game, presented_token(request))


def organiser_token_if_presented(request: Request, club: Club) -> str | None:
    """The organiser's token presented to a read: None without one, else checked as for a write (403; 429)."""
    token = request.headers.get(CLUB_TOKEN)
    if token:
        check_organiser(request, club, token)
    return token
