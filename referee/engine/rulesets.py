"""The built-in rulesets and their variants, found by slug: the documents of ``catalogue.py``, read.

``find_rules("mexican", ["kings-wild"])`` gives the ``Rules`` a table plays by: the ruleset's
document with the variants' changes laid over it, read by ``documents.py``. Nothing here knows
one ruleset from another: every number and word is in the catalogue.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .catalogue import DEFAULT_RULESET, RULESET_ENTRIES, VARIANT_ENTRIES
from .documents import builtin_document, rules_from_document
from .errors import UnknownRuleset, UnknownVariant
from .i18n import _
from .patches import merged
from .rules import Rules
from .words import names_and


@dataclass(frozen=True, slots=True)
class Variant:
    """A change a table may make to a built-in ruleset: a change to its document."""

    slug: str
    name: str
    effect: str
    change: Mapping[str, Any] = field(repr=False, compare=False)
    excludes: tuple[str, ...] = ()


VARIANTS: dict[str, Variant] = {
    slug: Variant(slug, entry["name"], entry["effect"], entry["change"], tuple(entry.get("excludes", ())))
    for slug, entry in VARIANT_ENTRIES.items()
}


def _offered(slug: str) -> tuple[str, ...]:
    """The variants a built-in offers: its own list, or else those of the ruleset it is based on."""
    entry = RULESET_ENTRIES[slug]
    if "variants" in entry:
        return tuple(entry["variants"])
    return _offered(entry["document"]["based_on"])


def _read(slug: str, variants: tuple[str, ...] = ()) -> Rules:
    document = builtin_document(slug)
    for variant in variants:
        document = merged(document, VARIANTS[variant].change)
    rules = rules_from_document(document, slug=slug)
    return rules.with_identity(source=RULESET_ENTRIES[slug]["source"], variants=variants)


RULESETS: dict[str, Rules] = {slug: _read(slug) for slug in RULESET_ENTRIES}
OFFERED: dict[str, tuple[str, ...]] = {slug: _offered(slug) for slug in RULESET_ENTRIES}


def find_ruleset(slug: str) -> Rules:
    try:
        return RULESETS[slug]
    except (KeyError, TypeError):
        known = ", ".join(RULESETS)
        raise UnknownRuleset(
            _("Unsupported ruleset: {slug!r} (known: {known})").format(slug=slug, known=known)
        ) from None


def find_variant(slug: str) -> Variant:
    try:
        return VARIANTS[slug]
    except (KeyError, TypeError):
        raise UnknownVariant(_("Unsupported variant: {slug!r}").format(slug=slug)) from None


def variant_named(slug: str) -> str:
    """A variant as players call it, in quotes, for a sentence: ``“Lay off on the opening turn”``."""
    return _("“{name}”").format(name=_(VARIANTS[slug].name))


def variants_for(ruleset: str) -> list[Variant]:
    """The variants a ruleset offers (none for a table's own house rules)."""
    return [VARIANTS[slug] for slug in OFFERED.get(ruleset, ())]


def variant_allowing(rules: Rules, allows: Callable[[Rules], bool]) -> str | None:
    """The variant of ``rules``' ruleset, not chosen yet and combinable with those chosen, that
    would make ``allows(rules)`` true, named as players call it (``variant_named``); None if none
    would (or if ``rules`` allow it already). A hint read from the variants' data, never from a
    ruleset's name."""
    if allows(rules):
        return None
    for variant in variants_for(rules.slug):
        if variant.slug in rules.variants or any(c in variant.excludes for c in rules.variants):
            continue
        if allows(find_rules(rules.slug, (*rules.variants, variant.slug))):
            return variant_named(variant.slug)
    return None


def no_cut_bonus(rules: Rules) -> str:
    """Why ``rules`` take no cut bonus, naming the rulesets that have one."""
    having = [r.display_name for r in RULESETS.values() if r.cut_bonus]
    if not having:
        return _("{title} has no cut bonus").format(title=rules.title)
    return _("{title} has no cut bonus ({names} has one)").format(title=rules.title, names=names_and(having))


def find_rules(ruleset: str = DEFAULT_RULESET, variants: Iterable[str] = ()) -> Rules:
    """The rules a table plays by: a ruleset with its variants, checked and applied."""
    return _find_rules(ruleset, tuple(variants))


@functools.lru_cache(maxsize=256)
def _find_rules(ruleset: str, variants: tuple[str, ...]) -> Rules:
    rules = find_ruleset(ruleset)
    chosen: list[str] = []
    for slug in variants:
        variant = find_variant(slug)
        if slug not in OFFERED[ruleset]:
            owners = [name for name, offered in OFFERED.items() if slug in offered]
            raise UnknownVariant(
                _("Variant {slug!r} belongs to {owners}, not {ruleset}").format(
                    slug=slug, owners=", ".join(owners), ruleset=ruleset
                )
            )
        if slug in chosen:
            raise UnknownVariant(_("Variant {slug!r} is listed twice").format(slug=slug))
        clash = next((c for c in chosen if c in variant.excludes), None)
        if clash is not None:
            raise UnknownVariant(
                _("Variants {first!r} and {second!r} cannot be combined").format(first=clash, second=slug)
            )
        chosen.append(slug)
    if not chosen:
        return rules
    return _read(ruleset, tuple(sorted(chosen, key=list(VARIANTS).index)))


__all__ = [
    "DEFAULT_RULESET",
    "RULESETS",
    "VARIANTS",
    "Variant",
    "find_rules",
    "find_ruleset",
    "find_variant",
    "no_cut_bonus",
    "variant_allowing",
    "variant_named",
    "variants_for",
]
