"""A round in progress, scored by several phones at once (issue 15).

Any phone with the edit link starts the round in progress by naming who went out; then each
player's hand is sent in on its own (from that player's phone, or from any phone "for" them),
checked as a recorded hand is, and kept at once; the round is recorded from what was sent in,
by the same service as a round typed in at once (``round_record``), when a phone asks for it
and every hand other than the winner's is in.

What happens when the table does two things at once, and nothing is lost:
- two phones send the same hand: the later one is kept (a hand is one row per player); what
  is typed into a hand already sent in stays on the phone until it is sent in again (so a
  late save of a keystroke cannot take back a hand that is in);
- a hand for a round already recorded: 409, and the phone keeps what it typed;
- the winner changes after hands came in: the hands stay; the new winner's, if any, is set
  aside (not counted, not deleted: it counts again if the winner changes back), and the old
  winner's hand is now missing;
- the round before is undone or corrected meanwhile: a correction changes nothing here; after
  an undo the round in progress waits, with its hands, until that round is recorded again
  (a draft belongs to its round number; only the one for the round to record next is live).

Every step that another phone should see moves the game's live version (``touch``): the
streams carry it at commit. Saving a hand still being typed does not (nobody needs an event
per tapped card).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from referee.engine.rounds import CardsInput, EntryField, RoundEntry
from referee.engine.rulesets import no_cut_bonus
from referee.engine.words import name_key
from scorekeeping.errors import Conflict, InvalidInput, NotFound
from scorekeeping.models import Draft, DraftHand, Game, Player, Round, Seat
from scorekeeping.services.rounds import refuse_number, round_preview, round_record
from scorekeeping.services.versioning import locked, touch

MAX_BUYS = 1000  # the rules bound buys far below; this bounds the column before the rules are asked


def _player(players: Sequence[Player], name: str, field: str | EntryField) -> Player:
    found = next((p for p in players if name_key(p.name) == name_key(name)), None)
    if found is None:
        raise NotFound(_("There is no player named {name!r} in this game").format(name=name), field)
    return found


def _live_draft(game: Game, recorded: int, *, lock: bool = False) -> Draft | None:
    drafts = Draft.objects.select_for_update(of=("self",)) if lock else Draft.objects
    return drafts.filter(game=game, number=recorded + 1).select_related("winner").first()


def draft_start(*, game: Game, number: int, winner: str | None, cut_bonus: bool | None = None) -> Draft:
    """Start the round in progress (``winner`` None: no one went out), or change its winner;
    ``cut_bonus`` (Liverpool: the cutter cut exactly right) as a round recorded at once has it,
    left as it is when None. Only the round to record next: 409 for one already recorded, 400
    for any other."""
    rules = game.rules
    if cut_bonus and not rules.cut_bonus:
        raise InvalidInput(no_cut_bonus(rules), EntryField("cut_bonus"))
    with transaction.atomic():
        game = locked(game, None)
        refuse_number(rules, number, game.rounds.count())
        players = list(game.players.order_by("seat"))
        out = _player(players, winner, EntryField("winner")) if winner is not None else None
        bonus = bool(cut_bonus)
        draft, created = Draft.objects.select_for_update().get_or_create(
            game=game, number=number, defaults={"winner": out, "cut_bonus": bonus}
        )
        changed = draft.winner_id != (out.pk if out else None) or (cut_bonus is not None and draft.cut_bonus != bonus)
        if created or changed:
            if not created:
                draft.winner = out
                draft.cut_bonus = bonus if cut_bonus is not None else draft.cut_bonus
                draft.version += 1
                draft.save(update_fields=["winner", "cut_bonus", "version"])
            touch(game)
    return draft


def _no_round_in_progress(game: Game, number: int | None, recorded: int) -> Conflict:
    rules = game.rules
    if number is not None and number <= recorded:
        message = _("Someone already recorded {where}; its scores are on the board (correct it there if need be)")
        return Conflict(message.format(where=rules.round_name(number)), "number")
    message = _("No {word} is in progress: say who went out first").format(word=_(rules.round_word))
    return Conflict(message, "draft")


def draft_hand(
    *,
    game: Game,
    name: str,
    cards: CardsInput | None = None,
    points: int | None = None,
    buys: int | None = None,
    done: bool = True,
    number: int | None = None,
    replace: bool = True,
) -> Draft:
    """Send in (``done``) or keep while typing one player's hand for the round in progress,
    checked as a recorded hand is. ``number``, when given, is the round the phone scored:
    a hand for a round already recorded is refused (409). Without ``replace`` a hand already
    sent in is kept and the sending refused (409): replacing it is a deliberate act."""
    with transaction.atomic():
        game = locked(game, None)
        recorded = game.rounds.count()
        draft = _live_draft(game, recorded, lock=True)
        if draft is None or (number is not None and number != draft.number):
            raise _no_round_in_progress(game, number, recorded)
        players = list(game.players.order_by("seat"))
        player = _player(players, name, "player")
        text: str = cards if isinstance(cards, str) else " ".join(cards or ())
        if draft.winner_id == player.pk:
            # Cards typed for who went out are refused as a round typed whole refuses them (the
            # engine's words, with how many): sent with a Record, they were once dropped without a
            # word, and the same round was refused or recorded by whether "who went out" had landed.
            entry = RoundEntry(
                winner=player.name,
                hands={player.name: text} if text.strip() else {},
                points={player.name: points} if points is not None else {},
            )
            plan = round_preview(game=game, number=draft.number, entry=entry)
            said = {k: v for k, v in plan.errors.items() if k.player == player.name}
            if said:
                raise InvalidInput(said)
            if points is None:
                message = _("{name} went out, so {name} has no hand to send in").format(name=player.name)
                raise InvalidInput(message, EntryField("hands", player.name))
            return draft  # 0 points for who went out: what the round gives them, nothing to keep
        if buys is not None and not 0 <= buys <= MAX_BUYS:
            message = _("Buys must be from 0 to {most}").format(most=MAX_BUYS)
            raise InvalidInput(message, EntryField("buys", player.name))
        if done:
            entry = RoundEntry(
                winner=draft.winner.name if draft.winner else None,
                hands={player.name: text} if text.strip() else {},
                points={player.name: points} if points is not None else {},
                buys={player.name: buys} if buys else {},
                cut_bonus=draft.cut_bonus,
            )
            plan = round_preview(game=game, number=draft.number, entry=entry)
            mine = {k: v for k, v in plan.errors.items() if k.player in (None, player.name)}
            mine.pop(EntryField("winner"), None)
            if mine:
                raise InvalidInput(mine)
            hand = plan.hands[player.seat]
            text = " ".join(str(c) for c in hand.cards) if not hand.typed else ""
        hand_row, _created = DraftHand.objects.get_or_create(draft=draft, player=player)
        if hand_row.done and done and not replace:
            message = _("{name}'s hand is already in. To change it, tap Replace {name}'s hand.")
            raise Conflict(message.format(name=player.name))
        if hand_row.done and not done:
            # A hand sent in changes only when it is sent in again: what a phone types after
            # that (or a keystroke's save that arrives late) leaves it as the table saw it.
            return draft
        hand_row.cards = text[:400]
        hand_row.points = points if points is not None and not text.strip() else None
        hand_row.buys = buys or 0
        hand_row.done = done
        hand_row.save()
        if done:  # sent in, or sent in again: the table sees it
            draft.version += 1
            draft.hands_version = draft.version
            draft.save(update_fields=["version", "hands_version"])
            touch(game)
    return draft


@dataclass(frozen=True)
class HandTyped:
    """One hand as a phone typed it, for ``draft_hands``."""

    name: str
    cards: str = ""
    points: int | None = None
    buys: int | None = None
    replace: bool = False


def draft_hands(*, game: Game, number: int, hands: Sequence[HandTyped]) -> Draft | None:
    """Send in every hand a phone typed (its Send, or Record on a phone entering for the table),
    each as ``draft_hand`` sends one: all of them, or none when one is refused (which, and why)."""
    draft = None
    with transaction.atomic():
        for hand in hands:
            draft = draft_hand(
                game=game,
                name=hand.name,
                number=number,
                cards=hand.cards,
                points=hand.points,
                buys=hand.buys,
                replace=hand.replace,
            )
    return draft


def draft_discard(*, game: Game) -> None:
    """Drop the round in progress and its hands (nothing recorded from it)."""
    with transaction.atomic():
        game = locked(game, None)
        draft = _live_draft(game, game.rounds.count(), lock=True)
        if draft is None:
            raise NotFound(_("No round is in progress"), "draft")
        draft.delete()
        touch(game)


def draft_record(*, game: Game, version: int | None = None, by: str = "", hands: Sequence[HandTyped] = ()) -> Round:
    """Record the round in progress from the hands sent in, by ``round_record``: 400 naming
    every hand still missing; the draft is gone with the round's write. ``hands``, typed on the
    phone that records (one entering for the table), are sent in first, in the same
    transaction: refused, nothing is written. ``version`` is the round as that phone saw it
    before: 409 if a hand changed since."""
    with transaction.atomic():
        game = locked(game, None)
        draft = _live_draft(game, game.rounds.count(), lock=True)
        if draft is None:
            raise NotFound(_("No round is in progress"), "draft")
        if version is not None and version != draft.version:
            raise _changed_since(draft, version)
        if hands:
            draft_hands(game=game, number=draft.number, hands=hands)
            draft.refresh_from_db()
        status = draft_status(game, draft)
        if status.missing:
            raise InvalidInput(
                {
                    EntryField("hands", p.name): [_("{name}'s hand is not in yet").format(name=p.name)]
                    for p in status.missing
                }
            )
        return round_record(game=game, number=draft.number, entry=_counted(draft, status.counted), by=by)


@dataclass(frozen=True)
class DraftStatus:
    """Where the round in progress stands: every player's hand, and who is still missing."""

    draft: Draft
    players: list[Player]
    hands: dict[int, DraftHand]  # by player id: every hand kept, sent in or not
    counted: list[DraftHand]  # the hands sent in, the winner's aside
    missing: list[Player]  # players other than the winner whose hand is not in
    penalties: dict[int, int]  # by player id, for the hands sent in


