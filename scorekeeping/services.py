"""Score-keeping's writes: create a game, record and correct rounds, undo. One place for the rules.

Every function validates everything first and writes nothing when it refuses; the writes
run in one transaction with the game row locked, so two phones cannot record the same
round twice.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee.engine import (
    Card,
    RefereeError,
    Rules,
    UnknownVariant,
    find_rules,
    parse_cards,
)
from referee.engine.cards import ACE, rank_plural, rank_text
from referee.engine.checks import copy_reasons
from referee.engine.scoring import (
    HandSize,
    card_score,
    card_values,
    hand_left_size,
    possible_total,
    step,
    total_bounds,
)

from .errors import Conflict, InvalidInput
from .models import Change, Game, Player, Round, Score

MAX_NAME = 30
CardsInput = str | Sequence[str]


# --- tokens ------------------------------------------------------------------------


def _where(rules: Rules, number: int) -> str:
    return rules.round_name(number)


def _names(names: list[str]) -> str:
    """``Ana``, ``Ana and Ben``, ``Ana, Ben and Cy``, in the active language."""
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def game_token_valid(*, game: Game, token: str | None) -> bool:
    """Constant-time comparison of a presented edit token with the game's."""
    if not token:
        return False
    return hmac.compare_digest(token_hash(token), game.edit_token_hash)


# --- creating a game ---------------------------------------------------------------


def rules_for(game: Game) -> Rules:
    return find_rules(game.ruleset, game.variants)


def holds_control_characters(text: str) -> bool:
    """Control characters or lone surrogates: no name or card holds them, and a database may
    refuse them (PostgreSQL stores no NUL byte in text or JSON)."""
    return any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text)


def clean_name(text: str) -> str:
    """A name as it is kept: white space folded, composed (NFC), so "é" typed either way is one name."""
    return unicodedata.normalize("NFC", " ".join(text.split()))


def name_key(text: str) -> str:
    """What two names must share to be the same player: the clean name, casefolded."""
    return unicodedata.normalize("NFC", clean_name(text).casefold())


def _clean_names(names: Sequence[object], rules: Rules) -> list[str]:
    errors: dict[str, list[str]] = {}
    cleaned: list[str] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(names):
        key = f"players.{i}"
        name = clean_name(raw) if isinstance(raw, str) else ""
        if not name:
            errors.setdefault(key, []).append(_("player {n} needs a name").format(n=i + 1))
        elif holds_control_characters(name):
            errors.setdefault(key, []).append(_("player {n}: a name cannot hold control characters").format(n=i + 1))
        elif len(name) > MAX_NAME:
            errors.setdefault(key, []).append(
                _("{name}… is too long: names have at most {n} characters").format(name=name[:MAX_NAME], n=MAX_NAME)
            )
        elif name_key(name) in seen:
            errors.setdefault(key, []).append(
                _("{name} is already at the table (player {n}); names must differ").format(
                    name=name, n=seen[name_key(name)] + 1
                )
            )
        else:
            seen[name_key(name)] = i
        cleaned.append(name)
    if not rules.min_players <= len(names) <= rules.max_players:
        errors.setdefault("players", []).append(
            _("{title} is for {low}-{high} players, not {n}").format(
                title=rules.title, low=rules.min_players, high=rules.max_players, n=len(names)
            )
        )
    if errors:
        raise InvalidInput(errors)
    return cleaned


def _draw_rank(card: Card) -> int:
    """In the draw for the deal aces are high."""
    assert card.rank is not None
    return 14 if card.rank == ACE else card.rank


def _first_dealer(names: list[str], first_dealer: str | None, draw: Mapping[str, str] | None) -> tuple[int, str]:
    by_key = {name_key(n): i for i, n in enumerate(names)}
    if first_dealer is not None and draw:
        raise InvalidInput(_("name the first dealer or draw for it, not both"), "first_dealer")
    if first_dealer is not None:
        seat = by_key.get(name_key(first_dealer))
        if seat is None:
            raise InvalidInput(_("{name!r} is not one of the players").format(name=first_dealer), "first_dealer")
        return seat, "named"
    if not draw:
        return secrets.randbelow(len(names)), "random"
    errors: dict[str, list[str]] = {}
    drawn: dict[int, Card] = {}
    for name, text in draw.items():
        seat = by_key.get(name_key(name))
        if seat is None:
            errors.setdefault(f"draw.{name}", []).append(_("{name!r} is not one of the players").format(name=name))
            continue
        try:
            cards = parse_cards(text)
        except RefereeError as exc:
            errors.setdefault(f"draw.{name}", []).append(f"{names[seat]}: {exc}")
            continue
        if len(cards) != 1 or cards[0].is_joker:
            errors.setdefault(f"draw.{name}", []).append(
                _("{name} draws one card, not a joker").format(name=names[seat])
            )
            continue
        drawn[seat] = cards[0]
    missing = [names[i] for i in range(len(names)) if i not in drawn and f"draw.{names[i]}" not in errors]
    if missing:
        errors.setdefault("draw", []).append(
            _("every player draws a card; missing: {names}").format(names=", ".join(missing))
        )
    if errors:
        raise InvalidInput(errors)
    best = max(_draw_rank(c) for c in drawn.values())
    top = [seat for seat, c in drawn.items() if _draw_rank(c) == best]
    if len(top) > 1:
        who = _names([names[s] for s in sorted(top)])
        raise InvalidInput(
            _("{names} tie with the highest card ({ranks}): they draw again").format(
                names=who, ranks=rank_plural(1 if best == 14 else best)
            ),
            "draw",
        )
    return top[0], "draw"


