"""The house-rules editor (issue 37): a table writes its own rules, starting from a built-in one.

Saved through the one service behind ``POST /api/rulesets/`` too (``services/rulesets.py``): the same
limit per address, and rules saved before are found again, never counted.

``/rules/new/`` shows the form (``?from=<slug>``: a built-in or a saved house ruleset) and saves
it; ``/rules/new/preview/`` answers the page's live preview with the round table (or the faults)
and every field's fault slot, out of band. Steppers and "+ round" are submit buttons too, so the
page works without JavaScript. The engine checks the document; this module only shows its answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from referee.engine import DEFAULT_RULESET, RULESETS, RefereeError, Rules
from referee.engine.documents import MAX_CONTRACT_MELDS, MAX_ROUNDS, DocumentError, document_of, rules_from_document
from referee.forms import WholeNumberField
from referee.rulebook import house_based_on, rules_for
from scorekeeping import ratelimit
from scorekeeping.errors import TooManyRequests
from scorekeeping.services.rulesets import house_rules_save
from scorekeeping.web.house_drafts import draft_changed, draft_keep
from scorekeeping.web.houseforms import (
    FIELD_KEYS,
    SECTION_KEYS,
    HouseForm,
    RoundFormSet,
    document_from,
    initial_of,
    round_keys,
)
from scorekeeping.webkit.formdata import form_int
from scorekeeping.webkit.htmx import HtmxHttpRequest, refused

TEMPLATE = "referee/house_editor.html"
PREFIX = "rounds"


@dataclass
class Editor:
    """The form as posted (or as started), the document it makes and every fault found in it."""

    form: HouseForm
    rounds: Any
    document: dict[str, Any]
    faults: list[tuple[str, str]]
    rules: Rules | None = None
    open: set[str] = field(default_factory=set)
    op: str = ""

    @classmethod
    def start(cls, slug: str) -> Editor:
        """The editor as a GET opens it: the forms unbound, holding the ruleset started from as
        their initial values, and its rules (renamed) for the preview. Nothing is posted to itself:
        a save goes one way, form to document to rules, once (``posted``)."""
        slug, start = _starting(slug)
        initial, rounds = initial_of(start, slug)
        initial["name"] = _("{name} (house rules)").format(name=initial["name"])[:60]
        document = {**start, "name": initial["name"]}
        return cls(
            HouseForm(initial=initial),
            RoundFormSet(initial=rounds, prefix=PREFIX),
            document,
            [],
            rules_from_document(document, slug="house"),
        )

    @classmethod
    def posted(cls, post: QueryDict, op: str = "") -> Editor:
        data = post.copy()
        slug, start = _starting(data.get("start", ""))
        opened = _apply(data, op)
        data[f"{PREFIX}-INITIAL_FORMS"] = "0"  # every round posted is read as typed (none kept from before)
        form = HouseForm(data)
        rounds = RoundFormSet(data, prefix=PREFIX)
        document, faults = document_from(form, rounds, start, _based_on(slug))
        rules = None
        try:
            rules = rules_from_document(document, slug="house")
        except DocumentError as exc:
            known = {key for key, _why in faults}
            faults += [(key, why) for key, why in exc.faults if key not in known]
            rules = None
        if faults:
            rules = None
        return cls(form, rounds, document, faults, rules, opened, op)

    def context(self) -> dict[str, Any]:
        placed = place(self.faults, len(self.rounds.forms))
        players = self.form.cleaned_data.get("players") if hasattr(self.form, "cleaned_data") else None
        rows, seats = [], []
        if self.rules is not None:
            low, high = self.rules.min_players, self.rules.max_players
            players = min(max(players or low, low), high)
            seats = list(range(low, high + 1))
            for n in range(1, self.rules.last_round + 1):
                words = self.rules.in_words(n)
                rows.append({"words": words, "stock": self.rules.stock(players, n)})
        sections = {key.split(".")[0] for key in placed} | self.open
        return {
            "form": self.form,
            "rounds": self.rounds,
            "round_forms": [{"n": i, "form": f, "melds": _melds(f)} for i, f in enumerate(self.rounds.forms, start=1)],
            "can_add_round": len(self.rounds.forms) < MAX_ROUNDS,
            "placed": placed,
            "summary": [
                (label_of(key), why, "fault-" + slot.replace(".", "-"))
                for key, why, slot in summarised(self.faults, placed)
            ],
            "rows": rows,
            "seats": seats,
            "players": players,
            "open": sections,
            # Without JavaScript a stepper is a round trip: the page comes back at the field it changed.
            "focus": self.op.split(":")[1] if self.op.startswith("step:") and self.op.count(":") == 2 else self.op,
            "builtins": [(slug, rules.display_name) for slug, rules in RULESETS.items()],
        }


def _starting(slug: str) -> tuple[str, dict[str, Any]]:
    """The ruleset a table starts from (a built-in, or a saved house ruleset), as a document."""
    try:
        rules = rules_for(slug or DEFAULT_RULESET)
    except (RefereeError, DocumentError):
        slug, rules = DEFAULT_RULESET, RULESETS[DEFAULT_RULESET]
    return slug or DEFAULT_RULESET, document_of(rules)


def _based_on(slug: str) -> str | None:
    return slug if slug in RULESETS else house_based_on(slug) or None


def _apply(data: QueryDict, op: str) -> set[str]:
    """A stepper pressed, a round added or the last one removed (without JavaScript, or by htmx);
    the sections to show open after it."""
    count = min(max(form_int(data.get(f"{PREFIX}-TOTAL_FORMS"), 1), 1), MAX_ROUNDS)
    if op == "add-round" and count < MAX_ROUNDS:
        for key in [k for k in data if k.startswith(f"{PREFIX}-{count - 1}-")]:
            data[key.replace(f"{PREFIX}-{count - 1}-", f"{PREFIX}-{count}-", 1)] = str(data.get(key, ""))
        data[f"{PREFIX}-TOTAL_FORMS"] = str(count + 1)
        return {"rounds"}
    if op == "remove-round" and count > 1:
        data[f"{PREFIX}-TOTAL_FORMS"] = str(count - 1)
        return {"rounds"}
    verb, _sep, rest = op.partition(":")
    name, _sep, step = rest.rpartition(":")
    number = _steppable(name)
    if verb != "step" or number is None or step not in ("-1", "+1"):
        return set()
    value = form_int(data.get(name), None)
    low = number.min_value if isinstance(number.min_value, int) else 0
    high = number.max_value if isinstance(number.max_value, int) else low
    data[name] = str(min(max((value if value is not None else low) + int(step), low), high))
    return {"rounds" if name.startswith(PREFIX) else FIELD_KEYS.get(name, "").split(".")[0]}


def _steppable(name: str) -> WholeNumberField | None:
    """The number field a stepper names (an allow-list: the forms' own number fields)."""
    if name.startswith(f"{PREFIX}-"):
        index, _sep, part = name.removeprefix(f"{PREFIX}-").partition("-")
        if form_int(index, -1) not in range(MAX_ROUNDS):
            return None
        found = RoundFormSet.form().fields.get(part)
    else:
        found = HouseForm().fields.get(name)
    return found if isinstance(found, WholeNumberField) else None


def _melds(form: Any) -> list[dict[str, Any]]:
    """A round's contract melds: the ones given, then empty ones to add a meld, all but the
    first of them hidden (the page shows the next as one is chosen, or the next full page does)."""
    melds: list[dict[str, Any]] = []
    for n in range(1, MAX_CONTRACT_MELDS + 1):
        kind = form[f"meld_{n}"]
        empty = not kind.value()
        hidden = empty and any(m["empty"] for m in melds)
        melds.append({"n": n, "kind": kind, "size": form[f"size_{n}"], "empty": empty, "hidden": hidden})
    return melds


def slot_keys(rounds: int) -> list[str]:
    """Every key a fault may be shown beside: the fields', then each section's and round's."""
    keys = ["document", *dict.fromkeys(FIELD_KEYS.values()), *SECTION_KEYS]
    for n in range(1, rounds + 1):
        keys += [f"rounds.{n}", f"rounds.{n}.contract", *round_keys(n).values()]
    return keys


def slot_of(key: str, known: set[str]) -> str:
    """The slot a fault goes in: its key's own, else the nearest enclosing one (``deck.0.packs``
    goes beside the deck); a key of nothing on the page, in the summary only (``document``)."""
    parts = key.split(".")
    while parts:
        if ".".join(parts) in known:
            return ".".join(parts)
        parts.pop()
    return "document"


def place(faults: list[tuple[str, str]], rounds: int) -> dict[str, list[str]]:
    known = set(slot_keys(rounds))
    placed: dict[str, list[str]] = {}
    for key, why in faults:
        placed.setdefault(slot_of(key, known), []).append(why)
    return placed


def summarised(faults: list[tuple[str, str]], placed: dict[str, list[str]]) -> list[tuple[str, str, str]]:
    known = set(placed)
    return [(key, why, slot_of(key, known)) for key, why in faults]


LABELS = {
    "name": gettext_lazy("Name"),
    "players": gettext_lazy("Players"),
    "players.min": gettext_lazy("Fewest players"),
    "players.max": gettext_lazy("Most players"),
    "deck": gettext_lazy("Deck"),
    "deck.packs": gettext_lazy("Packs"),
    "deck.jokers": gettext_lazy("Jokers"),
    "rounds": gettext_lazy("Rounds"),
    "contract_sizes": gettext_lazy("Contract sizes"),
    "wilds": gettext_lazy("Wilds"),
    "wilds.jokers": gettext_lazy("Jokers wild"),
    "wilds.ranks": gettext_lazy("A rank wild in every round"),
    "wilds.natural": gettext_lazy("A wild may stand for itself"),
    "books": gettext_lazy("Books"),
    "books.min": gettext_lazy("Fewest cards in a book"),
    "books.suits": gettext_lazy("Suits in a book"),
    "runs": gettext_lazy("Runs"),
    "runs.min": gettext_lazy("Fewest cards in a run"),
    "runs.ace": gettext_lazy("Ace in a run"),
    "naturals": gettext_lazy("Naturals"),
    "naturals.per_meld": gettext_lazy("Naturals per meld"),
    "naturals.wilds": gettext_lazy("Wilds in a meld"),
    "naturals.adjacent_wilds": gettext_lazy("Wilds side by side"),
    "points": gettext_lazy("Points"),
    "points.wild": gettext_lazy("Points for wild-rank cards"),
    "going_out": gettext_lazy("Going out"),
    "going_out.discard": gettext_lazy("Going out with a discard"),
    "lowest_wins": gettext_lazy("Lowest total wins"),
}


CONTRACT_KEY = "contract"  # a round's melds in a document (``rounds.3.contract.1``), not a ruleset


def label_of(key: str) -> str:
    """A fault's key in words for the summary: ``Round 3, meld 1``, ``Points: K``."""
    if key in LABELS:
        return str(LABELS[key])
    parts = key.split(".")
    if parts[0] == "points" and len(parts) == 2:
        return _("Points: {rank}").format(rank=parts[1])
    if parts[0] == "rounds" and len(parts) > 1:
        where = _("Round {n}").format(n=parts[1])
        if len(parts) > 3 and parts[2] == CONTRACT_KEY:
            return _("{round}, meld {n}").format(round=where, n=parts[3])
        return where
    if parts[0] == "deck" and len(parts) > 1:
        return _("Deck")
    return key


@require_http_methods(["GET", "HEAD", "POST"])
def house_new(request: HtmxHttpRequest) -> HttpResponse:
    if request.method != "POST":
        return render(request, TEMPLATE, Editor.start(request.GET.get("from", "")).context())
    op = request.POST.get("op", "save")
    editor = Editor.posted(request.POST, op)
    if op != "save":
        return render(request, TEMPLATE + ("#editor" if request.htmx else ""), editor.context())
    if editor.faults:
        return render(request, TEMPLATE, editor.context(), status=refused(request, 422))
    try:
        row, _created = house_rules_save(document=editor.document, client=ratelimit.client_key(request))
    except DocumentError as exc:
        editor.faults = exc.faults
        return render(request, TEMPLATE, editor.context(), status=refused(request, 422))
    except TooManyRequests as exc:
        editor.faults = [("document", exc.message)]
        response = render(request, TEMPLATE, editor.context(), status=refused(request, 429))
        response["Retry-After"] = str(exc.retry_after)
        return response
    return redirect("rules-detail", row.slug)


MAX_SHOWN = 200  # fault slots a page may say it shows (a 20-round editor has about 300 in all)


@require_POST
def house_preview(request: HtmxHttpRequest) -> HttpResponse:
    """The live preview: the round table (or the faults), and out of band the fault slots that
    change (those with faults now, and those the page says it shows: ``shown``) and the draft's id.

    ``partial=1``: only the fields changed are sent, laid over the draft (``house_drafts``); a draft
    the session no longer holds is said by the ``house-draft-lost`` event, and the page sends the
    whole form again. Else the whole form is sent and kept as a new draft."""
    draft_id = request.POST.get("draft", "")[:20]
    if request.POST.get("partial") == "1":
        data = draft_changed(request, draft_id, request.POST)
        if data is None:
            return HttpResponse(status=204, headers={"HX-Trigger": "house-draft-lost"})
    else:
        data = request.POST
        draft_id = draft_keep(request, request.POST)
    context = Editor.posted(data).context()
    shown = set(request.POST.get("shown", "").split()[:MAX_SHOWN])
    slots = [
        ("fault-" + key.replace(".", "-"), context["placed"].get(key, []))
        for key in slot_keys(len(context["round_forms"]))
    ]
    context["slots"] = [(slot, faults) for slot, faults in slots if faults or slot in shown]
    context["draft"] = draft_id
    return render(request, TEMPLATE + "#preview-response", context)
