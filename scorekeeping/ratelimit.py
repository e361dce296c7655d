"""Rate limits for creating games and house rulesets and presenting edit tokens, counted in the database.

A counter is one row per key and fixed window; incrementing it is one UPDATE (or an
INSERT the first time), atomic on SQLite and PostgreSQL alike, so several gunicorn
workers on several machines count together.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeping.models import RateLimit


@dataclass(frozen=True)
class Limit:
    name: str
    count: int
    seconds: int


def limit(name: str) -> Limit:
    count, seconds = settings.RATE_LIMITS[name]
    return Limit(name, count, seconds)


def client_key(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR", "unknown"))


def _window(lim: Limit, now: float) -> int:
    return int(now) - int(now) % lim.seconds


def hit(lim: Limit, key: str, *, now: float | None = None, amount: int = 1) -> int:
    """Count ``amount`` events; return the count in the current window, these included."""
    window = _window(lim, time.time() if now is None else now)
    full_key = f"{lim.name}:{key}"
    with transaction.atomic():
        updated = RateLimit.objects.filter(key=full_key, window=window).update(count=F("count") + amount)
        if not updated:
            try:
                with transaction.atomic():
                    RateLimit.objects.create(key=full_key, window=window, count=amount)
            except IntegrityError:  # another worker created it first
                RateLimit.objects.filter(key=full_key, window=window).update(count=F("count") + amount)
        RateLimit.objects.filter(window__lt=window - 86_400).delete()
        return RateLimit.objects.get(key=full_key, window=window).count


def take(lim: Limit, key: str, amount: int = 1) -> None:
    """Count an attempt (of ``amount``: a draw's tables), then decide: past the window's limit
    it is refused (``RateLimited``).

    Counting first makes the decision atomic: of any number of attempts sent at once, at
    most ``lim.count`` in a window are let through, on every worker and machine.
    """
    if hit(lim, key, amount=amount) > lim.count:
        give_back(lim, key, amount=amount)  # the window counts what it let through
        raise RateLimited(lim)


def give_back(lim: Limit, key: str, *, now: float | None = None, amount: int = 1) -> None:
    """Uncount an attempt that turned out not to count (a right token, a game that was not made)."""
    window = _window(lim, time.time() if now is None else now)
    RateLimit.objects.filter(key=f"{lim.name}:{key}", window=window, count__gte=amount).update(
        count=F("count") - amount
    )


def retry_after(lim: Limit, *, now: float | None = None) -> int:
    current = time.time() if now is None else now
    return _window(lim, current) + lim.seconds - int(current)


class RateLimited(Exception):
    def __init__(self, lim: Limit) -> None:
        self.limit = lim
        self.retry_after = retry_after(lim)
        if lim.name == "create":
            message = _("Too many new games from this address: at most {count} in {minutes} minutes.")
        elif lim.name == "rulesets":
            message = _("Too many house rulesets saved from this address: at most {count} in {minutes} minutes.")
        elif lim.name == "club_tables":
            message = _("Too many tables drawn for this club's maker: at most {count} in {minutes} minutes.")
        elif lim.name == "login":
            message = _("Too many wrong passwords from this address: at most {count} in {minutes} minutes.")
        else:
            message = _("Too many wrong edit tokens from this address: at most {count} in {minutes} minutes.")
        wait = ngettext("Try again in {n} minute.", "Try again in {n} minutes.", max(1, round(self.retry_after / 60)))
        super().__init__(
            message.format(count=lim.count, minutes=max(1, round(lim.seconds / 60)))
            + " "
            + wait.format(n=max(1, round(self.retry_after / 60)))
        )
