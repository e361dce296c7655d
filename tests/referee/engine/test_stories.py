"""The players' stories from games built by hand, every figure worked out by hand in comments."""

from referee.engine.stories import (
    ROLLING_SHOWN,
    BestRound,
    Comeback,
    HeadToHead,
    PlayedGame,
    PlayedRound,
    Record,
    RulesetFigures,
    Swing,
    margin_of,
    profile,
    recap,
    records,
)


def game(game_id, date, players, rounds, places, ruleset="mexican", finished=True):
    played = tuple(PlayedRound(n, winner, dict(zip(players, points, strict=True))) for n, winner, points in rounds)
    return PlayedGame(game_id, ruleset, date, tuple(players), played, dict(zip(players, places, strict=True)), finished)


ABC = ("Ana", "Ben", "Cy")
# G1: totals Ana 30, Ben 35, Cy 35 (Ana wins; Ben and Cy share second).
G1 = game(
    "g1", "2026-01-01", ABC, [(1, "Ana", (0, 10, 20)), (2, "Ben", (30, 0, 5)), (3, "Ana", (0, 25, 10))], (1, 2, 2)
)
# G2: totals Ana 45, Ben 50, Cy 40 (Cy wins).
G2 = game("g2", "2026-01-08", ABC, [(1, "Cy", (40, 20, 0)), (2, "Ben", (5, 0, 15)), (3, "Ana", (0, 30, 25))], (2, 3, 1))
# G3: two players, the last round nobody went out: totals Ana 25, Ben 15 (Ben wins).
G3 = game("g3", "2026-01-15", ("Ana", "Ben"), [(1, "Ben", (15, 0)), (2, "Ana", (0, 5)), (3, None, (10, 10))], (2, 1))
# G4: another ruleset, one round: Ana 0, Ben 50, Cy 60.
G4 = game("g4", "2026-01-22", ABC, [(1, "Ana", (0, 50, 60))], (1, 2, 3), ruleset="contract")
# G5: unfinished: counted nowhere.
G5 = game("g5", "2026-01-29", ("Ana", "Ben"), [(1, "Ben", (99, 0))], (2, 1), finished=False)
GAMES = [G4, G2, G5, G1, G3]  # in no order: the story orders them by date


def test_a_profile_worked_out_by_hand():
    ana = profile("Ana", GAMES)
    assert (ana.games, ana.wins, ana.win_rate) == (4, 2, 50.0)  # won G1 and G4
    assert ana.rounds_out == 5  # G1 rounds 1 and 3, G2 round 3, G3 round 2, G4 round 1
    assert ana.longest_streak == 1  # won, lost, lost, won
    assert ana.by_ruleset == [
        RulesetFigures("contract", 1, 0.0, 0, 0),
        RulesetFigures("mexican", 3, 33.33, 25, 45),  # 30, 45, 25
    ]
    assert ana.main_ruleset == "mexican"
    assert ana.rolling_average == [30.0, 37.5, 33.33]  # 30; (30 + 45) / 2; (30 + 45 + 25) / 3
    # Round 1: (0 + 40 + 15) / 3 = 18.33; round 2: (30 + 5 + 0) / 3 = 11.67; round 3: (0 + 0 + 10) / 3.
    assert (ana.favourite_round, ana.worst_round) == (3, 1)
    assert ana.head_to_head == [
        # Ben: ahead in G1, G2, G4, behind in G3; Ben's total less Ana's: 5, 5, -10, 50.
        HeadToHead("Ben", 4, 3, 1, 12.5),
        # Cy: ahead in G1 and G4, behind in G2: 5, -5, 60.
        HeadToHead("Cy", 3, 2, 1, 20.0),
    ]
    assert ana.rival == "Cy"  # |2 - 1| < |3 - 1|
    assert ana.nemesis == "Cy"  # ahead of Ana once each; Cy in a larger share of their games (1/3 > 1/4)
    assert ana.rolling_from == 1  # told from the first game


def test_the_rolling_average_is_told_for_the_latest_hundred_games_as_a_whole_history_makes_it():
    """A chart a phone can show, whatever the history holds: the latest ROLLING_SHOWN games,
    each average over the five games up to it (the ones before the first shown included)."""
    played = [
        game(f"r{i:03d}", f"2026-01-01T{i // 60:02d}:{i % 60:02d}", ("Ana", "Ben"), [(1, "Ben", (i, 0))], (2, 1))
        for i in range(ROLLING_SHOWN + 10)
    ]
    ana = profile("Ana", played)
    assert ana.games == ROLLING_SHOWN + 10 and ana.rolling_from == 11
    assert len(ana.rolling_average) == ROLLING_SHOWN
    assert ana.rolling_average[0] == 8.0  # game 11 (total 10): (6 + 7 + 8 + 9 + 10) / 5
    assert ana.rolling_average[-1] == float(ROLLING_SHOWN + 7)  # the last five: 105 to 109