def _counted(draft: Draft, counted: Sequence[DraftHand]) -> RoundEntry:
    """The round in progress as the table would enter it at once, from the hands sent in."""
    return RoundEntry(
        winner=draft.winner.name if draft.winner else None,
        hands={h.player.name: h.cards for h in counted if h.cards},
        points={h.player.name: h.points for h in counted if not h.cards and h.points is not None},
        buys={h.player.name: h.buys for h in counted if h.buys},
        cut_bonus=draft.cut_bonus,
    )


def draft_ahead(game: Game) -> Draft | None:
    """The round in progress, or one an undo left waiting (its number is then past the round
    to record next): the first draft from the round to record next on (one query)."""
    next_number = game.rounds.count() + 1
    return Draft.objects.filter(game=game, number__gte=next_number).select_related("winner").order_by("number").first()


def draft_seen(*, game: Game, version: int | None, seen: str | None, winner: str | None) -> int | None:
    """The round in progress's version now, for a Record from a phone that saw it at ``version``
    with ``seen`` gone out and now says ``winner`` (None: no one). A Conflict if a hand was sent in
    since, or if who went out is now neither what that phone saw nor what it says (a cut bonus has
    only the two values, so it is always one of them). Its own say, made by a preview still on its
    way back when the thumb tapped Record, is no change to it: refused, the Record blamed another
    phone that had touched nothing (seen in CI)."""
    current = draft_current(game)
    if current is None or version is None or current.version == version:
        return current.version if current is not None else None
    said = current.winner.name if current.winner is not None else None
    if current.hands_version > version or said not in (seen, winner):
        raise _changed_since(current, version)
    return current.version


