"""The players' stories, from the games they played: a player's profile (games, wins, totals,
rounds gone out, streaks, a rolling average, favourite and worst rounds, head to head, the rival
and the nemesis), the records of a club or a server, and the recap of one game (the round that
decided it, the biggest swing, each round's best player, a comeback).

Pure Python, no Django: the selectors turn rows into ``PlayedGame`` records (a player is a name:
a club member's, or a name on a home server as names are compared) and call these. Every figure
is defined here, once:

- A game counts in a profile, the players' list, the records and the ladder once it is finished
  (every round recorded), and they take the games **in the order they were played**
  (``PlayedGame.order``, given by the selectors: a club's by the night's date, the night, the
  sitting and the table; a server's by when the game finished), never by an id.
- **Games**: the finished games played. **Won**: first place (a shared first place is a win for
  each). **Rounds gone out**: the rounds of those games in which the player went out. The same
  three figures on every page and in the API (``profile``, ``player_lines``, the ladder).
- **Total**: the sum of a player's penalties; lower is better. Totals of different rulesets are
  never mixed: averages, best and worst games, the rolling average and the rounds are per ruleset.
- **Longest win streak**: the most games won in a row, in the order they were played.
- **Rolling average**: after each game, the average total of the last five games (fewer at the
  start) of the player's most played ruleset.
- **Favourite / worst round**: the round number with the lowest / highest average penalty, in
  the player's most played ruleset.
- **Head to head**: per opponent, the finished games played together, how often the player
  finished ahead (a better place) and behind, and the average of (the opponent's total − the
  player's total): positive, the player scores that many points fewer.
- **Rival**: among opponents met at least three times, the closest record (the least
  |ahead − behind|; then the most games; then the name). **Nemesis**: the opponent who finished
  ahead of the player most often (then the larger share of their games; then the name); none if
  nobody ever did.
- **Deficit** after a round: a player's running total less the lowest running total then.
  **Comeback** of a game: the largest deficit its winner overcame (after any round but the last).
- **Deciding round**: the first round after which the eventual winner led alone (or shared the
  lead they finally shared) and kept that to the end.
- **Biggest swing**: the round in which one player gained most on another: the round's highest
  penalty less its lowest.
- **A round's best player**: who went out; if nobody did, the lowest penalty (ties named together).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

ROLLING = 5  # games in the rolling average
RIVAL_GAMES = 3  # games together before an opponent can be the rival


@dataclass(frozen=True)
class PlayedRound:
    number: int
    winner: str | None  # who went out; None: nobody did
    points: Mapping[str, int]  # every player's penalty


@dataclass(frozen=True)
class PlayedGame:
    game: str  # the game's id
    ruleset: str
    date: str  # ISO date it was played
    players: tuple[str, ...]  # in seat order
    rounds: tuple[PlayedRound, ...]
    places: Mapping[str, int]  # final places, by the game's own tie-break
    finished: bool
    # When it was played, as a key that sorts the games of one scope (a club's: the night's ISO
    # date, the night, the sitting, the table; a server's: the ISO time it finished, then zeros);
    # None: by ``date`` alone.
    order: tuple[str, int, int, int] | None = None
    lowest_wins: bool = True  # the ruleset's: False where the highest total wins

    @property
    def sign(self) -> int:
        """1 where a lower total is better, -1 where a higher one is: ``sign * total`` sorts best first."""
        return 1 if self.lowest_wins else -1

    @property
    def played_order(self) -> tuple[tuple[str, int, int, int], str]:
        """The key that sorts games in the order they were played (the id only settles a tie)."""
        return (self.order or (self.date, 0, 0, 0)), self.game

    @property
    def totals(self) -> dict[str, int]:
        found = dict.fromkeys(self.players, 0)
        for rnd in self.rounds:
            for name, points in rnd.points.items():
                found[name] += points
        return found

    def running(self) -> list[dict[str, int]]:
        """Every player's running total after each round."""
        now = dict.fromkeys(self.players, 0)
        after = []
        for rnd in self.rounds:
            for name, points in rnd.points.items():
                now[name] += points
            after.append(dict(now))
        return after


# --- a player's profile -------------------------------------------------------------------------


@dataclass(frozen=True)
class RulesetFigures:
    ruleset: str
    games: int
    average: float
    best: int
    worst: int


@dataclass(frozen=True)
class HeadToHead:
    opponent: str
    games: int
    ahead: int
    behind: int
    average_difference: float


