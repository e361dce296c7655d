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
     "wilds": {"jokers": true, "ranks": ["2"], "natural": true},
     "books": {"min": 3, "suits": "any" | "distinct"},
     "runs": {"min": 4, "ace": "low" | "high" | "either" | "around"},
     "naturals": {"per_meld": 0 | 1 | 2, "wilds": "any" | "not_more", "adjacent_wilds": true},
     "points": {"A": 15, "2": 5, ..., "10": 10, "J": 10, "Q": 10, "K": 10, "JK": 20, "wild": 20},
     "going_out": {"discard": true},
     "lowest_wins": true,
     "table": {"runs_may_join": true, "layoff_on_opening_turn": false,
               "wild_swap": "none" | "any_wild" | "joker_in_run",
               "buys": {"allowed": false, "limit": null, "not_twice_in_row": false, "name": "buy"},
               "tie_break": "round_wins" | "shared", "cut_bonus": 0},
     "words": {"round": "round" | "deal", "book": "book" | "group", "run": "run" | "sequence"}}

A round's ``final`` marks a round won only by laying the whole hand down at once, with no
discard (Mexican round 7). With ``based_on`` the document is laid over the built-in's own
document deeply: an object given changes only the keys it names, a list given replaces the
list. Unknown keys are refused by name; every number is bounded; every fault is said in the
engine's words (translatable), naming its key, all at once (at most ``MAX_FAULTS``). Faults of a
combination (a contract meld below ``books.min``, a deck too small for the deal, jokers in a deck
where they are not wild...) are said once every value on its own is valid. A round's
``wild_rank`` that is also in ``wilds.ranks`` is accepted as it is (it changes nothing).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import RANKS, rank_text
from .catalogue import RULESET_ENTRIES
from .i18n import _
from .knobs import KNOB, KNOBS, MAX_PLAYERS, MAX_POINTS, TABLE_KEYS
from .patches import merged
from .rules import (
    BookPolicy,
    Buys,
    Component,
    Deck,
    Kind,
    NaturalPolicy,
    Penalties,
    Round,
    Rules,
    RunPolicy,
    WildPolicy,
)

MAX_ROUNDS = 20
MAX_DEALT = 20
MAX_PACKS = 4
MAX_JOKERS = 12
MAX_NAME = 60
MAX_FAULTS = 25
DISTINCT_BOOK = 4  # a book of distinct suits: one card of each suit at most
MAX_CONTRACT_MELDS = 5  # melds in one round's contract
RANK_KEYS = tuple(rank_text(rank) for rank in RANKS)  # a document writes a rank as a card does: A, 2-10, J, Q, K
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
    if penalties.by_rank is not None:
        by_rank: dict[str, int | None] = dict(zip(RANK_KEYS, penalties.by_rank, strict=True))
        return {**by_rank, "JK": penalties.joker, "wild": penalties.wild}
    found: dict[str, int | None] = {"A": penalties.ace}
    for rank in range(2, 10):
        found[str(rank)] = rank if penalties.number is None else penalties.number
    for key in ("10", "J", "Q", "K"):
        found[key] = penalties.ten_to_king
    found["JK"] = penalties.joker
    found["wild"] = penalties.wild
    return found


def _rule_of(rules: Rules, path: str) -> Any:
    """The engine's value at ``path`` ("runs.least": ``rules.runs.least``)."""
    value: Any = rules
    for name in path.split("."):
        value = getattr(value, name)
    return value


def document_of(rules: Rules) -> dict[str, Any]:
    """``rules`` (a built-in with its variants, or read from a document) as a document: the name,
    the deck, the rounds and the points written here, every other knob from its declaration
    (``knobs.KNOBS``), at its key's place, in the table's order."""
    document: dict[str, Any] = {
        "name": rules.name,
        "players": {},
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
    }
    own = {"wilds.ranks": [rank_text(r) for r in rules.wilds.ranks], "points": _points(rules.penalties)}
    for knob in KNOBS:
        *tables, last = knob.key.split(".")
        place = document
        for name in tables:
            place = place.setdefault(name, {})
        place[last] = own[knob.key] if knob.key in own else knob.document_value(_rule_of(rules, knob.rule))
    return document


# --- reading a document --------------------------------------------------------------------


