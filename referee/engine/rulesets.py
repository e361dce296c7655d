"""The rulesets of RULES.md as data, and their variants, in one registry.

``find_rules("mexican", ["kings-wild"])`` gives the ``Rules`` a table plays by: the
ruleset's tables with the variants applied. Numbers live here, not in the checks.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from .cards import KING, rank_plural, rank_text
from .errors import PlayerCountError, RoundOutOfRange, UnknownRuleset, UnknownVariant
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
class Variant:
    slug: str
    name: str
    effect: str
    rulesets: tuple[str, ...]
    apply: Callable[[Rules], Rules] = field(repr=False, compare=False)
    excludes: tuple[str, ...] = ()


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
        return _(self.name)

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
        return RoundInWords(
            number=number,
            dealt=rnd.dealt,
            wild_rank=rank_text(wild) if wild is not None else None,
            wilds=self.wild_words(number),
            contract=self.contract_words(number),
            components=rnd.contract,
            final=rnd.final,
            wild_ranks=capfirst(rank_plural(wild)) if wild is not None else "",
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

    def wild_words(self, number: int) -> str:
        """``Fours and jokers are wild`` or ``Only jokers are wild``."""
        rank = self.wild_rank(number)
        if rank is None:
            return _("Only jokers are wild")
        return capfirst(_("{ranks} and jokers are wild").format(ranks=rank_plural(rank)))


# --- the registry ------------------------------------------------------------------

B3 = Component(Kind.BOOK, 3)
R4 = Component(Kind.RUN, 4)


def _run(length: int) -> Component:
    return Component(Kind.RUN, length)


def _mexican_decks(players: int) -> Deck:
    return Deck(packs=2, jokers=4)


def _contract_decks(players: int) -> Deck:
    return Deck(packs=2, jokers=players - 1)


def _contract_rounds(dealt: tuple[int, ...]) -> tuple[Round, ...]:
    contracts = [(B3, B3), (B3, R4), (R4, R4), (B3, B3, B3), (B3, B3, R4), (B3, R4, R4), (R4, R4, R4)]
    return tuple(Round(i, dealt[i - 1], c, final=(i == 7)) for i, c in enumerate(contracts, start=1))


MEXICAN = Rules(
    slug="mexican",
    name=N_("Mexican Rummy"),
    source="000_e2426b515262bddb.txt",
    variants=(),
    min_players=2,
    max_players=6,
    deck_for=_mexican_decks,
    rounds=tuple(
        Round(i, 6 + i, c, final=(i == 7))
        for i, c in enumerate(
            [(B3, B3), (B3, R4), (R4, R4), (B3, B3, B3), (B3, B3, R4), (B3, R4, R4), (R4, R4, R4)],
            start=1,
        )
    ),
    wild_ranks=(3, 4, 5, 6, 7, 8, 9),
    penalties=Penalties(joker=20, wild=20, ace=15, ten_to_king=10, number=5),
    tie_break=TieBreak.ROUND_WINS,
)

CONTRACT = Rules(
    slug="contract",
    name=N_("Contract Rummy"),
    source="003_b11f0f7b59238a85.txt",
    variants=(),
    min_players=3,
    max_players=5,
    deck_for=_contract_decks,
    rounds=_contract_rounds((10, 10, 10, 12, 12, 12, 12)),
    wild_ranks=(None,) * 7,
    penalties=Penalties(joker=15, wild=None, ace=15, ten_to_king=10, number=None),
    exact_opening=True,
    runs_may_join=False,
    swap=SwapPolicy.JOKER_IN_RUN,
    buys=Buys(allowed=True, limit=None, not_twice_in_row=True, name=N_("May I?")),
    round_word=N_("deal"),
    book_word=N_("group"),
    run_word=N_("sequence"),
)

LIVERPOOL = replace(CONTRACT, slug="liverpool", name=N_("Liverpool Rummy"), cut_bonus=50)

_SHANGHAI_CONTRACTS: tuple[tuple[Component, ...], ...] = (
    (B3, B3),
    (B3, R4),
    (R4, R4),
    (B3, B3, B3),
    (B3, _run(7)),
    (B3, B3, _run(5)),
    (R4, R4, R4),
    (B3, _run(10)),
    (B3, B3, B3, _run(5)),
    (_run(5), _run(5), _run(5)),
)

SHANGHAI = replace(
    CONTRACT,
    slug="shanghai",
    name=N_("Shanghai Rummy"),
    rounds=tuple(Round(i, 11, c) for i, c in enumerate(_SHANGHAI_CONTRACTS, start=1)),
    wild_ranks=(None,) * len(_SHANGHAI_CONTRACTS),
    penalties=replace(CONTRACT.penalties, joker=50),
    buys=replace(CONTRACT.buys, limit=2),
)

RULESETS: dict[str, Rules] = {r.slug: r for r in (MEXICAN, CONTRACT, LIVERPOOL, SHANGHAI)}
DEFAULT_RULESET = "mexican"


def _single_deck(rules: Rules) -> Rules:
    return replace(
        rules,
        min_players=2,
        max_players=3,
        deck_for=lambda players: Deck(packs=1, jokers=2),
        rounds=rules.rounds[:5],
        wild_ranks=rules.wild_ranks[:5],
    )


def _more_players(rules: Rules) -> Rules:
    def decks(players: int) -> Deck:
        packs = 2 if players <= 5 else 3 if players == 6 else 4
        return Deck(packs=packs, jokers=players - 1)

    return replace(rules, max_players=8, deck_for=decks)


def _fixed_wild(rank: int) -> Callable[[Rules], Rules]:
    def apply(rules: Rules) -> Rules:
        return replace(rules, wild_ranks=(rank,) * len(rules.rounds))

    return apply


_CONTRACT_FAMILY = ("contract", "liverpool", "shanghai")

VARIANTS: dict[str, Variant] = {
    v.slug: v
    for v in (
        Variant(
            "wild-swap",
            N_("Wild swap"),
            N_(
                "On their turn a player holding the natural card a played wild stands for "
                "may put it in and take the wild."
            ),
            ("mexican",),
            lambda r: replace(r, swap=SwapPolicy.ANY_WILD),
        ),
        Variant(
            "open-turn-layoff",
            N_("Lay off on the opening turn"),
            N_("Laying off is allowed on the turn the contract is laid down."),
            ("mexican",),
            lambda r: replace(r, layoff_on_opening_turn=True),
        ),
        Variant(
            "single-deck",
            N_("Single deck"),
            N_("One pack and 2 jokers (54 cards) for 2-3 players; rounds 1-5 only."),
            ("mexican",),
            _single_deck,
            excludes=("third-deck",),
        ),
        Variant(
            "third-deck",
            N_("Third deck"),
            N_("Three packs and 6 jokers (162 cards), so the stock lasts at a table of 6."),
            ("mexican",),
            lambda r: replace(r, deck_for=lambda players: Deck(packs=3, jokers=6)),
            excludes=("single-deck",),
        ),
        Variant(
            "fixed-twos",
            N_("Twos wild"),
            N_("Twos are wild in every round instead of the rising rank, and score 20."),
            ("mexican",),
            _fixed_wild(2),
            excludes=("kings-wild",),
        ),
        Variant(
            "kings-wild",
            N_("Kings wild"),
            N_("Kings are wild in every round instead of the rising rank, and score 20."),
            ("mexican",),
            _fixed_wild(KING),
            excludes=("fixed-twos",),
        ),
        Variant(
            "buy-discard",
            N_("Buy the discard"),
            N_(
                "Out of turn a player may buy the top discard with one penalty card from the stock; "
                "at most 3 buys per player per round."
            ),
            ("mexican",),
            lambda r: replace(r, buys=Buys(allowed=True, limit=3, name=N_("buy"))),
        ),
        Variant(
            "free-meld",
            N_("Free meld"),
            N_("The first meld may be longer than the contract, and same-suit sequences may join up."),
            _CONTRACT_FAMILY,
            lambda r: replace(r, exact_opening=False, runs_may_join=True),
        ),
        Variant(
            "more-players",
            N_("More players"),
            N_("6-8 players: 3 packs for 6, 4 packs for 7-8, jokers one fewer than the players."),
            _CONTRACT_FAMILY,
            _more_players,
        ),
    )
}


def find_ruleset(slug: str) -> Rules:
    try:
        return RULESETS[slug]
    except (KeyError, TypeError):
        known = ", ".join(RULESETS)
        raise UnknownRuleset(
            _("Unsupported ruleset: {slug!r} (known: {known})").format(slug=slug, known=known)
        ) from None


def find_variant(slug: str) -> Variant:
    try:
        return VARIANTS[slug]
    except (KeyError, TypeError):
        raise UnknownVariant(_("Unsupported variant: {slug!r}").format(slug=slug)) from None


def variant_named(slug: str) -> str:
    """A variant as players call it, in quotes, for a sentence: ``“Lay off on the opening turn”``."""
    return _("“{name}”").format(name=_(VARIANTS[slug].name))


def variants_for(ruleset: str) -> list[Variant]:
    return [v for v in VARIANTS.values() if ruleset in v.rulesets]


def variant_allowing(rules: Rules, allows: Callable[[Rules], bool]) -> str | None:
    """The variant of ``rules``' ruleset, not chosen yet and combinable with those chosen, that
    would make ``allows(rules)`` true, named as players call it (``variant_named``); None if none
    would (or if ``rules`` allow it already). A hint read from the variants' data, never from a
    ruleset's name."""
    if allows(rules):
        return None
    for variant in variants_for(rules.slug):
        if variant.slug in rules.variants or any(c in variant.excludes for c in rules.variants):
            continue
        if allows(variant.apply(rules)):
            return variant_named(variant.slug)
    return None


