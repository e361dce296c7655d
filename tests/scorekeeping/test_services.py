"""Score-keeping services: every rule, every refusal, and that a refusal changes nothing."""

import pytest

from referee.engine.rounds import EntryField, RoundEntry
from scorekeeping.api.representations import game_data
from scorekeeping.errors import Conflict, InvalidInput
from scorekeeping.models import Change, Game, Round
from scorekeeping.services import game_create, game_token_valid, game_undo, round_replace
from tests.helpers import fresh, record, thirteen


def state(game):
    """Everything a refusal must leave as it was."""
    return game_data(fresh(game)), Change.objects.filter(game=game).count()


# --- creating games ------------------------------------------------------------


def test_game_create_keeps_seat_order_and_a_hashed_token(game):
    assert [p.name for p in game.players.order_by("seat")] == ["Ana", "Ben", "Cy", "Dee"]
    assert len(game.token) >= 40
    assert game.token not in game.edit_token_hash
    assert game_token_valid(game=game, token=game.token)
    assert not game_token_valid(game=game, token=game.token + "x")
    assert not game_token_valid(game=game, token=None)


def test_game_create_trims_names(make_game):
    game = make_game(players=["  Ana  ", "Ben\tB"], first_dealer="ana")
    assert [p.name for p in game.players.all()] == ["Ana", "Ben B"]
    assert game.first_dealer_seat == 0


@pytest.mark.parametrize(
    ("players", "field", "message"),
    [
        (["Ana"], "players", "Mexican Rummy is for 2-6 players, not 1"),
        (["A", "B", "C", "D", "E", "F", "G"], "players", "for 2-6 players, not 7"),
        (["Ana", "  "], "players.1", "Player 2 needs a name"),
        (["Ana", "ANA"], "players.1", "ANA is already at the table (player 1)"),
        (["Ana", "x" * 31], "players.1", "is too long: names have at most 30 characters"),
    ],
)
def test_game_create_refuses_bad_players(db, players, field, message):
    with pytest.raises(InvalidInput) as info:
        game_create(ruleset="mexican", variants=[], players=players)
    assert any(message in m for m in info.value.errors[field])
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("ruleset", "variants", "count", "ok"),
    [
        ("contract", [], 2, False),
        ("contract", [], 5, True),
        ("contract", ["more-players"], 8, True),
        ("mexican", ["single-deck"], 4, False),
    ],
)
def test_game_create_player_ranges_follow_the_ruleset(db, ruleset, variants, count, ok):
    names = [f"P{i}" for i in range(count)]
    if ok:
        game, _ = game_create(ruleset=ruleset, variants=variants, players=names)
        assert game.players.count() == count
    else:
        with pytest.raises(InvalidInput, match="players"):
            game_create(ruleset=ruleset, variants=variants, players=names)


def test_game_create_refuses_unknown_rulesets_and_variants(db):
    with pytest.raises(InvalidInput) as info:
        game_create(ruleset="gin", variants=[], players=["A", "B"])
    assert "ruleset" in info.value.errors
    with pytest.raises(InvalidInput) as info:
        game_create(ruleset="mexican", variants=["free-meld"], players=["A", "B"])
    assert "variants" in info.value.errors


def test_first_dealer_random_is_a_player(db):
    seats = {
        game_create(ruleset="mexican", variants=[], players=["A", "B", "C"])[0].first_dealer_seat for _ in range(30)
    }
    assert seats <= {0, 1, 2}
    assert len(seats) > 1  # 30 draws all alike would be a 1 in 3^29 chance


def test_first_dealer_drawn_highest_card_aces_low(db):
    game, _ = game_create(
        ruleset="mexican", variants=[], players=["Ana", "Ben", "Cy"], draw={"Ana": "KS", "Ben": "AD", "Cy": "10H"}
    )
    assert (game.first_dealer_seat, game.first_dealer_method) == (0, "draw")  # the king; the ace is low


def test_first_dealer_draw_tie_redraws(db):
    with pytest.raises(InvalidInput, match="Ana and Cy tie with the highest card \\(kings\\): they draw again"):
        game_create(
            ruleset="mexican", variants=[], players=["Ana", "Ben", "Cy"], draw={"Ana": "KS", "Ben": "2D", "Cy": "KH"}
        )


