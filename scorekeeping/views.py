"""The pages at the table: home, new game, the table (announce, score, record, correct, undo)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial, wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.functional import SimpleLazyObject, cached_property
from django.utils.text import capfirst
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

from referee.engine import RULESETS
from referee.formdata import form_int
from referee.htmx import HtmxHttpRequest, refused

from . import phone
from .access import check_token, creating
from .archive import chart
from .entry import DraftView, EntryState, EntryView, entry_view
from .errors import Conflict, EditForbidden, InvalidInput, ScorekeepingError, TooManyRequests
from .links import edit_path, qr_document, qr_svg, share_base, view_path
from .models import Change, Draft, Game, Player
from .newgame import NewGameState
from .presentation import DraftLine, announcement, board_rows, change_line, draft_line, draft_waiting
from .selectors import (
    CurrentRound,
    Standings,
    game_current_round,
    game_filled,
    game_get,
    game_history,
    game_rounds,
    game_standings,
)
from .services import (
    DraftStatus,
    draft_ahead,
    draft_current,
    draft_hand,
    draft_record,
    draft_start,
    draft_status,
    game_again,
    game_create,
    game_redo,
    game_token_replace,
    game_undo,
    round_record,
    round_replace,
    rules_for,
    seat_claim,
    seat_leave,
    seat_of,
    seats_taken,
)

# How long a rendered page or fragment for the phones that follow is kept; its version makes an
# old one unreachable long before that, so this only bounds the cache's memory.
LIVE_FRAGMENT_SECONDS = 600


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    ids = phone.game_ids(request)
    games = {g.pk: g for g in Game.objects.filter(pk__in=ids).prefetch_related("players", "rounds")}
    mine = [games[i] for i in ids if i in games]
    return render(request, "scorekeeping/home.html", {"games": mine, "rulesets": RULESETS.values()})


@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request: HtmxHttpRequest) -> HttpResponse:
    template = "scorekeeping/new_game.html"
    if request.htmx:
        template += "#form"
    if request.method != "POST":
        state = NewGameState.initial(request.GET)
        # Back from a game just started lands here: offer the way back to it first.
        ids = phone.game_ids(request)
        recent = Game.objects.filter(pk=ids[0]).prefetch_related("players").first() if ids else None
        return render(request, template, {"form": state.view(), "recent": recent})
    state = NewGameState.from_post(request.POST)
    if not state.apply(request.POST.get("op", "")):
        return render(request, template, {"form": state.view()})
    try:
        with creating(request):
            game, token = game_create(**state.service_args())
    except TooManyRequests as exc:
        return render(request, template, {"form": state.view(exc.errors)}, status=refused(request, 429))
    except InvalidInput as exc:
        return render(request, template, {"form": state.view(exc.errors)}, status=refused(request, 422))
    url = reverse("table", args=[game.pk])
    response = HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)
    phone.grant(request, response, game.pk, token)
    return response


class _Table:
    """What the table shows, each part loaded or computed the first time a template asks for it.

    What every phone sees alike (announcement, standings, scoreboard, chart, history) is kept
    as rendered HTML per game version and language (``{% cache %}`` in the template), so after
    a change the first render pays for it and every later one finds it there: the game's
    players, rounds and scores are then not even loaded for a phone that follows."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rules = rules_for(game)

    @cached_property
    def filled(self) -> Game:
        return game_filled(self.game, scores=False)  # nothing more when the game came loaded

    @cached_property
    def players(self) -> list[Player]:
        return list(self.filled.players.all())

    @cached_property
    def rounds_played(self) -> int:
        return len(game_rounds(self.game))

    @cached_property
    def current(self) -> CurrentRound | None:
        return game_current_round(game=self.filled)

    @cached_property
    def standings(self) -> Standings:
        return game_standings(game=self.filled)

    def board(self) -> list[Any]:
        return board_rows(self.filled, self.rules, self.standings, self.current)

    def fresh_entry(self) -> EntryView | None:
        if self.current is None:
            return None
        if self.draft is not None:
            return self.draft_entry(DraftView(status=None, seat=None))
        state = EntryState(version=self.game.version)
        return entry_view(game=self.filled, players=self.players, number=self.current.number, state=state)

    @cached_property
    def ahead(self) -> Draft | None:
        return draft_ahead(self.filled)

    @property
    def draft(self) -> Draft | None:
        """The round in progress (not one an undo left waiting)."""
        ahead = self.ahead
        return ahead if ahead is not None and ahead.number == self.rounds_played + 1 else None

    @cached_property
    def draft_status(self) -> DraftStatus | None:
        return draft_status(self.filled, self.draft) if self.draft is not None else None

    def draft_line(self) -> DraftLine | None:
        status = self.draft_status
        if status is not None:
            return draft_line(status, seats_taken(self.game), self.rules)
        return draft_waiting(self.ahead.number, self.rules) if self.ahead is not None else None

    def draft_entry(self, view: DraftView) -> EntryView | None:
        """This phone's entry while the round is scored hand by hand: its own hand first."""
        if self.current is None:
            return None
        view.status = self.draft_status
        active = view.seat.seat if view.seat else None
        if view.status is not None:
            state = EntryState.from_draft(view.status, self.game.version, active)
        else:
            state = EntryState(version=self.game.version, active=active)
        return entry_view(game=self.filled, players=self.players, number=self.current.number, state=state, draft=view)

    def history(self) -> list[tuple[Change, str]]:
        return [(c, change_line(self.rules, c)) for c in game_history(game=self.game)]

    def speech(self) -> str:
        return announcement(self.current, self.rules.last_round) if self.current else ""

    def referee_query(self) -> str:
        game, current = self.game, self.current
        return urlencode(
            [("ruleset", game.ruleset), *[("variant", v) for v in game.variants], ("players", len(self.players))]
            + ([("round", current.number)] if current else [])
        )