def no_cut_bonus(rules: Rules) -> str:
    """Why ``rules`` take no cut bonus, naming the rulesets that have one."""
    having = [r.display_name for r in RULESETS.values() if r.cut_bonus]
    if not having:
        return _("{title} has no cut bonus").format(title=rules.title)
    return _("{title} has no cut bonus ({names} has one)").format(title=rules.title, names=names_and(having))


def find_rules(ruleset: str = DEFAULT_RULESET, variants: Iterable[str] = ()) -> Rules:
    """The rules a table plays by: a ruleset with its variants, checked and applied."""
    return _find_rules(ruleset, tuple(variants))


@functools.lru_cache(maxsize=256)
def _find_rules(ruleset: str, variants: tuple[str, ...]) -> Rules:
    rules = find_ruleset(ruleset)
    chosen: list[str] = []
    for slug in variants:
        variant = find_variant(slug)
        if ruleset not in variant.rulesets:
            raise UnknownVariant(
                _("Variant {slug!r} belongs to {owners}, not {ruleset}").format(
                    slug=slug, owners=", ".join(variant.rulesets), ruleset=ruleset
                )
            )
        if slug in chosen:
            raise UnknownVariant(_("Variant {slug!r} is listed twice").format(slug=slug))
        clash = next((c for c in chosen if c in variant.excludes), None)
        if clash is not None:
            raise UnknownVariant(
                _("Variants {first!r} and {second!r} cannot be combined").format(first=clash, second=slug)
            )
        chosen.append(slug)
    for slug in sorted(chosen, key=list(VARIANTS).index):
        rules = VARIANTS[slug].apply(rules)
    return replace(rules, variants=tuple(sorted(chosen, key=list(VARIANTS).index)))
