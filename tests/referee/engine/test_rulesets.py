import pytest

from referee.engine import (
    Kind,
    PlayerCountError,
    RoundOutOfRange,
    SwapPolicy,
    TieBreak,
    UnknownRuleset,
    UnknownVariant,
    find_rules,
    find_variant,
)
from referee.engine.rulesets import RULESETS, VARIANTS, variants_for

B, R = Kind.BOOK, Kind.RUN

MEXICAN_TABLE = [
    # round, dealt, wild rank, contract
    (1, 7, 3, [(B, 3), (B, 3)]),
    (2, 8, 4, [(B, 3), (R, 4)]),
    (3, 9, 5, [(R, 4), (R, 4)]),
    (4, 10, 6, [(B, 3), (B, 3), (B, 3)]),
    (5, 11, 7, [(B, 3), (B, 3), (R, 4)]),
    (6, 12, 8, [(B, 3), (R, 4), (R, 4)]),
    (7, 13, 9, [(R, 4), (R, 4), (R, 4)]),
]

CONTRACT_TABLE = [
    (1, 10, [(B, 3), (B, 3)]),
    (2, 10, [(B, 3), (R, 4)]),
    (3, 10, [(R, 4), (R, 4)]),
    (4, 12, [(B, 3), (B, 3), (B, 3)]),
    (5, 12, [(B, 3), (B, 3), (R, 4)]),
    (6, 12, [(B, 3), (R, 4), (R, 4)]),
    (7, 12, [(R, 4), (R, 4), (R, 4)]),
]

SHANGHAI_TABLE = [
    (1, [(B, 3), (B, 3)]),
    (2, [(B, 3), (R, 4)]),
    (3, [(R, 4), (R, 4)]),
    (4, [(B, 3), (B, 3), (B, 3)]),
    (5, [(B, 3), (R, 7)]),
    (6, [(B, 3), (B, 3), (R, 5)]),
    (7, [(R, 4), (R, 4), (R, 4)]),
    (8, [(B, 3), (R, 10)]),
    (9, [(B, 3), (B, 3), (B, 3), (R, 5)]),
    (10, [(R, 5), (R, 5), (R, 5)]),
]


def components(rules, number):
    return [(c.kind, c.length) for c in rules.round(number).contract]


@pytest.mark.parametrize(("number", "dealt", "wild", "contract"), MEXICAN_TABLE, ids=lambda v: str(v))
def test_mexican_round_table(number, dealt, wild, contract):
    rules = find_rules("mexican")
    assert rules.round(number).dealt == dealt
    assert rules.wild_rank(number) == wild
    assert components(rules, number) == contract
    assert rules.round(number).final is (number == 7)


@pytest.mark.parametrize("ruleset", ["contract", "liverpool"])
@pytest.mark.parametrize(("number", "dealt", "contract"), CONTRACT_TABLE, ids=lambda v: str(v))
def test_contract_deal_table(ruleset, number, dealt, contract):
    rules = find_rules(ruleset)
    assert rules.round(number).dealt == dealt
    assert rules.wild_rank(number) is None
    assert components(rules, number) == contract
    assert rules.round(number).final is (number == 7)


@pytest.mark.parametrize(("number", "contract"), SHANGHAI_TABLE, ids=lambda v: str(v))
def test_shanghai_deal_table(number, contract):
    rules = find_rules("shanghai")
    assert rules.round(number).dealt == 11
    assert components(rules, number) == contract
    assert rules.round(number).final is False  # no special final deal


def test_mexican_stock_matches_the_worked_example():
    # 4 players, round 1: 28 held, 1 up, 79 in the stock.
    assert find_rules("mexican").stock(4, 1) == 79


@pytest.mark.parametrize(
    ("ruleset", "variants", "players", "packs", "jokers"),
    [
        ("mexican", [], 2, 2, 4),
        ("mexican", [], 6, 2, 4),
        ("mexican", ["third-deck"], 6, 3, 6),
        ("mexican", ["single-deck"], 3, 1, 2),
        ("contract", [], 3, 2, 2),
        ("contract", [], 5, 2, 4),
        ("contract", ["more-players"], 6, 3, 5),
        ("contract", ["more-players"], 8, 4, 7),
        ("shanghai", ["more-players"], 7, 4, 6),
    ],
)
def test_decks_per_player_count(ruleset, variants, players, packs, jokers):
    deck = find_rules(ruleset, variants).deck(players)
    assert (deck.packs, deck.jokers) == (packs, jokers)


@pytest.mark.parametrize(
    ("ruleset", "variants", "low", "high"),
    [
        ("mexican", [], 2, 6),
        ("mexican", ["single-deck"], 2, 3),
        ("contract", [], 3, 5),
        ("liverpool", [], 3, 5),
        ("shanghai", [], 3, 5),
        ("contract", ["more-players"], 3, 8),
    ],
)
def test_player_ranges(ruleset, variants, low, high):
    rules = find_rules(ruleset, variants)
    assert (rules.min_players, rules.max_players) == (low, high)
    with pytest.raises(PlayerCountError, match=f"for {low}-{high} players"):
        rules.deck(high + 1)
    with pytest.raises(PlayerCountError):
        rules.deck(low - 1)


