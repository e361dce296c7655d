"""Starting games and sharing them: home, new game, the edit link (join, replace, its QR), play again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from referee.engine import RULESETS
from scorekeeping.access import check_token, creating
from scorekeeping.errors import EditForbidden, InvalidInput, TooManyRequests
from scorekeeping.links import edit_path, qr_document, share_base
from scorekeeping.models import Game, Player
from scorekeeping.selectors import (
    game_get,
    game_standings,
    game_with_players,
    games_opened,
)
from scorekeeping.selectors.stories import names_known
from scorekeeping.services import (
    game_again,
    game_create,
    game_token_replace,
    seat_claim,
    seat_of,
)
from scorekeeping.web import session as phone
from scorekeeping.web.guards import holding_token
from scorekeeping.web.newgame import NewGameState
from scorekeeping.web.pages import game_head
from scorekeeping.webkit.htmx import HtmxHttpRequest, refused


@dataclass(frozen=True)
class Tile:
    """A table this phone played, as home shows it: who, what, when, where it stands, and whether
    this phone may start the next game there (it holds the edit right)."""

    game: Game
    players: list[Player]
    started: datetime
    days_ago: int  # 0 today, 1 yesterday
    round_word: str  # "round", "deal": in the page's language
    number: int  # the round to play next
    last_round: int
    finished: bool
    winners: list[str]
    replay: bool

    @property
    def names(self) -> str:
        return " · ".join(p.name for p in self.players)


def tiles(request: HtmxHttpRequest, ids: list[str]) -> list[Tile]:
    """The games opened on this phone, newest first (4 queries)."""
    today = timezone.localdate()
    shown = []
    for game in games_opened(ids=ids):
        standings = game_standings(game=game)
        rules = game.rules
        started = timezone.localtime(game.created_at)
        shown.append(
            Tile(
                game=game,
                players=list(game.players.all()),
                started=started,
                days_ago=(today - started.date()).days,
                round_word=_(rules.round_word),
                number=min(len(game.rounds.all()) + 1, rules.last_round),
                last_round=rules.last_round,
                finished=standings.finished,
                winners=[p.name for p in standings.winners],
                replay=phone.holds_token(request, game),
            )
        )
    return shown


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    context = {"tiles": tiles(request, phone.game_ids(request)), "rulesets": RULESETS.values()}
    return render(request, "scorekeeping/home.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request: HtmxHttpRequest) -> HttpResponse:
    template = "scorekeeping/new_game.html"
    if request.htmx:
        template += "#form"
    ids = phone.game_ids(request)
    # The names this phone played with, and its clubs' members, offered as names are typed.
    known = names_known(ids, phone.nights_played(request))
    # Back from a game just started lands here: offer the way back to it first, and its players
    # first among the name chips (the rest in the order of their names).
    recent = game_with_players(game_id=ids[0]) if ids else None
    chips = [*(p.name for p in recent.players.all()), *known] if recent else known
    if request.method != "POST":
        state = NewGameState.initial(request.GET)
        context = {"form": state.view(known=chips), "recent": recent, "known_names": known}
        return render(request, template, context)
    state = NewGameState.from_post(request.POST)
    if not state.apply(request.POST.get("op", "")):
        return render(request, template, {"form": state.view(known=chips), "known_names": known})
    try:
        with creating(request):
            game, token = game_create(**state.service_args())
    except TooManyRequests as exc:
        context = {"form": state.view(exc.errors, known=chips), "known_names": known}
        return render(request, template, context, status=refused(request, 429))
    except InvalidInput as exc:
        context = {"form": state.view(exc.errors, known=chips), "known_names": known}
        return render(request, template, context, status=refused(request, 422))
    url = reverse("table", args=[game.pk])
    response = HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)
    phone.grant(request, response, game.pk, token)
    return response


@require_safe
def join(request: HtmxHttpRequest, game_id: str, token: str) -> HttpResponse:
    """The edit link: a right token gives this phone the right to record, then leaves the address bar."""
    game = game_get(game_id=game_id)
    try:
        check_token(request, game, token)
    except TooManyRequests as exc:
        response = render(request, "scorekeeping/forbidden.html", {"game": game, "message": exc.message}, status=429)
        response["Retry-After"] = str(exc.retry_after)
    except EditForbidden:
        response = render(request, "scorekeeping/forbidden.html", {"game": game, "bad_link": True}, status=403)
    else:
        messages.success(request, _("This phone can now record and correct rounds."))
        response = HttpResponseRedirect(reverse("table", args=[game.pk]))
        phone.grant(request, response, game.pk, token)
        if phone.seat_taken(request, game.pk) is None:  # a phone that joins is asked who it is
            phone.remember_seat(request, game.pk, phone.ASK)
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_POST
@holding_token
def edit_link_replace(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """ "New edit link": the old link and every phone's right made from it stop working; this
    phone keeps the right, with the new token, and shows the new link to share. A club table's
    link is the organiser's to replace (403)."""
    try:
        token = game_token_replace(game=game)
    except EditForbidden as exc:
        context = {"game": game, "refusal": exc.message}
        return render(request, "scorekeeping/forbidden.html", context, status=refused(request, exc.status))
    messages.success(
        request, _("A new edit link is made: the old one and the phones that joined with it can no longer record.")
    )
    url = reverse("table", args=[game.pk])
    response = HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)
    phone.grant(request, response, game.pk, token)
    return response


