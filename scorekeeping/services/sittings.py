"""A club night's tables: the draw of each sitting (its tables are ordinary games), a table's
edit token, ending a table, finishing the night; what they count against the club's maker. The
engine decides the tables and the draw (``referee.engine.clubs``); this maps names to rows, locks
the night (``clubs.locked_night``), writes and logs.

A table's edit token is not stored in clear anywhere: it is the HMAC-SHA256 of the table's
place in the night (night, sitting, table) under the organiser's token, so the organiser's
screen can show every table's edit link again while the server keeps only the game's hash.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
import random
import secrets
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from referee.engine.clubs import CannotSeat, draw, pair, table_sizes
from referee.rulebook import rules_for
from scorekeeping import colours as palette
from scorekeeping import ratelimit
from scorekeeping.errors import Conflict, InvalidInput, NotFound, TooManyRequests
from scorekeeping.models import Club, ClubTable, Game, Night, Sitting
from scorekeeping.services.clubs import MAX_TABLES, locked_night
from scorekeeping.services.games import game_create
from scorekeeping.services.tokens import token_hash
from scorekeeping.services.versioning import locked, night_touch, touch


def table_token(organiser_token: str, table: ClubTable | tuple[int, int, int], generation: int = 0) -> str:
    """The edit token of a club table's game, made again from the organiser's token (and the
    table's generation: how often the organiser replaced its edit link)."""
    if isinstance(table, ClubTable):
        place, generation = (table.sitting.night_id, table.sitting.number, table.number), table.token_generation
    else:
        place = table
    message = "table:{}:{}:{}".format(*place) + (f":{generation}" if generation else "")
    digest = hmac.new(organiser_token.encode(), message.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def table_token_replace(*, night: Night, sitting: int, table: int, organiser_token: str) -> ClubTable:
    """A club table's new edit link, made by the organiser (only the organiser's token mints a
    club table's token): the old link and every phone's right made from it stop working, the
    "I am" rights at the table hold as before. The table's new token is ``table_token(.., table)``."""
    with transaction.atomic():
        night = locked_night(night)
        found = (
            ClubTable.objects.select_related("sitting")
            .filter(sitting__night=night, sitting__number=sitting, number=table)
            .first()
        )
        if found is None:
            raise NotFound(_("There is no table {t} in sitting {s}").format(t=table, s=sitting), "table")
        if found.ended:
            raise Conflict(_("Table {t} of sitting {s} has ended").format(t=table, s=sitting), "table")
        game = locked(found.game, None)
        found.token_generation += 1
        found.save(update_fields=["token_generation"])
        game.edit_token_hash = token_hash(table_token(organiser_token, found))
        game.save(update_fields=["edit_token_hash", "updated_at"])
        touch(game)
        night_touch(night)
    return found


def _unfinished(sitting: Sitting) -> list[ClubTable]:
    """The tables of ``sitting`` whose game is not over and that were not ended."""
    tables = list(sitting.tables.select_related("game").annotate(played=Count("game__rounds")))
    return [t for t in tables if not t.ended and t.played < t.game.rules.last_round]


def _lock_games(game_ids: Iterable[str]) -> None:
    """The games' rows locked (the night's lock is held: locks are taken night first), so that a
    write at one of these tables either commits first or, waiting, finds the table closed."""
    list(Game.objects.select_for_update().filter(pk__in=list(game_ids)).order_by("pk").values_list("pk", flat=True))


def _end(tables: Sequence[ClubTable]) -> None:
    """End the tables as they stand: their games take no more writes (``versioning.locked``)."""
    _lock_games(t.game_id for t in tables)
    ClubTable.objects.filter(pk__in=[t.pk for t in tables]).update(ended=True)


@contextmanager
def tables_counted(club: Club, tables: int) -> Iterator[None]:
    """``count_tables`` for what the block makes: given back if it raises (a sheet refused makes no
    table, so it counts nothing)."""
    count_tables(club, tables)
    try:
        yield
    except BaseException:
        ratelimit.give_back(ratelimit.limit("club_tables"), club.creator_key or f"club:{club.pk}", amount=tables)
        raise


def count_tables(club: Club, tables: int) -> None:
    """A draw's tables (or an imported sheet's one) counted against the address that made the
    club, as its new games are (429 past ``RATE_LIMIT_CLUB_TABLES`` an hour). Inside a draw's
    transaction a draw refused after this is not counted; a sheet is counted before it is read."""
    lim = ratelimit.limit("club_tables")
    try:
        ratelimit.take(lim, club.creator_key or f"club:{club.pk}", tables)
    except ratelimit.RateLimited as exc:
        raise TooManyRequests(str(exc), exc.retry_after) from None


def sitting_draw(*, night: Night, organiser_token: str, force: bool = False, seed: int | None = None) -> Sitting:
    """The next sitting: the present members at tables, each table a new game with its first
    dealer drawn at random. Refused (409) while a table of the sitting before is unfinished,
    unless ``force`` (those tables are then ended as they stand)."""
    with transaction.atomic():
        night = locked_night(night)
        rules = rules_for(night.ruleset, night.variants)
        drawn = list(night.sittings_drawn.order_by("number"))
        if len(drawn) >= night.sittings:
            raise Conflict(_("Every sitting of this night is drawn ({n})").format(n=night.sittings), "sittings")
        if drawn:
            open_tables = _unfinished(drawn[-1])
            if open_tables and not force:
                numbers = ", ".join(str(t.number) for t in open_tables)
                raise Conflict(
                    _("Sitting {n} is still being played at table {tables}").format(n=drawn[-1].number, tables=numbers),
                    "force",
                )
            _end(open_tables)
        present = {m.pk: m for m in night.present.all()}
        try:
            sizes = table_sizes(len(present), rules.min_players, rules.max_players, night.table_size)
        except CannotSeat as exc:
            raise InvalidInput(str(exc), "present") from None
        if len(sizes) > MAX_TABLES:
            raise InvalidInput(
                _("A draw makes at most {n} tables, not {tables}: seat more players at a table").format(
                    n=MAX_TABLES, tables=len(sizes)
                ),
                "table_size",
            )
        count_tables(night.club, len(sizes))
        met: Counter[tuple[str, str]] = Counter()
        sat_out: Counter[str] = Counter()
        for sitting in drawn:
            sat_out.update(str(m.pk) for m in sitting.sitting_out.all())
            for table in sitting.tables.all():
                met.update(pair(str(a), str(b)) for a, b in itertools.combinations(table.members, 2))
        seed = secrets.randbits(62) if seed is None else seed
        result = draw([str(pk) for pk in present], sizes, met, sat_out, random.Random(seed))
        sitting = Sitting.objects.create(
            night=night, number=len(drawn) + 1, repeated_pairs=result.repeated_pairs, seed=seed
        )
        sitting.sitting_out.set([present[int(pk)] for pk in result.sitting_out])
        for number, seats in enumerate(result.tables, start=1):
            members = [present[int(pk)] for pk in seats]
            token = table_token(organiser_token, (night.pk, sitting.number, number))
            game, _token = game_create(
                ruleset=night.ruleset,
                variants=night.variants,
                players=[m.name for m in members],
                first_dealer=None,
                token=token,
                colours=palette.in_seat_order(len(members), [m.colour for m in members]),
            )
            ClubTable.objects.create(sitting=sitting, number=number, game=game, members=[m.pk for m in members])
        night_touch(night)
    return sitting


def table_end(*, night: Night, sitting: int, table: int) -> ClubTable:
    """End an unfinished table: its standings count as they stand, marked as ended."""
    with transaction.atomic():
        night = locked_night(night)
        found = ClubTable.objects.filter(sitting__night=night, sitting__number=sitting, number=table).first()
        if found is None:
            raise NotFound(_("There is no table {t} in sitting {s}").format(t=table, s=sitting), "table")
        _end([found])
        night_touch(night)
    return found


def night_finish(*, night: Night) -> Night:
    """The night is over: nothing more is drawn or checked in; unfinished tables end as they stand."""
    with transaction.atomic():
        night = locked_night(night)
        last = night.sittings_drawn.order_by("-number").first()
        if last is not None:
            _end(_unfinished(last))
        # A write at a table waits for this (its game's row is locked), then finds the night finished.
        _lock_games(ClubTable.objects.filter(sitting__night=night).values_list("game_id", flat=True))
        night.status = Night.Status.FINISHED
        night_touch(night)
        night.save(update_fields=["status"])
    return night
