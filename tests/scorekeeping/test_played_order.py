"""Games in the order they were played (issue 36): a club's by night, sitting and table; a
server's by when they finished. Worked by hand: Ben's totals at one night's three sittings are
135, 250 and 0, so his rolling average reads 135, 192.5, 128.33 whatever the games' ids; Ana wins
the first two sittings (a streak of 2), Ben the third."""

import pytest

from referee.engine.stories import PlayedGame, PlayedRound, player_lines, profile
from scorekeeping.models import Game
from scorekeeping.selectors.stories import club_stories, server_stories
from scorekeeping.services import RoundEntry, round_record
from scorekeeping.services.clubs import club_create, night_create, night_present
from scorekeeping.services.sittings import sitting_draw

pytestmark = pytest.mark.django_db

# Each sitting: who goes out every round, and the other's points in rounds 1-6 and in round 7.
SITTINGS = [("Ana", 10, 75), ("Ana", 20, 130), ("Ben", 10, 70)]


def _play(game, winner, each, last):
    other = next(p.name for p in game.players.all() if p.name != winner)
    for number in range(1, 8):
        entry = RoundEntry(winner=winner, points={other: last if number == 7 else each})
        round_record(game=game, number=number, entry=entry)


def test_a_nights_three_sittings_are_told_in_their_order_not_their_ids():
    club, token = club_create(name="De Joker")
    night = night_create(club=club, ruleset="mexican", sittings=3)
    night_present(night=night, names=["Ana", "Ben"])
    games = []
    for winner, each, last in SITTINGS:
        table = sitting_draw(night=night, organiser_token=token, seed=1).tables.get()
        _play(table.game, winner, each, last)
        games.append(table.game_id)
    stories = club_stories(club)
    ben, ana = stories.profile("Ben"), stories.profile("Ana")
    assert ben.rolling_average == [135.0, 192.5, 128.33]  # Ben: 135, 250, 0: as played
    assert (ana.longest_streak, ana.wins, ben.wins) == (2, 2, 1)
    assert ana.rolling_average == [0.0, 0.0, 43.33]  # 0, 0, then 6 x 10 + 70 = 130


def test_the_engine_sorts_by_the_played_order_and_only_then_by_id():
    def game(pk, order, ben_total):
        rounds = (PlayedRound(1, "Ana", {"Ana": 0, "Ben": ben_total}),)
        return PlayedGame(pk, "mexican", "2026-12-03", ("Ana", "Ben"), rounds, {"Ana": 1, "Ben": 2}, True, order)

    later = game("aaaa", ("2026-12-03", 1, 2, 1), 250)  # the smaller id, played second
    first = game("zzzz", ("2026-12-03", 1, 1, 1), 135)
    assert profile("Ben", [later, first]).rolling_average == [135.0, 192.5]
    assert [(x.name, x.games, x.wins, x.rounds_out) for x in player_lines([later, first])] == [
        ("Ana", 2, 2, 2),
        ("Ben", 2, 0, 0),
    ]


def test_a_servers_games_go_by_when_they_finished_not_when_they_began(make_game):
    slow = make_game(players=["Ana", "Ben"])  # begun first, finished last
    quick = make_game(players=["Ana", "Ben"])
    _play(quick, "Ana", 10, 75)  # Ben 135
    _play(slow, "Ana", 20, 130)  # Ben 250
    assert Game.objects.filter(pk=slow.pk, created_at__lt=quick.created_at).exists()
    ben = server_stories().profile("Ben")
    assert ben.rolling_average == [135.0, 192.5]  # 135 first: as they finished
