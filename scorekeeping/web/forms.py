"""The score-keeper's forms: they clean what the new-game and round-entry pages post."""

from __future__ import annotations

from typing import Any

from django import forms

from referee.forms import RulesForm, TextListField, WholeNumberField
from scorekeeping.models import Game, Player

MAX_PLAYERS_TYPED = 20


class NewGameForm(RulesForm):
    player = TextListField(max_items=MAX_PLAYERS_TYPED, max_length=200)
    draw = TextListField(max_items=MAX_PLAYERS_TYPED, max_length=20)
    method = forms.ChoiceField(choices=Game.DealerMethod.choices, required=False)
    dealer = WholeNumberField(required=False)
    colour = TextListField(max_items=MAX_PLAYERS_TYPED, max_length=20)  # a key each: the service checks them
    known = forms.CharField(required=False, max_length=200)  # a name chip tapped: it fills the next empty seat


class RoundEntryForm(forms.Form):
    """Who went out, each seat's cards (typed or tapped), points and buys; the version the phone saw.

    Points and buys are kept as typed (bounded): the service refuses them by name, beside
    the player, with what is wrong with them.
    """

    winner = forms.CharField(required=False, max_length=10)
    cut_bonus = forms.BooleanField(required=False)
    version = WholeNumberField(required=False)
    active = WholeNumberField(required=False)

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for p in players:
            self.fields[f"hand-{p.seat}"] = forms.CharField(required=False, strip=False)
            self.fields[f"points-{p.seat}"] = forms.CharField(required=False)
            self.fields[f"buys-{p.seat}"] = forms.CharField(required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name, value in list(data.items()):
            if isinstance(value, str) and name.startswith("hand-"):
                data[name] = value[:400]
            elif isinstance(value, str) and name.startswith(("points-", "buys-")):
                data[name] = value[:40]
        return data


class SeasonForm(forms.Form):
    """A season's range and counting: from and to (dates), each player's best N nights, and the
    nights needed for the title."""

    start = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    best = forms.IntegerField(required=False, min_value=1, max_value=366)
    minimum = forms.IntegerField(required=False, min_value=1, max_value=366)