def _changed_since(draft: Draft, version: int) -> Conflict:
    """A Record refused for the round as its phone saw it at ``version``: what changed since, said."""
    if draft.hands_version > version:
        return Conflict(_("A hand changed on another phone meanwhile: look again, then record"), "version")
    return Conflict(_("Who went out was changed on another phone meanwhile: look again, then record"), "version")


def draft_current(game: Game) -> Draft | None:
    """The round in progress: the draft for the round to record next, or None."""
    return _live_draft(game, game.rounds.count())


def draft_status(game: Game, draft: Draft) -> DraftStatus:
    """The round in progress as it stands. Its hands and the draft they belong to are read in one
    statement, so at one moment: the version a page sends with Record is the version of the hands
    it shows. Read apart, a hand sent in between the two reads showed "every hand is in" beside
    the version before that hand, and Record was refused as if a hand had changed since."""
    players = list(game.players.order_by("seat"))
    rows = list(DraftHand.objects.filter(draft_id=draft.pk).select_related("player", "draft__winner"))
    if rows:
        draft = rows[0].draft
        for row in rows:
            row.draft = draft
    hands = {h.player_id: h for h in rows}
    counted = [hands[p.pk] for p in players if p.pk in hands and hands[p.pk].done and p.pk != draft.winner_id]
    missing = [p for p in players if p.pk != draft.winner_id and not (p.pk in hands and hands[p.pk].done)]
    penalties: dict[int, int] = {}
    if counted:
        plan = round_preview(game=game, number=draft.number, entry=_counted(draft, counted))
        seat_of = {p.pk: p.seat for p in players}
        for h in counted:
            scored = plan.hands[seat_of[h.player_id]]
            penalties[h.player_id] = scored.points
    return DraftStatus(draft, players, hands, counted, missing, penalties)


def seat_claim(*, game: Game, name: str, phone: str) -> Player:
    """This phone scores ``name``'s hand from now on; a phone that held that seat loses it
    (the latest claim wins: the player took their own phone back). Hands sent in stay."""
    with transaction.atomic():
        game = locked(game, None)
        player = _player(list(game.players.order_by("seat")), name, "player")
        Seat.objects.filter(game=game, phone=phone).exclude(player=player).delete()
        Seat.objects.update_or_create(game=game, player=player, defaults={"phone": phone})
        touch(game)
    return player


def seat_leave(*, game: Game, phone: str) -> None:
    with transaction.atomic():
        game = locked(game, None)
        if Seat.objects.filter(game=game, phone=phone).delete()[0]:
            touch(game)


def seat_of(game: Game, phone: str | None) -> Player | None:
    """The player whose hand this phone scores, if any."""
    if not phone:
        return None
    seat = Seat.objects.filter(game=game, phone=phone).select_related("player").first()
    return seat.player if seat else None


def seat_holder(game: Game, player: Player) -> str | None:
    """Which phone holds ``player``'s seat (its key), if any."""
    return Seat.objects.filter(game=game, player=player).values_list("phone", flat=True).first()


def seats_taken(game: Game) -> set[int]:
    """Player ids with a phone of their own."""
    return set(Seat.objects.filter(game=game).values_list("player_id", flat=True))
