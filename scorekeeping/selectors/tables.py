"""Whether a club table still takes writes, and whether a phone's "I am Ben" still lets it score
there: a right that came from the night's page holds for that player's table of the night's
latest sitting only, and ends with the table, the next draw or the night (docs/clubs.md, "Who may
do what"). One query each."""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import Q, Subquery

from scorekeeping.models import ClubTable, Night, Sitting


def is_club_table(*, game_id: str) -> bool:
    """Whether the game is a club night's table (its edit link is the organiser's to replace).
    A game is made a club table in the transaction that makes it, and stays one: so each process
    may keep the answer (no query on the table's page after the first)."""
    key = f"club-table:{game_id}"
    found = cache.get(key)
    if found is None:
        found = ClubTable.objects.filter(game_id=game_id).exists()
        cache.set(key, found, 24 * 3600)
    return bool(found)


def table_closed(*, game_id: str) -> bool:
    """Whether the game is a club table that the organiser ended, or of a night that is finished:
    such a table's game is kept as it stands (its standings count), and takes no more writes."""
    return (
        ClubTable.objects.filter(game_id=game_id)
        .filter(Q(ended=True) | Q(sitting__night__status=Night.Status.FINISHED))
        .exists()
    )


def seat_right_holds(*, game_id: str, night_id: int, member_id: int) -> bool:
    """Whether the game is the member's table in the night's latest sitting, still being played
    (not ended), on a night not finished."""
    latest = Sitting.objects.filter(night_id=night_id).order_by("-number").values("number")[:1]
    members = (
        ClubTable.objects.filter(
            game_id=game_id,
            ended=False,
            sitting__night_id=night_id,
            sitting__night__status=Night.Status.OPEN,
            sitting__number=Subquery(latest),
        )
        .values_list("members", flat=True)
        .first()
    )
    return isinstance(members, list) and member_id in members
