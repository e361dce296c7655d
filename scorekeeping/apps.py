from django.apps import AppConfig


class ScorekeepingConfig(AppConfig):
    name = "scorekeeping"
    verbose_name = "Score-keeping"