@dataclass(frozen=True)
class Profile:
    name: str
    games: int
    wins: int
    win_rate: float  # percent
    rounds_out: int
    longest_streak: int
    by_ruleset: list[RulesetFigures]
    main_ruleset: str | None  # the ruleset played most: the rolling average's and the rounds'
    rolling_average: list[float]
    favourite_round: int | None
    worst_round: int | None
    head_to_head: list[HeadToHead]
    rival: str | None
    nemesis: str | None
    game_ids: list[str] = field(default_factory=list)  # the games counted, oldest first


def in_played_order(games: Sequence[PlayedGame]) -> list[PlayedGame]:
    """The finished games of ``games``, in the order they were played."""
    return sorted((g for g in games if g.finished), key=lambda g: g.played_order)


def _finished(games: Sequence[PlayedGame], name: str) -> list[PlayedGame]:
    return [g for g in in_played_order(games) if name in g.players]


def longest_streak(results: Sequence[bool]) -> int:
    best = run = 0
    for won in results:
        run = run + 1 if won else 0
        best = max(best, run)
    return best


def profile(name: str, games: Sequence[PlayedGame]) -> Profile:
    """``name``'s story over ``games`` (any games: those without them, or unfinished, are skipped)."""
    played = _finished(games, name)
    won = [g.places[name] == 1 for g in played]
    totals = [(g.ruleset, g.totals[name]) for g in played]
    per_ruleset: dict[str, list[int]] = {}
    for ruleset, total in totals:
        per_ruleset.setdefault(ruleset, []).append(total)
    by_ruleset = [
        RulesetFigures(r, len(v), round(statistics.fmean(v), 2), min(v), max(v)) for r, v in sorted(per_ruleset.items())
    ]
    main = max(per_ruleset, key=lambda r: (len(per_ruleset[r]), r)) if per_ruleset else None
    main_totals = per_ruleset.get(main, []) if main else []
    rolling = [
        round(statistics.fmean(main_totals[max(0, i + 1 - ROLLING) : i + 1]), 2) for i in range(len(main_totals))
    ]
    by_round: dict[int, list[int]] = {}
    for game in played:
        if game.ruleset == main:
            for rnd in game.rounds:
                by_round.setdefault(rnd.number, []).append(rnd.points[name])
    averages = {n: statistics.fmean(v) for n, v in by_round.items()}
    favourite = min(averages, key=lambda n: (averages[n], n)) if averages else None
    worst = max(averages, key=lambda n: (averages[n], -n)) if averages else None
    meetings: dict[str, list[tuple[int, int]]] = {}  # opponent -> (place comparison, difference)
    for game in played:
        mine, sums = game.places[name], game.totals
        for other in game.players:
            if other != name:
                order = (game.places[other] > mine) - (game.places[other] < mine)  # 1: ahead, -1: behind
                meetings.setdefault(other, []).append((order, sums[other] - sums[name]))
    head = [
        HeadToHead(
            other,
            len(m),
            sum(1 for o, _d in m if o > 0),
            sum(1 for o, _d in m if o < 0),
            round(statistics.fmean(d for _o, d in m), 2),
        )
        for other, m in meetings.items()
    ]
    head.sort(key=lambda h: (-h.games, h.opponent.casefold()))
    rivals = [h for h in head if h.games >= RIVAL_GAMES]
    rival = min(rivals, key=lambda h: (abs(h.ahead - h.behind), -h.games, h.opponent.casefold())) if rivals else None
    beaten_by = [h for h in head if h.behind]
    nemesis = (
        min(beaten_by, key=lambda h: (-h.behind, -h.behind / h.games, h.opponent.casefold())) if beaten_by else None
    )
    return Profile(
        name=name,
        games=len(played),
        wins=sum(won),
        win_rate=round(100 * sum(won) / len(played), 2) if played else 0.0,
        rounds_out=sum(1 for g in played for r in g.rounds if r.winner == name),
        longest_streak=longest_streak(won),
        by_ruleset=by_ruleset,
        main_ruleset=main,
        rolling_average=rolling,
        favourite_round=favourite,
        worst_round=worst,
        head_to_head=head,
        rival=rival.opponent if rival else None,
        nemesis=nemesis.opponent if nemesis else None,
        game_ids=[g.game for g in played],
    )


# --- the players' list ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerLine:
    """A player's line in the players' list: the profile's figures (games, wins, rounds gone out)
    with the rounds played and the penalties of those rounds (their average, best and worst)."""

    name: str
    games: int
    wins: int
    rounds: int
    rounds_out: int
    points: int
    best: int | None
    worst: int | None

    @property
    def average(self) -> float:
        return round(self.points / self.rounds, 2) if self.rounds else 0.0


