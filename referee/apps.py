from django.apps import AppConfig


class RefereeConfig(AppConfig):
    name = "referee"
    verbose_name = "Referee"

    def ready(self) -> None:
        from django.utils.translation import gettext, ngettext, pgettext

        from .engine.i18n import set_translators

        # The engine speaks the language Django activated for the request (English on its own).
        set_translators(gettext, ngettext, pgettext)