def _seat_view(request: HtmxHttpRequest, table: _Table) -> DraftView | None:
    """This phone's seat, if it took one (the Seat table says whether it still holds it; if
    another phone took it, ``displaced`` says whose it was). None for a phone that never took one."""
    taken = phone.seat_taken(request, table.game.pk)
    if taken is None:
        return None
    seat = seat_of(table.game, phone.phone_key(request))
    displaced = "" if seat is not None else next((p.name for p in table.players if p.pk == taken), "")
    return DraftView(status=None, seat=seat, displaced=displaced)


def _table_context(request: HtmxHttpRequest, game: Game, *, follower: bool = False, **extra: Any) -> dict[str, Any]:
    """Everything the table shows (as a phone that follows sees it, with ``follower``); the
    parts behind ``{% cache %}`` are lazy (see ``_Table``)."""
    table = _Table(game)
    rules = table.rules
    editable = not follower and phone.can_edit(request, game)
    base, base_source = share_base(request)
    view_url = base + view_path(game.pk)
    context: dict[str, Any] = {
        "game": game,
        "rules": rules,
        "players": SimpleLazyObject(lambda: table.players),
        "standings": SimpleLazyObject(lambda: table.standings),
        "current": SimpleLazyObject(lambda: table.current),
        "board": SimpleLazyObject(table.board),
        "round_numbers": range(1, rules.last_round + 1),
        "round_word": _(rules.round_word),
        "can_edit": editable,
        "speech": SimpleLazyObject(table.speech),
        "history": SimpleLazyObject(table.history),
        "story": SimpleLazyObject(lambda: chart(table.filled)),
        "rounds_played": SimpleLazyObject(lambda: table.rounds_played),
        "finished": SimpleLazyObject(lambda: table.rounds_played >= rules.last_round),
        "has_history": game.version > 1,  # every change moves the version on (imports replay theirs)
        "running": request.GET.get("running") == "1",
        "view_url": view_url,
        "link_source": base_source,
        "lan_https": settings.LAN_HTTPS,
        "view_qr": partial(qr_svg, view_url),  # templates call it only where the code is shown
        "fragment_seconds": LIVE_FRAGMENT_SECONDS,
        "referee_query": SimpleLazyObject(table.referee_query),
    }
    token = phone.token_for(request, game) if editable else None
    if token:
        context["edit_url"] = base + edit_path(game.pk, token)
    context["draft_line"] = SimpleLazyObject(table.draft_line)
    view = _seat_view(request, table) if editable else None
    if view is not None and view.displaced:
        context["seat_notice"] = _("{name}'s hand is now scored on another phone.").format(name=view.displaced)
        phone.remember_seat(request, game.pk, None)  # said once
    context["seated"] = view is not None and view.seat is not None
    if editable and "entry" not in extra and view is not None and view.seat is not None:
        context["entry"] = SimpleLazyObject(partial(table.draft_entry, view))  # this phone's own hand
    elif editable and "entry" not in extra:
        # A form with nothing typed in it (none once the game is over) is the same on every
        # phone without a seat, for a live version (a round in progress or not): cached too.
        context["entry"] = SimpleLazyObject(table.fresh_entry)
        context["entry_pristine"] = True
    context.update(extra)
    return context


