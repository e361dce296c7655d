"""The new-game form: players in seat order with a colour each, the ruleset, its variants, and how
the first dealer is chosen.

Adding, removing and reordering players, a name chip tapped (it fills the next empty seat), a
colour or a ruleset chosen are round trips that return the form (one fragment with htmx, the
whole page without); only "create" calls the service, which checks the names and the colours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from referee.engine import DEFAULT_RULESET, variants_for
from referee.engine.words import name_key
from referee.forms import RulesForm, cleaned
from referee.rulebook import rules_for, rulesets_offered
from scorekeeping import colours as palette
from scorekeeping.errors import ErrorKey
from scorekeeping.web.forms import NewGameForm
from scorekeeping.webkit.formdata import form_int

CHIPS = 16  # the known names offered as chips at most; the rest come as names are typed


@dataclass
class NewGameState:
    ruleset: str = DEFAULT_RULESET
    variants: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=lambda: ["", ""])
    method: str = "random"
    dealer: int = 0
    draws: list[str] = field(default_factory=list)
    colours: list[str] = field(default_factory=lambda: palette.in_seat_order(2))
    known: str = ""
    focus: int | None = None
    variants_open: bool = False

    @classmethod
    def initial(cls, query: QueryDict) -> NewGameState:
        form = RulesForm(query)
        form.is_valid()
        state = cls(ruleset=form.rules_choice()[0])
        state.players = [""] * max(2, rules_for(state.ruleset).min_players)
        state.colours = palette.in_seat_order(len(state.players))
        return state

    @classmethod
    def from_post(cls, post: QueryDict) -> NewGameState:
        form = NewGameForm(post)
        values = cleaned(form)
        ruleset, variants = form.rules_choice()
        players = values.get("player") or ["", ""]
        draws = values.get("draw") or []
        # No colour posted (an older page, a script): the palette in seat order, as the service gives.
        colours = [palette.current_key(c) for c in values.get("colour") or []] or palette.in_seat_order(len(players))
        return cls(
            ruleset=ruleset,
            variants=variants,
            players=players,
            method=values.get("method") or "random",
            dealer=values.get("dealer") or 0,
            draws=(draws + [""] * len(players))[: len(players)],
            colours=(colours + [""] * len(players))[: len(players)],
            known=values.get("known") or "",
        )

    def _seat_added(self) -> None:
        self.players.append("")
        self.draws.append("")
        self.colours.append(palette.in_seat_order(len(self.colours) + 1, [*self.colours, None])[-1])

    def apply(self, op: str) -> bool:
        """Carry out an edit of the form; True when the table asked to create the game."""
        verb, _sep, arg = op.partition("-")
        index = form_int(arg, -1)
        n = len(self.players)
        room = n < rules_for(self.ruleset).max_players
        if self.known.strip():  # a name chip: the next empty seat, or a new one while the table has room
            empty = [i for i, p in enumerate(self.players) if not p.strip()]
            if not empty and room:
                self._seat_added()
                empty = [n]
            if empty:
                self.players[empty[0]] = self.known.strip()
            return False
        if verb == "add" and room:
            self._seat_added()
            self.focus = n
        elif verb == "remove" and 0 <= index < n and n > 1:
            del self.players[index]
            del self.draws[index]
            del self.colours[index]
            self.dealer = min(self.dealer, len(self.players) - 1)
        elif verb in ("up", "down") and 0 <= index < n:
            other = index - 1 if verb == "up" else index + 1
            if 0 <= other < n:
                for seats in (self.players, self.draws, self.colours):
                    seats[index], seats[other] = seats[other], seats[index]
                if self.dealer in (index, other):
                    self.dealer = other if self.dealer == index else index
                self.focus = other
        self.variants_open = verb == "variant"  # a variant ticked: its list stays open
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
            "colours": self.colours,
        }

    def view(self, errors: Mapping[ErrorKey, list[str]] | None = None, known: Sequence[str] = ()) -> dict[str, Any]:
        """What the page shows; ``known``: the names this phone knows, offered as chips while not seated."""
        errors = dict(errors or {})
        names = [" ".join(p.split()) for p in self.players]
        rules = rules_for(self.ruleset)
        rows = []
        for i, name in enumerate(self.players):
            messages = errors.pop(f"players.{i}", []) + errors.pop(f"draw.{names[i]}", [])
            colour = self.colours[i] if i < len(self.colours) else ""
            rows.append(
                {
                    "index": i,
                    "name": name,
                    "initial": names[i][:1].upper() or str(i + 1),
                    "draw": self.draws[i] if i < len(self.draws) else "",
                    "errors": messages,
                    "colour": colour,
                    "colour_known": colour in palette.BY_KEY,
                    "colour_errors": errors.pop(f"colours.{i}", []),
                }
            )
        offered = {name_key(n) for n in names if n}  # a name seated already is no chip
        chips: list[str] = []
        for name in known:
            if name_key(name) not in offered and len(chips) < CHIPS:
                offered.add(name_key(name))
                chips.append(name)
        offered_variants = variants_for(self.ruleset)
        variants = [
            {"slug": v.slug, "name": _(v.name), "effect": _(v.effect), "checked": v.slug in self.variants}
            for v in offered_variants
        ]
        return {
            "ruleset": self.ruleset,
            "rulesets": [
                {"slug": r.slug, "name": r.display_name, "players": f"{r.min_players}-{r.max_players}"}
                for r in rulesets_offered(self.ruleset)
            ],
            "variants": variants,
            "variants_on": ", ".join(_(v.name) for v in offered_variants if v.slug in self.variants),
            "variants_open": self.variants_open or bool(errors.get("variants")),
            "colours": [{"key": c.key, "name": c.name} for c in palette.PALETTE],
            "chips": chips,
            "room": len(self.players) < rules.max_players or any(not p.strip() for p in self.players),
            "players": rows,
            "player_range": f"{rules.min_players}-{rules.max_players}",
            "can_add": len(self.players) < rules.max_players,
            "method": self.method,
            "dealer": self.dealer,
            "focus": self.focus,
            "errors": {
                "players": errors.pop("players", []),
                "ruleset": errors.pop("ruleset", []),
                "variants": errors.pop("variants", []),
                "dealer": errors.pop("first_dealer", []) + errors.pop("draw", []),
                "colours": errors.pop("colours", []),
                "other": [m for messages in errors.values() for m in messages],
            },
        }
