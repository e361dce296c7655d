"""Recording and correcting rounds at the table (one phone for every hand, or each phone its own
hand), taking a seat, undo and redo."""

from __future__ import annotations

import contextlib
from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

from referee.keypad import pressed
from scorekeeping.errors import Conflict, ErrorKey, ScorekeepingError
from scorekeeping.models import Game, Player
from scorekeeping.selectors import (
    game_current_round,
    game_get,
    rounds_recorded,
)
from scorekeeping.services import (
    HandTyped,
    draft_current,
    draft_hand,
    draft_hands,
    draft_record,
    draft_seen,
    draft_start,
    draft_status,
    round_record,
    round_replace,
    seat_claim,
    seat_leave,
    seats_taken,
)
from scorekeeping.web import session as phone
from scorekeeping.web.entry import DraftView, entry_view
from scorekeeping.web.entry_errors import no_winner_chosen
from scorekeeping.web.entry_state import NO_WINNER, EntryState
from scorekeeping.web.guards import editing
from scorekeeping.web.table import Table, render_table, seat_view, table_context, table_of, warm
from scorekeeping.webkit.formdata import form_int
from scorekeeping.webkit.htmx import HtmxHttpRequest, refused


def _entry_page(
    request: HtmxHttpRequest,
    game: Game,
    players: list[Player],
    number: int,
    state: EntryState,
    *,
    status: int = 200,
    errors: dict[ErrorKey, list[str]] | None = None,
    correcting: bool = False,
    draft: DraftView | None = None,
    **extra: Any,
) -> HttpResponse:
    """The entry as a tap, a preview or a refusal leaves it, for both ways of recording: the
    table (or the correction page), its body, or the preview's results alone. With a round in
    progress (``draft``) the other hands are shown as the server holds them now."""
    if draft is not None:
        loaded = game.version
        game.refresh_from_db(fields=["version", "live_version"])  # what this request wrote, and others
        if game.version != loaded:
            # A round recorded, corrected or undone on another phone since the guard read the game:
            # its rounds read again (the loaded ones would be drawn, and kept, under the new version).
            game = game_get(game_id=game.pk)
        current = draft_current(game)
        draft.status = draft_status(game, current) if current is not None else None
        if draft.status is not None:
            mine = draft.seat.pk if draft.seat else None
            kept = EntryState.from_draft(draft.status, game.version, state.active, mine=mine)
            state.take_others(kept, players)
    recheck = bool(request.POST.get("refused")) and errors is None and not extra
    entry = entry_view(
        game=game,
        players=players,
        number=number,
        state=state,
        errors=errors,
        correcting=correcting,
        draft=draft,
        recheck=recheck,
    )
    template = "scorekeeping/entry_page.html" if correcting else "scorekeeping/table.html"
    partial = "#results" if request.POST.get("preview") else "#body"
    context = table_context(request, game, entry=entry, **extra)
    name = template + partial if request.htmx else template
    response = render_table(request, name, context, status=refused(request, status))
    if draft is not None:  # the game as this answer leaves it: a live answer drawn before it is not drawn (live.js)
        response["X-Live-Version"] = str(game.live_version)
    return response


def _entry_response(request: HtmxHttpRequest, game: Game, number: int, correcting: bool, do_write: Any) -> HttpResponse:
    """Recording on one phone for every hand, and correcting: taps and previews answered,
    then the whole round written at once (or refused, or a conflict shown)."""
    players = list(game.players.all())
    state = EntryState.from_post(request.POST, players)
    if state.press(request.POST) or request.POST.get("preview"):
        return _entry_page(request, game, players, number, state, correcting=correcting)
    if state.winner == "":
        return _entry_page(
            request, game, players, number, state, status=422, errors=no_winner_chosen(), correcting=correcting
        )
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
        context = table_context(request, fresh, conflict=exc.message)
        return render_table(request, name, context, status=refused(request, 409))
    except ScorekeepingError as exc:
        return _entry_page(request, game, players, number, state, status=422, errors=exc.errors, correcting=correcting)
    return _saved(request, game, number, correcting)


