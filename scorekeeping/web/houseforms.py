"""The house-rules editor's form (issue 37): posted fields to the engine's document, and back.

The form parses types and allow-lists keys, nothing more: every rule (a contract longer than a
hand, a deck too small, a knob not played yet) is the engine's to refuse, by the document key it
names. A field's name maps to that key (``FIELD_KEYS``, ``round_keys``), so a fault lands beside
the field it is about. Numbers are bounded here only so that no huge or odd number reaches the
engine; the engine's own bounds decide the rest.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django import forms
from django.forms import formset_factory
from django.utils.translation import gettext_lazy as _

from referee.engine.documents import (
    MAX_CONTRACT_MELDS,
    MAX_DEALT,
    MAX_JOKERS,
    MAX_NAME,
    MAX_PACKS,
    MAX_ROUNDS,
    RANK_KEYS,
)
from referee.engine.knobs import KNOB, MAX_PLAYERS
from referee.forms import WholeNumberField

MAX_MELD = 13  # cards in one meld: a whole suit
YES_NO = [("yes", _("Yes")), ("no", _("No"))]
RANK_CHOICES = [("", _("None")), *((rank, rank) for rank in RANK_KEYS)]

# The form's fields and the document keys they write (a fault keyed so shows beside the field).
FIELD_KEYS = {
    "name": "name",
    "players_min": "players.min",
    "players_max": "players.max",
    "packs": "deck.packs",
    "jokers": "deck.jokers",
    "jokers_mode": "deck",
    "contract_sizes": "contract_sizes",
    "jokers_wild": "wilds.jokers",
    "wild_every": "wilds.ranks",
    "wild_natural": "wilds.natural",
    "books_min": "books.min",
    "books_suits": "books.suits",
    "runs_min": "runs.min",
    "runs_ace": "runs.ace",
    "naturals_per_meld": "naturals.per_meld",
    "naturals_wilds": "naturals.wilds",
    "adjacent_wilds": "naturals.adjacent_wilds",
    **{f"points_{rank}": f"points.{rank}" for rank in (*RANK_KEYS, "JK")},
    "wild_points_mode": "points.wild",
    "wild_points": "points.wild",
    "discard": "going_out.discard",
    "lowest_wins": "lowest_wins",
}
SECTION_KEYS = ("players", "deck", "rounds", "wilds", "books", "runs", "naturals", "points", "going_out")


def round_keys(number: int) -> dict[str, str]:
    """A round's fields (as its form names them) and their document keys."""
    key = f"rounds.{number}"
    keys = {"dealt": f"{key}.dealt", "wild_rank": f"{key}.wild_rank", "final": f"{key}.final"}
    for n in range(1, MAX_CONTRACT_MELDS + 1):
        keys[f"meld_{n}"] = f"{key}.contract.{n}.meld"
        keys[f"size_{n}"] = f"{key}.contract.{n}.size"
    return keys


def whole(low: int, high: int, *, required: bool = True) -> WholeNumberField:
    return WholeNumberField(min_value=low, max_value=high, required=required)


def knob(key: str, *, required: bool = True) -> WholeNumberField:
    """A number knob's field, bounded as the document's reader bounds it (``knobs.KNOBS``)."""
    found = KNOB[key]
    if found.low is None or found.high is None:
        raise ValueError(f"{key} is no number knob")
    return whole(found.low, found.high, required=required)


def choice(choices: Any, *, required: bool = True) -> forms.ChoiceField:
    return forms.ChoiceField(choices=choices, required=required)


class NameField(forms.CharField):
    def to_python(self, value: Any) -> str:
        return unicodedata.normalize("NFC", super().to_python(value) or "")


