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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import history

ROLLING = 5  # games in the rolling average
ROLLING_SHOWN = 100  # the latest games the rolling average is told for (a chart a phone can show)
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
    rolling_average: list[float]  # after each of the latest ROLLING_SHOWN games of the main ruleset
    rolling_from: int  # the number of the game (of the main ruleset, from 1) the first is after
    favourite_round: int | None
    worst_round: int | None
    head_to_head: list[HeadToHead]
    rival: str | None
    nemesis: str | None


def in_played_order(games: Sequence[PlayedGame]) -> list[PlayedGame]:
    """The finished games of ``games``, in the order they were played."""
    return sorted((g for g in games if g.finished), key=lambda g: g.played_order)


def lines_of(game: PlayedGame, keys: Mapping[str, str] | None = None) -> list[history.Line]:
    """The lines of a finished ``stories.PlayedGame`` (its players by seat); ``keys``: a player's
    key by name (the name itself where absent)."""
    if not game.finished:
        return []
    totals = game.totals
    overcome, when, winner = deficit_overcome(game)
    position = history.position_of(game.order or (game.date, 0, 0, 0), game.game)
    found = []
    for seat, name in enumerate(game.players):
        rounds = tuple((r.number, r.points[name]) for r in game.rounds)
        values = [points for _n, points in rounds] or [0]
        high = max(values)
        high_at = next((n for n, points in rounds if points == high), 0)
        found.append(
            history.Line(
                game.game,
                position,
                (keys or {}).get(name, name),
                name,
                game.date,
                game.ruleset,
                seat,
                game.places[name],
                totals[name],
                rounds,
                sum(1 for r in game.rounds if r.winner == name),
                high,
                high_at,
                min(values),
                overcome if name == winner else 0,
                (when or 0) if name == winner else 0,
                len(game.players),
            )
        )
    return found


def main_ruleset_of(sums: Mapping[str, history.Sums]) -> str | None:
    """The ruleset a player played most (the later slug on a tie): their profile's own."""
    return max(sums, key=lambda r: (sums[r].games, r)) if sums else None


def profile_from(name: str, mine: Sequence[history.Line], others: Sequence[history.Line]) -> Profile:
    """``name``'s ``stories.Profile`` from their lines (``mine``, in played order) and the other
    players' lines of the same games (``others``, shown by their ``name``): summed as they are
    kept, and read as ``profile_kept`` reads what is kept."""
    per_ruleset: dict[str, list[history.Line]] = {}
    for line in mine:
        per_ruleset.setdefault(line.ruleset, []).append(line)
    sums = {ruleset: history.Sums.of(found) for ruleset, found in per_ruleset.items()}
    names = {line.player: line.name for line in others}
    meetings = {names[opponent]: m for (_me, opponent), m in history.meetings_of(mine, others).items()}
    main = main_ruleset_of(sums)
    totals = [line.total for line in per_ruleset.get(main, [])] if main else []
    return profile_kept(name, sums, meetings, totals[-(ROLLING_SHOWN + ROLLING - 1) :])


