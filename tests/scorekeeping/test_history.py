"""The stories kept as the games finish (issue 51): after every way a history can change (a game
finished, finished out of the played order, corrected, undone, recorded again, imported into the
past, deleted; a member renamed), the kept lines equal the lines made from the games from scratch
(``manage.py stories --rebuild`` proves it), and every figure read from them (records, the
players' list, a profile, the ladder) equals the engine's fold of the whole history. A round of a
game in progress writes no line. On SQLite and on PostgreSQL (``DATABASE_URL``); a stateful
property test does the same on random histories."""

import datetime as dt
import json
import os

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from referee.engine.ladder import ladder, most_played
from referee.engine.stories import player_lines, profile, records
from referee.engine.words import name_key
from scorekeeping.models import Game, StoryLine
from scorekeeping.selectors import game_get
from scorekeeping.selectors.folding import folded
from scorekeeping.selectors.lines import SERVER, kept_games
from scorekeeping.selectors.stories import ClubStories, ServerStories
from scorekeeping.services import RoundEntry, game_create, game_undo, round_replace
from scorekeeping.services.clubs import club_create, member_rename, night_create, night_present
from scorekeeping.services.exchange import game_document, game_import
from scorekeeping.services.history import game_delete, rebuilt
from scorekeeping.services.sittings import sitting_draw
from tests.helpers import record

pytestmark = pytest.mark.django_db(transaction=True)


def points(players, winner, number, seed=0):
    """Every other player's penalty: multiples of 5 a hand can make (round 7: 13 cards, 65 at least)."""
    base = 65 if number == 7 else 5
    return {p: base + 5 * ((i + number + seed) % 5) for i, p in enumerate(players) if p != winner}


def play(game, winners, seed=0, upto=7, start=1):
    names = [p.name for p in game.players.order_by("seat")]
    for number in range(start, upto + 1):
        winner = winners[(number - 1) % len(winners)]
        record(game, number, winner, points=points(names, winner, number, seed))
    return game


def server_fold():
    """This server's games folded from nothing, a name shown as written in the latest finished
    game (the oracle)."""
    ids = list(Game.objects.filter(club_table__isnull=True).values_list("pk", flat=True))
    kept = sorted(kept_games(ids), key=lambda k: k.table.order, reverse=True)
    spelled = {}
    for game in folded([k.table for k in kept]):
        for name in game.players if game.finished else ():
            spelled.setdefault(name_key(name), name)
    return folded([k.table for k in kept], spelled)


def assert_kept_equals_fold(club=None):
    """The kept lines are what the games make, and every figure read from them is the fold's."""
    assert rebuilt(write=False).differences == []
    scopes = [(ServerStories(), server_fold())]
    if club is not None:
        stories = ClubStories(club)
        ids = Game.objects.filter(club_table__sitting__night__club=club).values_list("pk", flat=True)
        scopes.append((stories, folded([k.table for k in kept_games(ids)])))
    for stories, games in scopes:
        assert stories.records() == records(games)
        assert stories.player_lines() == player_lines(games)
        for line in player_lines(games):
            assert stories.profile(line.name) == profile(line.name, games)
        main = most_played(games)
        if main is not None:
            kept, fold = stories.ladder(), ladder(games, main)
            assert (kept.ruleset, kept.players, kept.unrated) == (fold.ruleset, fold.players, fold.unrated)
            first = fold.players[0].name if fold.players else None
            if first is not None:
                assert stories.ladder(history_of=first).history[first] == fold.history[first]