def _saved(request: HtmxHttpRequest, game: Game, number: int, correcting: bool = False) -> HttpResponse:
    """A round recorded (or corrected): the table with "Round 3 recorded. Undo" where the finger is."""
    url = reverse("table", args=[game.pk])
    if request.htmx and not correcting:
        fresh = game_get(game_id=game.pk)
        notice = _("{word} {number} recorded.").format(word=capfirst(_(fresh.rules.round_word)), number=number)
        context = table_context(request, fresh, notice=notice, undo=True)
        response = render_table(request, "scorekeeping/table.html#body", context)
        warm(request, fresh)
        return trigger_client_event(response, "roundSaved")
    messages.success(
        request, _("{word} {number} saved.").format(word=capfirst(_(game.rules.round_word)), number=number)
    )
    if request.htmx:
        return trigger_client_event(HttpResponseClientRedirect(url), "roundSaved")
    return HttpResponseRedirect(url)


def _draft_entry_response(
    request: HtmxHttpRequest, game: Game, number: int, view: DraftView, *, said: bool = False
) -> HttpResponse:
    """Recording with a round in progress: this phone sends in one hand at a time (its own, or
    one for a player without a phone), and the round is recorded from the hands sent in. The
    form says which winner it was drawn with, so a phone changes the winner only when its
    player changed it, never back to what another phone already changed."""
    players = list(game.players.all())
    state = EntryState.from_post(request.POST, players)
    op = request.POST.get("op", "")
    if not op and view.seat is None and not request.POST.get("preview") and not pressed(request.POST):
        op = "record"  # the form of a phone without a seat, sent: Record (its only button)
    by_seat = {p.seat: p for p in players}

    def page(status: int = 200, errors: dict[ErrorKey, list[str]] | None = None, **extra: Any) -> HttpResponse:
        return _entry_page(request, game, players, number, state, status=status, errors=errors, draft=view, **extra)

    state.press(request.POST)
    active = by_seat.get(state.active) if state.active is not None else None
    cards = state.hands.get(active.seat, "") if active else ""
    points = form_int(state.points.get(active.seat), None) if active else None
    buys = form_int(state.buys.get(active.seat), None) if active else None
    try:
        # The form says the winner and the cut bonus it was drawn with: what this phone changed is kept.
        bonus_changed = "draft_cut_bonus" in request.POST and state.cut_bonus != bool(request.POST["draft_cut_bonus"])
        version = form_int(request.POST.get("draft_version"), None)  # the round as this phone last saw it
        # ``said``: this request already started the round with its winner (``_went_out_said``): it
        # says it once. Said again here, it undid another phone's say made in between (seen in CI).
        if not said and state.winner != "" and (state.winner != request.POST.get("draft_winner", "") or bonus_changed):
            cut_bonus = state.cut_bonus if bonus_changed else None
            winner = state.winner_name(players)
            if op == "record":  # a change made with the Record: checked against the round it saw
                seen = EntryState(winner=request.POST.get("draft_winner", "")).winner_name(players)
                version = draft_seen(game=game, version=version, seen=seen, winner=winner)
            started = draft_start(game=game, number=number, winner=winner, cut_bonus=cut_bonus)
            if op == "record" and version is not None:
                version = started.version  # its own change moved the round on: not another phone's
        else:  # not changed on this phone (or not chosen): who went out is the round's, whoever said it
            state.winner = _said(game, number, state.winner)
        if op == "record":  # the hands as this phone last saw them: 409 if one changed since
            # A phone entering for the table sends in what it typed, with the Record.
            typed = _typed(game, players, state, view) if view.seat is None else []
            draft_record(game=game, version=version, by=phone.changed_by(request, game), hands=typed)
            return _saved(request, game, number)
        if op in ("hand", "replace"):
            if state.winner == "":
                return page(422, no_winner_chosen())
            if active is None:
                return page(422, {"active": [_("Choose whose hand this is.")]})
            # A hand another phone sent in is replaced only by the button that says so; Send sends
            # the other hands typed here too, none of them in yet.
            replace = op == "replace" or (view.seat is not None and view.seat.pk == active.pk)
            hand = HandTyped(active.name, cards, points, buys, replace)
            others = [] if op == "replace" else _typed(game, players, state, view, but=active)
            draft_hands(game=game, number=number, hands=[hand, *others])
            return page()
    except Conflict as exc:
        return page(409, conflict=exc.message)
    except ScorekeepingError as exc:
        return page(422, exc.errors)
    if active is not None and view.seat == active and state.winner != "" and state.winner_name(players) != active.name:
        # Its own hand still being typed on a player's phone: kept on the server at once (a reload
        # loses nothing), no event. A save that comes too late (the round recorded, the winner
        # changed) is let go: the hand is still on the phone, and Send says what is wrong. What a
        # phone types for another player stays on that phone until sent (entry.js).
        with contextlib.suppress(ScorekeepingError):
            draft_hand(game=game, name=active.name, number=number, done=False, cards=cards, points=points, buys=buys)
    return page()


