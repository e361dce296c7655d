"""Engine objects as plain data for the API and the pages (one shape for both)."""

from __future__ import annotations

from typing import Any

from .engine import Laid, Penalty, Rules, Verdict, variants_for
from .engine.cards import rank_text
from .engine.i18n import _


def laid_data(laid: Laid) -> dict[str, Any]:
    reading = laid.reading
    return {
        "kind": reading.kind.value,
        "description": reading.describe(),
        "cards": [str(p) for p in reading.cards],
        "wilds": [
            {
                "card": str(p.card),
                "stands_for": str(p.identity),
                "name": p.identity.name,
                "choices": [str(i) for i in laid.choices(p)],
            }
            for p in reading.wilds
        ],
        "ambiguous": laid.ambiguous,
    }


def verdict_data(verdict: Verdict) -> dict[str, Any]:
    return {
        "action": verdict.action,
        "legal": verdict.legal,
        "reasons": list(verdict.reasons),
        "melds": [laid_data(m) for m in verdict.melds],
        "notes": list(verdict.notes),
        "freed": str(verdict.freed) if verdict.freed else None,
        "unused": [str(c) for c in verdict.unused],
    }


def penalty_data(penalty: Penalty) -> dict[str, Any]:
    return {
        "points": penalty.points,
        "cards": [
            {"card": str(c.card), "name": c.card.name, "points": c.points, "wild": c.wild} for c in penalty.cards
        ],
    }


def rules_data(rules: Rules) -> dict[str, Any]:
    deck_by_players = {n: rules.deck(n) for n in range(rules.min_players, rules.max_players + 1)}
    return {
        "slug": rules.slug,
        "name": rules.display_name,
        "document": rules.source,
        "variants_applied": list(rules.variants),
        "players": {"min": rules.min_players, "max": rules.max_players},
        "decks": [
            {"players": n, "packs": d.packs, "jokers": d.jokers, "cards": d.size} for n, d in deck_by_players.items()
        ],
        "words": {
            "round": _(rules.round_word),
            "rounds": _(rules.round_plural),
            "book": _(rules.book_word),
            "books": _(rules.book_plural),
            "run": _(rules.run_word),
            "runs": _(rules.run_plural),
        },
        "rounds": [
            {
                "number": r.number,
                "dealt": r.dealt,
                "wild_rank": rank_text(w) if (w := rules.wild_rank(r.number)) is not None else None,
                "wilds": rules.wild_words(r.number),
                "contract": rules.contract_words(r.number),
                "components": [{"kind": c.kind.value, "length": c.length} for c in r.contract],
                "final": r.final,
            }
            for r in rules.rounds
        ],
        "penalties": {
            "joker": rules.penalties.joker,
            "wild": rules.penalties.wild,
            "ace": rules.penalties.ace,
            "ten_to_king": rules.penalties.ten_to_king,
            "two_to_nine": rules.penalties.number,
        },
        "exact_opening": rules.exact_opening,
        "runs_may_join": rules.runs_may_join,
        "layoff_on_opening_turn": rules.layoff_on_opening_turn,
        "swap": rules.swap.value,
        "buys": {
            "allowed": rules.buys.allowed,
            "limit": rules.buys.limit,
            "not_twice_in_row": rules.buys.not_twice_in_row,
            "name": _(rules.buys.name),
        },
        "tie_break": rules.tie_break.value,
        "cut_bonus": rules.cut_bonus,
        "variants": [{"slug": v.slug, "name": _(v.name), "effect": _(v.effect)} for v in variants_for(rules.slug)],
    }
