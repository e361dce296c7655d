"""What this phone remembers: the games opened here, and which of them it may change.

The games a phone only looked at are remembered on the phone itself, in the ``games``
cookie (their ids, which are the view links it already has): a page view writes nothing on
the server, so a crawler cannot grow the database. The session (kept in the database, so
every worker and machine sees it) is written only on a real action: it holds, per game, a
grant (the SHA-256 of the edit token, which is what the game row holds too), and the seat
this phone took. A grant lets this session record; it is useless anywhere else, since no
address takes a hash for a token. The token itself is never stored on the server: the phone
keeps it in a cookie sent only to that game's pages, so the table can show this phone the
edit link to share. Whenever a session is created, expired ones are deleted.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from scorekeeping.converters import GameIdConverter
from scorekeeping.links import view_path
from scorekeeping.models import Game
from scorekeeping.selectors.tables import seat_right_holds
from scorekeeping.services import game_token_valid, seat_of, token_hash
from scorekeeping.services.sessions import sessions_expired_delete

_KEY = "games"
_MAX = 30
_COOKIE = "games"  # the games opened on this phone, oldest first, space-separated
_COOKIE_AGE = 365 * 24 * 3600
_GAME_ID = re.compile(rf"^{GameIdConverter.regex}$")
_SWEEP = 1000  # expired sessions deleted at most per new session


def _cookie(game_id: str) -> str:
    return f"edit-{game_id}"


def _games(request: HttpRequest) -> dict[str, str]:
    games = request.session.get(_KEY, {})
    return dict(games) if isinstance(games, dict) else {}


def _opened(request: HttpRequest) -> list[str]:
    """The ids in the ``games`` cookie, oldest first: only well-formed ids, at most ``_MAX``."""
    raw = request.COOKIES.get(_COOKIE, "")[: 20 * _MAX]
    return list(dict.fromkeys(i for i in raw.split() if _GAME_ID.match(i)))[-_MAX:]


def remember(request: HttpRequest, response: HttpResponse, game_id: str) -> None:
    """Put the game last (newest) in this phone's ``games`` cookie; nothing is written on the
    server, and the cookie is sent again only when that changes it."""
    opened = _opened(request)
    if opened[-1:] == [game_id]:
        return
    opened = [*[i for i in opened if i != game_id][-(_MAX - 1) :], game_id]
    response.set_cookie(_COOKIE, " ".join(opened), max_age=_COOKIE_AGE, httponly=True, samesite="Lax")


def grant(request: HttpRequest, response: HttpResponse, game_id: str, token: str) -> None:
    """This phone may now change the game: a new session key (a session id planted before
    cannot share the right), the token's hash in the session, the token in a cookie for the
    game's pages only, and no cache may keep the answer. A phone that never said who it is in the
    game is asked where it lands (the phone that made it, one that joined, one playing again)."""
    _grant_hash(request, game_id, token_hash(token))
    if seat_taken(request, game_id) is None and seat_choice(request, game_id) is None:
        remember_seat(request, game_id, ASK)  # asked who it is where it lands, the phone that made the game too
    response.set_cookie(
        _cookie(game_id),
        token,
        max_age=settings.SESSION_COOKIE_AGE,
        path=view_path(game_id),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    response["Cache-Control"] = "no-store"


def _grant_hash(request: HttpRequest, game_id: str, held: str) -> None:
    _new_session(request)
    request.session.cycle_key()
    games = _games(request)
    games.pop(game_id, None)
    games[game_id] = held
    request.session[_KEY] = dict(list(games.items())[-_MAX:])


def grant_table(request: HttpRequest, game: Game, *, night_id: int, member_id: int, night_path: str) -> None:
    """A club member's phone at the table they were drawn to: it may record and send hands there
    while it is that member at the night and the table is the member's in the night's latest
    sitting (``can_edit``). It is no edit token: the phone never sees one, holds no token's hash,
    and may not mint or replace one (``holds_token``). A new session key, as for any grant; the
    night's other tables' rights are dropped, and the table links back to the night."""
    _new_session(request)
    request.session.cycle_key()
    _forget_table_rights(request, night_id)
    seats = request.session.get(_TABLE_RIGHTS, {})
    seats = dict(seats) if isinstance(seats, dict) else {}
    seats[game.pk] = [night_id, member_id]
    request.session[_TABLE_RIGHTS] = dict(list(seats.items())[-_MAX:])
    nights = request.session.get(_NIGHTS, {})
    nights = dict(nights) if isinstance(nights, dict) else {}
    nights.pop(game.pk, None)
    nights[game.pk] = night_path
    request.session[_NIGHTS] = dict(list(nights.items())[-_MAX:])


def _table_right(request: HttpRequest, game_id: str) -> bool:
    """Whether this phone's "I am" right covers the game now (one query, once a request)."""
    seats = request.session.get(_TABLE_RIGHTS, {})
    value = seats.get(game_id) if isinstance(seats, dict) else None
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        return False
    night_id, member_id = value
    if night_me(request, night_id)[0] != member_id:  # "Not me", or another player since
        return False
    held: dict[str, bool] = getattr(request, "_table_rights", {})
    if game_id not in held:
        held[game_id] = seat_right_holds(game_id=game_id, night_id=night_id, member_id=member_id)
        setattr(request, "_table_rights", held)  # noqa: B010 (an attribute of this request only)
    return held[game_id]