def player_lines(games: Sequence[PlayedGame]) -> list[PlayerLine]:
    """Every player of the finished ``games``, counted as ``profile`` counts them: most wins first,
    then most rounds gone out, the lower average penalty a round, the name."""
    lines: dict[str, list[int]] = {}  # name -> games, wins, rounds, out, points
    best: dict[str, int] = {}
    worst: dict[str, int] = {}
    for game in in_played_order(games):
        for name in game.players:
            line = lines.setdefault(name, [0, 0, 0, 0, 0])
            line[0] += 1
            line[1] += game.places[name] == 1
        for rnd in game.rounds:
            for name in game.players:
                value = rnd.points[name]
                line = lines[name]
                line[2] += 1
                line[3] += rnd.winner == name
                line[4] += value
                best[name] = min(best.get(name, value), value)
                worst[name] = max(worst.get(name, value), value)
    found = [PlayerLine(n, g, w, r, o, p, best.get(n), worst.get(n)) for n, (g, w, r, o, p) in lines.items()]
    return sorted(found, key=lambda x: (-x.wins, -x.rounds_out, x.average, x.name.casefold()))


# --- records ------------------------------------------------------------------------------------

LOWEST_TOTAL = "lowest game total"
HIGHEST_ROUND = "highest single-round penalty"
MOST_OUT = "most rounds gone out in one game"
LONGEST_STREAK = "longest win streak"
COMEBACK = "biggest comeback"
RECORD_TITLES = (LOWEST_TOTAL, HIGHEST_ROUND, MOST_OUT, LONGEST_STREAK, COMEBACK)


@dataclass(frozen=True)
class Record:
    title: str  # one of RECORD_TITLES
    ruleset: str
    player: str
    value: int
    game: str  # where it was set (a streak: the game in which it reached its length)
    date: str


def deficit_overcome(game: PlayedGame) -> tuple[int, int | None, str | None]:
    """The largest deficit the winner overcame (after any round but the last), that round, the winner."""
    winners = [p for p in game.players if game.places.get(p) == 1]
    if not game.finished or len(winners) != 1 or len(game.rounds) < 2:
        return 0, None, None
    winner = winners[0]
    best, when = 0, None
    for index, after in enumerate(game.running()[:-1]):
        behind = game.sign * (after[winner] - min(after.values(), key=lambda t: game.sign * t))
        if behind > best:
            best, when = behind, game.rounds[index].number
    return best, when, winner


def records(games: Sequence[PlayedGame]) -> list[Record]:
    """Each record per ruleset over the finished games; the first to set it keeps it on a tie."""
    played = in_played_order(games)
    found: dict[tuple[str, str], Record] = {}

    def offer(title: str, game: PlayedGame, player: str, value: int, better: bool) -> None:
        key = (title, game.ruleset)
        held = found.get(key)
        if held is None or better:
            found[key] = Record(title, game.ruleset, player, value, game.game, game.date)

    streaks: dict[tuple[str, str], int] = Counter()
    for game in played:
        totals = game.totals
        for player in game.players:
            held = found.get((LOWEST_TOTAL, game.ruleset))
            offer(LOWEST_TOTAL, game, player, totals[player], held is not None and totals[player] < held.value)
            key = (game.ruleset, player)
            streaks[key] = streaks[key] + 1 if game.places[player] == 1 else 0
            held = found.get((LONGEST_STREAK, game.ruleset))
            if streaks[key]:
                offer(LONGEST_STREAK, game, player, streaks[key], held is not None and streaks[key] > held.value)
        for rnd in game.rounds:
            for player in game.players:
                held = found.get((HIGHEST_ROUND, game.ruleset))
                value = rnd.points[player]
                offer(HIGHEST_ROUND, game, player, value, held is not None and value > held.value)
        outs = Counter(r.winner for r in game.rounds if r.winner)
        for player, count in sorted(outs.items(), key=lambda item: game.players.index(item[0])):
            held = found.get((MOST_OUT, game.ruleset))
            offer(MOST_OUT, game, player, count, held is not None and count > held.value)
        overcome, _round, winner = deficit_overcome(game)
        if winner is not None and overcome > 0:
            held = found.get((COMEBACK, game.ruleset))
            offer(COMEBACK, game, winner, overcome, held is not None and overcome > held.value)
    return sorted(found.values(), key=lambda r: (r.ruleset, RECORD_TITLES.index(r.title)))


# --- a game's recap -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Swing:
    round: int
    gainer: str  # the round's lowest penalty (the first in seat order on a tie)
    loser: str  # its highest
    points: int


@dataclass(frozen=True)
class Comeback:
    player: str
    deficit: int
    round: int  # after which round the deficit was largest


@dataclass(frozen=True)
class BestRound:
    round: int
    player: str
    ahead: int  # points under the average of the others' points in that round (rounded)


