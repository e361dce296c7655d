"""What a ruleset is: ``Rules``, the value the referee and the scorer ask, and its parts.

A ``Rules`` is read from a document (``documents.py``); the built-in ones are documents too
(``catalogue.py``), found by slug in ``rulesets.py``. Code asks the value, never its name.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .cards import rank_plural, rank_text
from .errors import PlayerCountError, RoundOutOfRange
from .i18n import N_, _, capfirst, pgettext
from .words import names_and

PACK_SIZE = 52

_PLURALS = {
    N_("round"): N_("rounds"),
    N_("deal"): N_("deals"),
    N_("book"): N_("books"),
    N_("group"): N_("groups"),
    N_("run"): N_("runs"),
    N_("sequence"): N_("sequences"),
}

# A round named in a sentence ("in round 3"): one message per word, since the article a
# language puts before it follows the word ("la ronda 3", "el reparto 3").
_ROUND_NAMES = {N_("round"): N_("round {number}"), N_("deal"): N_("deal {number}")}
ROUND_WORDS = tuple(_ROUND_NAMES)  # the words a round may be called by (a ruleset document's choices)


class Kind(enum.Enum):
    BOOK = "book"
    RUN = "run"

    __hash__ = object.__hash__  # as Suit's: identity, in C


class SwapPolicy(enum.Enum):
    NONE = "none"  # wilds are fixed once played
    ANY_WILD = "any_wild"  # any played wild may be replaced by the card it stands for
    JOKER_IN_RUN = "joker_in_run"  # only a joker in a run; a joker in a book is dead


class AceMode(enum.Enum):
    """Where an ace may stand in a run."""

    LOW = "low"  # A-2-3-4 only
    HIGH = "high"  # J-Q-K-A only
    EITHER = "either"  # low or high, never both in one run
    AROUND = "around"  # also round the corner: Q-K-A-2


class TieBreak(enum.Enum):
    ROUND_WINS = "round_wins"  # equal totals: most rounds won first, then a shared place
    SHARED = "shared"  # equal totals share the place


@dataclass(frozen=True, slots=True)
class Component:
    """One part of a contract: a book or a run of at least (or exactly) ``length`` cards."""

    kind: Kind
    length: int


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    dealt: int
    contract: tuple[Component, ...]
    # True where the round is won only by laying the whole hand down in the contract's
    # runs with no discard (mexican round 7, contract deal 7): no opening before that.
    final: bool = False


@dataclass(frozen=True, slots=True)
class Deck:
    packs: int
    jokers: int

    @property
    def size(self) -> int:
        return self.packs * PACK_SIZE + self.jokers


@dataclass(frozen=True, slots=True)
class Penalties:
    """Points for a card left in hand. ``None`` for ``number`` means face value.

    ``by_rank`` (13 values, ace first), where given, scores each rank on its own and overrides
    ``ace``, ``ten_to_king`` and ``number``.
    """

    joker: int
    wild: int | None  # a card of a wild rank (the round's or every round's); None: scored as its rank
    ace: int
    ten_to_king: int
    number: int | None  # 2-9; None means face value
    by_rank: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class WildPolicy:
    """What is wild beside a round's own wild rank (``Rules.wild_ranks``)."""

    jokers: bool = True  # jokers are wild (False: the deck holds none)
    ranks: tuple[int, ...] = ()  # ranks wild in every round
    natural: bool = True  # a card of a wild rank may also stand for itself


@dataclass(frozen=True, slots=True)
class BookPolicy:
    least: int = 3  # the fewest cards of a book (a contract may ask more)
    distinct_suits: bool = False  # True: no suit twice in a book


@dataclass(frozen=True, slots=True)
class RunPolicy:
    least: int = 4  # the fewest cards of a run (a contract may ask more)
    ace: AceMode = AceMode.EITHER


@dataclass(frozen=True, slots=True)
class NaturalPolicy:
    """What a meld must hold besides wilds."""

    per_meld: int = 0  # the fewest natural cards in a meld
    not_more_wilds: bool = False  # True: a meld holds no more wilds than naturals
    adjacent_wilds: bool = True  # False: no two wilds side by side in a run


@dataclass(frozen=True, slots=True)
class Buys:
    allowed: bool = False
    limit: int | None = None  # per player per round; None means no limit
    not_twice_in_row: bool = False
    name: str = N_("buy")