@dataclass
class _Reader:
    faults: list[tuple[str, str]]

    def fault(self, key: str, why: str) -> None:
        if len(self.faults) < MAX_FAULTS:
            self.faults.append((key, why))

    def table(self, value: object, key: str, keys: Sequence[str]) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            self.fault(key, _("must be an object"))
            return {}
        for unknown in sorted(str(k)[:40] for k in value if k not in keys)[:5]:
            self.fault(f"{key}.{unknown}", _("is not a key here (known: {keys})").format(keys=", ".join(keys)))
        return {k: v for k, v in value.items() if k in keys}

    def number(self, value: object, key: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            message = _("must be a whole number from {low} to {high}, not {value}")
            self.fault(key, message.format(low=low, high=high, value=_short(value)))
            return low
        return value

    def knob(self, value: object, key: str) -> Any:
        """``value`` read as the knob of ``key`` holds it (``knobs.KNOBS``: its bounds, or its values)."""
        knob = KNOB[key]
        if knob.low is not None and knob.high is not None:
            return self.number(value, key, knob.low, knob.high)
        return self.choice(value, key, knob.values)

    def choice(self, value: object, key: str, choices: Sequence[object]) -> Any:
        if value not in choices or isinstance(value, bool) != isinstance(choices[0], bool):
            message = _("must be one of {choices}, not {value}")
            self.fault(key, message.format(choices=", ".join(_text(c) for c in choices), value=_short(value)))
            return choices[0]
        return value


def _text(value: object) -> str:
    """A value as a document writes it (JSON's true, false and null)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _short(value: object) -> str:
    """A user's value quoted short."""
    return _text(value)[:20]


def builtin_document(slug: str) -> dict[str, Any]:
    """A built-in ruleset's whole document: its catalogue entry over the one it is based on."""
    document = RULESET_ENTRIES[slug]["document"]
    based = document.get("based_on")
    if based is None:
        return dict(document)
    return dict(merged(builtin_document(based), {k: v for k, v in document.items() if k != "based_on"}))


def _merged(document: Mapping[str, Any], reader: _Reader) -> dict[str, Any]:
    based = document.get("based_on")
    if based is None:
        return dict(document)
    if not isinstance(based, str) or based not in RULESET_ENTRIES:
        message = _("must be one of {choices}, not {value}")
        reader.fault("based_on", message.format(choices=", ".join(RULESET_ENTRIES), value=_short(based)))
        return {k: v for k, v in document.items() if k != "based_on"}
    return dict(merged(builtin_document(based), {k: v for k, v in document.items() if k != "based_on"}))


def rules_from_document(document: object, *, slug: str) -> Rules:
    """The ``Rules`` a document describes, checked whole: ``DocumentError`` with every fault."""
    reader = _Reader([])
    doc = reader.table(document, "document", sorted(TOP_KEYS))
    doc = _merged(doc, reader)
    missing = sorted(TOP_KEYS - {"based_on"} - set(doc))
    for key in missing:
        reader.fault(key, _("is missing (or give based_on)"))
    if missing:
        raise DocumentError(reader.faults)
    name = doc["name"]
    if isinstance(name, str):
        name = unicodedata.normalize("NFC", name).strip()
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        reader.fault("name", _("must be 1 to {most} characters").format(most=MAX_NAME))
        name = "?"
    read = _read_knobs(reader, doc)
    low, high = read["min_players"], read["max_players"]
    if high < low:
        reader.fault("players", _("max ({high}) is below min ({low})").format(high=high, low=low))
        high = read["max_players"] = low
    deck_for = _read_decks(reader, doc["deck"], low, high)
    policies = {name: kind(**read.pop(name)) for name, kind in POLICIES.items()}
    wilds, books, runs, naturals, buys = (
        policies["wilds"],
        policies["books"],
        policies["runs"],
        policies["naturals"],
        policies["buys"],
    )
    rounds, wild_ranks = _read_rounds(reader, doc["rounds"], books, runs)
    penalties = _read_points(reader, doc["points"])
    if not reader.faults:
        _check_play(reader, rounds, deck_for, low, high, buys)
        _check_knobs(reader, rounds, deck_for, low, high, wilds, books, runs, naturals)
    if reader.faults:
        raise DocumentError(reader.faults)
    return Rules(
        slug=slug,
        name=name,
        source="",
        variants=(),
        deck_for=deck_for,
        rounds=rounds,
        wild_ranks=wild_ranks,
        penalties=penalties,
        **policies,
        **read,
    )


# The policies of ``Rules`` whose fields are knobs (``rule="books.least"``): built from them.
POLICIES: dict[str, type[Any]] = {
    "wilds": WildPolicy,
    "books": BookPolicy,
    "runs": RunPolicy,
    "naturals": NaturalPolicy,
    "buys": Buys,
}
_MISSING = object()


def _read_knobs(reader: _Reader, doc: Mapping[str, Any]) -> dict[str, Any]:
    """Every knob a document holds at its key's place (``knobs.KNOBS``), checked by its
    declaration, as ``Rules`` keeps it: ``{"min_players": 3, "runs": {"least": 4, ...}, ...}``.
    Each table on the way is checked once for keys it does not know (those the knobs under it
    name, and ``wilds.ranks``, read by ``_read_wilds``)."""
    tables: dict[str, dict[str, Any]] = {}

    def table(path: str) -> dict[str, Any]:
        if path not in tables:
            *above, last = path.split(".")
            outer = table(".".join(above)) if above else doc
            tables[path] = reader.table(outer.get(last), path, TABLE_KEYS[path])
        return tables[path]

    read: dict[str, Any] = {name: {} for name in POLICIES}
    for knob in KNOBS:
        *above, last = knob.key.split(".")
        place = table(".".join(above)) if above else doc
        if knob.key == "wilds.ranks":
            read["wilds"]["ranks"] = _read_wilds(reader, place.get(last))
            continue
        if not knob.rule:
            continue
        value = place.get(last, _MISSING)
        if knob.absent and (value is _MISSING or value == knob.absent[0]):
            value = knob.absent[0]
        else:
            value = knob.engine_value(reader.knob(None if value is _MISSING else value, knob.key))
        *policy, field = knob.rule.split(".")
        (read[policy[0]] if policy else read)[field] = value
    return read


def _read_wilds(reader: _Reader, given: object) -> tuple[int, ...]:
    """``wilds.ranks``: the ranks wild in every round, each once."""
    if not isinstance(given, list) or len(given) > len(RANK_KEYS):
        reader.fault("wilds.ranks", _("must be a list of ranks ({ranks})").format(ranks=", ".join(RANK_KEYS)))
        return ()
    ranks: list[int] = []
    for index, rank in enumerate(given, start=1):
        key = f"wilds.ranks.{index}"
        if not isinstance(rank, str) or rank not in RANK_OF:
            message = _("must be a rank ({ranks}), not {value}")
            reader.fault(key, message.format(ranks=", ".join(RANK_KEYS), value=_short(rank)))
        elif RANK_OF[rank] in ranks:
            reader.fault(key, _("{rank} is listed twice").format(rank=rank))
        else:
            ranks.append(RANK_OF[rank])
    return tuple(ranks)


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
            not isinstance(counts, list)
            or len(counts) > MAX_PLAYERS
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in counts)
        ):
            reader.fault(f"{key}.players", _("must be a list of player counts"))
            counts = []
        return counts, deck

    if isinstance(value, list):
        if not 1 <= len(value) <= high - low + 1:
            message = _("must be 1 to {most} decks, one for each number of players from {low} to {high}")
            reader.fault("deck", message.format(most=high - low + 1, low=low, high=high))
        by_count: dict[int, Deck] = {}
        for index, item in enumerate(value[:MAX_PLAYERS]):
            counts, deck = one(item, f"deck.{index}")
            for n in counts or []:
                if not low <= n <= high:
                    message = _("{n} is no number of players here: players are {low} to {high}")
                    reader.fault(f"deck.{index}.players", message.format(n=_short(n), low=low, high=high))
                elif n in by_count:
                    reader.fault(f"deck.{index}.players", _("{n} players have a deck already").format(n=n))
                by_count[n] = deck
        for n in range(low, high + 1):
            if n not in by_count:
                reader.fault("deck", _("no deck for {n} players").format(n=n))
        table = {n: by_count.get(n, Deck(2, 4)) for n in range(low, high + 1)}
        return lambda players: table[players]
    _counts, deck = one(value, "deck")
    return lambda players: deck