class HouseForm(forms.Form):
    """Everything but the rounds (``RoundFormSet``)."""

    name = NameField(max_length=MAX_NAME, min_length=1)
    start = forms.CharField(max_length=40, required=False)
    players_min = knob("players.min")
    players_max = knob("players.max")
    packs = whole(1, MAX_PACKS)
    jokers = whole(0, MAX_JOKERS)
    jokers_mode = choice([("fixed", _("A number")), ("per_player", _("One fewer than the players"))])
    contract_sizes = choice([("minimum", _("At least")), ("exact", _("Exactly"))])
    jokers_wild = choice(YES_NO)
    wild_every = choice(RANK_CHOICES, required=False)
    wild_natural = choice(YES_NO)
    books_min = knob("books.min")
    books_suits = choice([("any", _("Any")), ("distinct", _("All different"))])
    runs_min = knob("runs.min")
    runs_ace = choice([("low", _("Low")), ("high", _("High")), ("either", _("Either")), ("around", _("Around"))])
    naturals_per_meld = choice([("0", "0"), ("1", "1"), ("2", "2")])
    naturals_wilds = choice([("any", _("Any number")), ("not_more", _("No more than naturals"))])
    adjacent_wilds = choice(YES_NO)
    wild_points_mode = choice([("own", _("As their rank")), ("number", _("A number"))])
    wild_points = knob("points", required=False)
    discard = choice(YES_NO)
    lowest_wins = choice(YES_NO)
    players = whole(2, MAX_PLAYERS, required=False)  # the preview's table size, not a rule

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for rank in (*RANK_KEYS, "JK"):
            self.fields[f"points_{rank}"] = knob("points")


