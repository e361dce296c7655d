"""Cards in the notation of RULES.md, and what a wild is declared to stand for.

Parsing checks only the notation: ``Card.parse("10H")``, ``Card.parse("t♥")`` and
``Card.parse("JK")`` are cards whatever the round; the rules decide legality later.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .errors import CardSyntaxError
from .i18n import N_, _, capfirst, pgettext

T = TypeVar("T")

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANKS: tuple[int, ...] = tuple(range(1, 14))

RANK_TEXT: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"} | {r: str(r) for r in range(2, 11)}
RANK_NAMES: dict[int, str] = {
    1: N_("ace"),
    2: N_("two"),
    3: N_("three"),
    4: N_("four"),
    5: N_("five"),
    6: N_("six"),
    7: N_("seven"),
    8: N_("eight"),
    9: N_("nine"),
    10: N_("ten"),
    11: N_("jack"),
    12: N_("queen"),
    13: N_("king"),
}
RANK_PLURALS: dict[int, str] = {
    1: N_("aces"),
    2: N_("twos"),
    3: N_("threes"),
    4: N_("fours"),
    5: N_("fives"),
    6: N_("sixes"),
    7: N_("sevens"),
    8: N_("eights"),
    9: N_("nines"),
    10: N_("tens"),
    11: N_("jacks"),
    12: N_("queens"),
    13: N_("kings"),
}
# "a seven": the article depends on the word, in every language.
RANK_WITH_ARTICLE: dict[int, str] = {
    1: N_("an ace"),
    2: N_("a two"),
    3: N_("a three"),
    4: N_("a four"),
    5: N_("a five"),
    6: N_("a six"),
    7: N_("a seven"),
    8: N_("an eight"),
    9: N_("a nine"),
    10: N_("a ten"),
    11: N_("a jack"),
    12: N_("a queen"),
    13: N_("a king"),
}


def rank_name(rank: int) -> str:
    return _(RANK_NAMES[rank])


def rank_plural(rank: int) -> str:
    return _(RANK_PLURALS[rank])


_RANK_BY_TEXT: dict[str, int] = {v: k for k, v in RANK_TEXT.items()} | {"T": 10}


class Suit(enum.Enum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    # Members are singletons compared by identity; Enum's own hash (of the name) runs in
    # Python, and suits are dictionary and set keys throughout the engine.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def noun(self) -> str:
        """The suit in words, translated: ``clubs``."""
        return _(_SUIT_NOUNS[self])

    @classmethod
    def parse(cls, text: str) -> Suit:
        key = _SUIT_BY_TEXT.get(text.upper())
        if key is None:
            raise ValueError(_("unknown suit {text!r}").format(text=text))
        return key


SUITS: tuple[Suit, ...] = tuple(Suit)
_SUIT_NOUNS = {
    Suit.CLUBS: N_("clubs"),
    Suit.DIAMONDS: N_("diamonds"),
    Suit.HEARTS: N_("hearts"),
    Suit.SPADES: N_("spades"),
}
_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_BY_TEXT: dict[str, Suit] = {s.value: s for s in Suit} | {v: k for k, v in _SYMBOLS.items()}
# Variation selectors and the outline suit symbols some keyboards produce.
_SUIT_BY_TEXT |= {"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES}

_CARD_RE = re.compile(r"^(?P<rank>10|[2-9AJQKT])(?P<suit>[CDHS♣♦♥♠♧♢♡♤])$", re.IGNORECASE)
_IDENTITY_RE = re.compile(r"^(?P<rank>10|[2-9AJQKT])(?P<suit>[CDHS♣♦♥♠♧♢♡♤])?$", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,;]+")


def rank_text(rank: int) -> str:
    return RANK_TEXT[rank]


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card: a rank and a suit, or the joker (both ``None``)."""

    rank: int | None
    suit: Suit | None

    def __hash__(self) -> int:
        # ``.value`` is a property; the member's ``_value_`` (its letter) is a plain attribute.
        return hash((self.rank, self.suit._value_ if self.suit is not None else None))

    @classmethod
    def joker(cls) -> Card:
        return JOKER

    @classmethod
    def parse(cls, text: str) -> Card:
        return _parse_card(text)

    @classmethod
    def _parse(cls, text: str) -> Card:
        token = text.strip().replace("\ufe0f", "")
        if token.upper() in ("JK", "JOKER", "🃏"):
            return JOKER
        match = _CARD_RE.match(token)
        if match is None:
            raise ValueError(_why_not_a_card(token))
        return cls(_RANK_BY_TEXT[match["rank"].upper()], Suit.parse(match["suit"]))

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    def sort_key(self) -> tuple[int, int]:
        if self.rank is None or self.suit is None:
            return (99, 99)
        return (SUITS.index(self.suit), self.rank)

    @property
    def name(self) -> str:
        """Spoken name: ``Seven of clubs``, ``Joker``."""
        if self.rank is None or self.suit is None:
            return _("Joker")
        return capfirst(_("{rank} of {suit}").format(rank=rank_name(self.rank), suit=self.suit.noun))

    @property
    def symbol(self) -> str:
        """Short printed form: ``7♣``, ``🃏``."""
        if self.rank is None or self.suit is None:
            return "🃏"
        return f"{RANK_TEXT[self.rank]}{self.suit.symbol}"

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "JK"
        return f"{RANK_TEXT[self.rank]}{self.suit._value_}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


