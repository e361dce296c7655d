"""Recording and correcting rounds: one write path. The engine scores; this maps names to rows and writes."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee.engine import Rules
from referee.engine.cards import rank_text
from referee.engine.rounds import RoundEntry, RoundScore, score_round
from scorekeeping.errors import Conflict, InvalidInput
from scorekeeping.models import Change, Draft, Game, Player, Round, Score
from scorekeeping.services.snapshots import round_snapshot
from scorekeeping.services.versioning import locked, log_change


def _score(game: Game, rules: Rules, players: Sequence[Player], number: int, entry: RoundEntry) -> RoundScore:
    names = [p.name for p in players]
    return score_round(rules, number, names=names, first_dealer_seat=game.first_dealer_seat, entry=entry)


def round_preview(*, game: Game, number: int, entry: RoundEntry) -> RoundScore:
    """What recording this round would score, and what is wrong with it so far; writes nothing."""
    return _score(game, game.rules, list(game.players.all()), number, entry)


def _write(game: Game, rules: Rules, players: Sequence[Player], score: RoundScore, entry: RoundEntry) -> Round:
    wild = rules.wild_rank(score.number)
    rnd = Round.objects.create(
        game=game,
        number=score.number,
        winner=players[score.winner] if score.winner is not None else None,
        dealer=players[score.dealer],
        dealt=rules.round(score.number).dealt,
        wild_rank=rank_text(wild) if wild is not None else "",
        cut_bonus=entry.cut_bonus,
    )
    Score.objects.bulk_create(
        Score(
            round=rnd,
            player=players[hand.seat],
            cards=" ".join(str(c) for c in hand.cards),
            typed=hand.typed,
            penalty=hand.penalty,
            adjustment=hand.adjustment,
            points=hand.points,
            buys=hand.buys,
            breakdown=[{"card": str(c.card), "points": c.points, "wild": c.wild} for c in hand.breakdown],
        )
        for hand in score.hands
    )
    return rnd


def refuse_number(rules: Rules, number: int, recorded: int) -> None:
    """A new round must be the next one, within the game."""
    where = rules.round_name(number)
    if number <= recorded:
        message = _("Someone already recorded {where} (on another phone?); correct it instead")
        raise Conflict(message.format(where=where), "number")
    if number > rules.last_round:
        message = ngettext(
            "{title} has {last} {word}; there is no {where}",
            "{title} has {last} {words}; there is no {where}",
            rules.last_round,
        )
        words = {"word": _(rules.round_word), "words": _(rules.round_plural)}
        raise InvalidInput(message.format(title=rules.title, last=rules.last_round, where=where, **words), "number")
    if number != recorded + 1:
        message = _("Out of order: {next} is next, not {where}")
        raise InvalidInput(message.format(where=where, next=rules.round_name(recorded + 1)), "number")


def _round_write(
    *,
    game: Game,
    number: int,
    correcting: bool,
    entry: RoundEntry,
    version: int | None,
    by: str = "",
) -> Round:
    """Record the next round or correct a recorded one: the game locked, the round scored
    against the seats as they are, the old round (if any) kept in the history."""
    rules = game.rules
    with transaction.atomic():
        game = locked(game, version)
        old = game.rounds.select_related("winner", "dealer").filter(number=number).first()
        if correcting and old is None:
            message = _("Nothing is recorded for {where} yet, so there is nothing to correct")
            raise InvalidInput(message.format(where=rules.round_name(number)), "number")
        if not correcting:
            refuse_number(rules, number, game.rounds.count())
        players = list(game.players.order_by("seat"))
        score = _score(game, rules, players, number, entry)
        if not score.ok:
            raise InvalidInput(score.errors)
        before = round_snapshot(old) if old is not None else None
        if old is not None:
            old.delete()
        try:
            with transaction.atomic():
                rnd = _write(game, rules, players, score, entry)
        except IntegrityError:
            message = _("Someone already recorded {where} (on another phone?)")
            raise Conflict(message.format(where=rules.round_name(number)), "number") from None
        if not correcting:  # the round in progress for it, if any, is now this round
            Draft.objects.filter(game=game, number=number).delete()
        action = Change.Action.CORRECT if correcting else Change.Action.RECORD
        log_change(game, action, number, by=by, before=before, after=round_snapshot(rnd))
    return rnd


def round_record(*, game: Game, number: int, entry: RoundEntry, version: int | None = None, by: str = "") -> Round:
    """Record the next round. 409 if it is recorded already, 400 for anything wrong in it.
    ``by``: the player whose seated phone records it, if one does."""
    return _round_write(game=game, number=number, correcting=False, entry=entry, version=version, by=by)


def round_replace(*, game: Game, number: int, entry: RoundEntry, version: int | None = None, by: str = "") -> Round:
    """Correct a recorded round: the totals follow, the old round stays in the history."""
    return _round_write(game=game, number=number, correcting=True, entry=entry, version=version, by=by)
