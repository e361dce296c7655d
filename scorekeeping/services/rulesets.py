"""House rules saved: the one door behind the editor's Save and ``POST /api/rulesets/``.

Both doors call ``house_rules_save`` and so meet the same limit per address
(``RATE_LIMIT_RULESETS``). The document is read first: a refused one writes nothing and counts
nothing. Rules saved before are found by their slug (a digest of the whole document) and handed
back, never counted and never refused, even at the limit: nothing is written for them.
"""

from __future__ import annotations

from referee.rulebook import HouseRuleset, house_document, house_saved, house_store
from scorekeeping import ratelimit
from scorekeeping.errors import TooManyRequests


def house_rules_save(*, document: object, client: str) -> tuple[HouseRuleset, bool]:
    """Save a table's house rules for ``client`` (its address, as ``ratelimit.client_key`` says);
    ``(row, created)``. Raises ``DocumentError`` (every fault, by key) or ``TooManyRequests``,
    and then has written and counted nothing."""
    house = house_document(document)
    row = house_saved(house.slug)
    if row is not None:
        return row, False
    lim = ratelimit.limit("rulesets")
    try:
        ratelimit.take(lim, client)
    except ratelimit.RateLimited as exc:
        raise TooManyRequests(str(exc), exc.retry_after) from None
    try:
        row, created = house_store(house)
    except BaseException:
        ratelimit.give_back(lim, client)
        raise
    if not created:  # saved a moment ago by another request: nothing was written here
        ratelimit.give_back(lim, client)
    return row, created