@pytest.mark.parametrize(
    ("variants", "wilds"),
    [([], [3, 4, 5, 6, 7, 8, 9]), (["fixed-twos"], [2] * 7), (["kings-wild"], [13] * 7)],
)
def test_mexican_wild_ranks(variants, wilds):
    rules = find_rules("mexican", variants)
    assert [rules.wild_rank(n) for n in range(1, 8)] == wilds


def test_single_deck_plays_rounds_one_to_five():
    rules = find_rules("mexican", ["single-deck"])
    assert rules.last_round == 5
    assert rules.stock(3, 5) == 54 - 33 - 1
    with pytest.raises(RoundOutOfRange, match="no round 6"):
        rules.round(6)


def test_variant_effects_on_policies():
    assert find_rules("mexican").swap is SwapPolicy.NONE
    assert find_rules("mexican", ["wild-swap"]).swap is SwapPolicy.ANY_WILD
    assert find_rules("contract").swap is SwapPolicy.JOKER_IN_RUN
    assert not find_rules("mexican").layoff_on_opening_turn
    assert find_rules("mexican", ["open-turn-layoff"]).layoff_on_opening_turn
    assert not find_rules("mexican").buys.allowed
    assert find_rules("mexican", ["buy-discard"]).buys.limit == 3
    assert find_rules("contract").buys.allowed and find_rules("contract").buys.limit is None
    assert find_rules("shanghai").buys.limit == 2
    free = find_rules("contract", ["free-meld"])
    assert (free.exact_opening, free.runs_may_join) == (False, True)
    assert (find_rules("contract").exact_opening, find_rules("contract").runs_may_join) == (True, False)
    assert find_rules("liverpool").cut_bonus == 50 and find_rules("contract").cut_bonus == 0
    assert find_rules("mexican").tie_break is TieBreak.ROUND_WINS
    assert find_rules("contract").tie_break is TieBreak.SHARED


@pytest.mark.parametrize(
    ("ruleset", "joker", "wild", "ace", "ten", "number"),
    [("mexican", 20, 20, 15, 10, 5), ("contract", 15, None, 15, 10, None), ("shanghai", 50, None, 15, 10, None)],
)
def test_penalty_tables(ruleset, joker, wild, ace, ten, number):
    p = find_rules(ruleset).penalties
    assert (p.joker, p.wild, p.ace, p.ten_to_king, p.number) == (joker, wild, ace, ten, number)


def test_unknown_ruleset_says_so():
    with pytest.raises(UnknownRuleset, match="Unsupported ruleset: 'gin'"):
        find_rules("gin")


def test_unknown_variant_says_so():
    with pytest.raises(UnknownVariant, match="Unsupported variant: 'aces-wild'"):
        find_variant("aces-wild")
    with pytest.raises(UnknownVariant, match="Unsupported variant"):
        find_rules("mexican", ["aces-wild"])


def test_variant_of_another_ruleset_says_so():
    with pytest.raises(UnknownVariant, match="'free-meld' belongs to contract, liverpool, shanghai, not mexican"):
        find_rules("mexican", ["free-meld"])
    with pytest.raises(UnknownVariant, match="'wild-swap' belongs to mexican, not contract"):
        find_rules("contract", ["wild-swap"])


@pytest.mark.parametrize(("a", "b"), [("fixed-twos", "kings-wild"), ("single-deck", "third-deck")])
def test_clashing_variants_are_refused(a, b):
    with pytest.raises(UnknownVariant, match="cannot be combined"):
        find_rules("mexican", [a, b])


def test_a_variant_listed_twice_is_refused():
    with pytest.raises(UnknownVariant, match="listed twice"):
        find_rules("mexican", ["kings-wild", "kings-wild"])


@pytest.mark.parametrize(("ruleset", "bad"), [("mexican", 0), ("mexican", 8), ("contract", 8), ("shanghai", 11)])
def test_round_out_of_range_says_so(ruleset, bad):
    with pytest.raises(RoundOutOfRange, match=f"no (round|deal) {bad}"):
        find_rules(ruleset).round(bad)


def test_every_variant_applies_to_a_known_ruleset():
    offered = {(ruleset, v.slug) for ruleset in RULESETS for v in variants_for(ruleset)}
    assert {slug for _ruleset, slug in offered} == set(VARIANTS)
    for ruleset, slug in offered:
        assert slug in find_rules(ruleset, [slug]).variants


def test_contract_words():
    assert find_rules().contract_words(2) == "1 book of 3+ and 1 run of 4+"
    assert find_rules().contract_words(7) == "3 runs of 4+, the whole hand at once, no discard"
    assert find_rules("shanghai").contract_words(6) == "2 groups of exactly 3 and 1 sequence of exactly 5"
    assert find_rules().wild_words(2) == "Fours and jokers are wild"
    assert find_rules("contract").wild_words(2) == "Only jokers are wild"