@dataclass(frozen=True)
class Recap:
    winners: list[str]
    places: list[tuple[int, str, int]]  # (place, player, total), best first
    deciding_round: int | None
    biggest_swing: Swing | None
    round_best: list[tuple[int, list[str]]]  # (round, best players)
    comeback: Comeback | None
    margin: int | None = None  # the runner-up's total less the winner's; None without a single winner
    best_round: BestRound | None = None


def margin_of(winners: Sequence[str], places: Sequence[tuple[int, str, int]]) -> int | None:
    """How far ahead a single winner finished: the next total less theirs (a shared win has none)."""
    if len(winners) != 1 or len(places) < 2:
        return None
    return abs(places[1][2] - places[0][2])


def best_round(game: PlayedGame) -> BestRound | None:
    """The round a player did best in against the table: the furthest under the average of the
    others' points (the earlier round, then the earlier seat, on a tie); None below two players."""
    found: BestRound | None = None
    if len(game.players) < 2:
        return None
    for rnd in game.rounds:
        for player in game.players:
            others = [rnd.points[p] for p in game.players if p != player]
            ahead = round(game.sign * (sum(others) / len(others) - rnd.points[player]))
            if ahead > 0 and (found is None or ahead > found.ahead):
                found = BestRound(rnd.number, player, ahead)
    return found


def recap(game: PlayedGame) -> Recap:
    totals = game.totals
    places = sorted(
        ((game.places[p], p, totals[p]) for p in game.players), key=lambda r: (r[0], game.players.index(r[1]))
    )
    winners = [p for place, p, _t in places if place == 1] if game.finished else []
    running = game.running()
    deciding = None
    if winners and running:
        for index in range(len(running) - 1, -1, -1):
            after = running[index]
            low = min(after.values(), key=lambda t: game.sign * t)
            leaders = {p for p, t in after.items() if t == low}
            if leaders != set(winners):
                break
            deciding = game.rounds[index].number
        if deciding is None:  # equal on points at the end, the tie-break decided: the last round did
            deciding = game.rounds[-1].number
    swing = None
    for rnd in game.rounds:
        gainer = min(game.players, key=lambda p: (game.sign * rnd.points[p], game.players.index(p)))
        loser = max(game.players, key=lambda p: (game.sign * rnd.points[p], -game.players.index(p)))
        gap = game.sign * (rnd.points[loser] - rnd.points[gainer])
        if gap > 0 and (swing is None or gap > swing.points):
            swing = Swing(rnd.number, gainer, loser, gap)
    best = []
    for rnd in game.rounds:
        if rnd.winner is not None:
            best.append((rnd.number, [rnd.winner]))
        else:
            low_points = min(rnd.points.values(), key=lambda t: game.sign * t)
            best.append((rnd.number, [p for p in game.players if rnd.points[p] == low_points]))
    overcome, when, winner = deficit_overcome(game)
    comeback = Comeback(winner, overcome, when) if winner is not None and when is not None else None
    return Recap(winners, places, deciding, swing, best, comeback, margin_of(winners, places), best_round(game))


# --- a club night's best moments ----------------------------------------------------------------

BEST_ROUND = "best round"
MOMENT_TITLES = (BEST_ROUND, COMEBACK, LOWEST_TOTAL, MOST_OUT)


@dataclass(frozen=True)
class Moment:
    title: str  # one of MOMENT_TITLES
    player: str
    value: int  # points ahead of the table, points behind, a game total, rounds gone out
    game: str
    round: int | None = None  # the round it happened in (the best round; the comeback's deepest point)


def moments(games: Sequence[PlayedGame]) -> list[Moment]:
    """The best moments of a few games (a club night's): the best round against the table, the
    biggest comeback, the lowest game total and the most rounds gone out in one game, each once
    (the earliest game played on a tie), over the finished games of the first ruleset played."""
    played = [g for g in in_played_order(games) if g.finished]
    if not played:
        return []
    played = [g for g in played if g.ruleset == played[0].ruleset]
    found: list[Moment] = []
    best: tuple[BestRound, str] | None = None
    comeback: Moment | None = None
    for game in played:
        top = best_round(game)
        if top is not None and (best is None or top.ahead > best[0].ahead):
            best = (top, game.game)
        overcome, when, winner = deficit_overcome(game)
        if winner is not None and overcome > 0 and (comeback is None or overcome > comeback.value):
            comeback = Moment(COMEBACK, winner, overcome, game.game, when)
    if best is not None:
        found.append(Moment(BEST_ROUND, best[0].player, best[0].ahead, best[1], best[0].round))
    if comeback is not None:
        found.append(comeback)
    for record in records(played):
        if record.title in (LOWEST_TOTAL, MOST_OUT):
            found.append(Moment(record.title, record.player, record.value, record.game))
    return sorted(found, key=lambda m: MOMENT_TITLES.index(m.title))
