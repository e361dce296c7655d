"""The built-in rulesets and their variants, as data: documents of the house-rules shape.

Each ruleset is a document as a table would write its own (``documents.py`` reads it), with
where it comes from and the variants it offers; a ruleset ``based_on`` another says only what
it plays differently, and offers the variants of the one it is based on unless it lists its
own. A variant is a change to a document: objects are merged key by key, a list is replaced,
and ``rounds`` may also be changed as ``{"first": n}`` (only the first n rounds are played) or
``{"each": {...}}`` (merged into every round). Adding a ruleset is adding an entry here and its
words to the catalogues (locale/); nothing else changes.

Words a player reads (names, effects) are marked with ``N_`` so the catalogues hold them.
"""

from __future__ import annotations

from typing import Any

from .i18n import N_

DEFAULT_RULESET = "mexican"

B3 = {"meld": "book", "size": 3}
R4 = {"meld": "run", "size": 4}


def _run(size: int) -> dict[str, Any]:
    return {"meld": "run", "size": size}


RULESET_ENTRIES: dict[str, dict[str, Any]] = {
    "mexican": {
        "source": N_("Mexican Rummy, seven-contract growing-hand profile"),
        "variants": [
            "wild-swap",
            "open-turn-layoff",
            "single-deck",
            "third-deck",
            "fixed-twos",
            "kings-wild",
            "buy-discard",
        ],
        "document": {
            "name": N_("Mexican Rummy"),
            "players": {"min": 2, "max": 6},
            "deck": {"packs": 2, "jokers": 4},
            "rounds": [
                {"dealt": 7, "contract": [B3, B3], "wild_rank": "3"},
                {"dealt": 8, "contract": [B3, R4], "wild_rank": "4"},
                {"dealt": 9, "contract": [R4, R4], "wild_rank": "5"},
                {"dealt": 10, "contract": [B3, B3, B3], "wild_rank": "6"},
                {"dealt": 11, "contract": [B3, B3, R4], "wild_rank": "7"},
                {"dealt": 12, "contract": [B3, R4, R4], "wild_rank": "8"},
                {"dealt": 13, "contract": [R4, R4, R4], "wild_rank": "9", "final": True},
            ],
            "contract_sizes": "minimum",
            "wilds": {"jokers": True, "ranks": [], "natural": True},
            "books": {"min": 3, "suits": "any"},
            "runs": {"min": 4, "ace": "either"},
            "naturals": {"per_meld": 0, "wilds": "any", "adjacent_wilds": True},
            "points": {
                "A": 15,
                **{str(rank): 5 for rank in range(2, 10)},
                **{rank: 10 for rank in ("10", "J", "Q", "K")},
                "JK": 20,
                "wild": 20,
            },
            "going_out": {"discard": True},
            "lowest_wins": True,
            "table": {
                "runs_may_join": True,
                "layoff_on_opening_turn": False,
                "wild_swap": "none",
                "buys": {"allowed": False, "limit": None, "not_twice_in_row": False, "name": "buy"},
                "tie_break": "round_wins",
                "cut_bonus": 0,
            },
            "words": {"round": "round", "book": "book", "run": "run"},
        },
    },
    "contract": {
        "source": N_("Contract Rummy, full rules"),
        "variants": ["free-meld", "more-players"],
        "document": {
            "name": N_("Contract Rummy"),
            "players": {"min": 3, "max": 5},
            "deck": [{"players": [n], "packs": 2, "jokers": n - 1} for n in (3, 4, 5)],
            "rounds": [
                {"dealt": 10, "contract": [B3, B3], "wild_rank": None},
                {"dealt": 10, "contract": [B3, R4], "wild_rank": None},
                {"dealt": 10, "contract": [R4, R4], "wild_rank": None},
                {"dealt": 12, "contract": [B3, B3, B3], "wild_rank": None},
                {"dealt": 12, "contract": [B3, B3, R4], "wild_rank": None},
                {"dealt": 12, "contract": [B3, R4, R4], "wild_rank": None},
                {"dealt": 12, "contract": [R4, R4, R4], "wild_rank": None, "final": True},
            ],
            "contract_sizes": "exact",
            "wilds": {"jokers": True, "ranks": [], "natural": True},
            "books": {"min": 3, "suits": "any"},
            "runs": {"min": 4, "ace": "either"},
            "naturals": {"per_meld": 0, "wilds": "any", "adjacent_wilds": True},
            "points": {
                "A": 15,
                **{str(rank): rank for rank in range(2, 10)},
                **{rank: 10 for rank in ("10", "J", "Q", "K")},
                "JK": 15,
                "wild": None,
            },
            "going_out": {"discard": True},
            "lowest_wins": True,
            "table": {
                "runs_may_join": False,
                "layoff_on_opening_turn": False,
                "wild_swap": "joker_in_run",
                "buys": {"allowed": True, "limit": None, "not_twice_in_row": True, "name": "May I?"},
                "tie_break": "shared",
                "cut_bonus": 0,
            },
            "words": {"round": "deal", "book": "group", "run": "sequence"},
        },
    },
    "liverpool": {
        "source": N_("Contract Rummy, full rules"),
        "document": {"based_on": "contract", "name": N_("Liverpool Rummy"), "table": {"cut_bonus": 50}},
    },
    "shanghai": {
        "source": N_("Contract Rummy, full rules"),
        "document": {
            "based_on": "contract",
            "name": N_("Shanghai Rummy"),
            "rounds": [
                {"dealt": 11, "contract": contract, "wild_rank": None}
                for contract in (
                    [B3, B3],
                    [B3, R4],
                    [R4, R4],
                    [B3, B3, B3],
                    [B3, _run(7)],
                    [B3, B3, _run(5)],
                    [R4, R4, R4],
                    [B3, _run(10)],
                    [B3, B3, B3, _run(5)],
                    [_run(5), _run(5), _run(5)],
                )
            ],
            "points": {"JK": 50},
            "table": {"buys": {"limit": 2}},
        },
    },
    "may-i": {
        "source": N_("May I?, as its rules are commonly given"),
        "variants": [],
        "document": {
            "based_on": "contract",
            "name": N_("May I?"),
            "players": {"min": 3, "max": 6},
            "deck": [{"players": [n], "packs": 2 if n <= 4 else 3, "jokers": 4 if n <= 4 else 6} for n in range(3, 7)],
            "rounds": [
                {"dealt": 11, "contract": [B3, B3], "wild_rank": None},
                {"dealt": 11, "contract": [B3, R4], "wild_rank": None},
                {"dealt": 11, "contract": [R4, R4], "wild_rank": None},
                {"dealt": 11, "contract": [B3, B3, B3], "wild_rank": None},
                {"dealt": 11, "contract": [B3, B3, R4], "wild_rank": None},
                {"dealt": 11, "contract": [B3, R4, R4], "wild_rank": None},
                {"dealt": 11, "contract": [R4, R4, R4], "wild_rank": None},
            ],
            "contract_sizes": "minimum",
            "points": {"JK": 25},
            "table": {"runs_may_join": True, "wild_swap": "none", "buys": {"limit": 3, "not_twice_in_row": False}},
        },
    },
}

