from django.apps import AppConfig


class RefereeConfig(AppConfig):
    name = "referee"
    verbose_name = "Referee"

    def ready(self) -> None:
        from django.utils.translation import gettext, ngettext

        from .engine.i18n import set_translators

        # The engine speaks the language of the request (and English on its own).
        set_translators(gettext, ngettext)
