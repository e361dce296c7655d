"""The knobs of a ruleset document, declared once (issue 52): each one's key, what it may hold (a
whole number between bounds, or one of some values) and, for a house-rule knob, what it does in
a sentence. The document's reader takes its bounds and values from here (``documents``), the
API's schema its list of knobs (``scorekeeping.api.rulesets``), and docs/rules.md its table of
house-rule knobs, which ``tests/referee/engine/test_knobs.py`` makes from here and compares.

Each scalar knob also says where the engine keeps it (``rule``: an attribute of ``Rules``, or of
one of its policies, as ``"runs.least"``) and what each document value means there (``means``,
where they differ): the reader and the writer of ``documents`` read and write every such knob
from this table, at its key's place in the document. Adding a knob: its entry here and the
engine's use of it (the field named by ``rule``, that the checker, the solver or the scorer
reads); for the editor, its field and template line."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import ROUND_WORDS, AceMode, SwapPolicy, TieBreak

MAX_PLAYERS = 10
MAX_POINTS = 100
MAX_BUYS_LIMIT = 10
BOOK_WORDS = ("book", "group")  # what a ruleset may call a book, and a run (the catalogues hold these)
RUN_WORDS = ("run", "sequence")
BUY_NAMES = ("buy", "May I?")  # the words the catalogues hold for a buy
YES_NO = (True, False)
NO_YES = (False, True)  # a knob off by default: a value not allowed falls back to the first


@dataclass(frozen=True)
class Knob:
    """A key of the document: a whole number from ``low`` to ``high``, or one of ``values``
    (the first is what a refused value reads as, so that every fault is found at once)."""

    key: str
    low: int | None = None
    high: int | None = None
    values: tuple[object, ...] = ()
    does: str = ""  # a house-rule knob: what it does (docs/rules.md; "{low}" and "{high}" filled in)
    rule: str = ""  # where ``Rules`` keeps it ("runs.least"); "" for a knob read by its own code
    means: tuple[tuple[object, object], ...] = ()  # (document value, engine value) where they differ
    absent: tuple[object, ...] = ()  # (value,): what a missing key reads as (else it is a fault)

    def __post_init__(self) -> None:
        if self.means and not self.values:  # the document's values are those ``means`` names
            object.__setattr__(self, "values", tuple(doc for doc, _engine in self.means))

    def engine_value(self, value: object) -> object:
        """A document's (valid) value as the engine holds it."""
        return dict(self.means).get(value, value) if self.means else value

    def document_value(self, value: object) -> object:
        """The engine's value as the document writes it."""
        return next((doc for doc, engine in self.means if engine == value), value) if self.means else value

    @property
    def holds(self) -> str:
        """What it may hold, as the schema and the docs say it."""
        if self.low is not None:
            return f"{self.low}-{self.high}"
        return " | ".join("true" if v is True else "false" if v is False else str(v) for v in self.values)