def profile_kept(
    name: str, sums: Mapping[str, history.Sums], meetings: Mapping[str, history.Meeting], recent: Sequence[int]
) -> Profile:
    """``name``'s ``stories.Profile`` from what is kept of them: their sums of each ruleset, their
    meetings by opponent (shown by name), and the latest totals of their main ruleset
    (``main_ruleset_of``), oldest first: at least the last ROLLING_SHOWN + ROLLING - 1. What it
    reads grows with the rulesets and opponents, never with the games."""
    from .stories import RIVAL_GAMES, ROLLING, HeadToHead, Profile, RulesetFigures

    by_ruleset = [
        RulesetFigures(r, v.games, round(v.points / v.games, 2), v.total_low or 0, v.total_high or 0)
        for r, v in sorted(sums.items())
        if v.games
    ]
    main = main_ruleset_of(sums)
    played = sums[main].games if main else 0
    recent = list(recent[-(ROLLING_SHOWN + ROLLING - 1) :])
    skipped = played - len(recent)  # the main ruleset's games before the totals given
    # Each game's average needs the ROLLING before it: told from the first game they are all given for.
    first = max(played - ROLLING_SHOWN, skipped + ROLLING - 1 if skipped else 0)
    rolling = [
        round(statistics.fmean(recent[max(0, i + 1 - ROLLING) - skipped : i + 1 - skipped]), 2)
        for i in range(first, played)
    ]
    averages = {n: summed / count for n, count, summed in sums[main].by_round if count} if main else {}
    favourite = min(averages, key=lambda n: (averages[n], n)) if averages else None
    worst = max(averages, key=lambda n: (averages[n], -n)) if averages else None
    head = [
        HeadToHead(opponent, m.games, m.ahead, m.behind, round(m.difference / m.games, 2))
        for opponent, m in meetings.items()
        if m.games
    ]
    head.sort(key=lambda h: (-h.games, h.opponent.casefold()))
    rivals = [h for h in head if h.games >= RIVAL_GAMES]
    rival = min(rivals, key=lambda h: (abs(h.ahead - h.behind), -h.games, h.opponent.casefold())) if rivals else None
    beaten_by = [h for h in head if h.behind]
    nemesis = (
        min(beaten_by, key=lambda h: (-h.behind, -h.behind / h.games, h.opponent.casefold())) if beaten_by else None
    )
    games = sum(v.games for v in sums.values())
    wins = sum(v.wins for v in sums.values())
    return Profile(
        name=name,
        games=games,
        wins=wins,
        win_rate=round(100 * wins / games, 2) if games else 0.0,
        rounds_out=sum(v.out for v in sums.values()),
        longest_streak=max((v.streak for v in sums.values()), default=0),
        by_ruleset=by_ruleset,
        main_ruleset=main,
        rolling_average=rolling,
        rolling_from=first + 1,
        favourite_round=favourite,
        worst_round=worst,
        head_to_head=head,
        rival=rival.opponent if rival else None,
        nemesis=nemesis.opponent if nemesis else None,
    )


def folded_lines(games: Sequence[PlayedGame], keys: Mapping[str, str] | None = None) -> list[history.Line]:
    """Every line of the finished ``games``, carried along the played order from nothing: the
    whole history folded at once (what the kept lines must always equal)."""
    return history.carry([line for game in in_played_order(games) for line in lines_of(game, keys)])


def profile(name: str, games: Sequence[PlayedGame]) -> Profile:
    """``name``'s story over ``games`` (any games: those without them, or unfinished, are skipped)."""
    lines = folded_lines(games)
    mine = [line for line in lines if line.player == name]
    theirs = {line.game for line in mine}
    return profile_from(name, mine, [line for line in lines if line.game in theirs])


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


def player_line(name: str, sums: history.Sums) -> PlayerLine:
    return PlayerLine(name, sums.games, sums.wins, sums.rounds, sums.out, sums.points, sums.low, sums.high)


def lines_sorted(found: Sequence[PlayerLine]) -> list[PlayerLine]:
    """The players' list's order: most wins first, then most rounds gone out, the lower average
    penalty a round, the name."""
    return sorted(found, key=lambda x: (-x.wins, -x.rounds_out, x.average, x.name.casefold()))


def player_lines(games: Sequence[PlayedGame]) -> list[PlayerLine]:
    """Every player of the finished ``games``, counted as ``profile`` counts them."""
    by_player: dict[str, list[history.Line]] = {}
    for line in folded_lines(games):
        by_player.setdefault(line.player, []).append(line)
    return lines_sorted([player_line(name, history.Sums.of(lines)) for name, lines in by_player.items()])


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


def records_from(lines: Sequence[history.Line]) -> list[Record]:
    """Each record per ruleset over the lines (``history.RECORD_ORDER``: the best value, the first
    to set it keeping it on a tie)."""
    by_ruleset: dict[str, list[history.Line]] = {}
    for line in lines:
        by_ruleset.setdefault(line.ruleset, []).append(line)
    found = []
    for ruleset, held in sorted(by_ruleset.items()):
        for title in RECORD_TITLES:
            holder = history.record_holder(title, held)
            if holder is not None:
                value = getattr(holder, history.RECORD_VALUE[title])
                found.append(Record(title, ruleset, holder.name, value, holder.game, holder.date))
    return found


def records(games: Sequence[PlayedGame]) -> list[Record]:
    """Each record per ruleset over the finished games; the first to set it keeps it on a tie."""
    return records_from(folded_lines(games))


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
