"""The referee's operations, shared by the API and the pages: parse, check, explain.

Every engine error leaves here naming the input field it is about.
"""

from __future__ import annotations

from collections.abc import Sequence

from .engine import (
    Action,
    Penalty,
    PlayerCountError,
    RefereeError,
    RoundOutOfRange,
    Rules,
    UnknownRuleset,
    UnknownVariant,
    Verdict,
    check_layoff,
    check_layout,
    check_swap,
    parse_cards,
    parse_played,
    score_hand,
    solve_go_out,
    solve_open,
)
from .rulebook import rules_for

CardsInput = str | Sequence[str]


class _field:
    """Name the input field in any engine error raised inside the block.

    A class rather than ``@contextmanager``: it runs for every meld of every check, and a
    generator-based context manager costs several times as much to enter and leave.
    """

    __slots__ = ("name", "prefix")

    def __init__(self, name: str, prefix: str = "") -> None:
        self.name, self.prefix = name, prefix

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if isinstance(exc, RefereeError) and exc.field is None:
            exc.in_field(self.name, self.prefix)


def referee_rules(
    *, ruleset: str, variants: Sequence[str], round_number: int | None = None, players: int | None = None
) -> Rules:
    """The rules for a ruleset (built-in or house) and variants, with the round and player count checked."""
    try:
        rules = rules_for(ruleset, variants)
        if round_number is not None:
            rules.round(round_number)
        if players is not None:
            rules.deck(players)
    except UnknownRuleset as exc:
        raise exc.in_field("ruleset") from None
    except UnknownVariant as exc:
        raise exc.in_field("variants") from None
    except RoundOutOfRange as exc:
        raise exc.in_field("round") from None
    except PlayerCountError as exc:
        raise exc.in_field("players") from None
    return rules


def referee_check(
    *,
    ruleset: str,
    variants: Sequence[str],
    round_number: int,
    action: str,
    melds: Sequence[CardsInput] | None = None,
    hand: CardsInput | None = None,
    target: CardsInput | None = None,
    cards: CardsInput | None = None,
    players: int | None = None,
    opened_this_turn: bool = False,
    buys: int | None = None,
) -> Verdict:
    rules = referee_rules(ruleset=ruleset, variants=variants, round_number=round_number, players=players)
    if action in (Action.OPEN, Action.GO_OUT):
        if hand is not None:
            with _field("hand"):
                parsed_hand = parse_cards(hand)
                solve = solve_open if action == Action.OPEN else solve_go_out
                return solve(rules, round_number, parsed_hand, players=players, buys=buys)
        parsed = []
        for i, meld in enumerate(melds or [], start=1):
            with _field("melds", f"meld {i}"):
                parsed.append(parse_played(meld))
        final = action == Action.GO_OUT
        return check_layout(rules, round_number, parsed, final=final, players=players, buys=buys)
    with _field("target", "target"):
        parsed_target = parse_played(target or "")
    with _field("cards", "cards"):
        parsed_cards = parse_played(cards or "")
    target_cards = (rules, round_number, parsed_target, parsed_cards)
    if action == Action.LAYOFF:
        return check_layoff(*target_cards, players=players, opened_this_turn=opened_this_turn, buys=buys)
    return check_swap(*target_cards, players=players, opened_this_turn=opened_this_turn)


def referee_score(
    *, ruleset: str, variants: Sequence[str], round_number: int, cards: CardsInput, players: int | None = None
) -> Penalty:
    rules = referee_rules(ruleset=ruleset, variants=variants, round_number=round_number, players=players)
    with _field("cards"):
        return score_hand(rules, round_number, parse_cards(cards), players=players)