def test_every_change_to_a_history_keeps_the_lines_equal_to_a_fold_from_scratch():
    made = []
    for i, winners in enumerate((["Ana"], ["Ben", "Ana"], ["Cy"], ["Ana", "Cy", "Ben"])):
        game, _token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben", "Cy"], first_dealer="Ana")
        made.append(play(game, winners, seed=i))
    assert StoryLine.objects.count() == 12
    assert_kept_equals_fold()

    # A game in progress: its rounds write no line.
    going, _token = game_create(ruleset="mexican", variants=[], players=["ana", "Dee"], first_dealer="Dee")
    with CaptureQueriesContext(connection) as captured:
        play(going, ["Dee"], upto=3)
    assert not any("story" in q["sql"].lower() and not q["sql"].startswith("SELECT") for q in captured.captured_queries)
    assert not StoryLine.objects.filter(game=going).exists()

    # The oldest game corrected: carried on from it.
    oldest = made[0]
    names = [p.name for p in oldest.players.order_by("seat")]
    round_replace(
        game=game_get(game_id=oldest.pk), number=2, entry=RoundEntry(winner="Cy", points=points(names, "Cy", 2, 9))
    )
    assert_kept_equals_fold()

    # A finished game's last round taken back, then recorded again.
    game_undo(game=game_get(game_id=made[1].pk))
    assert not StoryLine.objects.filter(game=made[1]).exists()
    assert_kept_equals_fold()
    record(game_get(game_id=made[1].pk), 7, "Ben", points=points(names, "Ben", 7))
    assert_kept_equals_fold()

    # A game imported into the past: its history's times place it first.
    document = game_document(game_get(game_id=made[2].pk))
    document["created_at"] = "2020-01-02T10:00:00Z"
    for step, entry in enumerate(document["history"]):
        entry["at"] = (dt.datetime(2020, 1, 2, 10, tzinfo=dt.UTC) + dt.timedelta(minutes=step)).isoformat()
    imported, _token = game_import(document=json.loads(json.dumps(document)))
    first = StoryLine.objects.filter(scope=SERVER).order_by("position").first()
    assert first.game_id == imported.pk
    assert_kept_equals_fold()

    # The going game finished; then a game deleted.
    play(going, ["Dee", "ana"], start=4)
    assert_kept_equals_fold()
    game_delete(game_ids=[made[0].pk])
    assert not Game.objects.filter(pk=made[0].pk).exists()
    assert_kept_equals_fold()


def test_a_clubs_tables_finished_out_of_order_and_a_renamed_member_keep_the_lines_equal():
    club, token = club_create(name="De Joker")
    night = night_create(club=club, ruleset="mexican", sittings=2)
    night_present(night=night, names=["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"])
    tables = list(sitting_draw(night=night, organiser_token=token, seed=5).tables.order_by("number"))
    for table in reversed(tables):  # table 2 finishes first: table 1 goes in before it
        names = [p.name for p in table.game.players.order_by("seat")]
        play(table.game, [names[0], names[1]])
    assert_kept_equals_fold(club)
    tables = list(sitting_draw(night=night, organiser_token=token, seed=6).tables.order_by("number"))
    for table in tables:
        names = [p.name for p in table.game.players.order_by("seat")]
        play(table.game, [names[2]])
    member_rename(club=club, name="Ana", new_name="Anabel")
    assert_kept_equals_fold(club)
    assert "Anabel" in [line.name for line in ClubStories(club).player_lines()]


def test_the_rebuild_command_proves_the_kept_lines_equal_and_mends_them(capsys):
    game, _token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben"], first_dealer="Ana")
    play(game, ["Ana"])
    call_command("stories", "--rebuild")
    assert "The kept lines are equal to them." in capsys.readouterr().out
    StoryLine.objects.filter(game=game, seat=0).update(streak=7)  # as if a write had gone wrong
    with pytest.raises(Exception, match="differ"):
        call_command("stories", "--rebuild")
    call_command("stories", "--rebuild", "--write")
    assert rebuilt(write=False).differences == []


def test_a_finishing_write_costs_the_same_queries_whatever_the_history_holds():
    def finishing_queries():
        game, _token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben", "Cy"], first_dealer="Ana")
        play(game, ["Ben"], upto=6)
        names = ["Ana", "Ben", "Cy"]
        with CaptureQueriesContext(connection) as captured:
            record(game_get(game_id=game.pk), 7, "Ana", points=points(names, "Ana", 7))
        return len(captured.captured_queries)

    game, _token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben", "Cy"], first_dealer="Ana")
    play(game, ["Cy"])
    few = finishing_queries()  # after one game of the same players: their lines before are read
    for i in range(12):
        game, _token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben", "Cy"], first_dealer="Ana")
        play(game, ["Cy", "Ana"], seed=i)
    assert finishing_queries() == few


