"""The rules engine: pure Python, no Django. Cards, rulesets, checks, solver and penalties."""

from .cards import JOKER, Card, Identity, Played, Suit, card_tokens, format_cards, parse_cards, parse_played
from .checks import Action, Laid, Verdict, check_copies, check_layoff, check_layout, check_swap
from .errors import (
    CardSyntaxError,
    ImpossibleHand,
    PlayerCountError,
    RefereeError,
    RoundOutOfRange,
    UnknownRuleset,
    UnknownVariant,
)
from .melds import Placed, Reading, Wilds
from .rules import Component, Kind, Round, Rules, SwapPolicy, TieBreak
from .rulesets import (
    DEFAULT_RULESET,
    RULESETS,
    VARIANTS,
    Variant,
    find_rules,
    find_ruleset,
    find_variant,
    variants_for,
)
from .scoring import CardPoints, Penalty, card_points, score_hand
from .solver import solve_go_out, solve_open

__all__ = [
    "DEFAULT_RULESET",
    "JOKER",
    "RULESETS",
    "VARIANTS",
    "Action",
    "Card",
    "CardPoints",
    "CardSyntaxError",
    "Component",
    "Identity",
    "ImpossibleHand",
    "Kind",
    "Laid",
    "Penalty",
    "Placed",
    "Played",
    "PlayerCountError",
    "Reading",
    "RefereeError",
    "Round",
    "RoundOutOfRange",
    "Rules",
    "Suit",
    "SwapPolicy",
    "TieBreak",
    "UnknownRuleset",
    "UnknownVariant",
    "Variant",
    "Verdict",
    "Wilds",
    "card_points",
    "card_tokens",
    "check_copies",
    "check_layoff",
    "check_layout",
    "check_swap",
    "find_rules",
    "find_ruleset",
    "find_variant",
    "format_cards",
    "parse_cards",
    "parse_played",
    "score_hand",
    "solve_go_out",
    "solve_open",
    "variants_for",
]
