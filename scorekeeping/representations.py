"""Games as plain data: the API's shape (the pages read the same selectors)."""

from __future__ import annotations

from typing import Any

from .links import edit_path, view_path
from .models import Change, Game, Round
from .selectors import CurrentRound, Standings, game_current_round, game_standings


def round_data(rnd: Round, names: dict[int, str]) -> dict[str, Any]:
    return {
        "number": rnd.number,
        "winner": names[rnd.winner_id] if rnd.winner_id else None,
        "dealer": names[rnd.dealer_id],
        "hand_size": rnd.dealt,
        "wild_rank": rnd.wild_rank or None,
        "cut_bonus": rnd.cut_bonus,
        "scores": [
            {
                "player": names[s.player_id],
                "points": s.points,
                "penalty": s.penalty,
                "adjustment": s.adjustment,
                "cards": s.cards.split() if s.cards else [],
                "typed": s.typed,
                "buys": s.buys,
                "breakdown": s.breakdown,
            }
            for s in rnd.scores.all()
        ],
    }


def current_round_data(current: CurrentRound | None) -> dict[str, Any] | None:
    if current is None:
        return None
    return {
        "number": current.number,
        "hand_size": current.hand_size,
        "wild_rank": current.wild_rank,
        "wilds": current.wild_words,
        "contract": current.contract,
        "components": [{"kind": c.kind.value, "length": c.length} for c in current.components],
        "final": current.final,
        "dealer": current.dealer.name,
        "first_player": current.first_player.name,
        "packs": current.packs,
        "jokers": current.jokers,
        "stock": current.stock,
        "upcard": current.upcard,
    }


def standings_data(standings: Standings) -> dict[str, Any]:
    return {
        "finished": standings.finished,
        "standings": [
            {"player": r.player.name, "total": r.total, "round_wins": r.round_wins, "place": r.place}
            for r in standings.rows
        ],
        "winners": [p.name for p in standings.winners],
        "notes": standings.notes,
    }


def game_data(game: Game, *, base_url: str = "", token: str | None = None) -> dict[str, Any]:
    """The game as the API shows it; ``game`` comes from ``game_get`` (everything prefetched).

    ``base_url`` (scheme and host) makes ``url`` absolute; ``edit_url`` is given only with the
    game's token (the caller proved it has it), never otherwise.
    """
    players = list(game.players.all())
    names = {p.pk: p.name for p in players}
    standings = game_standings(game=game)
    return {
        "id": game.pk,
        "url": base_url + view_path(game.pk),
        "edit_url": base_url + edit_path(game.pk, token) if token else None,
        "ruleset": game.ruleset,
        "variants": game.variants,
        "version": game.version,
        "created_at": game.created_at.isoformat(),
        "players": [{"name": p.name, "seat": p.seat} for p in players],
        "first_dealer": players[game.first_dealer_seat].name,
        "first_dealer_method": game.first_dealer_method,
        "rounds": [round_data(r, names) for r in game.rounds.all()],
        "current_round": current_round_data(game_current_round(game=game)),
        "finished": standings.finished,
        "standings": standings_data(standings),
    }


def change_data(change: Change) -> dict[str, Any]:
    return {
        "id": change.pk,
        "action": change.action,
        "round": change.round_number,
        "at": change.at.isoformat(),
        "version": change.version,
        "before": change.before,
        "after": change.after,
        "undoes": change.undoes_id,
        "undone": bool(getattr(change, "is_undone", False)),
    }
