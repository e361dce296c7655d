"""House rules (issue 37): each knob of a ruleset document on its own, in the smallest case where
it plays differently from the built-in it is based on; and, for random documents within the
bounds, the solver's layouts pass the checker, every deal fits its deck, and documents round-trip."""

import json
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import (
    check_layoff,
    check_layout,
    check_swap,
    find_rules,
    parse_cards,
    parse_played,
    score_hand,
    solve_go_out,
    solve_open,
)
from referee.engine.documents import RANK_KEYS, DocumentError, document_of, rules_from_document
from referee.engine.standings import Entrant, ranked
from tests.helpers import same_play
from tests.referee.engine.house_documents import documents

MEXICAN = find_rules("mexican")


def house(**knobs):
    return rules_from_document({"based_on": "mexican", "name": "House", **knobs}, slug="house")


def opening(rules, number, *melds, **kwargs):
    return check_layout(rules, number, [parse_played(m) for m in melds], final=False, **kwargs)


@pytest.mark.parametrize(
    ("knobs", "melds", "reason"),
    [
        (
            {"books": {"suits": "distinct"}},
            ("7H 7H 7S", "9S 10S JS QS"),
            "meld 1 (7H 7H 7S) is not a book of 3+: a book of sevens (7H 7H 7S) holds hearts more than once "
            "(7H 7H); here a book holds each suit once at most",
        ),
        (
            {"runs": {"ace": "low"}},
            ("7C 7D 7H", "JS QS KS AS"),
            "meld 2 (JS QS KS AS) is not a run of 4+: JS QS KS AS would need a high ace (J-Q-K-A): "
            "here an ace is low only (A-2-3-4)",
        ),
        (
            {"runs": {"ace": "high"}},
            ("7C 7D 7H", "AS 2S 3S 4S"),
            "meld 2 (AS 2S 3S 4S) is not a run of 4+: AS 2S 3S 4S would need a low ace (A-2-3-4): "
            "here an ace is high only (J-Q-K-A)",
        ),
        (
            {"naturals": {"per_meld": 2}},
            ("7C JK JK", "9S 10S JS QS"),
            "meld 1 (7C JK JK) is not a book of 3+: a book of sevens (7C JK=7 JK=7) holds 1 natural card "
            "beside the wilds JK=7 JK=7; here a meld holds at least 2",
        ),
        (
            {"naturals": {"adjacent_wilds": False}},
            ("7C 7D 7H", "5H JK JK 8H"),
            "meld 2 (5H JK JK 8H) is not a run of 4+: a run 5H-8H (5H JK=6H JK=7H 8H): the wilds JK=6H and "
            "JK=7H stand side by side; here no two wilds are adjacent",
        ),
    ],
    ids=["distinct-suits", "ace-low", "ace-high", "per-meld", "adjacent-wilds"],
)
def test_a_knob_refuses_what_the_built_in_allows(knobs, melds, reason):
    assert opening(MEXICAN, 2, *melds).legal
    assert opening(house(**knobs), 2, *melds).reasons == (reason,)


def test_not_more_wilds_than_naturals_gives_the_reason_of_every_reading():
    reasons = opening(house(naturals={"wilds": "not_more"}), 2, "7C 7D 7H", "5H JK JK JK").reasons
    assert opening(MEXICAN, 2, "7C 7D 7H", "5H JK JK JK").legal
    assert len(reasons) == 3
    assert reasons[0] == (
        "meld 2 (5H JK JK JK) is not a run of 4+: a run 2H-5H (JK=2H JK=3H JK=4H 5H) holds more wilds "
        "(JK=2H JK=3H JK=4H) than natural cards (1); here a meld holds no more wilds than naturals"
    )
    assert opening(house(naturals={"wilds": "not_more"}), 2, "7C 7D 7H", "5H JK JK 8H").legal


@pytest.mark.parametrize("naturals", [{"per_meld": 2}, {"wilds": "not_more"}], ids=["per-meld", "not-more"])
def test_two_books_share_a_rank_so_each_keeps_the_naturals_the_limits_ask(naturals):
    # Four sevens and two jokers: 7 7 7 | 7 JK JK breaks the limit, 7 7 JK | 7 7 JK keeps it. The
    # greedy choice (the largest group first, as many as it takes) found only the first.
    rules = house(naturals=naturals)
    verdict = solve_open(rules, 1, parse_cards("7C 7D 7H 7S JK JK 9C KD"))
    assert verdict.legal
    assert sorted(str(m.reading) for m in verdict.melds) == ["7C 7D JK=7", "7H 7S JK=7"]