KNOBS: tuple[Knob, ...] = (
    Knob("players.min", 2, MAX_PLAYERS, rule="min_players"),
    Knob("players.max", 2, MAX_PLAYERS, rule="max_players"),
    Knob("contract_sizes", rule="exact_opening", means=(("minimum", False), ("exact", True))),
    Knob(
        "wilds.jokers",
        values=YES_NO,
        does="`false`: jokers are not wild. The deck must then hold none (refused otherwise, by key), and a"
        " joker in a hand is refused as a card the packs do not hold.",
        rule="wilds.jokers",
    ),
    Knob(
        "wilds.ranks",
        does='ranks wild in every round, beside the round\'s own `wild_rank` (`["2"]`: twos always wild). A'
        " rank listed twice is refused.",
    ),
    Knob(
        "wilds.natural",
        values=YES_NO,
        does="`false`: a card of a wild rank never counts as itself, even in its own place; a declaration"
        " `4H=4H` then names what the wild stands for.",
        rule="wilds.natural",
    ),
    Knob(
        "books.min",
        3,
        8,
        does="the fewest cards of a book ({low}-{high}); no contract's book may be smaller.",
        rule="books.least",
    ),
    Knob(
        "books.suits",
        does="`distinct`: no suit twice in a book (natural cards and wild-rank cards standing as themselves;"
        " a wild in a book stands for a rank, not a suit). Such a book holds at most 4 cards; a contract"
        " book of more, or `books.min` over 4, is refused.",
        rule="books.distinct_suits",
        means=(("any", False), ("distinct", True)),
    ),
    Knob(
        "runs.min",
        3,
        13,
        does="the fewest cards of a run ({low}-{high}); no contract's run may be smaller.",
        rule="runs.least",
    ),
    Knob(
        "runs.ace",
        does="`low` (A-2-3-4 only), `high` (J-Q-K-A only), `either` (the built-ins), `around` (also"
        " Q-K-A-2). The K-A-2 reason is given only where the mode forbids it; `low`/`high` say which ace"
        " the cards would need.",
        rule="runs.ace",
        means=tuple((mode.value, mode) for mode in AceMode),
    ),
    Knob(
        "naturals.per_meld",
        0,
        2,
        does="the fewest natural cards in any meld ({low}-{high}; no more than the smallest meld). A card of"
        " a wild rank standing as itself is natural.",
        rule="naturals.per_meld",
    ),
    Knob(
        "naturals.wilds",
        does="`not_more`: a meld holds no more wilds than naturals (as many is allowed).",
        rule="naturals.not_more_wilds",
        means=(("any", False), ("not_more", True)),
    ),
    Knob(
        "naturals.adjacent_wilds",
        values=YES_NO,
        does="`false`: no two wilds side by side in a run's order (a run round the corner too)."
        " **Decision:** adjacency does not apply to books, whose cards have no order.",
        rule="naturals.adjacent_wilds",
    ),
    Knob(
        "points",
        0,
        MAX_POINTS,
        does="points per rank (`A` ... `K`), `JK`, and `wild`: what a card of any wild rank of the round"
        " scores (the round's and every-round ranks; `null`: its own rank's points). Points that fit the"
        " built-ins' five kinds (2-9 at face value or one value, 10-K one value) are kept so; any other"
        " scores each rank on its own. {low}-{high} each.",
    ),
    Knob(
        "going_out.discard",
        values=YES_NO,
        does="`false`: a round not marked `final` is won by laying every card down, with no final discard:"
        ' an opening or a layoff may lay the whole hand (the note says "you are out"), and the solver\'s'
        " opening no longer keeps a card back. A player who did not go out still holds at least one card"
        " (every turn but the going-out one ends with a discard), so the hand sizes a score is checked"
        " against are unchanged.",
        rule="going_out_discard",
    ),
    Knob(
        "lowest_wins",
        values=YES_NO,
        does="`false`: the highest total wins: standings, tie notes, a club table's tie-break margin, and"
        " the stories' leaders, swings, comebacks and best rounds turn round.",
        rule="lowest_wins",
    ),
    Knob("table.runs_may_join", values=YES_NO, rule="runs_may_join"),
    Knob("table.layoff_on_opening_turn", values=NO_YES, rule="layoff_on_opening_turn"),
    Knob(
        "table.wild_swap",
        rule="swap",
        means=tuple((policy.value, policy) for policy in SwapPolicy),
    ),
    Knob("table.buys.allowed", values=NO_YES, rule="buys.allowed"),
    Knob("table.buys.limit", 1, MAX_BUYS_LIMIT, rule="buys.limit", absent=(None,)),
    Knob("table.buys.not_twice_in_row", values=NO_YES, rule="buys.not_twice_in_row"),
    Knob("table.buys.name", values=BUY_NAMES, rule="buys.name", absent=(BUY_NAMES[0],)),
    Knob(
        "table.tie_break",
        rule="tie_break",
        means=tuple((tie.value, tie) for tie in TieBreak),
    ),
    Knob("table.cut_bonus", 0, MAX_POINTS, rule="cut_bonus"),
    Knob("words.round", values=ROUND_WORDS, rule="round_word"),
    Knob("words.book", values=BOOK_WORDS, rule="book_word"),
    Knob("words.run", values=RUN_WORDS, rule="run_word"),
)
KNOB = {knob.key: knob for knob in KNOBS}


def _table_keys() -> dict[str, tuple[str, ...]]:
    """Each table of the document the knobs sit in ("table.buys"), with the keys it may hold."""
    keys: dict[str, list[str]] = {}
    for knob in KNOBS:
        parts = knob.key.split(".")
        for depth in range(1, len(parts)):
            held = keys.setdefault(".".join(parts[:depth]), [])
            if parts[depth] not in held:
                held.append(parts[depth])
    return {path: tuple(held) for path, held in keys.items()}


TABLE_KEYS = _table_keys()


def knob_rows() -> list[str]:
    """The house-rule knobs as docs/rules.md's table rows (``| key | what it does |``)."""
    return [f"| `{knob.key}` | {knob.does.format(low=knob.low, high=knob.high)} |" for knob in KNOBS if knob.does]
