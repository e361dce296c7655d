"""The engine's errors: every one is a ``RefereeError`` (a ``ValueError``)."""

from __future__ import annotations


class RefereeError(ValueError):
    """Base of every error the rules engine raises on bad input.

    ``field`` names the input the error is about, where a caller knows it.
    """

    field: str | None = None

    def in_field(self, field: str, prefix: str = "") -> RefereeError:
        """The same error, about ``field``, its message prefixed (``meld 2: ...``)."""
        if prefix:
            self.args = (f"{prefix}: {self}",)
        self.field = field
        return self


class CardSyntaxError(RefereeError):
    """A token that is not a card in the notation of RULES.md."""

    def __init__(self, token: str, position: int, why: str) -> None:
        self.token = token
        self.position = position
        self.why = why
        from .i18n import _

        super().__init__(
            _("card {position}: {token!r} is not a card ({why})").format(position=position, token=token, why=why)
        )

    def __str__(self) -> str:
        return str(self.args[0])


class UnknownRuleset(RefereeError):
    """A ruleset slug that the registry does not hold."""


class UnknownVariant(RefereeError):
    """A variant slug that is unknown or belongs to another ruleset."""


class RoundOutOfRange(RefereeError):
    """A round number the ruleset does not play."""


class ImpossibleHand(RefereeError):
    """Cards that the packs in play cannot hold (too many copies)."""


class PlayerCountError(RefereeError):
    """A number of players the ruleset is not played with."""