def test_books_of_distinct_suits_sharing_a_rank_are_laid_with_the_suits_planned():
    # Four queens (two of spades) for two books of distinct suits: each book takes a spade.
    rules = house(books={"suits": "distinct"}, wilds={"ranks": ["2"]}, naturals={"per_meld": 1, "wilds": "not_more"})
    verdict = solve_open(rules, 4, parse_cards("AD QH QC 2C 9S QS 10C 10D QS JK JK"))
    assert verdict.legal
    queens = [m.reading for m in verdict.melds if m.reading.rank == 12]
    assert len(queens) == 2 and all(len({p.card.suit for p in r.cards if not p.wild}) == 2 for r in queens)


def test_a_run_window_that_breaks_the_limits_is_passed_over_for_one_that_keeps_them():
    rules = house(naturals={"per_meld": 1, "wilds": "not_more", "adjacent_wilds": False})
    verdict = solve_open(rules, 2, parse_cards("7C 7D 7H 5H 8H 10S JK JK QD"))
    assert verdict.legal
    run = next(m.reading for m in verdict.melds if m.reading.kind.value == "run")
    assert not any(a.wild and b.wild for a, b in pairwise(run.cards))
    assert len(run.wilds) <= len(run.cards) - len(run.wilds)


def test_around_the_corner_allows_q_k_a_2_only_there():
    melds = ("7C 7D 7H", "QS KS AS 2S")
    assert opening(MEXICAN, 2, *melds).reasons == (
        "meld 2 (QS KS AS 2S) is not a run of 4+: QS KS AS 2S would wrap round the ace (K-A-2): "
        "an ace is low (A-2-3-4) or high (J-Q-K-A), never both",
    )
    verdict = opening(house(runs={"ace": "around"}), 2, *melds)
    assert verdict.legal and str(verdict.melds[1].reading) == "QS KS AS 2S"
    assert verdict.melds[1].reading.describe() == "a run QS-2S"


def test_every_round_wild_ranks_are_wild_beside_the_rounds_own():
    melds = ("7C 7D 2C", "9S 10S JS QS")
    assert not opening(MEXICAN, 2, *melds).legal
    verdict = opening(house(wilds={"ranks": ["2"]}), 2, *melds)
    assert verdict.legal and str(verdict.melds[0].reading) == "7C 7D 2C=7"


def test_a_wild_rank_card_that_may_not_stand_for_itself_counts_as_a_wild():
    built_in = opening(MEXICAN, 2, "4C 4D 4H", "9S 10S JS QS").melds[0].reading
    house_read = opening(house(wilds={"natural": False}), 2, "4C 4D 4H", "9S 10S JS QS").melds[0].reading
    assert [p.wild for p in built_in.cards] == [False, False, False]
    assert [p.wild for p in house_read.cards] == [True, True, True]


def test_jokers_not_wild_means_a_deck_without_them():
    rules = house(wilds={"jokers": False}, deck={"packs": 2, "jokers": 0})
    assert opening(rules, 2, "7C 7D JK", "9S 10S JS QS").reasons[0] == "1 joker appears, but the packs hold only 0"


def test_book_and_run_minimums():
    rounds = [{"dealt": 10, "contract": [{"meld": "book", "size": 4}, {"meld": "run", "size": 3}]}]
    rules = house(books={"min": 4}, runs={"min": 3}, rounds=rounds)
    assert opening(rules, 1, "7C 7D 7H 7S", "5H 6H 7H").legal
    assert opening(rules, 1, "7C 7D 7H", "5H 6H 7H").reasons == (
        "meld 1 (7C 7D 7H) is not a book of 4+: a book needs at least 4 cards; 7C 7D 7H has 3",
    )


def test_a_layoff_that_makes_wilds_outnumber_naturals_is_refused():
    rules = house(naturals={"wilds": "not_more"})
    target = parse_played("5H JK 7H JK")  # two naturals, two wilds: as many, allowed
    assert check_layoff(MEXICAN, 2, target, parse_played("4C")).legal
    reasons = check_layoff(rules, 2, target, parse_played("4C")).reasons
    assert len(reasons) == 4  # two readings of the target, each grown at either end
    assert reasons[0] == (
        "4C cannot go onto a run 4H-7H (JK=4H 5H JK=6H 7H): a run 3H-7H (4C=3H JK=4H 5H JK=6H 7H) holds more "
        "wilds (4C=3H JK=4H JK=6H) than natural cards (2); here a meld holds no more wilds than naturals"
    )
    assert check_layoff(rules, 2, target, parse_played("8H")).legal


def test_a_swap_that_puts_a_suit_twice_in_a_distinct_book_is_refused():
    rules = house(books={"suits": "distinct"}, table={"wild_swap": "any_wild"})
    plain = house(table={"wild_swap": "any_wild"})
    assert check_swap(plain, 2, parse_played("7H 7S JK"), parse_played("7H")).legal
    assert check_swap(rules, 2, parse_played("7H 7S JK"), parse_played("7H")).reasons == (
        "7H cannot replace JK in a book of sevens (7H 7S JK=7): a book of sevens (7H 7S 7H) holds hearts more "
        "than once (7H 7H); here a book holds each suit once at most",
    )
    assert check_swap(rules, 2, parse_played("7H 7S JK"), parse_played("7D")).legal


