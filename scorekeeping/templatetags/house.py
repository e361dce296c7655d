"""The house-rules editor's fault slots: one per field and section, found by the document key."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def _key(parts: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in parts)


@register.simple_tag
def key_of(*parts: Any) -> str:
    """``rounds.3.dealt``: a document key from its parts (``{% key_of "rounds" n "dealt" as key %}``)."""
    return _key(parts)


@register.simple_tag
def slot_id(*parts: Any) -> str:
    """``fault-rounds-3-dealt``: the id of the element that holds a key's faults."""
    return "fault-" + _key(parts).replace(".", "-")


@register.inclusion_tag("referee/_fault_slot.html", takes_context=True)
def fault_slot(context: template.Context, *parts: Any) -> dict[str, Any]:
    key = _key(parts)
    return {"id": slot_id(*parts), "faults": (context.get("placed") or {}).get(key, []), "oob": False}


@register.simple_tag(takes_context=True)
def invalid(context: template.Context, *parts: Any) -> SafeString:
    """``aria-invalid="true"`` on a field with faults (its slot describes it either way)."""
    return mark_safe(' aria-invalid="true"') if (context.get("placed") or {}).get(_key(parts)) else mark_safe("")
