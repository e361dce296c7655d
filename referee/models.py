"""A table's house rules, saved so that a game, a club and the referee can play by them."""

from __future__ import annotations

from django.db import models


class HouseRuleset(models.Model):
    """A ruleset a table wrote for itself: a whole document, read by the engine when it was saved.

    Never changed once saved: its slug is made from the document itself, so the same rules are
    one row, and a game played by them scores the same for ever. A change is a new ruleset.
    """

    slug = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=60)
    based_on = models.CharField(max_length=20, blank=True)  # the built-in ruleset it started from
    document = models.JSONField()  # every key, as the engine writes it (documents.document_of)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return f"{self.name} ({self.slug})"
