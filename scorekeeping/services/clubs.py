"""Clubs and club nights: a club and its members, a night and who is present at it. The draw of
each sitting, a table's token, ending a table and finishing the night are ``services.sittings``.
This maps names to rows, locks the night, writes and logs."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from referee.engine import Rules
from referee.engine.clubs import SCORINGS
from referee.engine.words import MAX_NAME, clean_name, invisible_in
from referee.engine.words import name_key as member_key
from scorekeeping import colours as palette
from scorekeeping.errors import Conflict, InvalidInput, NotFound
from scorekeeping.models import Club, Member, Night, StoryLine, StorySums
from scorekeeping.selectors.lines import club_scope
from scorekeeping.services.games import holds_control_characters, rules_of
from scorekeeping.services.tokens import new_token, token_hash
from scorekeeping.services.versioning import night_touch

# What a club evening needs, and no more (finding 6 of issue 33: one club of 500 made 12,000 games
# in 51 s). A draw's tables also count against the address that made the club (``club_tables``).
MAX_MEMBERS = 500  # a club's members at most; names added at once at most as many
MAX_SITTINGS = 12  # a night's sittings
MAX_PRESENT = 200  # players checked in at one night
MAX_TABLES = 60  # tables one draw makes
MAX_NIGHTS_A_DAY = 4  # a club's nights on one date


def club_token_valid(*, club: Club, token: str | None) -> bool:
    """Constant-time comparison of a presented organiser token with the club's."""
    return bool(token) and hmac.compare_digest(token_hash(token or ""), club.organiser_token_hash)


def _name(value: object, field: str) -> str:
    if not isinstance(value, str) or holds_control_characters(value) or not clean_name(value):
        raise InvalidInput(_("A name is text of 1 to {n} characters").format(n=MAX_NAME), field)
    name = clean_name(value)
    invisible = invisible_in(name)
    if invisible:
        message = _("{name}: a name cannot hold an invisible character ({code}), which makes it look like another")
        shown = "".join(ch for ch in name if invisible_in(ch) is None)[:40]
        raise InvalidInput(message.format(name=shown, code=invisible), field)
    if len(name) > MAX_NAME or len(member_key(name)) > MAX_NAME:
        raise InvalidInput(_("{name}: a name is at most {n} characters").format(name=name[:40], n=MAX_NAME), field)
    return name


def club_create(*, name: object, creator: str = "") -> tuple[Club, str]:
    """A new club and its organiser token (returned once; only its hash is kept); ``creator``, the
    address that made it (kept as its hash), is where its draws' tables are counted."""
    if not isinstance(name, str) or holds_control_characters(name) or not 1 <= len(clean_name(name)) <= 60:
        raise InvalidInput(_("A club's name is text of 1 to 60 characters"), "name")
    token = new_token()
    creator_key = hashlib.sha256(creator.encode()).hexdigest() if creator else ""
    club = Club.objects.create(name=clean_name(name), organiser_token_hash=token_hash(token), creator_key=creator_key)
    return club, token


def club_start(*, name: object, names: Sequence[str] = (), creator: str = "") -> tuple[Club, str]:
    """A club made on a phone: the club and its first members (a pasted list, possibly empty),
    all or nothing; its organiser token, as ``club_create``."""
    cleaned = _names(list(names)) if names else []
    with transaction.atomic():
        club, token = club_create(name=name, creator=creator)
        if cleaned:
            _members(club, cleaned)
    return club, token


def club_ladder_shown(*, club: Club, shown: bool) -> None:
    """The organiser's switch: the club's ladder and its members' ratings on show, or not (some
    players want no rated games). The games and their figures are kept either way."""
    Club.objects.filter(pk=club.pk).update(ladder_shown=shown)
    club.ladder_shown = shown


def _names(names: object, field: str = "names") -> list[str]:
    if not isinstance(names, list) or not 1 <= len(names) <= MAX_MEMBERS:
        raise InvalidInput(_("names: a list of 1 to {n} names").format(n=MAX_MEMBERS), field)
    found: dict[str, str] = {}
    for index, value in enumerate(names):
        name = _name(value, f"{field}.{index}")
        found.setdefault(member_key(name), name)
    return list(found.values())


def _members(club: Club, names: Sequence[str]) -> list[Member]:
    """The members named, made (or back from retirement) where needed; the club locked."""
    existing = {m.key: m for m in Member.objects.filter(club=club, key__in=[member_key(n) for n in names])}
    if Member.objects.filter(club=club).count() + len(set(map(member_key, names)) - set(existing)) > MAX_MEMBERS:
        raise InvalidInput(_("A club has at most {n} members").format(n=MAX_MEMBERS), "names")
    members = []
    for name in names:
        member = existing.get(member_key(name))
        if member is None:
            taken = Member.objects.filter(club=club).count()
            colour = palette.KEYS[taken % len(palette.KEYS)]
            member = Member.objects.create(club=club, name=name, key=member_key(name), colour=colour)
        elif not member.active:
            member.active = True
            member.save(update_fields=["active"])
        members.append(member)
    return members