JOKER = Card(None, None)


@functools.lru_cache(maxsize=1024)
def _parse_card(text: str) -> Card:
    # Cards are immutable, so a parsed token can be shared; a bad token raises every time.
    return Card._parse(text)


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)


@dataclass(frozen=True, slots=True)
class Identity:
    """What a wild stands for: a rank (in a book) or one exact card (in a run)."""

    rank: int
    suit: Suit | None = None

    @classmethod
    def parse(cls, text: str) -> Identity:
        token = text.strip().replace("\ufe0f", "")
        match = _IDENTITY_RE.match(token)
        if match is None:
            raise ValueError(_("a wild stands for a rank (Q) or a card (QS), not a joker"))
        suit = match["suit"]
        return cls(_RANK_BY_TEXT[match["rank"].upper()], Suit.parse(suit) if suit else None)

    @classmethod
    def of(cls, card: Card) -> Identity:
        if card.rank is None:
            raise ValueError(_("a joker has no identity of its own"))
        return identity_of(card.rank, card.suit)

    @property
    def name(self) -> str:
        """``seven of spades`` or ``a seven``, as said inside a sentence ("JK stands for …"): the
        languages that need an article get it from the context (Spanish "el siete de picas")."""
        if self.suit is None:
            return _(RANK_WITH_ARTICLE[self.rank])
        template = pgettext("identity in a sentence", "{rank} of {suit}")
        return template.format(rank=rank_name(self.rank), suit=self.suit.noun)

    def __str__(self) -> str:
        return RANK_TEXT[self.rank] + (self.suit._value_ if self.suit else "")

    def __repr__(self) -> str:
        return f"Identity.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Played:
    """A card as laid in a meld, optionally with its declared identity (``4H=7S``)."""

    card: Card
    declared: Identity | None = None

    @classmethod
    def parse(cls, text: str) -> Played:
        return _parse_played(text)

    @classmethod
    def _parse(cls, text: str) -> Played:
        card_text, sep, identity_text = text.partition("=")
        card = Card.parse(card_text)
        if not sep:
            return cls(card)
        return cls(card, Identity.parse(identity_text))

    def __str__(self) -> str:
        return str(self.card) + (f"={self.declared}" if self.declared else "")

    def __repr__(self) -> str:
        return f"Played.parse({str(self)!r})"


@functools.lru_cache(maxsize=1024)
def _parse_played(text: str) -> Played:
    return Played._parse(text)


def _why_not_a_card(token: str) -> str:
    if not token:
        return _("empty")
    upper = token.upper()
    if upper[-1:] in _SUIT_BY_TEXT and len(token) > 1:
        return _("unknown rank {rank!r}; use A, 2-10 (or T), J, Q, K").format(rank=token[:-1])
    if upper[:-1] in _RANK_BY_TEXT:
        return _("unknown suit {suit!r}; use C, D, H, S or ♣ ♦ ♥ ♠").format(suit=token[-1])
    return _("expected a rank and a suit such as 7C or 10♥, or JK for a joker")


def card_tokens(cards: str | Sequence[str]) -> list[str]:
    """The cards' texts as the parser reads them: split on spaces, commas and semicolons.
    Every path that counts cards (a chip's position, a hand's size) splits with this one."""
    if isinstance(cards, str):
        return [t for t in _SEPARATORS.split(cards.strip()) if t]
    return [str(t) for t in cards]


def _parse_each(cards: str | Sequence[str], parse: Callable[[str], T]) -> list[T]:
    """Parse token by token; a bad token raises with its text and its position (1-based)."""
    parsed: list[T] = []
    for position, token in enumerate(card_tokens(cards), start=1):
        try:
            parsed.append(parse(token))
        except ValueError as exc:
            raise CardSyntaxError(token, position, str(exc)) from None
    return parsed


@functools.cache
def identity_of(rank: int, suit: Suit | None) -> Identity:
    """The 52 identities a card can have, made once: every reading of a meld asks."""
    return Identity(rank, suit)


def parse_played(cards: str | Sequence[str]) -> list[Played]:
    """Parse a meld: ``"7C 7D 4H=7S"`` or ``["7C", "7D", "4H=7S"]``."""
    return _parse_each(cards, Played.parse)


def _hand_card(token: str) -> Card:
    if "=" in token:
        raise ValueError(_("a declaration (=) belongs to a meld, not a hand"))
    return Card.parse(token)


def parse_cards(cards: str | Sequence[str]) -> list[Card]:
    """Parse cards without declarations: a hand, or cards left in hand."""
    return _parse_each(cards, _hand_card)


def format_cards(cards: Iterable[Card | Played]) -> str:
    return " ".join(str(c) for c in cards)