def club_night(request: HttpRequest, game_id: str) -> str:
    """The club night page this phone came to the game from, if it did."""
    nights = request.session.get(_NIGHTS, {})
    value = nights.get(game_id) if isinstance(nights, dict) else None
    return value if isinstance(value, str) else ""


# Club nights (issue 25): who this phone's player is at each night ("I am Ben"), and the last
# sitting it was taken to its table for (each draw takes it there once).
_NIGHTS = "club-tables"
_ME = "club-me"
_TABLE_RIGHTS = "club-rights"  # game id -> [night id, member id]: "I am" at that table


def night_me(request: HttpRequest, night_id: int) -> tuple[int | None, int]:
    """The member this phone said it is at the night, and the last sitting it was taken to."""
    mine = request.session.get(_ME, {})
    value = mine.get(str(night_id)) if isinstance(mine, dict) else None
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        return None, 0
    return value[0], value[1]


def nights_played(request: HttpRequest) -> list[int]:
    """The club nights this phone said who it is at."""
    mine = request.session.get(_ME, {})
    return [int(k) for k in mine if k.isascii() and k.isdigit()] if isinstance(mine, dict) else []


def remember_me(request: HttpRequest, night_id: int, member_id: int | None, taken: int = 0) -> None:
    """Who this phone is at the night ("I am Ben"; None: "Not me"). A change of player ends the
    phone's right at the table it had as the player before."""
    if night_me(request, night_id)[0] != member_id:
        _forget_table_rights(request, night_id)
    mine = request.session.get(_ME, {})
    mine = dict(mine) if isinstance(mine, dict) else {}
    mine.pop(str(night_id), None)
    if member_id is not None:
        _new_session(request)
        mine[str(night_id)] = [member_id, taken]
    request.session[_ME] = dict(list(mine.items())[-_MAX:])


def _forget_table_rights(request: HttpRequest, night_id: int) -> None:
    seats = request.session.get(_TABLE_RIGHTS, {})
    if isinstance(seats, dict) and any(isinstance(v, list) and v[:1] == [night_id] for v in seats.values()):
        request.session[_TABLE_RIGHTS] = {
            k: v for k, v in seats.items() if not (isinstance(v, list) and v[:1] == [night_id])
        }


def game_ids(request: HttpRequest) -> list[str]:
    """The games opened or granted on this phone, newest first."""
    opened = _opened(request)
    granted = [i for i in _games(request) if i not in opened]
    return list(reversed(granted + opened))[:_MAX]


