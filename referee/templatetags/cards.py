"""``{{ sentence|symbols }}``: cards in a sentence shown with suit symbols, as on the keypad."""

from __future__ import annotations

from django import template

from referee.presentation import symbols as to_symbols

register = template.Library()


@register.filter(is_safe=True)
def symbols(text: object) -> str:
    return to_symbols(str(text))
