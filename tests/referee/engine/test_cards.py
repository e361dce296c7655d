import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine import JOKER, Card, CardSyntaxError, Identity, Played, Suit, parse_cards, parse_played
from referee.engine.cards import DECK

cards = st.sampled_from([*DECK, JOKER])
identities = st.builds(Identity, st.integers(1, 13), st.one_of(st.none(), st.sampled_from(list(Suit))))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10H", Card(10, Suit.HEARTS)),
        ("TH", Card(10, Suit.HEARTS)),
        ("th", Card(10, Suit.HEARTS)),
        ("10♥", Card(10, Suit.HEARTS)),
        ("a♠", Card(1, Suit.SPADES)),
        ("7c", Card(7, Suit.CLUBS)),
        ("Q♦", Card(12, Suit.DIAMONDS)),
        ("K♣", Card(13, Suit.CLUBS)),
        ("JK", JOKER),
        ("jk", JOKER),
    ],
    ids=lambda v: str(v),
)
def test_card_parse_accepts_every_spelling(text, expected):
    assert Card.parse(text) == expected


@given(cards)
def test_card_text_round_trips(card):
    assert Card.parse(str(card)) == card
    assert eval(repr(card), {"Card": Card}) == card


@given(cards, st.one_of(st.none(), identities))
def test_played_text_round_trips(card, identity):
    played = Played(card, identity)
    assert Played.parse(str(played)) == played


def test_card_names_are_spoken_words():
    assert Card.parse("7C").name == "Seven of clubs"
    assert JOKER.name == "Joker"
    assert Card.parse("AS").symbol == "A♠"


def test_cards_are_hashable_and_immutable():
    assert len({Card.parse("7C"), Card.parse("7c"), Card.parse("7♣")}) == 1
    with pytest.raises(AttributeError):
        Card.parse("7C").rank = 8  # type: ignore[misc]


@pytest.mark.parametrize("separated", ["7C 7D 4H", "7C,7D,4H", "7C, 7D ,  4H", " 7C\t7D\n4H ", "7C;7D;4H"])
def test_parse_cards_takes_spaces_and_commas(separated):
    assert [str(c) for c in parse_cards(separated)] == ["7C", "7D", "4H"]


def test_parse_cards_takes_a_list():
    assert parse_cards(["7C", "JK"]) == [Card.parse("7C"), JOKER]


def test_parse_played_reads_declarations():
    assert parse_played("4H=7S JK=Q") == [
        Played(Card.parse("4H"), Identity(7, Suit.SPADES)),
        Played(JOKER, Identity(12)),
    ]


@pytest.mark.parametrize(
    ("text", "token", "position", "why"),
    [
        ("7C 7X", "7X", 2, "unknown suit 'X'"),
        ("1H", "1H", 1, "unknown rank '1'"),
        ("7C 8D ZZ", "ZZ", 3, "expected a rank and a suit"),
        ("11S", "11S", 1, "unknown rank '11'"),
        ("JK=JK", "JK=JK", 1, "not a joker"),
        ("4H=7X", "4H=7X", 1, "stands for a rank"),
    ],
)
def test_parse_played_names_the_bad_token_and_its_position(text, token, position, why):
    with pytest.raises(CardSyntaxError, match=why) as info:
        parse_played(text)
    assert (info.value.token, info.value.position) == (token, position)
    assert f"card {position}: {token!r}" in str(info.value)


def test_parse_cards_refuses_declarations_in_a_hand():
    with pytest.raises(CardSyntaxError, match="belongs to a meld"):
        parse_cards("7C 4H=7S")
