"""Score-keeping's reads: a game with everything a page or the API shows, in a fixed number of queries."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db.models import Exists, OuterRef, Prefetch, QuerySet, prefetch_related_objects
from django.utils.translation import gettext as _

from referee.engine import Component, Rules
from referee.engine.rounds import dealer_seat
from referee.engine.standings import Entrant, ranked, tie_notes
from scorekeeping.errors import NotFound
from scorekeeping.models import Change, Draft, Game, Player, Round, Score
from scorekeeping.selectors.seated import SeatedPlayer

SCORES = Prefetch("scores", queryset=Score.objects.order_by("player__seat"))


ROUNDS = Round.objects.order_by("number")


def _everything(scores: bool) -> list[Prefetch[Any]]:
    return [
        Prefetch("players", queryset=Player.objects.order_by("seat")),
        Prefetch("rounds", queryset=ROUNDS.prefetch_related(SCORES) if scores else ROUNDS),
    ]


def games_with_everything(*, scores: bool = True) -> QuerySet[Game]:
    """Games with their players, rounds and scores (4 queries; 3 without ``scores``); ``linked``
    then points each score and round at the players already loaded instead of a copy per row."""
    return Game.objects.prefetch_related(*_everything(scores))


def game_filled(game: Game, *, scores: bool = True) -> Game:
    """A game row already loaded, with its players, rounds and scores (3 queries; 2 without ``scores``)."""
    prefetch_related_objects([game], *_everything(scores))
    return linked(game)


def game_rounds(game: Game) -> list[Round]:
    """A game row's rounds in order (one query; none when they are loaded already)."""
    prefetch_related_objects([game], Prefetch("rounds", queryset=ROUNDS))
    return list(game.rounds.all())


def linked(game: Game) -> Game:
    """Each round's winner and dealer and each score's player, set from the game's players."""
    players = {p.pk: p for p in game.players.all()}
    for rnd in game.rounds.all():
        rnd.winner = players.get(rnd.winner_id) if rnd.winner_id is not None else None
        rnd.dealer = players[rnd.dealer_id]
        if "scores" in getattr(rnd, "_prefetched_objects_cache", {}):
            for score in rnd.scores.all():
                score.player = players[score.player_id]
    return game


def _found(game: Game | None) -> Game:
    if game is None:
        raise NotFound("no such game", "game")
    return game


def game_head(*, game_id: str) -> Game:
    """The game's row alone (one query), or ``NotFound`` (404 for a page and for the API): what a
    guard checks a token against, and what a page that needs no round reads."""
    return _found(Game.objects.filter(pk=game_id).first())


def game_get(*, game_id: str, scores: bool = True) -> Game:
    """The game with its players, rounds and scores (4 queries), or ``NotFound`` (404). Without
    ``scores`` the rounds come without them (3 queries); ``with_scores`` loads them when a page
    needs them."""
    return linked(_found(games_with_everything(scores=scores).filter(pk=game_id).first()))


def games_opened(*, ids: list[str]) -> list[Game]:
    """The games of ``ids`` that exist, in the order of ``ids``, each with everything (4 queries)."""
    found = {g.pk: g for g in games_with_everything().filter(pk__in=ids)}
    return [linked(found[i]) for i in ids if i in found]


def game_with_players(*, game_id: str) -> Game | None:
    """The game's row with its players (2 queries), or None: a game a phone may have forgotten."""
    return Game.objects.filter(pk=game_id).prefetch_related("players").first()


def latest_change(*, game: Game) -> Change | None:
    """The game's newest change (one query), undone or not."""
    return Change.objects.filter(game=game).order_by("-id").first()


def server_games_count() -> int:
    """How many games this server holds outside any club (one query)."""
    return Game.objects.filter(club_table__isnull=True).count()


def with_scores(game: Game) -> Game:
    """The game's rounds with their scores (one query, none when they are loaded already)."""
    rounds = list(game.rounds.all())
    if any("scores" not in getattr(r, "_prefetched_objects_cache", {}) for r in rounds):
        prefetch_related_objects(rounds, SCORES)
        linked(game)
    return game


P = TypeVar("P", Player, SeatedPlayer)  # a game's player row, or a plain record of one


@dataclass(frozen=True)
class Standing(Generic[P]):
    player: P
    total: int
    round_wins: int
    place: int


@dataclass(frozen=True)
class Standings:
    finished: bool
    rows: list[Standing[Player]]
    notes: list[str]  # how ties were broken or shared

    @property
    def winners(self) -> list[Player]:
        return [r.player for r in self.rows if r.place == 1] if self.finished else []