def _said(game: Game, number: int, chosen: str) -> str:
    """Who went out as the round in progress has it (a seat, or "none"), or ``chosen`` without one."""
    current = draft_current(game)
    if current is None or current.number != number:
        return chosen
    return str(current.winner.seat) if current.winner else NO_WINNER


def _typed(
    game: Game, players: list[Player], state: EntryState, view: DraftView, but: Player | None = None
) -> list[HandTyped]:
    """The hands typed on this phone and not in yet, that its Send (``but`` the one it names) or
    Record sends in: a seated phone's own and those of players without a phone; every hand on a
    phone without a seat. Its form holds a hand kept on the server only if it is in, or its own
    (``EntryState.from_draft``): another phone's half-typed hand is never sent from here."""
    current = draft_current(game)
    if current is None:
        return []
    status = draft_status(game, current)
    phones = seats_taken(game) if view.seat is not None else set()
    typed = []
    for p in players:
        hand = status.hands.get(p.pk)
        if p == but or (hand is not None and hand.done):  # who went out too: cards typed for them are refused
            continue
        if view.seat is not None and p != view.seat and p.pk in phones:
            continue
        cards, points = state.hands.get(p.seat, ""), form_int(state.points.get(p.seat), None)
        if cards.strip() or points is not None:
            buys = form_int(state.buys.get(p.seat), None)
            typed.append(HandTyped(p.name, cards, points, buys, replace=view.seat == p))
    return typed