def test_points_by_rank_and_wild_points_for_every_wild_rank():
    points = {**document_of(MEXICAN)["points"], "3": 30, "Q": 12}
    rules = house(points=points, wilds={"ranks": ["2"]})
    hand = parse_cards("3C QH 2D 5S")  # round 2: fours are the round's wild, twos every round's
    assert score_hand(MEXICAN, 2, hand).points == 5 + 10 + 5 + 5
    assert score_hand(rules, 2, hand).points == 30 + 12 + 20 + 5
    assert document_of(rules)["points"]["3"] == 30


def test_going_out_without_a_discard_lays_every_card():
    hand = "7C 7D 7H 7S 9S 10S JS QS KS"  # round 2: 8 dealt and 1 drawn
    melds = ("7C 7D 7H 7S", "9S 10S JS QS KS")
    assert opening(MEXICAN, 2, *melds).reasons[0].startswith("9 cards are every card a hand holds in round 2")
    verdict = opening(house(going_out={"discard": False}), 2, *melds)
    assert verdict.legal and verdict.notes == ("This lays down every card: you are out, with no discard.",)
    assert solve_open(house(going_out={"discard": False}), 2, parse_cards(hand)).unused == ()


def test_the_highest_total_wins_where_the_rules_say():
    entrants = [Entrant(1, "Ana", 10, 0), Entrant(2, "Ben", 30, 0)]
    assert [(e.name, place) for e, place in ranked(entrants, MEXICAN)] == [("Ana", 1), ("Ben", 2)]
    assert [(e.name, place) for e, place in ranked(entrants, house(lowest_wins=False))] == [("Ben", 1), ("Ana", 2)]


def test_a_deep_merge_keeps_what_an_object_does_not_name():
    rules = house(points={"JK": 50}, table={"buys": {"allowed": True}})
    assert rules.penalties.joker == 50 and rules.penalties.ace == 15
    assert rules.buys.allowed and rules.tie_break is MEXICAN.tie_break


# --- properties over random house documents -----------------------------------------------


@settings(max_examples=60, deadline=None)
@given(documents(), st.randoms(use_true_random=False))
def test_every_layout_the_solver_finds_passes_the_checker(document, rng):
    rules = rules_from_document(document, slug="house")
    deck = [c for c in parse_cards(" ".join(f"{r}{s}" for r in RANK_KEYS for s in "CDHS")) for _ in (0, 1)]
    for number in range(1, len(rules.rounds) + 1):
        hand = rng.sample(deck + parse_cards("JK JK JK JK"), rules.round(number).dealt + 1)
        verdict = solve_open(rules, number, hand)
        if verdict.legal:
            melds = [[p.as_played(_wilds(rules, number)) for p in m.reading.cards] for m in verdict.melds]
            assert check_layout(rules, number, melds, final=False).legal


def _wilds(rules, number):
    from referee.engine.melds import Wilds

    return Wilds.of(rules, number)


@settings(max_examples=40, deadline=None)
@given(documents(), st.randoms(use_true_random=False))
def test_every_go_out_the_solver_finds_passes_the_checker(document, rng):
    document = {**document, "rounds": [{"dealt": 12, "contract": [{"meld": "run", "size": 4}] * 3, "final": True}]}
    document["runs"] = {**document["runs"], "min": 4}
    rules = rules_from_document(document, slug="house")
    suit = rng.choice("CDHS")
    hand = parse_cards(" ".join(f"{r}{suit}" for r in RANK_KEYS[rng.randrange(2) :][:13]))
    verdict = solve_go_out(rules, 1, hand[:13])
    if verdict.legal:
        melds = [[p.as_played(_wilds(rules, 1)) for p in m.reading.cards] for m in verdict.melds]
        assert check_layout(rules, 1, melds, final=True).legal


@settings(max_examples=60, deadline=None)
@given(documents())
def test_every_deal_fits_the_deck_and_documents_round_trip(document):
    rules = rules_from_document(document, slug="house")
    for players in range(rules.min_players, rules.max_players + 1):
        for rnd in rules.rounds:
            assert rules.stock(players, rnd.number) >= 0
    written = json.loads(json.dumps(document_of(rules)))
    read = rules_from_document(written, slug="house")
    assert same_play(rules, read)
    assert document_of(read) == written


def test_a_house_document_with_an_impossible_combination_names_every_fault():
    with pytest.raises(DocumentError) as refused:
        house(
            books={"min": 4, "suits": "distinct"},
            rounds=[{"dealt": 10, "contract": [{"meld": "book", "size": 5}, {"meld": "run", "size": 4}]}],
            naturals={"per_meld": 2},
            wilds={"jokers": False},
        )
    assert [k for k, _why in refused.value.faults] == ["wilds.jokers", "rounds.1.contract.1.size"]