def test_a_profile_and_the_ladder_read_the_same_rows_whatever_the_history_holds():
    """A profile reads the player's sums, their pairs and the latest totals of their main ruleset;
    the ladder its sums and the latest rated games: as many queries, and as many rows, with one
    game behind them or thirteen (the rows: one a ruleset and an opponent, and the games shown)."""

    def reads():
        stories = ServerStories()
        with CaptureQueriesContext(connection) as captured:
            ana = stories.profile("Ana")
            rated = stories.ladder(history_of="Ana")
        sql = " ".join(q["sql"] for q in captured.captured_queries)
        return len(captured.captured_queries), len(ana.head_to_head), "LIMIT" in sql, rated

    game, _token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben", "Cy"], first_dealer="Ana")
    play(game, ["Cy"])
    few, opponents, limited, _rated = reads()
    assert opponents == 2 and limited
    for i in range(12):
        game, _token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben", "Cy"], first_dealer="Ana")
        play(game, ["Cy", "Ana"], seed=i)
    queries, opponents, _limited, rated = reads()
    assert (queries, opponents) == (few, 2)
    assert len(rated.history["Ana"]) == 13  # every rated game, while fewer than are shown


class History(RuleBasedStateMachine):
    """Random histories of this server: games finished by a small pool of names, corrected, taken
    back, recorded again, deleted; the kept lines always equal a fold from scratch."""

    def __init__(self):
        super().__init__()
        game_delete(game_ids=list(Game.objects.values_list("pk", flat=True)))  # each example from nothing
        self.games = []

    @rule(
        players=st.sampled_from([("Ana", "Ben"), ("Ana", "Ben", "Cy"), ("ben", "Cy", "Dee"), ("Dee", "ana")]),
        winners=st.lists(st.integers(0, 2), min_size=1, max_size=3),
        seed=st.integers(0, 4),
    )
    def finish_a_game(self, players, winners, seed):
        game, _token = game_create(ruleset="mexican", variants=[], players=list(players), first_dealer=players[0])
        play(game, [players[w % len(players)] for w in winners], seed=seed)
        self.games.append(game.pk)

    @precondition(lambda self: self.games)
    @rule(which=st.integers(0, 50), number=st.integers(1, 7), seed=st.integers(0, 4))
    def correct_a_round(self, which, number, seed):
        game = game_get(game_id=self.games[which % len(self.games)])
        if game.rounds.filter(number=number).exists():
            names = [p.name for p in game.players.order_by("seat")]
            winner = names[seed % len(names)]
            round_replace(
                game=game, number=number, entry=RoundEntry(winner=winner, points=points(names, winner, number, seed))
            )

    @precondition(lambda self: self.games)
    @rule(which=st.integers(0, 50))
    def take_back_the_last_round(self, which):
        game = game_get(game_id=self.games[which % len(self.games)])
        if game.rounds.exists():
            game_undo(game=game)

    @precondition(lambda self: self.games)
    @rule(which=st.integers(0, 50))
    def record_the_last_round_again(self, which):
        game = game_get(game_id=self.games[which % len(self.games)])
        played = game.rounds.count()
        if played < 7:
            names = [p.name for p in game.players.order_by("seat")]
            record(game, played + 1, names[-1], points=points(names, names[-1], played + 1))

    @precondition(lambda self: len(self.games) > 1)
    @rule(which=st.integers(0, 50))
    def delete_a_game(self, which):
        game_delete(game_ids=[self.games.pop(which % len(self.games))])

    @invariant()
    def kept_equals_fold(self):
        assert_kept_equals_fold()


History.TestCase.settings = settings(
    max_examples=int(os.environ.get("HISTORY_EXAMPLES", "6")), stateful_step_count=10, deadline=None
)
TestHistory = History.TestCase