@pytest.mark.parametrize(
    ("draw", "field", "message"),
    [
        ({"Ana": "KS", "Ben": "JK"}, "draw.Ben", "draws one card, not a joker"),
        ({"Ana": "KS"}, "draw", "missing: Ben"),
        ({"Ana": "KS", "Ben": "ZZ"}, "draw.Ben", "'ZZ' is not a card"),
        ({"Ana": "KS", "Ben": "2C", "Zed": "3C"}, "draw.Zed", "'Zed' is not one of the players"),
    ],
)
def test_first_dealer_draw_refusals(db, draw, field, message):
    with pytest.raises(InvalidInput) as info:
        game_create(ruleset="mexican", variants=[], players=["Ana", "Ben"], draw=draw)
    assert any(message in m for m in info.value.errors[field])


def test_first_dealer_named_must_be_a_player(db):
    with pytest.raises(InvalidInput, match="'Zed' is not one of the players"):
        game_create(ruleset="mexican", variants=[], players=["Ana", "Ben"], first_dealer="Zed")


# --- recording rounds ----------------------------------------------------------


def test_round_record_issue_example(game):
    record(game, 1, "Ana", {"Ben": "4C KC", "Cy": "JK", "Dee": "3D AS"})
    data = game_data(fresh(game))
    assert {s["player"]: s["points"] for s in data["rounds"][0]["scores"]} == {"Ana": 0, "Ben": 15, "Cy": 20, "Dee": 35}
    current = data["current_round"]
    assert (current["number"], current["dealer"], current["first_player"], current["hand_size"]) == (2, "Ben", "Cy", 8)
    assert (current["wild_rank"], current["stock"]) == ("4", 75)


def test_round_record_keeps_the_breakdown_and_the_rules_of_the_round(game):
    record(game, 1, "Ana", {"Ben": "9C", "Cy": "3H", "Dee": "AS"})
    rnd = Round.objects.get(game=game, number=1)
    assert (rnd.wild_rank, rnd.dealt, rnd.dealer.name) == ("3", 7, "Ana")
    ben = rnd.scores.get(player__name="Ben")
    assert ben.breakdown == [{"card": "9C", "points": 5, "wild": False}]
    cy = rnd.scores.get(player__name="Cy")
    assert cy.breakdown == [{"card": "3H", "points": 20, "wild": True}]


def test_a_written_score_never_changes_when_the_rank_becomes_wild_later(game):
    record(game, 1, "Ana", {"Ben": "9C", "Cy": "9D", "Dee": "9H"})
    for n in range(2, 7):
        record(game, n, "Ana", {"Ben": "9C", "Cy": "2C", "Dee": "2D"})
    record(game, 7, "Ana", thirteen(["Ben", "Cy", "Dee"]))
    data = game_data(fresh(game))
    assert data["rounds"][0]["scores"][1]["points"] == 5  # a nine in round 1
    nine = data["rounds"][6]["scores"][1]["breakdown"][8]
    assert nine == {"card": "9C", "points": 20, "wild": True}  # a nine in round 7, nines wild


def test_round_record_typed_points(game):
    record(game, 1, "Ana", {"Ben": "4C"}, {"Cy": 45, "Dee": 5})
    scores = {s.player.name: (s.points, s.typed) for s in Round.objects.get(number=1).scores.all()}
    assert scores == {"Ana": (0, False), "Ben": (5, False), "Cy": (45, True), "Dee": (5, True)}


def test_round_record_no_winner_scores_every_hand(game):
    record(game, 1, None, {"Ana": "2C", "Ben": "4C KC", "Cy": "JK", "Dee": "3D AS"})
    rnd = Round.objects.get(number=1)
    assert rnd.winner is None
    assert sorted(s.points for s in rnd.scores.all()) == [5, 15, 20, 35]


def test_round_record_names_match_case_insensitively(game):
    record(game, 1, "ana", {"BEN": "4C", "cy": "5C", "Dee ": "6C"})
    assert Round.objects.get(number=1).winner.name == "Ana"