@dataclass(frozen=True, slots=True)
class RoundInWords:
    """A round of a ruleset's table, in words: the rules API's round table, the table's announcement."""

    number: int
    dealt: int
    wild_rank: str | None
    wilds: str
    contract: str
    components: tuple[Component, ...]
    final: bool
    wild_ranks: str = ""  # ``Threes``: the rank wild this round beside the jokers (a table's column)


@dataclass(frozen=True, slots=True)
class Rules:
    """A ruleset with its variants applied: everything the referee and the scorer need."""

    slug: str
    name: str
    source: str
    variants: tuple[str, ...]
    min_players: int
    max_players: int
    deck_for: Callable[[int], Deck] = field(repr=False, compare=False)
    rounds: tuple[Round, ...] = field(repr=False)
    # The wild rank per round; None in a round means only jokers are wild.
    wild_ranks: tuple[int | None, ...] = field(repr=False)
    penalties: Penalties = field(repr=False)
    exact_opening: bool = False
    runs_may_join: bool = True
    layoff_on_opening_turn: bool = False
    swap: SwapPolicy = SwapPolicy.NONE
    buys: Buys = Buys()
    tie_break: TieBreak = TieBreak.SHARED
    cut_bonus: int = 0  # points taken off for cutting exactly the cards needed (liverpool)
    wilds: WildPolicy = WildPolicy()
    books: BookPolicy = BookPolicy()
    runs: RunPolicy = RunPolicy()
    naturals: NaturalPolicy = NaturalPolicy()
    going_out_discard: bool = True  # a round not marked final is won by discarding the last card
    lowest_wins: bool = True  # False: the highest total wins
    round_word: str = N_("round")
    book_word: str = N_("book")
    run_word: str = N_("run")
    # Whether ``name`` is a catalogue's word (a built-in's, translated) or a table's own (kept as typed).
    catalogued: bool = field(default=False, compare=False)
    # The most packs and jokers any allowed table uses: where the player count is not known.
    largest_deck: Deck = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The words a ruleset speaks are checked when it is built, not when a round is named.
        for word in (self.round_word, self.book_word, self.run_word):
            if word not in _PLURALS:
                raise ValueError(f"{self.slug}: no plural for the word {word!r} (known: {', '.join(_PLURALS)})")
        if self.round_word not in _ROUND_NAMES:
            raise ValueError(f"{self.slug}: a round cannot be named with {self.round_word!r}")
        decks = [self.deck_for(n) for n in range(self.min_players, self.max_players + 1)]
        object.__setattr__(self, "largest_deck", Deck(max(d.packs for d in decks), max(d.jokers for d in decks)))

    def with_identity(self, *, source: str, variants: tuple[str, ...]) -> Rules:
        """The same play, told where it comes from and which variants made it: a built-in, whose
        name the catalogues translate."""
        return replace(self, source=source, variants=variants, catalogued=True)

    @property
    def round_plural(self) -> str:
        return _PLURALS[self.round_word]

    @property
    def book_plural(self) -> str:
        return _PLURALS[self.book_word]

    @property
    def run_plural(self) -> str:
        return _PLURALS[self.run_word]

    @property
    def display_name(self) -> str:
        """The name in the active language: a built-in's translated, a table's house rules as typed
        (a table called "Yes" is not "Ja" in Dutch)."""
        return _(self.name) if self.catalogued else self.name

    @property
    def last_round(self) -> int:
        return self.rounds[-1].number

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise RoundOutOfRange(
                _("{name} has no {where}: it plays {words} 1-{last}").format(
                    name=self.display_name,
                    where=self.round_name(number),
                    words=_(self.round_plural),
                    last=len(self.rounds),
                )
            )
        return self.rounds[number - 1]

    def wild_rank(self, number: int) -> int | None:
        self.round(number)
        return self.wild_ranks[number - 1]

    def deck(self, players: int) -> Deck:
        if not self.min_players <= players <= self.max_players:
            raise PlayerCountError(
                _("{title} is for {low}-{high} players, not {n}").format(
                    title=self.title, low=self.min_players, high=self.max_players, n=players
                )
            )
        return self.deck_for(players)

    def stock(self, players: int, number: int) -> int:
        """Cards left in the stock after the deal and the one upcard."""
        return self.deck(players).size - players * self.round(number).dealt - 1

    def most_buys(self, players: int, number: int) -> int:
        """The most buys (or "May I?"s) one player can make in a round: the ruleset's limit, and
        never more than the stock holds, since every buy takes a penalty card from it."""
        if not self.buys.allowed:
            return 0
        stock = self.stock(players, number)
        return stock if self.buys.limit is None else min(self.buys.limit, stock)

    def in_words(self, number: int) -> RoundInWords:
        """A round of the table as players read it: cards dealt, what is wild, the contract."""
        rnd = self.round(number)
        wild = self.wild_rank(number)
        ranks = self.wild_ranks_in(number)
        return RoundInWords(
            number=number,
            dealt=rnd.dealt,
            wild_rank=rank_text(wild) if wild is not None else None,
            wilds=self.wild_words(number),
            contract=self.contract_words(number),
            components=rnd.contract,
            final=rnd.final,
            wild_ranks=capfirst(names_and([rank_plural(r) for r in ranks])) if ranks else "",
        )

    @property
    def title(self) -> str:
        return self.display_name + (f" ({', '.join(self.variants)})" if self.variants else "")

    def _noun(self, component: Component, count: int) -> str:
        if component.kind is Kind.BOOK:
            return _(self.book_word) if count == 1 else _(self.book_plural)
        return _(self.run_word) if count == 1 else _(self.run_plural)

    def round_name(self, number: int) -> str:
        """``round 3``, ``deal 3``: a round named in a sentence, with the article a language needs."""
        return _(_ROUND_NAMES[self.round_word]).format(number=number)

    def component_with_article(self, component: Component, *, exact: bool | None = None) -> str:
        """``a book of 3+``, ``a sequence of exactly 4``: the article follows the noun (hence the context)."""
        exact = self.exact_opening if exact is None else exact
        if component.kind is Kind.BOOK:
            template = pgettext("book", "a {noun} of exactly {n}") if exact else pgettext("book", "a {noun} of {n}+")
        else:
            template = pgettext("run", "a {noun} of exactly {n}") if exact else pgettext("run", "a {noun} of {n}+")
        return template.format(noun=self._noun(component, 1), n=component.length)

    def kind_with_article(self, kind: Kind) -> str:
        """``a book``, ``a sequence``."""
        if kind is Kind.BOOK:
            return pgettext("book", "a {noun}").format(noun=_(self.book_word))
        return pgettext("run", "a {noun}").format(noun=_(self.run_word))

    def component_words(self, component: Component, *, exact: bool | None = None, count: int = 1) -> str:
        """``book of 3+`` or ``sequence of exactly 4``."""
        exact = self.exact_opening if exact is None else exact
        template = _("{noun} of exactly {n}") if exact else _("{noun} of {n}+")
        return template.format(noun=self._noun(component, count), n=component.length)

    def contract_words(self, number: int, *, final_note: bool = True) -> str:
        """``1 book of 3+ and 1 run of 4+``; the final round says how it is won."""
        rnd = self.round(number)
        parts: list[str] = []
        seen: list[Component] = []
        for component in rnd.contract:
            if component in seen:
                continue
            seen.append(component)
            count = rnd.contract.count(component)
            words = self.component_words(component, exact=self.exact_opening and not rnd.final, count=count)
            parts.append(f"{count} {words}")
        text = parts[-1]
        if len(parts) > 1:
            text = _("{first} and {last}").format(first=", ".join(parts[:-1]), last=parts[-1])
        if rnd.final and final_note:
            text = _("{contract}, the whole hand at once, no discard").format(contract=text)
        return text

    def wild_ranks_in(self, number: int) -> tuple[int, ...]:
        """Every rank wild in round ``number``: the round's own first, then those wild in every round."""
        rank = self.wild_rank(number)
        own = (rank,) if rank is not None else ()
        return own + tuple(r for r in self.wilds.ranks if r != rank)

    def wild_words(self, number: int) -> str:
        """``Fours and jokers are wild``, ``Only jokers are wild``, ``Twos are wild``, ``Nothing is wild``."""
        ranks = self.wild_ranks_in(number)
        if not ranks:
            return _("Only jokers are wild") if self.wilds.jokers else _("Nothing is wild")
        if self.wilds.jokers and len(ranks) == 1:
            return capfirst(_("{ranks} and jokers are wild").format(ranks=rank_plural(ranks[0])))
        names = [rank_plural(r) for r in ranks] + ([_("jokers")] if self.wilds.jokers else [])
        return capfirst(_("{ranks} are wild").format(ranks=names_and(names)))
