"""Translation for the engine's words and messages, without Django.

Messages are written ``_("{card} is not wild").format(card=...)`` so that gettext
catalogues can hold them; the web layer installs Django's ``gettext``/``ngettext`` with
``set_translators`` (the engine stays importable and testable on its own, in English).
"""

from __future__ import annotations

from collections.abc import Callable

_gettext: Callable[[str], str] = lambda message: message  # noqa: E731
_ngettext: Callable[[str, str, int], str] = lambda singular, plural, n: singular if n == 1 else plural  # noqa: E731


def set_translators(gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> None:
    global _gettext, _ngettext
    _gettext, _ngettext = gettext, ngettext


def _(message: str) -> str:
    return _gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a message for the catalogue; it is translated where it is used."""
    return message


def capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]