@require_safe
def table(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The table. Every phone that follows a game sees the same page for a version (and language
    and link address): its body is rendered once and kept in Django's cache, like the fragments
    after an event. The phone that records gets its own page (its forms carry its CSRF token),
    made mostly of fragments cached per version too (``{% cache %}`` in the template)."""
    head = _game_head(request, game_id)
    if request.GET or phone.can_edit(request, head):
        response = _render_table(request, "scorekeeping/table.html", _table_context(request, head))
    else:
        response = render(request, "scorekeeping/table.html", {"game": head, **_follower_page(request, head)})
    phone.remember(request, response, head.pk)
    return response


def _follower_page(request: HtmxHttpRequest, head: Game) -> dict[str, str]:
    """The title and body of the table as every phone that follows sees it (and link address)."""
    base, _source = share_base(request)
    return _shared(request, head, {"page_title": "title", "body_html": "body"}, [base], follower=True)


def _game_head(request: HtmxHttpRequest, game_id: str) -> Game:
    """The game's row, or 404: one query per request, though both the ETag and the view ask."""
    head = getattr(request, "game_row", None)
    if not isinstance(head, Game) or head.pk != game_id:
        head = get_object_or_404(Game, pk=game_id)
        setattr(request, "game_row", head)  # noqa: B010 (an attribute of this request only)
    return head


def _shared(
    request: HtmxHttpRequest, head: Game, partials: dict[str, str], vary: list[str], **extra: Any
) -> dict[str, str]:
    """Partials of the table that are the same for every phone in the same role (following, or
    recording with a fresh form) for a version, language and ``vary``: rendered once and kept in
    Django's cache (the version in the key makes an old one unreachable). Nothing in them is
    one phone's own: no edit link, and no CSRF token (htmx sends it in a header)."""
    key = ":".join(["table", *partials.values(), head.pk, str(head.live_version), get_language(), *vary])
    parts: dict[str, str] | None = cache.get(key)
    if parts is None:
        context = _table_context(request, head, **extra)
        parts = {
            name: render_to_string(f"scorekeeping/table.html#{partial}", context, request=request)
            for name, partial in partials.items()
        }
        cache.set(key, parts, LIVE_FRAGMENT_SECONDS)
    return parts


def _warm(request: HtmxHttpRequest, game_id: str) -> None:
    """After a change made on this phone: render now what the other phones fetch at its event
    (as a phone that follows sees it, and a phone that records with nothing typed), so that
    the first of them finds it ready too. The phone that wrote pays a few milliseconds once."""
    head = game_filled(Game.objects.get(pk=game_id), scores=False)  # loaded once for every render here
    _shared(request, head, {"html": "live"}, ["0", "follow"], follower=True)
    if phone.seat_taken(request, head.pk) is None:  # a seat would put its own hand in the form
        _shared(request, head, {"html": "live"}, ["0", "record-fresh"], pristine=True, moved=False)
    _follower_page(request, head)  # a phone that opens the table now (mostly fragments made above)


def _render_table(request: HtmxHttpRequest, name: str, context: dict[str, Any], status: int = 200) -> HttpResponse:
    """A page or fragment of the table. One that shows this phone the edit link is kept by no cache."""
    response = render(request, name, context, status=status)
    if context.get("edit_url"):
        patch_cache_control(response, no_store=True)
    return response


def _forbidden(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    return render(request, "scorekeeping/forbidden.html", {"game": game}, status=refused(request, 403))


def _editing(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page that changes the game: its row (404 for no such game), and the page that says how
    to get the edit link (403) unless this phone may change it. The view gets the game."""

    @wraps(view)
    def guarded(request: HtmxHttpRequest, game_id: str, *args: Any, **kwargs: Any) -> HttpResponse:
        game = game_get(game_id=game_id)
        if not phone.can_edit(request, game):
            return _forbidden(request, game)
        return view(request, game, *args, **kwargs)

    return guarded


def _entry_response(request: HtmxHttpRequest, game: Game, number: int, correcting: bool, do_write: Any) -> HttpResponse:
    """Shared by recording and correcting: taps, previews, submits, refusals and conflicts."""
    players = list(game.players.all())
    state = EntryState.from_post(request.POST, players)
    template = "scorekeeping/entry_page.html" if correcting else "scorekeeping/table.html"
    partial = "#results" if request.POST.get("preview") else "#body"

    def page(status: int = 200, errors: dict[str, list[str]] | None = None, **extra: Any) -> HttpResponse:
        recheck = bool(request.POST.get("refused")) and errors is None
        entry = entry_view(
            game=game,
            players=players,
            number=number,
            state=state,
            errors=errors,
            correcting=correcting,
            recheck=recheck,
        )
        context = _table_context(request, game, entry=entry, **extra)
        name = template + partial if request.htmx else template
        return _render_table(request, name, context, status=refused(request, status))

    if "tap" in request.POST:
        state.tap(request.POST.get("tap", ""))
        return page()
    if "untap" in request.POST:
        state.untap(request.POST.get("untap", ""))
        return page()
    if "step" in request.POST:
        state.step(request.POST.get("step", ""))
        return page()
    if request.POST.get("preview"):
        return page()
    if state.winner == "":
        return page(422, {"winner": [_("Choose who went out (or no one, if the stock ran out).")]})
    try:
        do_write(players, state)
    except Conflict as exc:
        # Overwrite nothing: show the game as it is now, and say what changed meanwhile.
        if correcting:
            messages.error(request, exc.message)
            url = reverse("table", args=[game.pk])
            return HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)
        fresh = game_get(game_id=game.pk)
        name = "scorekeeping/table.html#body" if request.htmx else "scorekeeping/table.html"
        context = _table_context(request, fresh, conflict=exc.message)
        return _render_table(request, name, context, status=refused(request, 409))
    except ScorekeepingError as exc:
        return page(422, exc.errors)
    return _saved(request, game, number, correcting)


def _saved(request: HtmxHttpRequest, game: Game, number: int, correcting: bool = False) -> HttpResponse:
    """A round recorded (or corrected): the table with "Round 3 recorded. Undo" where the finger is."""
    url = reverse("table", args=[game.pk])
    if request.htmx and not correcting:
        fresh = game_get(game_id=game.pk)
        notice = _("{word} {number} recorded.").format(word=capfirst(_(rules_for(fresh).round_word)), number=number)
        context = _table_context(request, fresh, notice=notice, undo=True)
        response = _render_table(request, "scorekeeping/table.html#body", context)
        _warm(request, game.pk)
        return trigger_client_event(response, "roundSaved")
    messages.success(
        request, _("{word} {number} saved.").format(word=capfirst(_(rules_for(game).round_word)), number=number)
    )
    if request.htmx:
        return trigger_client_event(HttpResponseClientRedirect(url), "roundSaved")
    return HttpResponseRedirect(url)


def _draft_entry_response(request: HtmxHttpRequest, game: Game, number: int, view: DraftView) -> HttpResponse:
    """Recording with a round in progress: this phone sends in one hand at a time (its own, or
    one for a player without a phone), and the round is recorded from the hands sent in. The
    form says which winner it was drawn with, so a phone changes the winner only when its
    player changed it, never back to what another phone already changed."""
    players = list(game.players.all())
    state = EntryState.from_post(request.POST, players)
    partial = "#results" if request.POST.get("preview") else "#body"
    op = request.POST.get("op", "")
    by_seat = {p.seat: p for p in players}

    def page(status: int = 200, errors: dict[str, list[str]] | None = None, **extra: Any) -> HttpResponse:
        game.refresh_from_db(fields=["version", "live_version"])  # what this request wrote, and others
        draft = draft_current(game)
        view.status = draft_status(game, draft) if draft is not None else None
        if view.status is not None:  # the other hands as the round in progress holds them now
            fresh = EntryState.from_draft(view.status, game.version, state.active)
            for p in players:
                if p.seat != state.active:
                    state.hands[p.seat], state.points[p.seat], state.buys[p.seat] = (
                        fresh.hands.get(p.seat, ""),
                        fresh.points.get(p.seat, ""),
                        fresh.buys.get(p.seat, ""),
                    )
            state.winner, state.cut_bonus = fresh.winner, fresh.cut_bonus
        recheck = bool(request.POST.get("refused")) and errors is None and not extra
        entry = entry_view(
            game=game, players=players, number=number, state=state, errors=errors, draft=view, recheck=recheck
        )
        context = _table_context(request, game, entry=entry, **extra)
        name = "scorekeeping/table.html" + (partial if request.htmx else "")
        return _render_table(request, name, context, status=refused(request, status))

    if "tap" in request.POST:
        state.tap(request.POST.get("tap", ""))
    elif "untap" in request.POST:
        state.untap(request.POST.get("untap", ""))
    elif "step" in request.POST:
        state.step(request.POST.get("step", ""))
    active = by_seat.get(state.active) if state.active is not None else None
    cards = state.hands.get(active.seat, "") if active else ""
    points = form_int(state.points.get(active.seat), None) if active else None
    buys = form_int(state.buys.get(active.seat), None) if active else None
    try:
        # The form says the winner and the cut bonus it was drawn with: what this phone changed is kept.
        bonus_changed = "draft_cut_bonus" in request.POST and state.cut_bonus != bool(request.POST["draft_cut_bonus"])
        if state.winner != "" and (state.winner != request.POST.get("draft_winner", "") or bonus_changed):
            cut_bonus = state.cut_bonus if bonus_changed else None
            draft_start(game=game, number=number, winner=state.winner_name(players), cut_bonus=cut_bonus)
        if op == "record":  # the hands as this phone last saw them: 409 if one changed since
            draft_record(game=game, version=form_int(request.POST.get("draft_version"), None))
            return _saved(request, game, number)
        if op in ("hand", "replace"):
            if state.winner == "":
                return page(422, {"winner": [_("Choose who went out (or no one, if the stock ran out).")]})
            if active is None:
                return page(422, {"active": [_("Choose whose hand this is.")]})
            # A hand another phone sent in is replaced only by the button that says so.
            replace = op == "replace" or (view.seat is not None and view.seat.pk == active.pk)
            draft_hand(
                game=game, name=active.name, number=number, cards=cards, points=points, buys=buys, replace=replace
            )
            return page()
    except Conflict as exc:
        return page(409, conflict=exc.message)
    except ScorekeepingError as exc:
        return page(422, exc.errors)
    if active is not None and state.winner != "" and state.winner_name(players) != active.name:
        # Still typing: kept on the server at once (a reload loses nothing), no event. A save
        # that comes too late (the round recorded, the winner changed) is let go: the hand
        # is still on the phone, and Send says what is wrong.
        with contextlib.suppress(ScorekeepingError):
            draft_hand(game=game, name=active.name, number=number, done=False, cards=cards, points=points, buys=buys)
    return page()


@require_POST
@_editing
def round_new(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    current = game_current_round(game=game)
    # The form says which round it was filled in for; a stale one is refused when saved.
    # A number that is no round of this game at all is taken as the current round.
    posted = form_int(request.POST.get("number"), 0)
    number = posted if 1 <= posted <= rules_for(game).last_round else (current.number if current else 0)

    def write(players: list[Player], state: EntryState) -> None:
        round_record(game=game, number=number, version=state.version, **state.service_args(players))

    if number == 0 or (current is None and "tap" not in request.POST):
        return _entry_conflict_finished(request, game)
    table = _Table(game)
    view = _seat_view(request, table)
    view = view if view is not None and view.seat is not None else None
    if view is not None or table.draft is not None:
        return _draft_entry_response(request, game, number, view or DraftView(status=None, seat=None))
    return _entry_response(request, game, number, False, write)


@require_POST
@_editing
def seat(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """ "This is me: Ben": this phone scores Ben's own hand from now on ("Not me": no seat)."""
    key = phone.phone_key(request, create=True) or ""
    chosen = form_int(request.POST.get("player"), None)
    player = next((p for p in game.players.all() if p.seat == chosen), None)
    # The session first: the claim's event makes this phone fetch the table at once, and that
    # fetch must already find the seat in the session, or its answer (a form without the seat)
    # could land after this one's.
    phone.remember_seat(request, game.pk, player.pk if player is not None else None)
    request.session.save()
    if player is None:
        seat_leave(game=game, phone=key)
    else:
        seat_claim(game=game, name=player.name, phone=key)
    if not request.htmx:
        return HttpResponseRedirect(reverse("table", args=[game.pk]))
    fresh = game_get(game_id=game.pk)
    return _render_table(request, "scorekeeping/table.html#body", _table_context(request, fresh))


def _entry_conflict_finished(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    context = _table_context(request, game, conflict=_("The game is finished: every round is recorded."))
    name = "scorekeeping/table.html#body" if request.htmx else "scorekeeping/table.html"
    return _render_table(request, name, context, status=refused(request, 409))


@require_http_methods(["GET", "HEAD", "POST"])
@_editing
def round_edit(request: HtmxHttpRequest, game: Game, number: int) -> HttpResponse:
    rnd = next((r for r in game.rounds.all() if r.number == number), None)
    if rnd is None:
        return render(request, "scorekeeping/forbidden.html", {"game": game, "missing": number}, status=404)
    players = list(game.players.all())
    if request.method != "POST":
        state = EntryState.from_round(rnd, players, game.version)
        entry = entry_view(game=game, players=players, number=number, state=state, correcting=True)
        context = _table_context(request, game, entry=entry)
        return _render_table(request, "scorekeeping/entry_page.html", context)

    def write(players: list[Player], state: EntryState) -> None:
        round_replace(game=game, number=number, version=state.version, **state.service_args(players))

    return _entry_response(request, game, number, True, write)


def _history_step(request: HtmxHttpRequest, game: Game, step: Any, notice: Any, undoing: bool = False) -> HttpResponse:
    """Undo or redo: make the step, then show the table with what happened (or what changed
    meanwhile). After an undo, Redo is offered and the round undone comes back into the form.
    Without JavaScript the page reloads and the message goes with it."""
    extra: dict[str, Any] = {}
    status = 200
    change = None
    try:
        change = step(game=game, version=form_int(request.POST.get("version"), None))
        extra["notice"] = notice(change)
        extra["redo"] = undoing
    except (Conflict, InvalidInput) as exc:
        extra["conflict"] = exc.message
        status = exc.status
    if not request.htmx:
        if "notice" in extra:
            messages.success(request, extra["notice"])
        else:
            messages.error(request, extra["conflict"])
        return HttpResponseRedirect(reverse("table", args=[game.pk]))
    fresh = game_get(game_id=game.pk)
    undone = change.undoes if undoing and change is not None else None
    current = game_current_round(game=fresh)
    back_in_form = undone is not None and undone.action == Change.Action.RECORD
    if back_in_form and undone is not None and current is not None and current.number == undone.round_number:
        # The round just undone comes back into the form as it was: fixing one card is one tap.
        players = list(fresh.players.all())
        state = EntryState.from_snapshot(undone.after or {}, players, fresh.version)
        extra["entry"] = entry_view(game=fresh, players=players, number=current.number, state=state)
    context = _table_context(request, fresh, **extra)
    response = _render_table(request, "scorekeeping/table.html#body", context, status=refused(request, status))
    if change is not None:
        _warm(request, game.pk)
    return response


@require_POST
@_editing
def undo(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Undo the latest change; the round undone comes back into the form, and Redo is offered."""
    rules = rules_for(game)

    def notice(change: Change) -> str:
        what = change_line(rules, change.undoes) if change.undoes else _("the last change")
        return _("Undone: {what}.").format(what=what)

    return _history_step(request, game, game_undo, notice, undoing=True)


@require_POST
@_editing
def redo(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Take back the last undo while nothing else has changed since."""
    return _history_step(request, game, game_redo, lambda change: _("Redone."))


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
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_POST
@_editing
def edit_link_replace(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """ "New edit link": the old link and every phone's right made from it stop working; this
    phone keeps the right, with the new token, and shows the new link to share."""
    token = game_token_replace(game=game)
    messages.success(
        request, _("A new edit link is made: the old one and the phones that joined with it can no longer record.")
    )
    url = reverse("table", args=[game.pk])
    response = HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)
    phone.grant(request, response, game.pk, token)
    return response


@require_safe
def edit_qr(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The edit link's QR code, for a phone that may record and keeps the token (the table shows
    it when "Edit link" is opened). Encoded for each request and kept by no cache: it is the
    token, in another form."""
    head = _game_head(request, game_id)
    if not phone.can_edit(request, head):
        return HttpResponse(status=403)
    token = phone.token_for(request, head)
    if token is None:  # the grant without the token's cookie: this phone has no link to show
        raise Http404
    base, _source = share_base(request)
    response = HttpResponse(qr_document(base + edit_path(head.pk, token)), content_type="image/svg+xml")
    patch_cache_control(response, no_store=True)
    return response


def _live_etag(request: HtmxHttpRequest, game_id: str) -> str:
    """The game's version as an ETag: unchanged means nothing to send."""
    return f'"v{_game_head(request, game_id).live_version}"'


@require_safe
def events(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The change stream is served under ASGI (``scorekeeping.live``, the start command). This
    server is WSGI (``runserver``, the test live server): 204 tells EventSource not to retry,
    and the page polls every 5 s instead."""
    _game_head(request, game_id)
    return HttpResponse(status=204)


@require_safe
@cache_control(no_cache=True)
@condition(etag_func=_live_etag)
def live(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """What changed, fetched after an event on the game's stream: 304 with no body while nothing
    did; else the fresh fragments. They are the same for every phone that follows, and for
    every phone that records and has typed nothing yet (its fresh entry comes with them), so
    they are rendered once per version, language and role and kept in Django's cache."""
    head = _game_head(request, game_id)
    running = str(int(request.GET.get("running") == "1"))
    if not phone.can_edit(request, head):
        return HttpResponse(_shared(request, head, {"html": "live"}, [running, "follow"], follower=True)["html"])
    pristine = request.headers.get("X-Entry-Pristine") == "1"
    # A phone typing a round is told when the game itself moved on (its Record would be
    # refused), not when a hand of the round in progress came in from another phone.
    moved = request.headers.get("X-Entry-Version", str(head.version)) != str(head.version)
    extra = {"pristine": pristine, "moved": moved}
    if phone.seat_taken(request, head.pk) is not None:  # its own hand's entry: its own fragment
        context = _table_context(request, head, **extra)
        return _render_table(request, "scorekeeping/table.html#live", context)
    role = "record-fresh" if pristine else "record-moved" if moved else "record-typing"
    response = HttpResponse(_shared(request, head, {"html": "live"}, [running, role], **extra)["html"])
    patch_cache_control(response, no_store=True)
    return response


@require_POST
@_editing
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
    phone.grant(request, response, new.pk, token)
    return response
