"""A ruleset as a document (issue 37): the shape a table's house rules are written in, read into
``Rules`` and checked when it is read, and every built-in ruleset (with its variants) written in
it. ``rules_from_document(document_of(rules))`` plays as ``rules`` does.

The document (JSON; every key optional with ``based_on``, which fills what is left out)::

    {"name": "Grandma's May I", "based_on": "contract",
     "players": {"min": 3, "max": 8},
     "deck": {"packs": 2, "jokers": 4}  or  [{"players": [3, 4], "packs": 2, "jokers": 2}, ...],
     "rounds": [{"dealt": 11, "contract": [{"meld": "book", "size": 3}], "wild_rank": "3",
                 "final": false}, ...],
     "contract_sizes": "minimum" | "exact",
     "wilds": {"jokers": true, "ranks": [], "natural": true},
     "books": {"min": 3, "suits": "any"},
     "runs": {"min": 4, "ace": "either"},
     "naturals": {"per_meld": 0, "wilds": "any", "adjacent_wilds": true},
     "points": {"A": 15, "2": 5, ..., "10": 10, "J": 10, "Q": 10, "K": 10, "JK": 20, "wild": 20},
     "going_out": {"discard": true},
     "lowest_wins": true,
     "table": {"runs_may_join": true, "layoff_on_opening_turn": false,
               "wild_swap": "none" | "any_wild" | "joker_in_run",
               "buys": {"allowed": false, "limit": null, "not_twice_in_row": false, "name": "buy"},
               "tie_break": "round_wins" | "shared", "cut_bonus": 0},
     "words": {"round": "round" | "deal", "book": "book" | "group", "run": "run" | "sequence"}}

A round's ``final`` marks a round won only by laying the whole hand down at once, with no
discard (Mexican round 7). Knobs of the shape this referee does not play yet (a fixed wild rank
beside the round's, wilds that cannot stand for themselves, books of distinct suits, runs round
the ace, limits on wilds in a meld, points by rank beyond the table's five kinds, going out
without a discard, the highest total winning) are refused in words, naming the key, until the
meld reader and the solver play them. Unknown keys are refused by name; every number is bounded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .cards import rank_text
from .rulesets import (
    ROUND_WORDS,
    RULESETS,
    Buys,
    Component,
    Deck,
    Kind,
    Penalties,
    Round,
    Rules,
    SwapPolicy,
    TieBreak,
)

MAX_PLAYERS = 10
MAX_ROUNDS = 20
MAX_DEALT = 20
MAX_PACKS = 4
MAX_JOKERS = 12
MAX_POINTS = 100
MAX_NAME = 60
MAX_FAULTS = 25
BOOK_WORDS = ("book", "group")  # what a ruleset may call a book, and a run (the catalogues hold these)
RUN_WORDS = ("run", "sequence")
BUY_NAMES = ("buy", "May I?")  # the words the catalogues hold for a buy
RANK_KEYS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_OF = {text: number for number, text in enumerate(RANK_KEYS, start=1)}
TOP_KEYS = frozenset(
    (
        "name",
        "based_on",
        "players",
        "deck",
        "rounds",
        "contract_sizes",
        "wilds",
        "books",
        "runs",
        "naturals",
        "points",
        "going_out",
        "lowest_wins",
        "table",
        "words",
    )
)


class DocumentError(ValueError):
    """Why a document is no ruleset: each fault as ``(key, why)``, at most ``MAX_FAULTS``."""

    def __init__(self, faults: Sequence[tuple[str, str]]) -> None:
        self.faults = list(faults)[:MAX_FAULTS]
        super().__init__("; ".join(f"{key}: {why}" for key, why in self.faults))


# --- writing a ruleset ---------------------------------------------------------------------


def _decks(rules: Rules) -> Any:
    groups: list[dict[str, Any]] = []
    for players in range(rules.min_players, rules.max_players + 1):
        deck = rules.deck_for(players)
        if groups and (groups[-1]["packs"], groups[-1]["jokers"]) == (deck.packs, deck.jokers):
            groups[-1]["players"].append(players)
        else:
            groups.append({"players": [players], "packs": deck.packs, "jokers": deck.jokers})
    if len(groups) == 1:
        return {"packs": groups[0]["packs"], "jokers": groups[0]["jokers"]}
    return groups


def _points(penalties: Penalties) -> dict[str, int | None]:
    found: dict[str, int | None] = {"A": penalties.ace}
    for rank in range(2, 10):
        found[str(rank)] = rank if penalties.number is None else penalties.number
    for key in ("10", "J", "Q", "K"):
        found[key] = penalties.ten_to_king
    found["JK"] = penalties.joker
    found["wild"] = penalties.wild
    return found


def document_of(rules: Rules) -> dict[str, Any]:
    """``rules`` (a built-in with its variants, or read from a document) as a document."""
    return {
        "name": rules.name,
        "players": {"min": rules.min_players, "max": rules.max_players},
        "deck": _decks(rules),
        "rounds": [
            {
                "dealt": rnd.dealt,
                "contract": [{"meld": c.kind.value, "size": c.length} for c in rnd.contract],
                "wild_rank": rank_text(wild) if wild is not None else None,
                "final": rnd.final,
            }
            for rnd, wild in zip(rules.rounds, rules.wild_ranks, strict=True)
        ],
        "contract_sizes": "exact" if rules.exact_opening else "minimum",
        "wilds": {"jokers": True, "ranks": [], "natural": True},
        "books": {"min": 3, "suits": "any"},
        "runs": {"min": 4, "ace": "either"},
        "naturals": {"per_meld": 0, "wilds": "any", "adjacent_wilds": True},
        "points": _points(rules.penalties),
        "going_out": {"discard": True},
        "lowest_wins": True,
        "table": {
            "runs_may_join": rules.runs_may_join,
            "layoff_on_opening_turn": rules.layoff_on_opening_turn,
            "wild_swap": rules.swap.value,
            "buys": {
                "allowed": rules.buys.allowed,
                "limit": rules.buys.limit,
                "not_twice_in_row": rules.buys.not_twice_in_row,
                "name": rules.buys.name,
            },
            "tie_break": rules.tie_break.value,
            "cut_bonus": rules.cut_bonus,
        },
        "words": {"round": rules.round_word, "book": rules.book_word, "run": rules.run_word},
    }


# --- reading a document --------------------------------------------------------------------


@dataclass
class _Reader:
    faults: list[tuple[str, str]]

    def fault(self, key: str, why: str) -> None:
        if len(self.faults) < MAX_FAULTS:
            self.faults.append((key, why))

    def table(self, value: object, key: str, keys: Sequence[str]) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            self.fault(key, "must be an object")
            return {}
        for unknown in sorted(str(k)[:40] for k in value if k not in keys)[:5]:
            self.fault(f"{key}.{unknown}", f"is no key here (known: {', '.join(keys)})")
        return {k: v for k, v in value.items() if k in keys}

    def number(self, value: object, key: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fault(key, f"must be a whole number from {low} to {high}, not {str(value)[:20]}")
            return low
        return value

    def choice(self, value: object, key: str, choices: Sequence[object]) -> Any:
        if value not in choices:
            self.fault(key, f"must be one of {', '.join(str(c) for c in choices)}, not {str(value)[:20]}")
            return choices[0]
        return value

    def only(self, value: object, key: str, played: object, what: str) -> None:
        """A knob this referee plays one way only (so far): any other value is refused in words."""
        if value != played:
            self.fault(key, f"{str(value)[:20]} is not played by this referee yet ({what})")


def _merged(document: Mapping[str, Any], reader: _Reader) -> dict[str, Any]:
    based = document.get("based_on")
    if based is None:
        return dict(document)
    if based not in RULESETS:
        reader.fault("based_on", f"must be one of {', '.join(RULESETS)}, not {str(based)[:20]}")
        return dict(document)
    base = document_of(RULESETS[based])
    return {**base, **{k: v for k, v in document.items() if k != "based_on"}}


def rules_from_document(document: object, *, slug: str) -> Rules:
    """The ``Rules`` a document describes, checked whole: ``DocumentError`` with every fault."""
    reader = _Reader([])
    doc = reader.table(document, "document", sorted(TOP_KEYS))
    doc = _merged(doc, reader)
    missing = sorted(TOP_KEYS - {"based_on"} - set(doc))
    for key in missing:
        reader.fault(key, "is missing (or give based_on)")
    if missing:
        raise DocumentError(reader.faults)
    name = doc["name"]
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
        reader.fault("name", f"must be 1 to {MAX_NAME} characters")
        name = "?"
    players = reader.table(doc["players"], "players", ("min", "max"))
    low = reader.number(players.get("min"), "players.min", 2, MAX_PLAYERS)
    high = reader.number(players.get("max"), "players.max", 2, MAX_PLAYERS)
    if high < low:
        reader.fault("players", f"max ({high}) is below min ({low})")
        high = low
    deck_for = _read_decks(reader, doc["deck"], low, high)
    rounds, wild_ranks = _read_rounds(reader, doc["rounds"])
    exact = reader.choice(doc["contract_sizes"], "contract_sizes", ("minimum", "exact")) == "exact"
    wilds = reader.table(doc["wilds"], "wilds", ("jokers", "ranks", "natural"))
    reader.only(wilds.get("jokers"), "wilds.jokers", True, "jokers are always wild")
    reader.only(wilds.get("ranks"), "wilds.ranks", [], "give the wild rank round by round instead")
    reader.only(wilds.get("natural"), "wilds.natural", True, "a card of the wild rank may stand for itself")
    books = reader.table(doc["books"], "books", ("min", "suits"))
    reader.only(books.get("min"), "books.min", 3, "a book holds 3 cards or more")
    reader.only(books.get("suits"), "books.suits", "any", "a book's suits may repeat")
    runs = reader.table(doc["runs"], "runs", ("min", "ace"))
    reader.only(runs.get("min"), "runs.min", 4, "a run holds 4 cards or more")
    reader.only(runs.get("ace"), "runs.ace", "either", "an ace is low or high, never round the corner")
    naturals = reader.table(doc["naturals"], "naturals", ("per_meld", "wilds", "adjacent_wilds"))
    reader.only(naturals.get("per_meld"), "naturals.per_meld", 0, "a meld needs no natural card")
    reader.only(naturals.get("wilds"), "naturals.wilds", "any", "a meld may hold any number of wilds")
    reader.only(naturals.get("adjacent_wilds"), "naturals.adjacent_wilds", True, "wilds may sit side by side")
    penalties = _read_points(reader, doc["points"])
    going_out = reader.table(doc["going_out"], "going_out", ("discard",))
    reader.only(going_out.get("discard"), "going_out.discard", True, "a round marked final goes out without one")
    reader.only(doc["lowest_wins"], "lowest_wins", True, "the lowest total wins")
    table = reader.table(
        doc["table"],
        "table",
        ("runs_may_join", "layoff_on_opening_turn", "wild_swap", "buys", "tie_break", "cut_bonus"),
    )
    join = reader.choice(table.get("runs_may_join"), "table.runs_may_join", (True, False))
    layoff = reader.choice(table.get("layoff_on_opening_turn"), "table.layoff_on_opening_turn", (False, True))
    swap = SwapPolicy(reader.choice(table.get("wild_swap"), "table.wild_swap", [p.value for p in SwapPolicy]))
    buys = _read_buys(reader, table.get("buys"))
    tie = TieBreak(reader.choice(table.get("tie_break"), "table.tie_break", [t.value for t in TieBreak]))
    bonus = reader.number(table.get("cut_bonus"), "table.cut_bonus", 0, MAX_POINTS)
    words = reader.table(doc["words"], "words", ("round", "book", "run"))
    round_word = reader.choice(words.get("round"), "words.round", ROUND_WORDS)
    book_word = reader.choice(words.get("book"), "words.book", BOOK_WORDS)
    run_word = reader.choice(words.get("run"), "words.run", RUN_WORDS)
    if not reader.faults:
        _check_play(reader, rounds, deck_for, low, high, buys)
    if reader.faults:
        raise DocumentError(reader.faults)
    return Rules(
        slug=slug,
        name=name.strip(),
        source="",
        variants=(),
        min_players=low,
        max_players=high,
        deck_for=deck_for,
        rounds=rounds,
        wild_ranks=wild_ranks,
        penalties=penalties,
        exact_opening=exact,
        runs_may_join=join,
        layoff_on_opening_turn=layoff,
        swap=swap,
        buys=buys,
        tie_break=tie,
        cut_bonus=bonus,
        round_word=round_word,
        book_word=book_word,
        run_word=run_word,
    )


def _read_decks(reader: _Reader, value: object, low: int, high: int) -> Callable[[int], Deck]:
    def one(item: object, key: str) -> tuple[list[int] | None, Deck]:
        keys = ("players", "packs", "jokers") if isinstance(value, list) else ("packs", "jokers")
        table = reader.table(item, key, keys)
        deck = Deck(
            reader.number(table.get("packs"), f"{key}.packs", 1, MAX_PACKS),
            reader.number(table.get("jokers"), f"{key}.jokers", 0, MAX_JOKERS),
        )
        counts = table.get("players") if isinstance(value, list) else None
        if isinstance(value, list) and (
            not isinstance(counts, list) or not all(isinstance(n, int) and not isinstance(n, bool) for n in counts)
        ):
            reader.fault(f"{key}.players", "must be a list of player counts")
            counts = []
        return counts, deck

    if isinstance(value, list):
        by_count: dict[int, Deck] = {}
        for index, item in enumerate(value[: MAX_PLAYERS + 1]):
            counts, deck = one(item, f"deck.{index}")
            for n in counts or []:
                if n in by_count:
                    reader.fault(f"deck.{index}.players", f"{n} players have a deck already")
                by_count[n] = deck
        for n in range(low, high + 1):
            if n not in by_count:
                reader.fault("deck", f"no deck for {n} players")
        table = {n: by_count.get(n, Deck(2, 4)) for n in range(low, high + 1)}
        return lambda players: table[players]
    _counts, deck = one(value, "deck")
    return lambda players: deck


def _read_rounds(reader: _Reader, value: object) -> tuple[tuple[Round, ...], tuple[int | None, ...]]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_ROUNDS:
        reader.fault("rounds", f"must be a list of 1 to {MAX_ROUNDS} rounds")
        return (Round(1, 7, (Component(Kind.BOOK, 3),)),), (None,)
    rounds, wilds = [], []
    for index, item in enumerate(value, start=1):
        key = f"rounds.{index}"
        table = reader.table(item, key, ("dealt", "contract", "wild_rank", "final"))
        dealt = reader.number(table.get("dealt"), f"{key}.dealt", 1, MAX_DEALT)
        contract = []
        parts = table.get("contract")
        if not isinstance(parts, list) or not 1 <= len(parts) <= 5:
            reader.fault(f"{key}.contract", "must be a list of 1 to 5 melds")
            parts = []
        for n, part in enumerate(parts, start=1):
            meld = reader.table(part, f"{key}.contract.{n}", ("meld", "size"))
            kind = Kind(reader.choice(meld.get("meld"), f"{key}.contract.{n}.meld", ("book", "run")))
            least, most = (3, 8) if kind is Kind.BOOK else (4, 13)
            size = reader.number(meld.get("size"), f"{key}.contract.{n}.size", least, most)
            contract.append(Component(kind, size))
        wild = table.get("wild_rank")
        if wild is not None and wild not in RANK_OF:
            reader.fault(f"{key}.wild_rank", f"must be a rank ({', '.join(RANK_KEYS)}) or null, not {str(wild)[:20]}")
            wild = None
        final = reader.choice(table.get("final", False), f"{key}.final", (False, True))
        rounds.append(Round(index, dealt, tuple(contract), final=final))
        wilds.append(RANK_OF[wild] if wild is not None else None)
    return tuple(rounds), tuple(wilds)


def _read_points(reader: _Reader, value: object) -> Penalties:
    table = reader.table(value, "points", (*RANK_KEYS, "JK", "wild"))
    got = {k: reader.number(table.get(k), f"points.{k}", 0, MAX_POINTS) for k in (*RANK_KEYS, "JK")}
    wild = table.get("wild")
    if wild is not None:
        wild = reader.number(wild, "points.wild", 0, MAX_POINTS)
    numbers = [got[str(r)] for r in range(2, 10)]
    face = numbers == list(range(2, 10))
    if not face and len(set(numbers)) > 1:
        reader.fault("points", "2 to 9 score their face value or one value for all, as this referee plays so far")
    courts = {got[k] for k in ("10", "J", "Q", "K")}
    if len(courts) > 1:
        reader.fault("points", "10, J, Q and K score one value, as this referee plays so far")
    return Penalties(
        joker=got["JK"], wild=wild, ace=got["A"], ten_to_king=got["K"], number=None if face else numbers[0]
    )


def _read_buys(reader: _Reader, value: object) -> Buys:
    table = reader.table(value, "table.buys", ("allowed", "limit", "not_twice_in_row", "name"))
    allowed = reader.choice(table.get("allowed"), "table.buys.allowed", (False, True))
    limit = table.get("limit")
    if limit is not None:
        limit = reader.number(limit, "table.buys.limit", 1, 10)
    twice = reader.choice(table.get("not_twice_in_row"), "table.buys.not_twice_in_row", (False, True))
    name = reader.choice(table.get("name", BUY_NAMES[0]), "table.buys.name", BUY_NAMES)
    return Buys(allowed=allowed, limit=limit, not_twice_in_row=twice, name=name)


def _check_play(
    reader: _Reader, rounds: Sequence[Round], deck_for: Callable[[int], Deck], low: int, high: int, buys: Buys
) -> None:
    """What no table can play: a contract needing more cards than a hand can hold (those dealt,
    the one drawn, and two a buy where buys are allowed: the discard and its penalty card), a
    deck too small for the players, the deal and the upcard."""
    for rnd in rounds:
        need = sum(c.length for c in rnd.contract)
        bought = 2 * (buys.limit or 0) if buys.allowed else 0
        most = None if buys.allowed and buys.limit is None else rnd.dealt + 1 + bought
        if most is not None and need > most:
            reader.fault(f"rounds.{rnd.number}", f"the contract needs {need} cards; a hand holds at most {most}")
        for players in (low, high):
            deck = deck_for(players)
            if players * rnd.dealt + 1 > deck.size:
                reader.fault(
                    f"rounds.{rnd.number}",
                    f"{players} players of {rnd.dealt} cards and the upcard need {players * rnd.dealt + 1} cards;"
                    f" the deck holds {deck.size}",
                )


def same_play(first: Rules, second: Rules) -> bool:
    """Whether two ``Rules`` play alike (all but their slug, name, source and variants)."""
    counts = range(first.min_players, first.max_players + 1)
    return replace(first, slug="", name="", source="", variants=()) == replace(
        second, slug="", name="", source="", variants=()
    ) and [first.deck_for(n) for n in counts] == [second.deck_for(n) for n in counts]