def _own_edit_link(request: HtmxHttpRequest, game_id: str) -> tuple[Game, str | None]:
    """The game and its edit link for a phone that may record and keeps the token (None: it may
    not record, 403); 404 for the grant without the token's cookie (no link to show)."""
    head = game_head(request, game_id)
    if not phone.can_edit(request, head):
        return head, None
    token = phone.token_for(request, head)
    if token is None:
        raise Http404
    base, _source = share_base(request)
    return head, base + edit_path(head.pk, token)


@require_safe
def edit_link(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The edit link, to copy, for a phone that may record and keeps the token: fetched when asked
    for ("Show the edit link"), so that the table page carries no secret and is sent compressed.
    This answer is the token: kept by no cache, never compressed (CompressionMiddleware)."""
    head, url = _own_edit_link(request, game_id)
    if url is None:
        return HttpResponse(status=403)
    context = {"game": head, "edit_url": url}
    name = "scorekeeping/edit_link.html" + ("#row" if request.htmx else "")
    response = render(request, name, context)
    patch_cache_control(response, no_store=True)
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_safe
def edit_qr(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The edit link's QR code, for a phone that may record and keeps the token (the table shows
    it when "Edit link" is opened). Encoded for each request and kept by no cache: it is the
    token, in another form."""
    _head, url = _own_edit_link(request, game_id)
    if url is None:
        return HttpResponse(status=403)
    response = HttpResponse(qr_document(url), content_type="image/svg+xml")
    patch_cache_control(response, no_store=True)
    return response


@require_POST
@holding_token  # a new game's token: not for a right that came from "I am" at a club table
def play_again(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """One tap at the end of a game: the next game at the same table, on this phone."""
    try:
        with creating(request):
            new, token = game_again(game=game)
    except TooManyRequests as exc:
        messages.error(request, exc.message)
        here = reverse("table", args=[game.pk])
        return HttpResponseClientRedirect(here) if request.htmx else HttpResponseRedirect(here)
    url = reverse("table", args=[new.pk])
    response = HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)
    # A phone that scored its own hand keeps its seat at the same players' next game: not asked again.
    key = phone.phone_key(request)
    mine = seat_of(game, key)
    if mine is not None and key:
        seat_claim(game=new, name=mine.name, phone=key)
        phone.remember_seat(request, new.pk, next(p.pk for p in new.players.all() if p.name == mine.name))
    phone.grant(request, response, new.pk, token)
    return response