def placed(players: Sequence[P], rules: Rules, totals: dict[int, int], wins: dict[int, int]) -> list[Standing[P]]:
    """The players in order with their places, as the engine ranks them (``standings.ranked``)."""
    by_seat = {p.seat: p for p in players}
    entrants = [Entrant(p.seat, p.name, totals[p.pk], wins[p.pk]) for p in players]
    return [Standing(by_seat[e.seat], e.total, e.wins, place) for e, place in ranked(entrants, rules)]


def game_standings(*, game: Game) -> Standings:
    """Totals, rounds won and places; lowest total first, ties as the ruleset breaks them (the
    engine's ``standings``), with the notes that say why tied players stand where they do."""
    rules = with_scores(game).rules
    players: list[Player] = list(game.players.all())
    rounds: list[Round] = list(game.rounds.all())
    totals = {p.pk: 0 for p in players}
    wins = {p.pk: 0 for p in players}
    for rnd in rounds:
        for score in rnd.scores.all():
            totals[score.player_id] += score.points
        if rnd.winner_id is not None:
            wins[rnd.winner_id] += 1
    entrants = [Entrant(p.seat, p.name, totals[p.pk], wins[p.pk]) for p in players]
    notes = tie_notes(entrants, rules, played=bool(rounds))
    return Standings(finished=len(rounds) >= rules.last_round, rows=placed(players, rules, totals, wins), notes=notes)


@dataclass(frozen=True)
class CurrentRound:
    number: int
    hand_size: int
    wild_rank: str | None
    wild_words: str
    contract: str
    components: tuple[Component, ...]
    final: bool
    dealer: Player
    first_player: Player
    packs: int
    jokers: int
    stock: int
    upcard: int
    round_word: str


def rounds_recorded(*, game_id: str) -> int:
    """How many rounds of the game are recorded (one query): the next to play is one more."""
    return Round.objects.filter(game_id=game_id).count()


def said_out(*, game_id: str) -> tuple[bool, int | None]:
    """Whether a round is in progress and, if so, who went out in it (a seat; None when no one
    did): what a phone's live fetch compares with its form (two small queries)."""
    number = rounds_recorded(game_id=game_id) + 1
    found = list(Draft.objects.filter(game_id=game_id, number=number).values_list("winner__seat", flat=True)[:1])
    return (True, found[0]) if found else (False, None)


def game_current_round(*, game: Game) -> CurrentRound | None:
    """The round to deal next, or None when the game is finished."""
    rules: Rules = game.rules
    number = len(game.rounds.all()) + 1
    if number > rules.last_round:
        return None
    players: list[Player] = list(game.players.all())
    n = len(players)
    dealer = dealer_seat(game.first_dealer_seat, number, n)
    deck = rules.deck(n)
    words = rules.in_words(number)
    return CurrentRound(
        number=number,
        hand_size=words.dealt,
        wild_rank=words.wild_rank,
        wild_words=words.wilds,
        contract=words.contract,
        components=words.components,
        final=words.final,
        dealer=players[dealer],
        first_player=players[(dealer + 1) % n],
        packs=deck.packs,
        jokers=deck.jokers,
        stock=rules.stock(n, number),
        upcard=1,
        round_word=_(rules.round_word),
    )


def game_history(*, game: Game) -> list[Change]:
    """Every change, newest first, each marked ``is_undone`` when a later undo reverted it."""
    undone = Change.objects.filter(undoes=OuterRef("pk"))
    return list(game.changes.annotate(is_undone=Exists(undone)).order_by("-id"))


@dataclass(frozen=True)
class GameSummary:
    game: Game
    players: list[str]
    rounds_played: int
    last_round: int
    finished: bool
    winners: list[str]


# Pages that read many games read the newest ones only, and say so: a server shared by many
# tables holds more games than one page should load.
GAMES_LISTED = 200


def _newest(limit: int, ids: list[str] | None) -> QuerySet[Game]:
    """The newest games of the server-wide lists: a club's tables show only to the club."""
    found = games_with_everything() if ids is None else games_with_everything().filter(pk__in=ids)
    return found.filter(club_table__isnull=True).order_by("-created_at")[:limit]


def games_summaries(*, limit: int = GAMES_LISTED, ids: list[str] | None = None) -> list[GameSummary]:
    """Games on this server (or only those of ``ids``), newest first, with their winners (4 queries)."""
    games = [linked(game) for game in _newest(limit, ids)]
    summaries = []
    for game in games:
        standings = game_standings(game=game)
        summaries.append(
            GameSummary(
                game=game,
                players=[p.name for p in game.players.all()],
                rounds_played=len(game.rounds.all()),
                last_round=game.rules.last_round,
                finished=standings.finished,
                winners=[p.name for p in standings.winners],
            )
        )
    return summaries
