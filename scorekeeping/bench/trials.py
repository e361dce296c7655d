"""What a stranger can ask of the referee, made and mutated for the worst-case search
(``bench.worst``): a house document within every limit the reader keeps, a round of it, what is
asked (a layout checked, a hand solved, a layoff, a swap) and the cards; the cases that once held
a core, and the built-in rulesets, to start from."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.engine import (
    JOKER,
    Rules,
)
from referee.engine.cards import DECK, rank_text
from referee.engine.cards import RANKS as RANK_NUMBERS
from referee.engine.catalogue import RULESET_ENTRIES
from referee.engine.checks import hand_capacity
from referee.engine.documents import DocumentError, builtin_document, rules_from_document

# What is tried: a layout checked (open, go out), a hand solved ("Can I open?", "Can I go out?"),
# a layoff or a swap checked.
CHECKS = ("open", "go_out", "layoff", "swap")


SOLVES = ("solve_open", "solve_go_out")


RANKS = tuple(rank_text(rank) for rank in RANK_NUMBERS)


SUIT_LETTERS = ("C", "D", "H", "S")


def _meld(size: int, kind: str) -> dict[str, Any]:
    return {"meld": kind, "size": size}


# The cases the issue found holding a core (38 s, 25 s, 15 s and 69 s before the budget), as
# documents and inputs: the tests keep them as fixed examples.
CORE_CASES: dict[str, tuple[dict[str, Any], str, list[str]]] = {
    "joins: two runs that join and three all-wild melds": (
        {
            "based_on": "contract",
            "name": "Joins",
            "players": {"min": 3, "max": 5},
            "deck": {"packs": 4, "jokers": 12},
            "wilds": {"ranks": ["2", "3", "4", "5"], "natural": False},
            "rounds": [{"dealt": 20, "contract": [_meld(4, "run")] * 5, "wild_rank": None}],
        },
        "open",
        ["6H 7H 8H 9H", "10H JH QH KH", "2C 3C 4C 5C", "2D 3D 4D 5D", "JK JK JK JK"],
    ),
    "joins with runs of 3, ace around": (
        {
            "based_on": "contract",
            "name": "Joins around",
            "players": {"min": 3, "max": 5},
            "deck": {"packs": 4, "jokers": 12},
            "wilds": {"ranks": ["2", "3", "4", "5"], "natural": False},
            "runs": {"min": 3, "ace": "around"},
            "rounds": [{"dealt": 20, "contract": [_meld(3, "run")] * 5, "wild_rank": None}],
        },
        "open",
        ["6H 7H 8H", "9H 10H JH", "2C 3C 4C", "2D 3D 4D", "JK JK JK"],
    ),
    "Can I open? books of 3 to 7, two naturals each, 38 cards": (
        {
            "based_on": "contract",
            "name": "Books",
            "players": {"min": 3, "max": 5},
            "deck": {"packs": 4, "jokers": 12},
            "naturals": {"per_meld": 2},
            "table": {"buys": {"limit": 10}},
            "rounds": [{"dealt": 20, "contract": [_meld(n, "book") for n in (3, 4, 5, 6, 7)], "wild_rank": None}],
        },
        "solve_open",
        [
            "AC AD 2C 2H 3D 3S 4C 4H 5D 5S 6C 6H 7D 7S 8C 8H 9D 9S 10C 10H JD JS QC QH KD KS "
            "AH 2S 3C 4D 5H 6S JK JK JK JK JK JK"
        ],
    ),
    "Can I go out? runs 3, 3, 3, 3, 4 with twos and threes wild": (
        {
            "based_on": "contract",
            "name": "Go out",
            "players": {"min": 3, "max": 5},
            "deck": {"packs": 4, "jokers": 12},
            "runs": {"min": 3},
            "wilds": {"ranks": ["2", "3"]},
            "table": {"buys": {"limit": 4}},
            "rounds": [
                {"dealt": 15, "contract": [*[_meld(3, "run")] * 4, _meld(4, "run")], "wild_rank": None, "final": True}
            ],
        },
        "solve_go_out",
        ["AC 4C 6C 8C 10C QC AD 4D 6D 9D JD KD 5H 7H 9H JH 4S 6S 8S 10S KS 2C 3D 2H"],
    ),
}


@dataclass(frozen=True)
class Trial:
    """One request a stranger could make: a house document, a round of it, what is asked, and the
    cards (a layout's melds; a hand; a target and the cards put to it)."""

    document: dict[str, Any] = field(hash=False, compare=False)
    number: int
    action: str
    cards: tuple[str, ...]

    @property
    def key(self) -> str:
        return json.dumps([self.document, self.number, self.action, self.cards], sort_keys=True)


_RULES: dict[str, Rules] = {}


def rules_of(document: dict[str, Any]) -> Rules:
    key = json.dumps(document, sort_keys=True)
    if key not in _RULES:
        if len(_RULES) > 4096:
            _RULES.clear()
        _RULES[key] = rules_from_document(document, slug="worst")
    return _RULES[key]


# --- the space a stranger controls -----------------------------------------------------------


def _pool(rules: Rules) -> list[str]:
    """Every card the largest table of the ruleset holds, each copy once, as text."""
    deck = rules.largest_deck
    return [str(c) for c in [*DECK * deck.packs, *[JOKER] * deck.jokers]]


def random_document(rng: random.Random) -> dict[str, Any]:
    """A house document within every limit the reader keeps (it may still be refused as a whole)."""
    base = rng.choice(list(RULESET_ENTRIES))
    doc: dict[str, Any] = {"based_on": base, "name": "Worst"}
    for _ in range(rng.randint(1, 6)):
        _mutate_document(doc, rng)
    return doc


def _mutate_document(doc: dict[str, Any], rng: random.Random) -> None:
    """Change one knob of ``doc`` to a random value the reader allows on its own."""
    knob = rng.randrange(14)
    if knob == 0:
        doc["wilds"] = {
            "ranks": rng.sample(RANKS, rng.randint(0, 4)),
            "natural": rng.random() < 0.5,
            "jokers": True,
        }
    elif knob == 1:
        doc["deck"] = {"packs": rng.randint(1, 4), "jokers": rng.randint(0, 12)}
    elif knob == 2:
        doc["books"] = {"min": rng.randint(3, 5), "suits": rng.choice(["any", "any", "distinct"])}
    elif knob == 3:
        doc["runs"] = {"min": rng.randint(3, 5), "ace": rng.choice(["low", "high", "either", "around"])}
    elif knob == 4:
        doc["naturals"] = {
            "per_meld": rng.randint(0, 2),
            "wilds": rng.choice(["any", "not_more"]),
            "adjacent_wilds": rng.random() < 0.5,
        }
    elif knob == 5:
        doc.setdefault("table", {})["runs_may_join"] = rng.random() < 0.5
    elif knob == 6:
        doc["contract_sizes"] = rng.choice(["minimum", "exact"])
    elif knob == 7:
        doc.setdefault("table", {})["buys"] = {"allowed": True, "limit": rng.randint(1, 10)}
    elif knob == 8:
        doc["players"] = {"min": 2, "max": rng.randint(2, 4)}
    else:
        rounds = copy.deepcopy(doc.get("rounds") or builtin_document(doc["based_on"])["rounds"])
        index = rng.randrange(len(rounds))
        rnd = rounds[index]
        if knob == 9:
            rnd["dealt"] = rng.randint(6, 20)
        elif knob == 10:
            rnd["contract"] = [
                _meld(rng.randint(3, 7), "book") if rng.random() < 0.4 else _meld(rng.randint(3, 7), "run")
                for _ in range(rng.randint(1, 5))
            ]
        elif knob == 11:
            rnd["wild_rank"] = rng.choice([None, *RANKS])
        elif knob == 12:
            rnd["final"] = not rnd.get("final", False)
        else:
            rounds = [rnd]
        doc["rounds"] = rounds


def _fits(trial: Trial) -> bool:
    """Whether the trial is one the engine answers (the document is read, the cards are held)."""
    try:
        rules = rules_of(trial.document)
    except DocumentError:
        return False
    if not 1 <= trial.number <= len(rules.rounds):
        return False
    pool = Counter(_pool(rules))
    held = Counter(c.split("=")[0] for part in trial.cards for c in part.split())
    return all(n <= pool[c] for c, n in held.items())


def random_cards(rules: Rules, number: int, action: str, rng: random.Random) -> tuple[str, ...]:
    pool = _pool(rules)
    rnd = rules.round(number)
    most = hand_capacity(rules, number)
    if action in ("solve_open", "solve_go_out"):
        size = rnd.dealt + 1 + 2 * rng.randint(0, max(0, (most - rnd.dealt - 1) // 2))
        return (" ".join(rng.sample(pool, min(size, len(pool)))),)
    if action in ("layoff", "swap"):
        cards = rng.sample(pool, rng.randint(4, 9))
        return (" ".join(cards[:-1]), cards[-1]) if action == "swap" else (" ".join(cards[:4]), " ".join(cards[4:]))
    cards = rng.sample(pool, min(len(pool), rng.randint(3, most)))
    melds = max(1, len(rnd.contract) + rng.randint(-1, 1))
    parts = [cards[i::melds] for i in range(melds)]
    return tuple(" ".join(p) for p in parts if p)


def _mutate_cards(trial: Trial, rng: random.Random) -> tuple[str, ...]:
    rules = rules_of(trial.document)
    pool = _pool(rules)
    parts = [p.split() for p in trial.cards]
    move = rng.randrange(6)
    i = rng.randrange(len(parts))
    if move <= 1 or not parts[i]:  # a card swapped for another the packs hold
        if parts[i]:
            parts[i][rng.randrange(len(parts[i]))] = rng.choice(pool)
    elif move == 2:  # a card added
        parts[i].append(rng.choice(pool))
    elif move == 3 and len(parts[i]) > 1:  # a card taken away
        parts[i].pop(rng.randrange(len(parts[i])))
    elif move == 4 and len(parts) > 1:  # a card moved to another meld
        j = rng.randrange(len(parts))
        if parts[i] and i != j:
            parts[j].append(parts[i].pop(rng.randrange(len(parts[i]))))
    elif trial.action not in SOLVES:  # a wild declared (or a declaration dropped)
        k = rng.randrange(len(parts[i]))
        card = parts[i][k].split("=")[0]
        parts[i][k] = card if "=" in parts[i][k] else f"{card}={rng.choice(RANKS)}{rng.choice(SUIT_LETTERS)}"
    if trial.action not in ("open", "go_out") and not all(parts):
        return trial.cards  # a hand, a target and the cards put to it are never empty
    return tuple(" ".join(p) for p in parts if p)


def mutated(trial: Trial, rng: random.Random) -> Trial | None:
    """A neighbour of ``trial``: one knob of its document or one card of its input changed."""
    if rng.random() < 0.3:
        doc = copy.deepcopy(trial.document)
        _mutate_document(doc, rng)
        try:
            rules = rules_of(doc)
        except DocumentError:
            return None
        number = min(trial.number, len(rules.rounds))
        new = Trial(doc, number, trial.action, trial.cards)
        if not _fits(new):
            new = replace(new, cards=random_cards(rules, number, trial.action, rng))
    else:
        new = replace(trial, cards=_mutate_cards(trial, rng))
    return new if _fits(new) else None


def starts(actions: Sequence[str], rng: random.Random, count: int) -> list[Trial]:
    """Where the climb starts: the core cases, then the built-ins and random documents with random cards."""
    found = [Trial(doc, 1, action, tuple(cards)) for doc, action, cards in CORE_CASES.values() if action in actions]
    while len(found) < count:
        doc = random_document(rng) if rng.random() < 0.6 else {"based_on": rng.choice(list(RULESET_ENTRIES))}
        try:
            rules = rules_of(doc)
        except DocumentError:
            continue
        action = rng.choice(list(actions))
        number = rng.randint(1, len(rules.rounds))
        trial = Trial(doc, number, action, random_cards(rules, number, action, rng))
        if _fits(trial):
            found.append(trial)
    return found