def _read_rounds(
    reader: _Reader, value: object, books: BookPolicy, runs: RunPolicy
) -> tuple[tuple[Round, ...], tuple[int | None, ...]]:
    """The rounds; a contract's meld is no smaller than ``books.min`` or ``runs.min``."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_ROUNDS:
        reader.fault("rounds", _("must be a list of 1 to {most} rounds").format(most=MAX_ROUNDS))
        return (Round(1, 7, (Component(Kind.BOOK, 3),)),), (None,)
    rounds, wilds = [], []
    for index, item in enumerate(value, start=1):
        key = f"rounds.{index}"
        table = reader.table(item, key, ("dealt", "contract", "wild_rank", "final"))
        dealt = reader.number(table.get("dealt"), f"{key}.dealt", 1, MAX_DEALT)
        contract = []
        parts = table.get("contract")
        if not isinstance(parts, list) or not 1 <= len(parts) <= MAX_CONTRACT_MELDS:
            reader.fault(f"{key}.contract", _("must be a list of 1 to {most} melds").format(most=MAX_CONTRACT_MELDS))
            parts = []
        for n, part in enumerate(parts, start=1):
            meld = reader.table(part, f"{key}.contract.{n}", ("meld", "size"))
            kind = Kind(reader.choice(meld.get("meld"), f"{key}.contract.{n}.meld", ("book", "run")))
            least, most, floor = (books.least, 8, "books.min") if kind is Kind.BOOK else (runs.least, 13, "runs.min")
            size = meld.get("size")
            if isinstance(size, int) and not isinstance(size, bool) and 2 <= size < least:
                message = _("{size} is smaller than {floor} ({least}): must be from {least} to {most}")
                reader.fault(f"{key}.contract.{n}.size", message.format(size=size, floor=floor, least=least, most=most))
                size = least
            size = reader.number(size, f"{key}.contract.{n}.size", least, most)
            contract.append(Component(kind, size))
        wild = table.get("wild_rank")
        if wild is not None and (not isinstance(wild, str) or wild not in RANK_OF):
            message = _("must be a rank ({ranks}) or null, not {value}")
            reader.fault(f"{key}.wild_rank", message.format(ranks=", ".join(RANK_KEYS), value=_short(wild)))
            wild = None
        final = reader.choice(table.get("final", False), f"{key}.final", (False, True))
        rounds.append(Round(index, dealt, tuple(contract), final=final))
        wilds.append(RANK_OF[wild] if wild is not None else None)
    return tuple(rounds), tuple(wilds)


def _read_points(reader: _Reader, value: object) -> Penalties:
    """Points per rank: the table's five kinds (2-9 at face value or one value, 10-K one value)
    where they fit, else every rank on its own (``Penalties.by_rank``)."""
    table = reader.table(value, "points", (*RANK_KEYS, "JK", "wild"))
    got = {k: reader.number(table.get(k), f"points.{k}", 0, MAX_POINTS) for k in (*RANK_KEYS, "JK")}
    wild = table.get("wild")
    if wild is not None:
        wild = reader.number(wild, "points.wild", 0, MAX_POINTS)
    numbers = [got[str(r)] for r in range(2, 10)]
    face = numbers == list(range(2, 10))
    courts = {got[k] for k in ("10", "J", "Q", "K")}
    if (face or len(set(numbers)) == 1) and len(courts) == 1:
        return Penalties(
            joker=got["JK"], wild=wild, ace=got["A"], ten_to_king=got["K"], number=None if face else numbers[0]
        )
    by_rank = tuple(got[k] for k in RANK_KEYS)
    return Penalties(joker=got["JK"], wild=wild, ace=got["A"], ten_to_king=got["K"], number=None, by_rank=by_rank)


def _check_play(
    reader: _Reader, rounds: Sequence[Round], deck_for: Callable[[int], Deck], low: int, high: int, buys: Buys
) -> None:
    """What no table can play: a contract needing more cards than a hand can hold (those dealt,
    the one drawn, and two a buy where buys are allowed: the discard and its penalty card), a
    deck too small for the players, the deal and the upcard (at every table size allowed)."""
    for rnd in rounds:
        need = sum(c.length for c in rnd.contract)
        bought = 2 * (buys.limit or 0) if buys.allowed else 0
        most = None if buys.allowed and buys.limit is None else rnd.dealt + 1 + bought
        if most is not None and need > most:
            message = _("the contract needs {need} cards; a hand holds at most {most}")
            reader.fault(f"rounds.{rnd.number}", message.format(need=need, most=most))
        for players in range(low, high + 1):
            deck = deck_for(players)
            if players * rnd.dealt + 1 > deck.size:
                message = _(
                    "{players} players of {dealt} cards and the upcard need {need} cards; the deck holds {size}"
                )
                reader.fault(
                    f"rounds.{rnd.number}",
                    message.format(players=players, dealt=rnd.dealt, need=players * rnd.dealt + 1, size=deck.size),
                )


def _check_knobs(
    reader: _Reader,
    rounds: Sequence[Round],
    deck_for: Callable[[int], Deck],
    low: int,
    high: int,
    wilds: WildPolicy,
    books: BookPolicy,
    runs: RunPolicy,
    naturals: NaturalPolicy,
) -> None:
    """Knobs that cannot be played together."""
    if not wilds.jokers:
        holding = [n for n in range(low, high + 1) if deck_for(n).jokers]
        if holding:
            message = _("jokers are not wild, yet the deck for {n} players holds {jokers} jokers: give it none")
            reader.fault("wilds.jokers", message.format(n=holding[0], jokers=deck_for(holding[0]).jokers))
    if books.distinct_suits:
        if books.least > DISTINCT_BOOK:
            message = _("a book of different suits holds at most 4 cards, but books.min is {least}")
            reader.fault("books.suits", message.format(least=books.least))
        for rnd in rounds:
            for n, part in enumerate(rnd.contract, start=1):
                if part.kind is Kind.BOOK and part.length > DISTINCT_BOOK:
                    message = _("a book of {size} cannot hold each suit once: there are 4 suits")
                    reader.fault(f"rounds.{rnd.number}.contract.{n}.size", message.format(size=part.length))
    smallest = min(books.least, runs.least)
    if naturals.per_meld > smallest:
        message = _("{per_meld} natural cards per meld is more than the smallest meld holds ({smallest})")
        reader.fault("naturals.per_meld", message.format(per_meld=naturals.per_meld, smallest=smallest))