def members_of(club: Club, names: Sequence[str]) -> list[Member]:
    """The members named, in order (made, or back from retirement, where needed), the club locked:
    inside the caller's transaction."""
    Club.objects.select_for_update().get(pk=club.pk)
    return _members(club, names)


def members_add(*, club: Club, names: object) -> list[Member]:
    """Add the new names to the club (a retired member named again is back); every member after."""
    cleaned = _names(names)
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        _members(club, cleaned)
    return list(club.members.all())


def member_retire(*, club: Club, name: str) -> None:
    """Retire a member: kept in the history, no longer offered."""
    updated = Member.objects.filter(club=club, key=member_key(name), active=True).update(active=False)
    if not updated:
        raise NotFound(_("{name} is no member of this club").format(name=name[:40]), "name")


def member_rename(*, club: Club, name: str, new_name: object) -> Member:
    """A member's new name: their history goes with them (tables keep members, not names);
    refused if another member has that name already."""
    cleaned = _name(new_name, "name")
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        member = Member.objects.filter(club=club, key=member_key(name)).first()
        if member is None:
            raise NotFound(_("{name} is no member of this club").format(name=name[:40]), "name")
        if Member.objects.filter(club=club, key=member_key(cleaned)).exclude(pk=member.pk).exists():
            raise InvalidInput(_("{name} is a member already").format(name=cleaned), "name")
        member.name, member.key = cleaned, member_key(cleaned)
        member.save(update_fields=["name", "key"])
        # The kept stories name the member as their games now do (services.history).
        StoryLine.objects.filter(scope=club_scope(club.pk), player=str(member.pk)).update(name=cleaned)
        StorySums.objects.filter(scope=club_scope(club.pk), player=str(member.pk)).update(name=cleaned)
    return member


def night_create(
    *,
    club: Club,
    ruleset: object,
    sittings: object,
    variants: object = (),
    table_size: object = 4,
    scoring: object = "percentage",
    date: dt.date | None = None,
) -> Night:
    """A night of ``sittings`` full games, tables of ``table_size`` where the ruleset allows it."""
    rules = rules_of(str(ruleset), [str(v) for v in variants] if isinstance(variants, list | tuple) else [])
    if not isinstance(variants, list | tuple):
        raise InvalidInput(_("variants: a list of variant names"), "variants")
    if not isinstance(sittings, int) or isinstance(sittings, bool) or not 1 <= sittings <= MAX_SITTINGS:
        raise InvalidInput(_("sittings: a whole number from 1 to {n}").format(n=MAX_SITTINGS), "sittings")
    low, high = rules.min_players, rules.max_players
    if not isinstance(table_size, int) or isinstance(table_size, bool) or not low <= table_size <= high:
        raise InvalidInput(
            _("table_size: {name} is played by {low} to {high} players").format(
                name=rules.display_name, low=low, high=high
            ),
            "table_size",
        )
    if scoring not in SCORINGS:
        raise InvalidInput(_("scoring: one of {names}").format(names=", ".join(SCORINGS)), "scoring")
    date = date or dt.date.today()
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        if Night.objects.filter(club=club, date=date).count() >= MAX_NIGHTS_A_DAY:
            raise Conflict(_("A club holds at most {n} nights on one date").format(n=MAX_NIGHTS_A_DAY), "date")
        return _night_made(club, rules, date, sittings, table_size, str(scoring))


def _night_made(club: Club, rules: Rules, date: dt.date, sittings: int, table_size: int, scoring: str) -> Night:
    return Night.objects.create(
        club=club,
        date=date,
        ruleset=rules.slug,
        variants=list(rules.variants),
        sittings=sittings,
        table_size=table_size,
        scoring=scoring,
    )


def locked_night(night: Night) -> Night:
    locked = Night.objects.select_for_update().get(pk=night.pk)
    if locked.status == Night.Status.FINISHED:
        raise Conflict(_("This night is finished"), "night")
    return locked


def night_present(*, night: Night, names: object) -> list[Member]:
    """Who is here now (latecomers in, leavers out, before the next draw); a name that is no
    member becomes one."""
    cleaned = _names(names)
    if len(cleaned) > MAX_PRESENT:
        raise InvalidInput(_("A night seats at most {n} players").format(n=MAX_PRESENT), "names")
    with transaction.atomic():
        night = locked_night(night)
        members = _members(night.club, cleaned)
        night.present.set(members)
        night_touch(night)
    return members


def night_check_in(*, night: Night, member_id: int, here: bool) -> int:
    """One name ticked (``here``) or unticked on the check-in list: that member in or out, the
    others as they are, so that ticks sent one after another, or beside a whole list sent at
    once, end as the organiser left the boxes. How many are here now."""
    with transaction.atomic():
        night = locked_night(night)
        member = Member.objects.filter(club_id=night.club_id, pk=member_id).first()
        if member is None or not member.active:  # a retired member's box on a page loaded before
            name = member.name if member is not None else str(member_id)
            raise NotFound(_("{name} is no member of this club").format(name=name[:40]), "member")
        if here and night.present.count() >= MAX_PRESENT:
            raise InvalidInput(_("A night seats at most {n} players").format(n=MAX_PRESENT), "names")
        if here:
            night.present.add(member)
        else:
            night.present.remove(member)
        night_touch(night)
        return night.present.count()
