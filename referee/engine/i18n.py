"""Translation for the engine's words and messages, without Django.

Messages are written ``_("{card} is not wild").format(card=...)`` so that gettext
catalogues can hold them; a message whose words depend on what they describe (an article
that follows the noun's gender) takes a context: ``pgettext("run", "a {noun} of {n}+")``.
On its own the engine speaks English. The web layer installs Django's functions with
``set_translators``, which follow the language Django activated for the request;
``translating`` binds another translator inside a block (this thread or task only).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol


class Translator(Protocol):
    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def pgettext(self, context: str, message: str) -> str: ...


class Functions:
    """A translator made of three functions."""

    def __init__(
        self,
        gettext: Callable[[str], str],
        ngettext: Callable[[str, str, int], str],
        pgettext: Callable[[str, str], str],
    ) -> None:
        self.gettext = gettext
        self.ngettext = ngettext
        self.pgettext = pgettext


ENGLISH = Functions(
    lambda message: message,
    lambda singular, plural, n: singular if n == 1 else plural,
    lambda context, message: message,
)

_default: Translator = ENGLISH
_bound: ContextVar[Translator | None] = ContextVar("referee_translator", default=None)


def set_translators(
    gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str], pgettext: Callable[[str, str], str]
) -> None:
    """The translator used wherever ``translating`` has bound none."""
    global _default
    _default = Functions(gettext, ngettext, pgettext)


@contextmanager
def translating(translator: Translator) -> Iterator[None]:
    """Speak through ``translator`` inside the block (this thread or task only)."""
    token = _bound.set(translator)
    try:
        yield
    finally:
        _bound.reset(token)


def _(message: str) -> str:
    return (_bound.get() or _default).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return (_bound.get() or _default).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return (_bound.get() or _default).pgettext(context, message)


def N_(message: str) -> str:
    """Mark a message for the catalogue; it is translated where it is used."""
    return message


def capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]