def _new_session(request: HttpRequest) -> None:
    """Before this phone's first session row: delete expired ones, a bounded batch at a time
    (Django's ``clearsessions``, done by the app itself so that nobody has to schedule it)."""
    if request.session.session_key is None:
        sessions_expired_delete(most=_SWEEP)


def holds_token(request: HttpRequest, game: Game) -> bool:
    """Whether this phone holds the game's edit right itself (the edit link's, or the maker's):
    what may mint or replace a token, besides recording."""
    held = _games(request).get(game.pk) or ""
    return bool(held) and hmac.compare_digest(held, game.edit_token_hash)


def can_edit(request: HttpRequest, game: Game) -> bool:
    """Whether this phone may record and send hands: it holds the edit right, or its "I am"
    right at a club night covers this table now."""
    return holds_token(request, game) or _table_right(request, game.pk)


def token_for(request: HttpRequest, game: Game) -> str | None:
    """The edit token this phone keeps for the game (to show it the edit link), if it is the right one."""
    token = request.COOKIES.get(_cookie(game.pk))
    return token if game_token_valid(game=game, token=token) else None


# Seats (issue 15): which player's hand this phone scores. The truth is the Seat table (the
# latest phone to claim a seat holds it); the session keeps this phone's random id, whose hash
# names the phone there, and the seat it last took, to tell it when another phone took it.
_PHONE = "phone"
_SEATS = "seats"


def phone_key(request: HttpRequest, *, create: bool = False) -> str | None:
    """This phone's name in the Seat table: the SHA-256 of a random id kept in its session."""
    secret = request.session.get(_PHONE)
    if not isinstance(secret, str) or len(secret) != 43:
        if not create:
            return None
        _new_session(request)
        secret = secrets.token_urlsafe(32)
        request.session[_PHONE] = secret
    return hashlib.sha256(secret.encode()).hexdigest()


def seat_taken(request: HttpRequest, game_id: str) -> int | None:
    """The player id of the seat this phone last took in the game, if any."""
    seats = request.session.get(_SEATS, {})
    value = seats.get(game_id) if isinstance(seats, dict) else None
    return value if isinstance(value, int) else None


def remember_seat(request: HttpRequest, game_id: str, player_id: int | str | None) -> None:
    """The seat this phone took (a player id), or what it chose instead (``CHOICES``), or nothing."""
    seats = request.session.get(_SEATS, {})
    seats = dict(seats) if isinstance(seats, dict) else {}
    seats.pop(game_id, None)
    if player_id is not None:
        seats[game_id] = player_id
    request.session[_SEATS] = dict(list(seats.items())[-_MAX:])


# What a phone that records may say instead of a seat: it is still to be asked "Who is this
# phone?" (it opened the edit link), it enters every hand, or it only watches (it keeps the right,
# and its page is the one a phone that follows sees, with a button to score after all).
ASK, EVERYONE, WATCH = "ask", "everyone", "watch"
CHOICES = (ASK, EVERYONE, WATCH)


def seat_choice(request: HttpRequest, game_id: str) -> str | None:
    """``ASK``, ``EVERYONE`` or ``WATCH`` when this phone said so (or is still to say), else None."""
    seats = request.session.get(_SEATS, {})
    value = seats.get(game_id) if isinstance(seats, dict) else None
    return value if value in CHOICES else None


def records(request: HttpRequest, game: Game) -> bool:
    """Whether this phone's table page is a recording one: it may edit, and did not choose to watch."""
    return can_edit(request, game) and seat_choice(request, game.pk) != WATCH


def changed_by(request: HttpRequest, game: Game) -> str:
    """The player whose hand this phone scores (its seat), for the other phones to be told whose
    phone made a change; "" for a phone without a seat."""
    seat = seat_of(game, phone_key(request))
    return seat.name if seat is not None else ""
