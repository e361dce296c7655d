"""The referee's pages: check a layout by tapping or typing cards, and the rules of each ruleset."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from scorekeeping.webkit.formdata import form_int
from scorekeeping.webkit.htmx import HtmxHttpRequest, refused

from .engine import (
    DEFAULT_RULESET,
    RULESETS,
    Action,
    Kind,
    Reading,
    RefereeError,
    Rules,
    UnknownRuleset,
    Verdict,
    card_tokens,
    parse_played,
    variants_for,
)
from .engine.cards import Card
from .engine.summary import GENERAL, differences, rule_lines
from .forms import HAND, RefereeForm, RulesForm, cleaned
from .keypad import press, pressed
from .presentation import chips, keypad, penalty_rows
from .representations import rules_data
from .rulebook import house_based_on, is_house, rules_for, rulesets_offered
from .services import referee_check


@dataclass
class RefereeState:
    ruleset: str = DEFAULT_RULESET
    variants: list[str] = field(default_factory=list)
    round: int = 1
    action: str = Action.OPEN
    groups: list[str] = field(default_factory=lambda: ["", ""])
    active: int = 0
    players: int | None = None
    opened_this_turn: bool = False

    @classmethod
    def from_query(cls, query: QueryDict) -> RefereeState:
        """A fresh page; the table page links here with its ruleset, variants, round and players."""
        state = cls.from_post(query)
        if "action" not in query and state.rules().round(state.round).final:
            state.action = Action.GO_OUT
        state.fit_groups()
        return state

    @classmethod
    def from_post(cls, data: QueryDict) -> RefereeState:
        form = RefereeForm(data)
        values = cleaned(form)
        ruleset, variants = form.rules_choice()
        state = cls(
            ruleset=ruleset,
            variants=variants,
            round=values.get("round") or 1,
            action=values.get("action") or Action.OPEN,
            groups=values.get("group") or ["", ""],
            active=values.get("active") or 0,
            players=values.get("players") or None,
            opened_this_turn=bool(values.get("opened_this_turn")),
        )
        try:
            rules = state.rules()
        except RefereeError:
            state.variants = []
            rules = state.rules()
        state.round = min(max(state.round, 1), rules.last_round)
        state.active = min(max(state.active, 0), len(state.groups) - 1)  # a tap lands in a group that exists
        return state

    def rules(self) -> Rules:
        return rules_for(self.ruleset, self.variants)

    def fit_groups(self) -> None:
        """Two groups for a layoff or swap (table, hand), one for a whole hand, as many as needed else."""
        if self.action in (Action.LAYOFF, Action.SWAP):
            self.groups = [*self.groups, "", ""][:2]
        elif self.action == HAND:
            self.groups = [" ".join(self.groups)] if any(self.groups) else [""]
        elif not self.groups:
            self.groups = [""]
        self.active = min(max(self.active, 0), len(self.groups) - 1)

    def apply(self, post: QueryDict) -> bool:
        """Carry out a tap, an untap, a group edit or a declaration; True when a check is due."""
        if pressed(post):
            groups = dict(enumerate(self.groups))
            self.active = press(post, groups, self.active) or 0
            self.groups = list(groups.values())
            return False
        op = post.get("op", "check")
        if op == "add-group" and len(self.groups) < 8:
            self.groups.append("")
            self.active = len(self.groups) - 1
            return False
        if op.startswith("remove-group-"):
            index = form_int(op.removeprefix("remove-group-"), -1)
            if 0 <= index < len(self.groups) and len(self.groups) > 1:
                del self.groups[index]
            self.fit_groups()
            return False
        if op == "action":
            self.fit_groups()
            return False
        if "declare" in post:
            self._declare(post.get("declare", ""))
        return True

    def _declare(self, value: str) -> None:
        """``"<group>:<card index>:<identity>"``: name what a wild stands for, then check again."""
        parts = value.split(":")
        if len(parts) != 3:
            return
        group, index, identity = form_int(parts[0], -1), form_int(parts[1], -1), parts[2]
        if 0 <= group < len(self.groups):
            tokens = card_tokens(self.groups[group])
            if 0 <= index < len(tokens):
                tokens[index] = tokens[index].partition("=")[0] + "=" + identity
                self.groups[group] = " ".join(tokens)

    def check(self) -> Verdict:
        common: dict[str, Any] = {
            "ruleset": self.ruleset,
            "variants": self.variants,
            "round_number": self.round,
            "players": self.players,
            "opened_this_turn": self.opened_this_turn,
        }
        if self.action == HAND:
            final = self.rules().round(self.round).final
            return referee_check(action=Action.GO_OUT if final else Action.OPEN, hand=self.groups[0], **common)
        if self.action in (Action.LAYOFF, Action.SWAP):
            return referee_check(action=self.action, target=self.groups[0], cards=self.groups[1], **common)
        return referee_check(action=self.action, melds=[g for g in self.groups if g.strip()], **common)


def _group_view(state: RefereeState) -> list[dict[str, Any]]:
    rules = state.rules()
    wild = rules.wild_ranks_in(state.round)
    labels = {
        Action.LAYOFF: [_("On the table: the exposed meld"), _("Your cards to lay off")],
        Action.SWAP: [_("On the table: the meld with the wild"), _("Your natural card")],
        HAND: [_("Your whole hand")],
    }.get(state.action, [])
    groups = []
    for i, text in enumerate(state.groups):
        try:
            cards: list[Card] = [p.card for p in parse_played(text)]
        except RefereeError:
            cards = []
        groups.append(
            {
                "index": i,
                "text": text,
                "label": labels[i] if i < len(labels) else _("Meld {n}").format(n=i + 1),
                "chips": chips(cards, wild),
                "active": i == state.active,
            }
        )
    return groups


def _where_declared(state: RefereeState, groups_used: list[int], meld: int, index: int) -> tuple[int | None, int]:
    """The group and card a wild was typed in, where the page can name what it stands for.

    An opening or a go-out: the meld's own group. A layoff: the cards laid off (the exposed
    meld's wilds are fixed already), after the exposed meld's cards in the combined meld.
    """
    if state.action in (Action.OPEN, Action.GO_OUT):
        return (groups_used[meld] if meld < len(groups_used) else None), index
    if state.action == Action.LAYOFF and len(state.groups) > 1:
        on_table = len(card_tokens(state.groups[0]))
        if index >= on_table:
            return 1, index - on_table
    return None, index


def _all_wild_words(rules: Rules, reading: Reading) -> str:
    """An all-wild meld can be any book or run of its length: say so instead of listing them all."""
    n = len(reading.cards)
    if reading.kind is Kind.BOOK:
        return _("Every card is wild: it may stand for any {book} of {n} (declare one, e.g. JK=Q).").format(
            book=_(rules.book_word), n=n
        )
    return _("Every card is wild: it may stand for any {run} of {n} (declare one, e.g. JK=5S).").format(
        run=_(rules.run_word), n=n
    )


def _verdict_view(state: RefereeState, verdict: Verdict) -> dict[str, Any]:
    """The verdict with, for each wild that could stand for more than one card, the choices to name."""
    groups_used = [i for i, g in enumerate(state.groups) if g.strip()]
    melds = []
    for k, laid in enumerate(verdict.melds):
        reading = laid.reading
        all_wild = len(reading.wilds) == len(reading.cards) and laid.ambiguous
        wilds = []
        for placed in reading.wilds:
            group, index = _where_declared(state, groups_used, k, placed.given)
            others = [str(c) for c in laid.choices(placed) if c != placed.identity]
            wilds.append(
                {
                    "card": placed.card,
                    "name": placed.card.name,
                    "stands_for": placed.identity.name,
                    "choices": others if group is not None and not all_wild else [],
                    "group": group,
                    "index": index,
                }
            )
        melds.append(
            {
                "description": reading.describe(),
                "cards": str(reading),
                "wilds": wilds,
                "all_wild": _all_wild_words(state.rules(), reading) if all_wild else "",
            }
        )
    return {
        "legal": verdict.legal,
        "decided": verdict.decided,
        "reasons": verdict.reasons,
        "melds": melds,
        "notes": verdict.notes,
        "freed": verdict.freed,
        "unused": " ".join(str(c) for c in verdict.unused),
    }


def _context(state: RefereeState, verdict: Verdict | None = None, error: RefereeError | None = None) -> dict[str, Any]:
    rules = state.rules()
    return {
        "state": state,
        "rules": rules,
        "rulesets": rulesets_offered(state.ruleset),
        "variants": [
            {"slug": v.slug, "name": _(v.name), "effect": _(v.effect), "checked": v.slug in state.variants}
            for v in variants_for(state.ruleset)
        ],
        "rounds": [
            {
                "number": r.number,
                "label": _("{word} {number}: {contract}").format(
                    word=capfirst(_(rules.round_word)), number=r.number, contract=rules.contract_words(r.number)
                ),
            }
            for r in rules.rounds
        ],
        "actions": [
            (Action.OPEN, _("Open: lay down the contract")),
            (Action.LAYOFF, _("Lay off onto a meld")),
            (Action.SWAP, _("Swap a wild for its card")),
            (Action.GO_OUT, _("Go out: the whole hand at once")),
            (HAND, _("Can I? Find it in my hand")),
        ],
        "groups": _group_view(state),
        "keypad": keypad(rules.wild_ranks_in(state.round)),
        "wild_words": rules.wild_words(state.round),
        "round_word": _(rules.round_word),
        "contract": rules.contract_words(state.round),
        "verdict": _verdict_view(state, verdict) if verdict else None,
        "error": error,
        "can_add_group": state.action in (Action.OPEN, Action.GO_OUT) and len(state.groups) < 8,
    }


@require_http_methods(["GET", "HEAD", "POST"])
def referee(request: HtmxHttpRequest) -> HttpResponse:
    template = "referee/referee.html" + ("#form" if request.htmx else "")
    if request.method != "POST":
        state = RefereeState.from_query(request.GET)
        return render(request, template, _context(state))
    state = RefereeState.from_post(request.POST)
    if not state.apply(request.POST):
        return render(request, template, _context(state))
    try:
        verdict = state.check()
    except RefereeError as exc:
        return render(request, template, _context(state, error=exc), status=refused(request, 422))
    return render(request, template, _context(state, verdict))


@require_safe
def rules_index(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "referee/rules_index.html", {"rulesets": [rules_data(r) for r in RULESETS.values()]})


def _base_rules(slug: str, variants: list[str]) -> Rules:
    """The built-in a house ruleset is based on, with the variants the page plays it with (the ones
    the built-in knows)."""
    try:
        return rules_for(slug, variants)
    except RefereeError:
        return rules_for(slug)


@require_safe
def rules_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A ruleset's tables, a built-in's or a table's house rules alike; a house ruleset also says what
    it was based on and gives its link to share."""
    try:
        rules_for(slug)
    except UnknownRuleset:
        raise Http404(f"no ruleset {slug[:40]!r}") from None
    form = RulesForm({"ruleset": slug, "variant": request.GET.getlist("variant")})
    form.is_valid()
    _ruleset, variants = form.rules_choice()
    try:
        rules = rules_for(slug, variants)
    except RefereeError:
        rules = rules_for(slug)
    data = rules_data(rules)
    based = house_based_on(slug)
    same_deck = len({(d["packs"], d["jokers"]) for d in data["decks"]}) == 1
    # What is wild is said once where it never changes, else in a column of the rank alone.
    table = [rules.in_words(n) for n in range(1, rules.last_round + 1)]
    base = _base_rules(based, variants) if based else None
    context = {
        "rules": data,
        "engine_rules": rules,
        # Every rule in a sentence (the engine's words), and a house ruleset's changes from its base.
        "in_short": [line.text for line in rule_lines(rules) if line.key in GENERAL],
        "changes": differences(base, rules) if base is not None else [],
        "same_deck": same_deck,
        "table": table,
        "wild_column": len({r.wilds for r in table}) > 1,
        "points": penalty_rows(data["document"]["points"]),
        "house": is_house(slug),
        "based_on": base.display_name if base is not None else "",
        "share_url": request.build_absolute_uri(request.path),
        "ruleset_query": urlencode({"ruleset": slug}),
    }
    return render(request, "referee/rules_detail.html", context)
