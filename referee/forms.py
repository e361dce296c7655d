"""Django forms that clean what a page posts: plain ASCII whole numbers, known choices, bounded texts.

A value a form refuses falls back to the page's default (a stale or hand-made post never
crashes a page); the rules themselves are checked later by the services, whose errors the
pages show beside each field.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from scorekeeping.webkit.formdata import form_int

from .engine import DEFAULT_RULESET, RULESETS, Action, RefereeError, variants_for
from .rulebook import SLUG_MAX, rules_for

HAND = "hand"  # the referee page's "Can I?": a whole hand for the solver
ACTIONS = (*Action.ALL, HAND)


class WholeNumberField(forms.IntegerField):
    """Plain ASCII digits (optionally signed), at most nine: not '٣', '1_000', '²' or a thousand digits."""

    def to_python(self, value: Any) -> int | None:
        text = str(value if value is not None else "").strip()
        number = form_int(text, None)
        if text and number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class TextListField(forms.Field):
    """A field posted several times under one name (``player``, ``group``), each bounded in length."""

    widget = forms.MultipleHiddenInput

    def __init__(self, *, max_items: int, max_length: int, **kwargs: Any) -> None:
        self.max_items, self.max_length = max_items, max_length
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> list[str]:
        items = value if isinstance(value, list) else []
        return [str(item)[: self.max_length] for item in items[: self.max_items]]


class RulesetField(forms.CharField):
    """A ruleset's slug: a built-in, or a house ruleset a table saved (``rulebook.rules_for``)."""

    default_error_messages = {
        "unknown": gettext_lazy(
            "There is no ruleset {slug!r}: choose one from the list, or a saved house ruleset's link."
        )
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=SLUG_MAX, **kwargs)

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value:
            try:
                rules_for(value)
            except RefereeError:
                raise forms.ValidationError(
                    str(self.error_messages["unknown"]).format(slug=value), code="unknown"
                ) from None


def ruleset_typed(text: str) -> str:
    """A ruleset as a person gives it in a box: its slug, or its rules page's link (the last part)."""
    return text.strip().rstrip("/").rsplit("/", 1)[-1][: SLUG_MAX + 1]


class RulesForm(forms.Form):
    """The ruleset and the variants ticked; variants of another ruleset are dropped."""

    ruleset = RulesetField(required=False)
    variant = forms.MultipleChoiceField(
        choices=[(v.slug, v.slug) for slug in RULESETS for v in variants_for(slug)], required=False
    )

    def rules_choice(self) -> tuple[str, list[str]]:
        ruleset = self.cleaned_data.get("ruleset") or DEFAULT_RULESET
        allowed = {v.slug for v in variants_for(ruleset)}
        return ruleset, [v for v in self.cleaned_data.get("variant", []) if v in allowed]


def cleaned(form: forms.Form) -> dict[str, Any]:
    """What the form could clean; a field it refused is left out, for the page's default."""
    form.is_valid()
    return form.cleaned_data


class RefereeForm(RulesForm):
    round = WholeNumberField(required=False)
    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS], required=False)
    group = TextListField(max_items=8, max_length=400)
    active = WholeNumberField(required=False)
    players = WholeNumberField(required=False)
    opened_this_turn = forms.BooleanField(required=False)