REFUSALS = [
    # number, winner, hands, points, extra, field, message
    (2, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"}, {}, {}, "number", "Out of order: round 1 is next, not round 2"),
    (1, "Zed", {"Ben": "4C", "Cy": "5C", "Dee": "6C"}, {}, {}, EntryField("winner"), "no player named 'Zed'"),
    (1, "Ana", {"Ben": "4C", "Cy": "5C", "Zed": "6C"}, {}, {}, EntryField("hands", "Zed"), "no player named 'Zed'"),
    (
        1,
        "Ana",
        {"Ana": "2C", "Ben": "4C", "Cy": "5C", "Dee": "6C"},
        {},
        {},
        EntryField("hands", "Ana"),
        "Ana went out, so Ana holds no cards; 1 card was entered",
    ),
    (
        1,
        "Ana",
        {"Ben": "4C", "Cy": "5C"},
        {"Ana": 10, "Dee": 5},
        {},
        EntryField("points", "Ana"),
        "Ana went out and scores 0",
    ),
    (
        1,
        "Ana",
        {"Ben": "4C", "Cy": "5C"},
        {},
        {},
        EntryField("hands", "Dee"),
        "Dee's cards left in hand (or points) are missing",
    ),
    (
        1,
        "Ana",
        {"Ben": "4C", "Cy": "5C", "Dee": "6C"},
        {"Dee": 5},
        {},
        EntryField("hands", "Dee"),
        "Give Dee's cards or Dee's points, not both",
    ),
    (
        1,
        "Ana",
        {"Ben": "4C", "Cy": "5C", "Dee": ""},
        {},
        {},
        EntryField("hands", "Dee"),
        "Dee did not go out, so Dee holds cards",
    ),
    (
        1,
        "Ana",
        {"Ben": "2C 4C 5C 6C 7C 8C 9C 10C", "Cy": "5C", "Dee": "6C"},
        {},
        {},
        EntryField("hands", "Ben"),
        "Ben holds 8 cards, but could hold at most 7 (7 dealt)",
    ),
    (
        1,
        "Ana",
        {"Ben": "4C 4C", "Cy": "4C", "Dee": "6C"},
        {},
        {},
        EntryField("hands"),
        "Across all hands: 4C appears 3 times, but the 2 packs hold only 2",
    ),
    (
        1,
        "Ana",
        {"Ben": "JK JK", "Cy": "JK JK", "Dee": "JK"},
        {},
        {},
        EntryField("hands"),
        "5 jokers appear, but the packs hold only 4",
    ),
    (
        1,
        "Ana",
        {"Ben": "4C", "Cy": "5X", "Dee": "6C"},
        {},
        {},
        EntryField("hands", "Cy"),
        "Cy: card 1: '5X' is not a card",
    ),
    (
        1,
        "Ana",
        {"Ben": "4C", "Cy": "5C"},
        {"Dee": -5},
        {},
        EntryField("points", "Dee"),
        "Dee's points must be a whole number of 0 or more, not -5",
    ),
    (
        1,
        "Ana",
        {"Ben": "4C", "Cy": "5C"},
        {"Dee": 5.5},
        {},
        EntryField("points", "Dee"),
        "whole number of 0 or more, not 5.5",
    ),
    (1, "Ana", {"Ben": "4C", "Cy": "5C"}, {"Dee": "ten"}, {}, EntryField("points", "Dee"), "not 'ten'"),
    (
        1,
        "Ana",
        {"Ben": "4C", "Cy": "5C"},
        {"Dee": 900},
        {},
        EntryField("points", "Dee"),
        "In round 1 Dee holds 1 to 7 cards, which score from 5 to 140: 900 is not a total they can make",
    ),
    (
        1,
        "Ana",
        {"Ben": "4C", "Cy": "5C", "Dee": "6C"},
        {},
        {"buys": {"Ben": 1}},
        EntryField("buys", "Ben"),
        "Mexican Rummy has no buys (the variant “Buy the discard” allows them)",
    ),
    (
        1,
        "Ana",
        {"Ben": "4C", "Cy": "5C", "Dee": "6C"},
        {},
        {"cut_bonus": True},
        EntryField("cut_bonus"),
        "has no cut bonus",
    ),
]


@pytest.mark.parametrize(
    ("number", "winner", "hands", "points", "extra", "field", "message"), REFUSALS, ids=[r[6][:50] for r in REFUSALS]
)
def test_round_record_refusals_name_the_field_and_change_nothing(
    game, number, winner, hands, points, extra, field, message
):
    before = state(game)
    with pytest.raises(InvalidInput) as info:
        record(game, number, winner, hands, points, **extra)
    assert any(message in m for m in info.value.errors.get(field, [])), info.value.errors
    assert state(game) == before


def test_round_record_reports_every_problem_at_once(game):
    with pytest.raises(InvalidInput) as info:
        record(game, 1, "Ana", {"Ana": "2C", "Ben": "4X", "Zed": "5C"}, {"Dee": -1})
    hands = {EntryField("hands", name) for name in ("Ana", "Ben", "Zed", "Cy")}
    assert set(info.value.errors) == {*hands, EntryField("points", "Dee")}


def test_round_record_already_recorded_is_a_conflict(game):
    record(game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"})
    before = state(game)
    with pytest.raises(Conflict, match="Someone already recorded round 1"):
        record(game, 1, "Ben", {"Ana": "4C", "Cy": "5C", "Dee": "6C"})
    assert state(game) == before


def test_round_record_after_the_last_round_is_refused(make_game):
    game = make_game(players=["Ana", "Ben"], variants=["single-deck"])
    for n in range(1, 6):
        record(game, n, "Ana", {"Ben": "4C"})
    assert fresh(game).rounds.count() == 5
    with pytest.raises(InvalidInput, match="has 5 rounds; there is no round 6"):
        record(game, 6, "Ana", {"Ben": "4C"})


def test_round_record_stale_version_is_a_conflict_saying_what_changed(game):
    version = game.version
    record(game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"}, version=version)
    with pytest.raises(Conflict, match="round 1 was recorded"):
        record(game, 2, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"}, version=version)


# --- buys and bonuses ------------------------------------------------------------


def test_buys_raise_the_cards_a_player_may_hold(make_game):
    game = make_game(variants=["buy-discard"])
    eleven = "2C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
    with pytest.raises(InvalidInput, match="Ben holds 11 cards, but could hold at most 9 \\(7 dealt and 1 buy\\)"):
        record(game, 1, "Ana", {"Ben": eleven, "Cy": "5D", "Dee": "6D"}, buys={"Ben": 1})
    record(game, 1, "Ana", {"Ben": eleven, "Cy": "5D", "Dee": "6D"}, buys={"Ben": 2})
    assert Round.objects.get(number=1).scores.get(player__name="Ben").buys == 2


@pytest.mark.parametrize(("ruleset", "variants", "limit"), [("mexican", ["buy-discard"], 3), ("shanghai", [], 2)])
def test_buys_are_held_to_the_limit(make_game, ruleset, variants, limit):
    game = make_game(ruleset=ruleset, variants=variants)
    with pytest.raises(InvalidInput, match=f"Ben took {limit + 1} buys; .* allows at most {limit}"):
        record(game, 1, "Ana", {"Ben": "4C", "Cy": "5D", "Dee": "6D"}, buys={"Ben": limit + 1})


def test_contract_buys_have_no_limit(make_game):
    game = make_game(ruleset="contract")
    record(game, 1, "Ana", {"Ben": "4C", "Cy": "5D", "Dee": "6D"}, buys={"Ben": 9})
    assert Round.objects.get(number=1).scores.get(player__name="Ben").buys == 9


def test_liverpool_cut_bonus_goes_to_the_player_right_of_the_dealer(make_game):
    game = make_game(ruleset="liverpool")  # Ana deals round 1; Dee sits to her right
    record(game, 1, "Ana", {"Ben": "4C", "Cy": "5D", "Dee": "6D"}, cut_bonus=True)
    scores = {s.player.name: (s.penalty, s.adjustment, s.points) for s in Round.objects.get(number=1).scores.all()}
    assert scores["Dee"] == (6, -50, -44)
    assert scores["Ben"] == (4, 0, 4)


def test_contract_scores_face_value_and_joker_fifteen(make_game):
    game = make_game(ruleset="contract")
    record(game, 1, "Ana", {"Ben": "KC 7H JK", "Cy": "5D", "Dee": "AD"})
    scores = {s.player.name: s.points for s in Round.objects.get(number=1).scores.all()}
    assert scores == {"Ana": 0, "Ben": 32, "Cy": 5, "Dee": 15}


def test_copies_follow_the_players_deck(make_game):
    # Contract Rummy with 3 players: 2 jokers.
    game = make_game(ruleset="contract", players=["Ana", "Ben", "Cy"])
    with pytest.raises(InvalidInput, match="3 jokers appear, but the packs hold only 2"):
        record(game, 1, "Ana", {"Ben": "JK JK", "Cy": "JK"})


# --- corrections and history -------------------------------------------------------


def test_round_replace_corrects_totals_and_keeps_the_old_round_in_history(game):
    record(game, 1, "Ana", {"Ben": "4C KC", "Cy": "JK", "Dee": "3D AS"})
    record(game, 2, "Ben", {"Ana": "5C", "Cy": "5D", "Dee": "6D"})
    round_replace(
        game=game, number=1, entry=RoundEntry(winner="Cy", hands={"Ana": "KC", "Ben": "4C KC", "Dee": "3D AS"})
    )
    data = game_data(fresh(game))
    totals = {r["player"]: r["total"] for r in data["standings"]["standings"]}
    assert totals == {"Ana": 15, "Ben": 15, "Cy": 5, "Dee": 40}
    correction = Change.objects.filter(game=game).order_by("-id").first()
    assert correction.action == "correct"
    assert correction.before["winner"] == "Ana"
    assert correction.after["winner"] == "Cy"


def test_round_replace_unrecorded_round_is_refused(game):
    with pytest.raises(InvalidInput, match="Nothing is recorded for round 3 yet"):
        round_replace(game=game, number=3, entry=RoundEntry(winner="Ana"))


def test_round_replace_refusal_changes_nothing(game):
    record(game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"})
    before = state(game)
    with pytest.raises(InvalidInput):
        entry = RoundEntry(winner="Ana", hands={"Ana": "4C", "Ben": "4C", "Cy": "5C", "Dee": "6C"})
        round_replace(game=game, number=1, entry=entry)
    assert state(game) == before


def test_undo_steps_back_through_changes_and_nothing_is_lost(game):
    record(game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"})
    record(game, 2, "Ben", {"Ana": "5C", "Cy": "5D", "Dee": "6D"})
    round_replace(game=game, number=1, entry=RoundEntry(winner="Cy", hands={"Ana": "KC", "Ben": "4C", "Dee": "6C"}))
    game_undo(game=game)  # the correction
    assert fresh(game).rounds.get(number=1).winner.name == "Ana"
    game_undo(game=game)  # round 2
    assert fresh(game).rounds.count() == 1
    game_undo(game=game)  # round 1
    assert fresh(game).rounds.count() == 0
    with pytest.raises(InvalidInput, match="nothing to undo"):
        game_undo(game=game)
    history = list(Change.objects.filter(game=game).order_by("id").values_list("action", "round_number"))
    assert history == [("record", 1), ("record", 2), ("correct", 1), ("undo", 1), ("undo", 2), ("undo", 1)]


def test_undo_then_record_again(game):
    record(game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"})
    game_undo(game=game)
    record(game, 1, "Ben", {"Ana": "4C", "Cy": "5C", "Dee": "6C"})
    assert fresh(game).rounds.get(number=1).winner.name == "Ben"
    game_undo(game=game)
    assert fresh(game).rounds.count() == 0


def test_every_change_bumps_the_version(game):
    v = fresh(game).version
    record(game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"})
    round_replace(game=game, number=1, entry=RoundEntry(winner="Ben", hands={"Ana": "4C", "Cy": "5C", "Dee": "6C"}))
    game_undo(game=game)
    assert fresh(game).version == v + 3


def test_redo_takes_back_the_last_undo_and_only_that(game):
    from scorekeeping.services import game_redo

    record(game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"})
    before = game_data(fresh(game))["rounds"]
    with pytest.raises(InvalidInput, match="There is nothing to redo"):
        game_redo(game=game)
    game_undo(game=game)
    assert game_data(fresh(game))["rounds"] == []
    change = game_redo(game=game)
    assert change.action == "record" and game_data(fresh(game))["rounds"] == before
    with pytest.raises(InvalidInput, match="There is nothing to redo"):
        game_redo(game=game)  # the redo is the latest change now, not an undo


def test_redo_of_an_undone_correction_corrects_again(game):
    from scorekeeping.services import game_redo

    record(game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"})
    round_replace(game=game, number=1, entry=RoundEntry(winner="Ana", hands={"Ben": "KC", "Cy": "5C", "Dee": "6C"}))
    corrected = game_data(fresh(game))["rounds"]
    game_undo(game=game)
    assert game_redo(game=game).action == "correct"
    assert game_data(fresh(game))["rounds"] == corrected
