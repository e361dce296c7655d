"""The sessions' sweep: what Django's ``clearsessions`` does, done by the app itself a batch at a time."""

from __future__ import annotations

from django.contrib.sessions.models import Session
from django.utils import timezone


def sessions_expired_delete(*, most: int) -> None:
    """Delete at most ``most`` expired sessions (two queries), so that nobody has to schedule it."""
    expired = Session.objects.filter(expire_date__lt=timezone.now()).values("pk")[:most]
    Session.objects.filter(pk__in=list(expired.values_list("pk", flat=True))).delete()
