"""The pages' guards: one decorator per kind of right, on every page view that writes.

- ``holding_token``: the game's edit right itself (the edit link's, or the maker's): what may
  mint or replace a token or start the next game.
- ``editing``: the edit right, or a seat's right ("I am Ben" at a club night, which covers that
  member's table of the night's latest sitting only): what may record and send hands.
- ``organiser_only``: the club organiser's token, kept in this phone's cookie for the club's pages.
- ``at_open_night``: a club night's page that seats a phone (anyone with the club link); no
  token, but the night must still be open.

Each reads the row its right is about (``NotFound`` answers 404 itself, being Django's
``Http404``), then answers the refusal page (403; 429 past the wrong-token limit) or hands the
view the row. The checks themselves are ``access``'s and ``session``'s (hashes compared in
constant time; a wrong token counts against its address, a right one is never refused).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorekeeping.access import check_organiser
from scorekeeping.errors import Conflict, EditForbidden, ScorekeepingError, TooManyRequests
from scorekeeping.models import Club, Game, Night
from scorekeeping.selectors import game_get
from scorekeeping.selectors.clubs import club_get, night_get
from scorekeeping.services.clubs import club_token_valid
from scorekeeping.web import session as phone
from scorekeeping.webkit.htmx import HtmxHttpRequest, refused

View = Callable[..., HttpResponse]


def forbidden(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    return render(request, "scorekeeping/forbidden.html", {"game": game}, status=refused(request, 403))


def _guard(allowed: Callable[[HtmxHttpRequest, Game], bool]) -> Callable[[View], View]:
    def decorate(view: View) -> View:
        @wraps(view)
        def guarded(request: HtmxHttpRequest, game_id: str, *args: Any, **kwargs: Any) -> HttpResponse:
            game = game_get(game_id=game_id)
            if not allowed(request, game):
                return forbidden(request, game)
            try:
                return view(request, game, *args, **kwargs)
            except Conflict as exc:  # what a view does not answer itself: a closed club table, say
                context = {"game": game, "refusal": exc.message}
                return render(request, "scorekeeping/forbidden.html", context, status=refused(request, exc.status))

        return guarded

    return decorate


editing = _guard(phone.can_edit)
"""A page that changes the game: its row (404 for no such game), and the page that says how to
get the edit link (403) unless this phone may record (the edit right, or a club night's "I am"
at this table now). The view gets the game."""

holding_token = _guard(phone.holds_token)
"""A page that mints or replaces the game's edit token: as ``editing``, for a phone that holds the
edit right itself (a right that came from "I am" at a club table never does)."""


# The club organiser's right: the token of the organiser link, kept in a cookie sent only to
# the club's pages.


def organiser_cookie(club_id: str) -> str:
    return f"club-{club_id}"


def organiser_token(request: HtmxHttpRequest, club: Club) -> str | None:
    """The organiser's token this phone keeps for the club, if it is the right one (nothing counted:
    a page that only shows more to the organiser)."""
    token = request.COOKIES.get(organiser_cookie(club.pk))
    return token if club_token_valid(club=club, token=token) else None


def organiser_refused(request: HtmxHttpRequest, club: Club, exc: EditForbidden | TooManyRequests) -> HttpResponse:
    return render(request, "clubs/forbidden.html", {"club": club, "message": exc.message}, status=exc.status)


def organiser_only(view: Callable[..., str | tuple[str, str]]) -> View:
    """A form of the organiser's (POST): the club (404), the organiser's token from this phone's
    cookie (403 without it), the night in the address if any (404; the view gets it), then back to
    the club page with what happened said once (at the part of the page the view names with it,
    if it does: the tables a draw made); to htmx (a name ticked on the check-in list), what
    happened alone, for the form's status line."""

    @wraps(view)
    def guarded(request: HtmxHttpRequest, club_id: str, *args: Any, **kwargs: Any) -> HttpResponse:
        found = club_get(club_id=club_id)
        token = request.COOKIES.get(organiser_cookie(found.pk))
        try:
            check_organiser(request, found, token)
        except (EditForbidden, TooManyRequests) as exc:
            return organiser_refused(request, found, exc)
        if "night_id" in kwargs:  # the night in the address (404), once the right is checked
            kwargs["night"] = night_get(club=found, night_id=kwargs.pop("night_id"))
        where = ""
        try:
            said = view(request, found, token or "", *args, **kwargs)
            if isinstance(said, tuple):
                said, where = said
        except ScorekeepingError as exc:
            if request.htmx:
                context = {"said": exc.message, "failed": True}
                return render(request, "clubs/club.html#said", context, status=refused(request, exc.status))
            messages.error(request, exc.message)
        else:
            if request.htmx:
                return render(request, "clubs/club.html#said", {"said": said})
            messages.success(request, said)
        return HttpResponseRedirect(reverse("club", args=[found.pk]) + (f"#{where}" if where else ""))

    return require_POST(guarded)


def at_open_night(view: Callable[..., HttpResponse]) -> View:
    """A club night's form that seats this phone ("I am Ben", "To my table"): the club and the night
    (404), and 409 once the night is finished (its tables keep their scores as they stand, and
    nobody is seated any more). The view gets the club and the night."""

    @wraps(view)
    def guarded(request: HtmxHttpRequest, club_id: str, night_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        found = club_get(club_id=club_id)
        night = night_get(club=found, night_id=night_id)
        if night.status == Night.Status.FINISHED:
            message = _("This night is finished: its tables keep their scores, and nobody is seated any more.")
            context = {"club": found, "message": message}
            return render(request, "clubs/forbidden.html", context, status=refused(request, 409))
        return view(request, found, night, *args, **kwargs)

    return require_POST(guarded)


def keep_organiser_token(response: HttpResponse, club: Club, token: str) -> None:
    """The organiser link's token, kept on this phone for the club's pages only."""
    response.set_cookie(
        organiser_cookie(club.pk),
        token,
        max_age=settings.SESSION_COOKIE_AGE,
        path=reverse("club", args=[club.pk]),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
