"""``{% night_title night as title %}``: a club night as every page names it, written once."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import date_format
from django.utils.translation import gettext

register = template.Library()


@register.simple_tag
def night_title(night: Any, year: bool = True) -> str:
    """ "Night 3 · 4 December 2026" in the page's language (a page's title leaves the year out);
    ``night`` as the selectors give it, numbered in its club."""
    when = date_format(night.date, "j F Y" if year else "j F")
    return gettext("Night {n} · {date}").format(n=night.number, date=when)