@require_POST
@editing
def round_new(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    current = game_current_round(game=game)
    # The form says which round it was filled in for; a stale one is refused when saved.
    # A number that is no round of this game at all is taken as the current round.
    posted = form_int(request.POST.get("number"), 0)
    number = posted if 1 <= posted <= game.rules.last_round else (current.number if current else 0)

    def write(players: list[Player], state: EntryState) -> None:
        round_record(
            game=game,
            number=number,
            entry=state.to_entry(players),
            version=state.version,
            by=phone.changed_by(request, game),
        )

    if number == 0 or (current is None and "tap" not in request.POST):
        return _entry_conflict_finished(request, game)
    typing = request.POST.get("preview") or pressed(request.POST)
    if (
        not request.htmx
        and current is not None
        and posted < current.number
        and typing
        and request.POST.get("op") != "record"
    ):
        return _moved_on(request, game)
    table = table_of(request, game)
    view = seat_view(request, table)
    view = view if view is not None and view.seat is not None else None
    said = view is None and table.draft is None and _went_out_said(request, game, number)
    if said:
        table = Table(game)  # the round is now in progress, said by this phone
    if view is not None or table.draft is not None:
        return _draft_entry_response(request, game, number, view or DraftView(status=None, seat=None), said=said)
    return _entry_response(request, game, number, False, write)


def _moved_on(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """A tap on a page without scripts for a round another phone recorded meanwhile: nothing is
    written for it; the page shows the round the game is on, and says why (found by the model of
    the round, issue 49). With scripts the push replaces such an entry (``live``), and a preview
    still on its way from this phone's own Record is let be: it changes nothing."""
    fresh = game_get(game_id=game.pk)
    told = _("The round you were entering was recorded on another phone: this is the next one.")
    return render_table(request, "scorekeeping/table.html", table_context(request, fresh, conflict=told))


def _went_out_said(request: HtmxHttpRequest, game: Game, number: int) -> bool:
    """A phone without a seat said who went out (or that no one did): the round is in progress for
    every phone at once (``draft_start``), as when a seated phone says it; the hands it types are
    sent in with its Record. Said while typing (a preview, a key), not with a Record: a round typed
    whole and recorded at once needs no round in progress. Whether it started one."""
    if not (request.POST.get("preview") or pressed(request.POST)) or request.POST.get("op") == "record":
        return False
    players = list(game.players.all())
    state = EntryState.from_post(request.POST, players)
    if state.winner == "" or rounds_recorded(game_id=game.pk) + 1 != number:
        return False
    try:
        draft_start(game=game, number=number, winner=state.winner_name(players))
    except ScorekeepingError:
        return False  # the round was recorded meanwhile, say: the usual path says so
    return True


@require_POST
@editing
def seat(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """ "Who is this phone?" answered. "This is me: Ben": this phone scores Ben's own hand from now
    on; "I enter for everyone": every hand, as one phone for the table; "Just watching": the page
    of a phone that follows; "Not me" (or "Score on this phone"): asked again."""
    key = phone.phone_key(request, create=True) or ""
    said = request.POST.get("player", "")
    chosen = form_int(said, None)
    player = next((p for p in game.players.all() if p.seat == chosen), None)
    # The session first: the claim's event makes this phone fetch the table at once, and that
    # fetch must already find the seat in the session, or its answer (a form without the seat)
    # could land after this one's.
    choice = said if said in (phone.EVERYONE, phone.WATCH) else phone.ASK
    phone.remember_seat(request, game.pk, player.pk if player is not None else choice)
    request.session.save()
    if player is None:
        seat_leave(game=game, phone=key)
    else:
        seat_claim(game=game, name=player.name, phone=key)
    if not request.htmx:
        return HttpResponseRedirect(reverse("table", args=[game.pk]))
    fresh = game_get(game_id=game.pk)
    return render_table(request, "scorekeeping/table.html#body", table_context(request, fresh))


def _entry_conflict_finished(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    context = table_context(request, game, conflict=_("The game is finished: every round is recorded."))
    name = "scorekeeping/table.html#body" if request.htmx else "scorekeeping/table.html"
    return render_table(request, name, context, status=refused(request, 409))


@require_http_methods(["GET", "HEAD", "POST"])
@editing
def round_edit(request: HtmxHttpRequest, game: Game, number: int) -> HttpResponse:
    rnd = next((r for r in game.rounds.all() if r.number == number), None)
    if rnd is None:
        return render(request, "scorekeeping/forbidden.html", {"game": game, "missing": number}, status=404)
    players = list(game.players.all())
    if request.method != "POST":
        state = EntryState.from_round(rnd, players, game.version)
        entry = entry_view(game=game, players=players, number=number, state=state, correcting=True)
        context = table_context(request, game, entry=entry)
        return render_table(request, "scorekeeping/entry_page.html", context)

    def write(players: list[Player], state: EntryState) -> None:
        round_replace(
            game=game,
            number=number,
            entry=state.to_entry(players),
            version=state.version,
            by=phone.changed_by(request, game),
        )

    return _entry_response(request, game, number, True, write)