def game_create(
    *,
    ruleset: str,
    variants: Sequence[str],
    players: Sequence[object],
    first_dealer: str | None = None,
    draw: Mapping[str, str] | None = None,
) -> tuple[Game, str]:
    """A new game and its edit token (returned once; only its hash is kept)."""
    try:
        rules = find_rules(ruleset, variants)
    except UnknownVariant as exc:
        raise InvalidInput(str(exc), "variants") from None
    except RefereeError as exc:
        raise InvalidInput(str(exc), "ruleset") from None
    names = _clean_names(players, rules)
    seat, method = _first_dealer(names, first_dealer, draw)
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        game = Game.objects.create(
            ruleset=rules.slug,
            variants=list(rules.variants),
            edit_token_hash=token_hash(token),
            first_dealer_seat=seat,
            first_dealer_method=method,
        )
        Player.objects.bulk_create(Player(game=game, seat=i, name=n) for i, n in enumerate(names))
    return game, token


# --- recording rounds ----------------------------------------------------------------


@dataclass
class _Row:
    player: Player
    cards: list[Card] = field(default_factory=list)
    typed: bool = False
    penalty: int = 0
    adjustment: int = 0
    buys: int = 0
    breakdown: list[dict[str, Any]] = field(default_factory=list)


def dealer_seat(game: Game, number: int, players: int) -> int:
    """The deal passes to the left (the next seat clockwise) every round."""
    return (game.first_dealer_seat + number - 1) % players


