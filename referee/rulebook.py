"""Every ruleset a table can play, built-in or its own: a slug to ``Rules``, and house rules saved.

The built-ins live in the engine; a table's house rules are rows (``HouseRuleset``), read back by
the engine's document reader. Both are found by one function, ``rules_for``, so a game, a club
and the referee take either slug alike. A house ruleset never changes once saved (its slug is a
digest of its document), so what is read from a row may be kept in this process for good.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from .engine import RULESETS, Rules, UnknownRuleset, UnknownVariant, find_rules
from .engine.documents import DocumentError, document_of, rules_from_document
from .engine.i18n import _
from .engine.words import clean_name, invisible_in
from .models import HouseRuleset

SLUG_DIGEST = 8  # hex digits of the document's digest in a house slug
SLUG_MAX = 40  # HouseRuleset.slug and every ruleset column
# What ``house_slug`` writes: slugify's letters of the name, a hyphen, the digest's hex digits.
HOUSE_SLUG = re.compile(rf"[a-z0-9_-]{{1,{SLUG_MAX - SLUG_DIGEST - 1}}}-[0-9a-f]{{{SLUG_DIGEST}}}")


def is_house(slug: str) -> bool:
    """Whether ``slug`` names no built-in ruleset (it may still name no ruleset at all)."""
    return slug not in RULESETS


def rules_for(ruleset: str, variants: Sequence[str] = ()) -> Rules:
    """The rules a table plays by: a built-in with its variants, or a table's house rules."""
    if not is_house(ruleset):
        return find_rules(ruleset, variants)
    rules = house_rules(ruleset)
    if variants:
        raise UnknownVariant(
            _("{name} takes no variants: its house rules say everything it plays").format(name=rules.title)
        )
    return rules


def house_rules(slug: str) -> Rules:
    """A saved house ruleset's ``Rules``; ``UnknownRuleset`` when no row has that slug.

    A slug not of the shape ``house_slug`` writes is refused without asking the database.
    """
    if not isinstance(slug, str) or not HOUSE_SLUG.fullmatch(slug):
        raise _unknown(str(slug)[:SLUG_MAX])
    return _house_rules(slug)


@functools.lru_cache(maxsize=256)
def _house_rules(slug: str) -> Rules:
    # Only found rulesets are kept: a slug saved after a miss is found on the next ask.
    row = HouseRuleset.objects.filter(slug=slug).only("document").first()
    if row is None:
        raise _unknown(slug)
    return rules_from_document(row.document, slug=slug)


def rulesets_offered(chosen: str = "") -> list[Rules]:
    """The rulesets a page offers: every built-in, and ``chosen`` after them when it is a saved
    house ruleset (a table's rules are found by their link, never listed for every visitor)."""
    offered = list(RULESETS.values())
    if chosen and is_house(chosen):
        with contextlib.suppress(UnknownRuleset):  # a slug that names nothing offers nothing more
            offered.append(house_rules(chosen))
    return offered


def house_based_on(slug: str) -> str:
    """The built-in ruleset a saved house ruleset started from ("" for none, or for no such row)."""
    if not is_house(slug) or not HOUSE_SLUG.fullmatch(slug):
        return ""
    return _house_based_on(slug)


@functools.lru_cache(maxsize=256)
def _house_based_on(slug: str) -> str:
    return HouseRuleset.objects.filter(slug=slug).values_list("based_on", flat=True).first() or ""


def _unknown(slug: str) -> UnknownRuleset:
    known = ", ".join(RULESETS)
    return UnknownRuleset(
        _("Unsupported ruleset: {slug!r} (known: {known}, or a saved house ruleset)").format(slug=slug, known=known)
    )


def house_slug(name: str, document: dict[str, Any]) -> str:
    """``grandmas-may-i-3f9a2c71``: the name's first letters and a digest of the whole document."""
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = hashlib.sha256(canonical.encode()).hexdigest()[:SLUG_DIGEST]
    stem = slugify(unicodedata.normalize("NFKD", name))[: SLUG_MAX - SLUG_DIGEST - 1].strip("-") or "house"
    return f"{stem}-{digest}"


def _name_kept(document: object) -> tuple[object, list[tuple[str, str]]]:
    """The document with its name as it is kept (white space folded, composed: NFC), and the name's
    faults: a control character or an invisible one (a zero-width space, a right-to-left override)
    would make one table's rules look like another's, or break a page's line."""
    name = document.get("name") if isinstance(document, dict) else None
    if not isinstance(document, dict) or not isinstance(name, str):
        return document, []
    if any(unicodedata.category(ch) == "Cc" for ch in name):
        return document, [("name", _("holds a control character"))]
    hidden = invisible_in(name)
    if hidden is not None:
        return document, [("name", _("holds an invisible character ({code})").format(code=hidden))]
    return {**document, "name": clean_name(name)}, []


@dataclass(frozen=True)
class HouseDocument:
    """A document read as house rules: the rules, the whole document to keep, its slug, and the
    built-in it started from ("" for none)."""

    rules: Rules
    whole: dict[str, Any]
    slug: str
    based_on: str


def house_document(document: object) -> HouseDocument:
    """A table's house rules read, not saved: ``DocumentError`` (every fault, by key) when the
    document is no ruleset. What is kept is the whole document as the engine writes it back, so
    the row plays the same even if the built-in it was based on changes later."""
    document, faults = _name_kept(document)
    try:
        rules = rules_from_document(document, slug="house")
    except DocumentError as exc:
        raise DocumentError([*faults, *exc.faults]) from None
    if faults:
        raise DocumentError(faults)
    whole = document_of(rules)
    based_on = document.get("based_on") if isinstance(document, dict) else None
    based = based_on if isinstance(based_on, str) and based_on in RULESETS else ""
    return HouseDocument(rules, whole, house_slug(rules.name, whole), based)


def house_saved(slug: str) -> HouseRuleset | None:
    """The row of house rules saved under ``slug``, if any."""
    return HouseRuleset.objects.filter(slug=slug).first()


def house_store(house: HouseDocument) -> tuple[HouseRuleset, bool]:
    """Keep house rules read by ``house_document``; ``(row, created)``: the same rules twice are one row.

    The site's service (``scorekeeping.services.rulesets``) is the one door that calls this, under
    its limit: a page or the API never store rules themselves."""
    try:
        with transaction.atomic():
            defaults = {"name": house.rules.name, "based_on": house.based_on, "document": house.whole}
            return HouseRuleset.objects.get_or_create(slug=house.slug, defaults=defaults)
    except IntegrityError:  # saved at the same moment by another request: the same rules
        return HouseRuleset.objects.get(slug=house.slug), False


__all__ = [
    "DocumentError",
    "HouseDocument",
    "HouseRuleset",
    "house_based_on",
    "house_document",
    "house_rules",
    "house_saved",
    "house_slug",
    "house_store",
    "is_house",
    "rules_for",
    "rulesets_offered",
]
