"""The house-rules editor's drafts: the form a phone is editing, kept in its session, so that a
stepper tap (or any field changed) sends only that field and gets back only what it changes.

The page is drawn with no draft. The first preview the page asks sends the whole form; it is kept
under a new id, which comes back with the preview (``#house-draft``). From then on a change sends
the draft's id and the field changed, and is laid over the draft. A draft the session no longer
holds (another tab drew several since, the session ended) is said in a header, and the page asks
once more with the whole form. Without JavaScript every post is the whole form, as before: no draft.

Only the form's own fields are kept (an allow-list, values cut short), at most ``MAX_DRAFTS`` a
session, the oldest dropped first; they live in the database with the session, as every process
must see them.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.http import HttpRequest, QueryDict

from referee.engine.documents import MAX_ROUNDS
from scorekeeping.web.houseforms import HouseForm, RoundFormSet

DRAFTS = "house_drafts"  # the session's key
MAX_DRAFTS = 4
MAX_VALUE = 80  # characters of a field's value: the longest is a name, 60
PREFIX = "rounds"
_ROUND_FIELD = re.compile(rf"{PREFIX}-(\d{{1,2}})-(\w+)")
_MANAGEMENT = {f"{PREFIX}-{name}" for name in ("TOTAL_FORMS", "INITIAL_FORMS", "MIN_NUM_FORMS", "MAX_NUM_FORMS")}


def _fields() -> tuple[frozenset[str], frozenset[str]]:
    return frozenset(HouseForm().fields), frozenset(RoundFormSet.form().fields)


FORM_FIELDS, ROUND_FIELDS = _fields()


def kept(name: str) -> bool:
    """Whether ``name`` is one of the editor form's fields (a draft keeps nothing else)."""
    if name in FORM_FIELDS or name in _MANAGEMENT:
        return True
    found = _ROUND_FIELD.fullmatch(name)
    return found is not None and int(found[1]) < MAX_ROUNDS and found[2] in ROUND_FIELDS


def _drafts(request: HttpRequest) -> dict[str, dict[str, str]]:
    drafts = request.session.get(DRAFTS)
    return drafts if isinstance(drafts, dict) else {}


def draft_keep(request: HttpRequest, data: QueryDict) -> str:
    """The whole form kept as a new draft; its id."""
    drafts = _drafts(request)
    draft_id = secrets.token_urlsafe(9)
    drafts[draft_id] = {name: str(value)[:MAX_VALUE] for name, value in data.items() if kept(name)}
    while len(drafts) > MAX_DRAFTS:
        drafts.pop(next(iter(drafts)))
    request.session[DRAFTS] = drafts
    return draft_id


def draft_changed(request: HttpRequest, draft_id: str, changes: QueryDict) -> QueryDict | None:
    """The draft with ``changes`` laid over it, and kept so; None where the session holds no such draft."""
    drafts = _drafts(request)
    draft: Any = drafts.get(draft_id)
    if not isinstance(draft, dict):
        return None
    for name, value in changes.items():
        if kept(name):
            draft[name] = str(value)[:MAX_VALUE]
    drafts[draft_id] = draft
    request.session[DRAFTS] = drafts
    data = QueryDict(mutable=True)
    for name, value in draft.items():
        if isinstance(name, str) and isinstance(value, str) and kept(name):
            data[name] = value
    return data