def test_a_profile_of_someone_never_beaten_has_no_nemesis_and_no_rival_under_three_games():
    ben = profile("Ben", [G3])
    assert (ben.games, ben.wins, ben.win_rate, ben.longest_streak) == (1, 1, 100.0, 1)
    assert ben.nemesis is None and ben.rival is None
    assert profile("Zed", GAMES).games == 0 and profile("Zed", GAMES).rolling_average == []


def test_a_win_streak_counts_games_won_in_a_row_in_the_order_played():
    wins = [game(f"w{i}", f"2026-02-0{i}", ("Ana", "Ben"), [(1, "Ana", (0, 5))], (1, 2)) for i in range(1, 4)]
    loss = game("w9", "2026-02-05", ("Ana", "Ben"), [(1, "Ben", (5, 0))], (2, 1))
    assert profile("Ana", [*wins, loss]).longest_streak == 3
    assert profile("Ben", [*wins, loss]).longest_streak == 1


def test_records_per_ruleset_worked_out_by_hand():
    assert records(GAMES) == [
        Record("lowest game total", "contract", "Ana", 0, "g4", "2026-01-22"),
        Record("highest single-round penalty", "contract", "Cy", 60, "g4", "2026-01-22"),
        Record("most rounds gone out in one game", "contract", "Ana", 1, "g4", "2026-01-22"),
        Record("longest win streak", "contract", "Ana", 1, "g4", "2026-01-22"),
        Record("lowest game total", "mexican", "Ben", 15, "g3", "2026-01-15"),
        Record("highest single-round penalty", "mexican", "Ana", 40, "g2", "2026-01-08"),
        Record("most rounds gone out in one game", "mexican", "Ana", 2, "g1", "2026-01-01"),
        Record("longest win streak", "mexican", "Ana", 1, "g1", "2026-01-01"),  # the first to set it keeps it
        # G1: after round 2 Ana had 30 and Ben 10: 20 behind, and won.
        Record("biggest comeback", "mexican", "Ana", 20, "g1", "2026-01-01"),
    ]


def test_a_recap_worked_out_by_hand():
    told = recap(G1)
    assert told.winners == ["Ana"]
    assert told.places == [(1, "Ana", 30), (2, "Ben", 35), (2, "Cy", 35)]
    assert told.deciding_round == 3  # Ben led after round 2; Ana alone from round 3 to the end
    assert told.biggest_swing == Swing(2, "Ben", "Ana", 30)  # round 2: Ben 0, Ana 30
    assert told.round_best == [(1, ["Ana"]), (2, ["Ben"]), (3, ["Ana"])]
    assert told.comeback == Comeback("Ana", 20, 2)
    nobody_out = recap(G3)
    assert nobody_out.round_best[-1] == (3, ["Ana", "Ben"])  # the lowest penalty, shared
    assert nobody_out.comeback is None and nobody_out.deciding_round == 1  # Ben led from the start
    unfinished = recap(G5)
    assert unfinished.winners == [] and unfinished.deciding_round is None


def test_the_finish_tells_the_margin_and_the_round_a_player_did_best_in():
    # Ana 10 + 0 = 10, Ben 0 + 45 = 45, Cy 30 + 60 = 90: Ana wins by 35; in round 2 Ana scored 0
    # against the others' average of (45 + 60) / 2 = 52.5, rounded half to even: 52, the best of any round.
    played = game(
        "g", "2026-12-01", ["Ana", "Ben", "Cy"], [(1, "Ben", [10, 0, 30]), (2, "Ana", [0, 45, 60])], [1, 2, 3]
    )
    told = recap(played)
    assert told.margin == 35
    assert told.best_round == BestRound(round=2, player="Ana", ahead=52)


def test_a_shared_win_has_no_margin_and_an_even_round_no_best():
    played = game("g", "2026-12-01", ["Ana", "Ben"], [(1, None, [20, 20])], [1, 1])
    told = recap(played)
    assert told.margin is None
    assert told.best_round is None
    assert margin_of(["Ana"], [(1, "Ana", 20)]) is None  # a table of one has nobody to be ahead of