class RoundForm(forms.Form):
    dealt = whole(1, MAX_DEALT)
    wild_rank = choice(RANK_CHOICES, required=False)
    final = forms.BooleanField(required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for n in range(1, MAX_CONTRACT_MELDS + 1):
            self.fields[f"meld_{n}"] = choice([("", "–"), ("book", _("Book")), ("run", _("Run"))], required=False)
            self.fields[f"size_{n}"] = whole(1, MAX_MELD, required=False)


RoundFormSet = formset_factory(
    RoundForm,
    extra=0,
    min_num=1,
    validate_min=True,
    max_num=MAX_ROUNDS,
    absolute_max=MAX_ROUNDS,
    validate_max=True,
)


def initial_of(document: dict[str, Any], start: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A whole document (``document_of``) as the form's initial values and its rounds'."""
    deck = document["deck"]
    groups = deck if isinstance(deck, list) else [{"players": [document["players"]["min"]], **deck}]
    per_player = len(groups) > 1 and all(g["jokers"] == n - 1 for g in groups for n in g["players"])
    points, wilds = document["points"], document["wilds"]
    initial: dict[str, Any] = {
        "name": document["name"],
        "start": start,
        "players_min": document["players"]["min"],
        "players_max": document["players"]["max"],
        "packs": groups[0]["packs"],
        "jokers": groups[0]["jokers"],
        "jokers_mode": "per_player" if per_player else "fixed",
        "contract_sizes": document["contract_sizes"],
        "jokers_wild": yes(wilds["jokers"]),
        "wild_every": (wilds["ranks"] or [""])[0],
        "wild_natural": yes(wilds["natural"]),
        "books_min": document["books"]["min"],
        "books_suits": document["books"]["suits"],
        "runs_min": document["runs"]["min"],
        "runs_ace": document["runs"]["ace"],
        "naturals_per_meld": str(document["naturals"]["per_meld"]),
        "naturals_wilds": document["naturals"]["wilds"],
        "adjacent_wilds": yes(document["naturals"]["adjacent_wilds"]),
        "wild_points_mode": "own" if points.get("wild") is None else "number",
        "wild_points": points.get("wild") if points.get("wild") is not None else points["JK"],
        "discard": yes(document["going_out"]["discard"]),
        "lowest_wins": yes(document["lowest_wins"]),
        "players": document["players"]["min"],
        **{f"points_{rank}": points[rank] for rank in (*RANK_KEYS, "JK")},
    }
    rounds = []
    for rnd in document["rounds"]:
        row: dict[str, Any] = {"dealt": rnd["dealt"], "wild_rank": rnd["wild_rank"] or "", "final": rnd["final"]}
        for n, meld in enumerate(rnd["contract"][:MAX_CONTRACT_MELDS], start=1):
            row[f"meld_{n}"], row[f"size_{n}"] = meld["meld"], meld["size"]
        rounds.append(row)
    return initial, rounds


def yes(value: object) -> str:
    return "yes" if value else "no"


def document_from(
    form: HouseForm, rounds: Any, start: dict[str, Any], based_on: str | None
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The document the posted fields describe, and the fields' own errors by document key.

    A field the form refused takes the starting document's value, so the engine still checks the
    rest and every fault shows at once; a save with any field error is refused all the same.
    """
    form.is_valid()
    rounds.is_valid()
    base, base_rounds = initial_of(start, "")
    errors = [(FIELD_KEYS.get(field, field), str(m)) for field, ms in form.errors.items() for m in ms]
    errors = [(key if key != "__all__" else "document", m) for key, m in errors if key not in ("start", "players")]
    errors += [("rounds", str(m)) for m in rounds.non_form_errors()]

    def get(field: str) -> Any:
        value = form.cleaned_data.get(field)
        return base[field] if value is None or (value == "" and field not in ("wild_every",)) else value

    low, high = get("players_min"), get("players_max")
    packs, jokers = get("packs"), get("jokers")
    if get("jokers_mode") == "per_player":
        deck: Any = [{"players": [n], "packs": packs, "jokers": n - 1} for n in range(low, max(low, high) + 1)]
    else:
        deck = {"packs": packs, "jokers": jokers}
    document: dict[str, Any] = {
        "name": get("name"),
        "players": {"min": low, "max": high},
        "deck": deck,
        "rounds": _rounds(rounds, base_rounds, errors),
        "contract_sizes": get("contract_sizes"),
        "wilds": {
            "jokers": get("jokers_wild") == "yes",
            "ranks": [get("wild_every")] if get("wild_every") else [],
            "natural": get("wild_natural") == "yes",
        },
        "books": {"min": get("books_min"), "suits": get("books_suits")},
        "runs": {"min": get("runs_min"), "ace": get("runs_ace")},
        "naturals": {
            "per_meld": int(get("naturals_per_meld")),
            "wilds": get("naturals_wilds"),
            "adjacent_wilds": get("adjacent_wilds") == "yes",
        },
        "points": {
            **{rank: get(f"points_{rank}") for rank in (*RANK_KEYS, "JK")},
            "wild": get("wild_points") if get("wild_points_mode") == "number" else None,
        },
        "going_out": {"discard": get("discard") == "yes"},
        "lowest_wins": get("lowest_wins") == "yes",
        "table": start["table"],
        "words": start["words"],
    }
    if based_on:
        document = {"based_on": based_on, **document}
    return document, errors


def _rounds(rounds: Any, base_rounds: list[dict[str, Any]], errors: list[tuple[str, str]]) -> list[dict[str, Any]]:
    written = []
    for index, round_form in enumerate(rounds.forms[:MAX_ROUNDS]):
        keys = round_keys(index + 1)
        errors += [(keys.get(field, keys["dealt"]), str(m)) for field, ms in round_form.errors.items() for m in ms]
        data = round_form.cleaned_data if hasattr(round_form, "cleaned_data") else {}
        fallback = base_rounds[min(index, len(base_rounds) - 1)]
        contract = []
        for n in range(1, MAX_CONTRACT_MELDS + 1):
            meld = data.get(f"meld_{n}")
            if not meld:
                continue
            size = data.get(f"size_{n}")
            if size is None:
                if f"size_{n}" not in round_form.errors:
                    errors.append((keys[f"size_{n}"], str(_("Give the meld's size."))))
                size = 3
            contract.append({"meld": meld, "size": size})
        written.append(
            {
                "dealt": data.get("dealt") or fallback["dealt"],
                "contract": contract,
                "wild_rank": data.get("wild_rank") or None,
                "final": bool(data.get("final")),
            }
        )
    return written
