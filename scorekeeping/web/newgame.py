"""The new-game form: ruleset, variants, players in seat order, and how the first dealer is chosen.

Adding, removing and reordering players are round trips that return the form (one
fragment with htmx, the whole page without); only "create" calls the service.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from referee.engine import DEFAULT_RULESET, RULESETS, variants_for
from referee.formdata import form_int
from referee.forms import RulesForm, cleaned
from scorekeeping.errors import ErrorKey
from scorekeeping.web.forms import NewGameForm


@dataclass
class NewGameState:
    ruleset: str = DEFAULT_RULESET
    variants: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=lambda: ["", ""])
    method: str = "random"
    dealer: int = 0
    draws: list[str] = field(default_factory=list)
    focus: int | None = None

    @classmethod
    def initial(cls, query: QueryDict) -> NewGameState:
        form = RulesForm(query)
        form.is_valid()
        state = cls(ruleset=form.rules_choice()[0])
        state.players = [""] * max(2, RULESETS[state.ruleset].min_players)
        return state

    @classmethod
    def from_post(cls, post: QueryDict) -> NewGameState:
        form = NewGameForm(post)
        values = cleaned(form)
        ruleset, variants = form.rules_choice()
        players = values.get("player") or ["", ""]
        draws = values.get("draw") or []
        return cls(
            ruleset=ruleset,
            variants=variants,
            players=players,
            method=values.get("method") or "random",
            dealer=values.get("dealer") or 0,
            draws=(draws + [""] * len(players))[: len(players)],
        )

    def apply(self, op: str) -> bool:
        """Carry out an edit of the form; True when the table asked to create the game."""
        verb, _sep, arg = op.partition("-")
        index = form_int(arg, -1)
        n = len(self.players)
        if verb == "add" and n < RULESETS[self.ruleset].max_players:
            self.players.append("")
            self.draws.append("")
            self.focus = n
        elif verb == "remove" and 0 <= index < n and n > 1:
            del self.players[index]
            del self.draws[index]
            self.dealer = min(self.dealer, len(self.players) - 1)
        elif verb in ("up", "down") and 0 <= index < n:
            other = index - 1 if verb == "up" else index + 1
            if 0 <= other < n:
                self.players[index], self.players[other] = self.players[other], self.players[index]
                self.draws[index], self.draws[other] = self.draws[other], self.draws[index]
                if self.dealer in (index, other):
                    self.dealer = other if self.dealer == index else index
                self.focus = other
        return verb == "create"

    def service_args(self) -> dict[str, Any]:
        names = [" ".join(p.split()) for p in self.players]
        first_dealer = names[self.dealer] if self.method == "named" and 0 <= self.dealer < len(names) else None
        draw = {names[i]: self.draws[i] for i in range(len(names)) if names[i]} if self.method == "draw" else None
        return {
            "ruleset": self.ruleset,
            "variants": self.variants,
            "players": self.players,
            "first_dealer": first_dealer,
            "draw": draw,
        }

    def view(self, errors: Mapping[ErrorKey, list[str]] | None = None) -> dict[str, Any]:
        errors = dict(errors or {})
        names = [" ".join(p.split()) for p in self.players]
        rules = RULESETS[self.ruleset]
        rows = []
        for i, name in enumerate(self.players):
            messages = errors.pop(f"players.{i}", []) + errors.pop(f"draw.{names[i]}", [])
            rows.append(
                {"index": i, "name": name, "draw": self.draws[i] if i < len(self.draws) else "", "errors": messages}
            )
        return {
            "ruleset": self.ruleset,
            "rulesets": [
                {"slug": r.slug, "name": r.display_name, "players": f"{r.min_players}-{r.max_players}"}
                for r in RULESETS.values()
            ],
            "variants": [
                {"slug": v.slug, "name": _(v.name), "effect": _(v.effect), "checked": v.slug in self.variants}
                for v in variants_for(self.ruleset)
            ],
            "players": rows,
            "player_range": f"{rules.min_players}-{rules.max_players}",
            "can_add": len(self.players) < rules.max_players,
            "method": self.method,
            "dealer": self.dealer,
            "focus": self.focus,
            "errors": {
                "players": errors.pop("players", []),
                "ruleset": errors.pop("ruleset", []) + errors.pop("variants", []),
                "dealer": errors.pop("first_dealer", []) + errors.pop("draw", []),
                "other": [m for messages in errors.values() for m in messages],
            },
        }
