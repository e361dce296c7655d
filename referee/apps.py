from django.apps import AppConfig


class RefereeConfig(AppConfig):
    name = "referee"
    verbose_name = "Referee"

    def ready(self) -> None:
        from django.core.signals import setting_changed
        from django.utils.translation import gettext, ngettext

        from .engine.i18n import set_translators
        from .language import forget_catalogues

        # The engine speaks the language of the request (and English on its own).
        set_translators(gettext, ngettext)
        setting_changed.connect(forget_catalogues, dispatch_uid="referee-forget-catalogues")
