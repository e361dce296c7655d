"""A recorded round as plain data, for the history, and back into rows on undo."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.rounds import RoundEntry
from scorekeeping.models import Game, Round, Score


def round_snapshot(rnd: Round) -> dict[str, Any]:
    """A round as plain data, for the history (and to restore it on undo)."""
    return {
        "number": rnd.number,
        "winner": rnd.winner.name if rnd.winner else None,
        "dealer": rnd.dealer.name,
        "dealt": rnd.dealt,
        "wild_rank": rnd.wild_rank or None,
        "cut_bonus": rnd.cut_bonus,
        "scores": [
            {
                "player": s.player.name,
                "cards": s.cards,
                "typed": s.typed,
                "penalty": s.penalty,
                "adjustment": s.adjustment,
                "points": s.points,
                "buys": s.buys,
                "breakdown": s.breakdown,
            }
            for s in rnd.scores.select_related("player").order_by("player__seat")
        ],
    }


def round_restore(game: Game, snapshot: Mapping[str, Any]) -> None:
    """Put back a round from a snapshot that ``round_snapshot`` wrote (the history's, on undo)."""
    by_name = {p.name: p for p in game.players.all()}
    rnd = Round.objects.create(
        game=game,
        number=snapshot["number"],
        winner=by_name[snapshot["winner"]] if snapshot["winner"] else None,
        dealer=by_name[snapshot["dealer"]],
        dealt=snapshot["dealt"],
        wild_rank=snapshot["wild_rank"] or "",
        cut_bonus=snapshot["cut_bonus"],
    )
    Score.objects.bulk_create(
        Score(
            round=rnd,
            player=by_name[s["player"]],
            cards=s["cards"],
            typed=s["typed"],
            penalty=s["penalty"],
            adjustment=s["adjustment"],
            points=s["points"],
            buys=s["buys"],
            breakdown=s["breakdown"],
        )
        for s in snapshot["scores"]
    )


def round_entries(snapshot: Mapping[str, Any]) -> RoundEntry:
    """A recorded round's snapshot as the table would have entered it (to record it again; the
    round's number is the snapshot's ``number``)."""
    hands: dict[str, str] = {}
    points: dict[str, object] = {}
    buys: dict[str, object] = {}
    for score in snapshot["scores"]:
        name = score["player"]
        if score["buys"]:
            buys[name] = score["buys"]
        if name == snapshot["winner"]:
            continue
        if score["typed"]:
            points[name] = score["penalty"]
        elif score["cards"]:
            hands[name] = score["cards"]
    return RoundEntry(winner=snapshot["winner"], hands=hands, points=points, buys=buys, cut_bonus=snapshot["cut_bonus"])