def _whole(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _or(values: Sequence[object]) -> str:
    """``5``, ``5 or 10``, ``5, 10, 15 or 20``, in the active language."""
    words = [str(v) for v in values]
    if len(words) == 1:
        return words[0]
    return _("{values} or {last}").format(values=", ".join(words[:-1]), last=words[-1])


def _impossible_total(rules: Rules, number: int, name: str, value: int, size: HandSize, players: int) -> str:
    """Why no hand left in this round scores ``value``: the step every total keeps, or the range."""
    where = _where(rules, number)
    if value % step(rules, number):
        return _("In {where} every card scores {values}: {value} is not a possible total").format(
            where=where, values=_or(card_values(rules, number)), value=value
        )
    low, high = total_bounds(rules, number, size, players)
    if size.fixed:
        message = _(
            "In {where} {name} holds exactly {n} cards, which score from {low} to {high}: {value} is not a total "
            "they can make"
        )
    else:
        message = _(
            "In {where} {name} holds {least} to {n} cards, which score from {low} to {high}: {value} is not a total "
            "they can make"
        )
    return message.format(where=where, name=name, n=size.most, least=size.least, low=low, high=high, value=value)


@dataclass
class RoundPlan:
    """A round scored from what the table entered, with every problem found in it."""

    winner: Player | None
    dealer: Player
    rows: list[_Row]
    errors: dict[str, list[str]]

    def row(self, player: Player) -> _Row:
        return next(r for r in self.rows if r.player.pk == player.pk)


def _plan_round(
    game: Game,
    rules: Rules,
    players: list[Player],
    number: int,
    winner: str | None,
    hands: Mapping[str, CardsInput],
    points: Mapping[str, object],
    buys: Mapping[str, object],
    cut_bonus: bool,
) -> RoundPlan:
    """Score a round from what the table entered; ``errors`` names every problem at once."""
    errors: dict[str, list[str]] = {}

    def fail(key: str, message: str) -> None:
        errors.setdefault(key, []).append(message)

    by_key = {name_key(p.name): p for p in players}

    def find(name: str, key: str) -> Player | None:
        found = by_key.get(name_key(str(name)))
        if found is None:
            fail(key, _("there is no player named {name!r} in this game").format(name=name))
        return found

    winner_player = find(winner, "winner") if winner is not None else None
    hand_of = {p.pk: (name, value) for name, value in hands.items() if (p := find(name, f"hands.{name}"))}
    points_of = {p.pk: (name, value) for name, value in points.items() if (p := find(name, f"points.{name}"))}
    buys_of = {p.pk: (name, value) for name, value in buys.items() if (p := find(name, f"buys.{name}"))}
    rnd = rules.round(number)
    dealer = players[dealer_seat(game, number, len(players))]

    rows: list[_Row] = []
    for player in players:
        row = _Row(player)
        rows.append(row)
        name = player.name
        if player.pk in buys_of:
            key = f"buys.{buys_of[player.pk][0]}"
            count = _whole(buys_of[player.pk][1])
            if count is None or count < 0:
                fail(
                    key,
                    _("{name}'s buys must be a whole number of 0 or more, not {value!r}").format(
                        name=name, value=buys_of[player.pk][1]
                    ),
                )
            elif count and not rules.buys.allowed:
                fail(
                    key,
                    (
                        _("{title} has no buys (the variant buy-discard allows them)")
                        if rules.slug == "mexican"
                        else _("{title} has no buys")
                    ).format(title=rules.title),
                )
            elif rules.buys.limit is not None and count > rules.buys.limit:
                fail(
                    key,
                    ngettext(
                        "{name} took {count} buy; {title} allows at most {limit} a {word}",
                        "{name} took {count} buys; {title} allows at most {limit} a {word}",
                        count,
                    ).format(
                        name=name, count=count, title=rules.title, limit=rules.buys.limit, word=_(rules.round_word)
                    ),
                )
            elif count > rules.most_buys(len(players), number):
                fail(
                    key,
                    ngettext(
                        "{name} took {count} buy, but every buy takes a card from the stock, which held {stock}",
                        "{name} took {count} buys, but every buy takes a card from the stock, which held {stock}",
                        count,
                    ).format(name=name, count=count, stock=rules.stock(len(players), number)),
                )
            else:
                row.buys = count
        most = rnd.dealt + 2 * row.buys
        size = hand_left_size(rules, number, row.buys)
        has_hand, has_points = player.pk in hand_of, player.pk in points_of
        hand_key = f"hands.{hand_of[player.pk][0]}" if has_hand else f"hands.{name}"
        points_key = f"points.{points_of[player.pk][0]}" if has_points else f"points.{name}"
        if has_hand:
            try:
                row.cards = parse_cards(hand_of[player.pk][1])
            except RefereeError as exc:
                fail(hand_key, f"{name}: {exc}")
        if player == winner_player:
            if row.cards:
                message = ngettext(
                    "{name} went out, so {name} holds no cards; {n} card was entered",
                    "{name} went out, so {name} holds no cards; {n} cards were entered",
                    len(row.cards),
                )
                fail(hand_key, message.format(name=name, n=len(row.cards)))
            if has_points and _whole(points_of[player.pk][1]) != 0:
                fail(points_key, _("{name} went out and scores 0").format(name=name))
            continue
        if has_hand and has_points:
            fail(hand_key, _("give {name}'s cards or {name}'s points, not both").format(name=name))
        elif not has_hand and not has_points:
            fail(hand_key, _("{name}'s cards left in hand (or points) are missing").format(name=name))
        elif has_points:
            value = _whole(points_of[player.pk][1])
            if value is None or value < 0:
                fail(
                    points_key,
                    _("{name}'s points must be a whole number of 0 or more, not {value!r}").format(
                        name=name, value=points_of[player.pk][1]
                    ),
                )
            elif not possible_total(rules, number, value, size, len(players)):
                fail(points_key, _impossible_total(rules, number, name, value, size, len(players)))
            else:
                row.penalty, row.typed = value, True
        elif not row.cards and hand_key not in errors:
            fail(
                hand_key,
                _("{name} did not go out, so {name} holds cards: enter them (or the points)").format(name=name),
            )
        if row.cards and size.fixed and len(row.cards) < most:
            message = ngettext(
                "In {where} nothing is laid down before going out, so {name} holds exactly {most} cards; "
                "{n} was entered",
                "In {where} nothing is laid down before going out, so {name} holds exactly {most} cards; "
                "{n} were entered",
                len(row.cards),
            )
            fail(hand_key, message.format(where=_where(rules, number), name=name, most=most, n=len(row.cards)))
        if len(row.cards) > most:
            if row.buys:
                message = ngettext(
                    "{name} holds {n} cards, but could hold at most {most} ({dealt} dealt and {buys} buy)",
                    "{name} holds {n} cards, but could hold at most {most} ({dealt} dealt and {buys} buys)",
                    row.buys,
                )
            else:
                message = _("{name} holds {n} cards, but could hold at most {most} ({dealt} dealt)")
            fail(hand_key, message.format(name=name, n=len(row.cards), most=most, dealt=rnd.dealt, buys=row.buys))
    all_cards = [c for row in rows for c in row.cards]
    for reason in copy_reasons(rules, all_cards, len(players)):
        fail("hands", _("across all hands: {reason}").format(reason=reason))
    cutter = players[(dealer.seat - 1) % len(players)]
    if cut_bonus:
        if not rules.cut_bonus:
            fail("cut_bonus", _("{title} has no cut bonus (Liverpool has)").format(title=rules.title))
        else:
            next(r for r in rows if r.player == cutter).adjustment = -rules.cut_bonus
    for row in rows:
        if row.cards and not row.typed:
            scored = [card_score(rules, number, c) for c in row.cards]
            row.penalty = sum(c.points for c in scored)
            row.breakdown = [{"card": str(c.card), "points": c.points, "wild": c.wild} for c in scored]
    return RoundPlan(winner_player, dealer, rows, errors)


def _checked_plan(game: Game, rules: Rules, number: int, *entries: Any) -> RoundPlan:
    """The round planned against the seats as they are in the locked game; refused if anything is wrong."""
    plan = _plan_round(game, rules, list(game.players.order_by("seat")), number, *entries)
    if plan.errors:
        raise InvalidInput(plan.errors)
    return plan


def round_preview(
    *,
    game: Game,
    number: int,
    winner: str | None,
    hands: Mapping[str, CardsInput],
    points: Mapping[str, object],
    buys: Mapping[str, object] | None = None,
    cut_bonus: bool = False,
) -> RoundPlan:
    """What recording this round would score, and what is wrong with it so far; writes nothing."""
    rules = rules_for(game)
    rules.round(number)
    players = list(game.players.all())
    return _plan_round(game, rules, players, number, winner, hands, points, buys or {}, cut_bonus)


def _write_round(game: Game, rules: Rules, number: int, plan: RoundPlan, cut_bonus: bool) -> Round:
    wild = rules.wild_rank(number)
    rnd = Round.objects.create(
        game=game,
        number=number,
        winner=plan.winner,
        dealer=plan.dealer,
        dealt=rules.round(number).dealt,
        wild_rank=rank_text(wild) if wild is not None else "",
        cut_bonus=cut_bonus,
    )
    Score.objects.bulk_create(
        Score(
            round=rnd,
            player=row.player,
            cards=" ".join(str(c) for c in row.cards),
            typed=row.typed,
            penalty=row.penalty,
            adjustment=row.adjustment,
            points=row.penalty + row.adjustment,
            buys=row.buys,
            breakdown=row.breakdown,
        )
        for row in plan.rows
    )
    return rnd


def round_snapshot(rnd: Round) -> dict[str, Any]:
    """A round as plain data, for the history (and to restore it on undo)."""
    return {
        "number": rnd.number,
        "winner": rnd.winner.name if rnd.winner else None,
        "dealer": rnd.dealer.name,
        "dealt": rnd.dealt,
        "wild_rank": rnd.wild_rank or None,
        "cut_bonus": rnd.cut_bonus,
        "scores": [
            {
                "player": s.player.name,
                "cards": s.cards,
                "typed": s.typed,
                "penalty": s.penalty,
                "adjustment": s.adjustment,
                "points": s.points,
                "buys": s.buys,
                "breakdown": s.breakdown,
            }
            for s in rnd.scores.select_related("player").order_by("player__seat")
        ],
    }


def round_restore(game: Game, snapshot: Mapping[str, Any]) -> None:
    """Put back a round from a snapshot that ``round_snapshot`` wrote (the history's, on undo)."""
    by_name = {p.name: p for p in game.players.all()}
    rnd = Round.objects.create(
        game=game,
        number=snapshot["number"],
        winner=by_name[snapshot["winner"]] if snapshot["winner"] else None,
        dealer=by_name[snapshot["dealer"]],
        dealt=snapshot["dealt"],
        wild_rank=snapshot["wild_rank"] or "",
        cut_bonus=snapshot["cut_bonus"],
    )
    Score.objects.bulk_create(
        Score(
            round=rnd,
            player=by_name[s["player"]],
            cards=s["cards"],
            typed=s["typed"],
            penalty=s["penalty"],
            adjustment=s["adjustment"],
            points=s["points"],
            buys=s["buys"],
            breakdown=s["breakdown"],
        )
        for s in snapshot["scores"]
    )


def _locked(game: Game, version: int | None) -> Game:
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if version is not None and version != locked.version:
        raise Conflict(_what_changed(locked, version), "version")
    return locked


def _what_changed(game: Game, version: int) -> str:
    changes = list(game.changes.filter(version__gt=version).order_by("id"))
    if not changes:
        return _("this game is at version {version}, not {given}").format(version=game.version, given=version)
    rules = rules_for(game)
    said = "; ".join(_change_words(rules, c) for c in changes)
    return _("the game changed on another phone since you loaded it: {changes}").format(changes=said)


def _change_words(rules: Rules, change: Change) -> str:
    where = rules.round_name(change.round_number)
    if change.action == Change.Action.RECORD:
        return _("{where} was recorded").format(where=where)
    if change.action == Change.Action.CORRECT:
        return _("{where} was corrected").format(where=where)
    return _("a change to {where} was undone").format(where=where)


def _log_change(game: Game, action: str, number: int, **snapshots: Any) -> Change:
    """Every write ends here: the game moves to its next version, and the change is kept."""
    game.version += 1
    game.save(update_fields=["version", "updated_at"])
    return Change.objects.create(game=game, action=action, round_number=number, version=game.version, **snapshots)


def round_record(
    *,
    game: Game,
    number: int,
    winner: str | None,
    hands: Mapping[str, CardsInput],
    points: Mapping[str, object],
    buys: Mapping[str, object] | None = None,
    cut_bonus: bool = False,
    version: int | None = None,
) -> Round:
    """Record the next round. 409 if it is recorded already, 400 for anything wrong in it."""
    rules = rules_for(game)
    with transaction.atomic():
        game = _locked(game, version)
        recorded = game.rounds.count()
        if number <= recorded:
            raise Conflict(
                _("{where} is already recorded (by another phone?); correct it instead").format(
                    where=_where(rules, number)
                ),
                "number",
            )
        if number > rules.last_round:
            raise InvalidInput(
                _("{title} has {last} {words}; there is no {where}").format(
                    title=rules.title, last=rules.last_round, words=_(rules.round_plural), where=_where(rules, number)
                ),
                "number",
            )
        if number != recorded + 1:
            raise InvalidInput(
                _("{where} is out of order: {next} is next").format(
                    where=_where(rules, number), next=_where(rules, recorded + 1)
                ),
                "number",
            )
        plan = _checked_plan(game, rules, number, winner, hands, points, buys or {}, cut_bonus)
        try:
            with transaction.atomic():
                rnd = _write_round(game, rules, number, plan, cut_bonus)
        except IntegrityError:
            raise Conflict(
                _("{where} is already recorded (by another phone?)").format(where=_where(rules, number)), "number"
            ) from None
        _log_change(game, Change.Action.RECORD, number, after=round_snapshot(rnd))
    return rnd


def round_replace(
    *,
    game: Game,
    number: int,
    winner: str | None,
    hands: Mapping[str, CardsInput],
    points: Mapping[str, object],
    buys: Mapping[str, object] | None = None,
    cut_bonus: bool = False,
    version: int | None = None,
) -> Round:
    """Correct a recorded round: the totals follow, the old round stays in the history."""
    rules = rules_for(game)
    with transaction.atomic():
        game = _locked(game, version)
        old = game.rounds.select_related("winner", "dealer").filter(number=number).first()
        if old is None:
            raise InvalidInput(
                _("{where} has not been recorded, so it cannot be corrected").format(where=_where(rules, number)),
                "number",
            )
        plan = _checked_plan(game, rules, number, winner, hands, points, buys or {}, cut_bonus)
        before = round_snapshot(old)
        old.delete()
        rnd = _write_round(game, rules, number, plan, cut_bonus)
        _log_change(game, Change.Action.CORRECT, number, before=before, after=round_snapshot(rnd))
    return rnd


def game_undo(*, game: Game, version: int | None = None) -> Change:
    """Undo the latest change still in force; the undo itself goes into the history."""
    with transaction.atomic():
        game = _locked(game, version)
        last = game.changes.exclude(action=Change.Action.UNDO).filter(undone_by__isnull=True).order_by("-id").first()
        if last is None:
            raise InvalidInput(_("there is nothing to undo"), "undo")
        Round.objects.filter(game=game, number=last.round_number).delete()
        if last.before is not None:
            round_restore(game, last.before)
        return _log_change(
            game, Change.Action.UNDO, last.round_number, before=last.after, after=last.before, undoes=last
        )