VARIANT_ENTRIES: dict[str, dict[str, Any]] = {
    "wild-swap": {
        "name": N_("Wild swap"),
        "effect": N_(
            "On their turn a player holding the natural card a played wild stands for may put it in and take the wild."
        ),
        "change": {"table": {"wild_swap": "any_wild"}},
    },
    "open-turn-layoff": {
        "name": N_("Lay off on the opening turn"),
        "effect": N_("Laying off is allowed on the turn the contract is laid down."),
        "change": {"table": {"layoff_on_opening_turn": True}},
    },
    "single-deck": {
        "name": N_("Single deck"),
        "effect": N_("One pack and 2 jokers (54 cards) for 2-3 players; rounds 1-5 only."),
        "change": {"players": {"min": 2, "max": 3}, "deck": {"packs": 1, "jokers": 2}, "rounds": {"first": 5}},
        "excludes": ["third-deck"],
    },
    "third-deck": {
        "name": N_("Third deck"),
        "effect": N_("Three packs and 6 jokers (162 cards), so the stock lasts at a table of 6."),
        "change": {"deck": {"packs": 3, "jokers": 6}},
        "excludes": ["single-deck"],
    },
    "fixed-twos": {
        "name": N_("Twos wild"),
        "effect": N_("Twos are wild in every round instead of the rising rank, and score 20."),
        "change": {"rounds": {"each": {"wild_rank": "2"}}},
        "excludes": ["kings-wild"],
    },
    "kings-wild": {
        "name": N_("Kings wild"),
        "effect": N_("Kings are wild in every round instead of the rising rank, and score 20."),
        "change": {"rounds": {"each": {"wild_rank": "K"}}},
        "excludes": ["fixed-twos"],
    },
    "buy-discard": {
        "name": N_("Buy the discard"),
        "effect": N_(
            "Out of turn a player may buy the top discard with one penalty card from the stock; "
            "at most 3 buys per player per round."
        ),
        "change": {"table": {"buys": {"allowed": True, "limit": 3, "not_twice_in_row": False, "name": "buy"}}},
    },
    "free-meld": {
        "name": N_("Free meld"),
        "effect": N_("The first meld may be longer than the contract, and same-suit sequences may join up."),
        "change": {"contract_sizes": "minimum", "table": {"runs_may_join": True}},
    },
    "more-players": {
        "name": N_("More players"),
        "effect": N_("6-8 players: 3 packs for 6, 4 packs for 7-8, jokers one fewer than the players."),
        "change": {
            "players": {"max": 8},
            "deck": [
                {"players": [n], "packs": 2 if n <= 5 else 3 if n == 6 else 4, "jokers": n - 1} for n in range(3, 9)
            ],
        },
    },
}
