"""The engine speaks the request's language: one remembered catalogue per language."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from .engine.i18n import translating

K = TypeVar("K")

MAX_REMEMBERED = 4096  # the engine has a few hundred messages; this only bounds a caller's mistake


class Catalogue:
    """One language's translations of the engine's messages, each looked up once.

    Django finds the active language on every ``gettext`` call; a verdict asks for a dozen
    words and sentences, a card keypad for fifty-four card names. Here a message is
    translated once per process and language and then read from a dictionary.
    """

    def __init__(self, language: str) -> None:
        self.language = language
        self._singular: dict[str, str] = {}
        self._plural: dict[tuple[str, str, int], str] = {}

    def gettext(self, message: str) -> str:
        text = self._singular.get(message)
        return text if text is not None else self._look_up(self._singular, message, translation.gettext, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        key = (singular, plural, n)
        text = self._plural.get(key)
        return text if text is not None else self._look_up(self._plural, key, translation.ngettext, *key)

    def _look_up(self, store: dict[K, str], key: K, translate: Callable[..., str], *args: Any) -> str:
        """Translate in this catalogue's language, and remember it (up to a bound)."""
        with translation.override(self.language):
            text = translate(*args)
        if len(store) < MAX_REMEMBERED:
            store[key] = text
        return text


@lru_cache(maxsize=16)
def catalogue(language: str) -> Catalogue:
    return Catalogue(language)


def forget_catalogues(*, setting: str, **kwargs: Any) -> None:
    """When the languages or catalogues change (tests override them), Django forgets its
    translations; the remembered catalogues go with them."""
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS"):
        catalogue.cache_clear()


class EngineLanguageMiddleware:
    """Bind the engine to the language LocaleMiddleware chose, for the whole request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = translation.get_language()
        if language is None:  # translation deactivated: the engine's default applies
            return self.get_response(request)
        with translating(catalogue(language)):
            return self.get_response(request)
