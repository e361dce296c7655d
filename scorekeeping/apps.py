from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class ScorekeepingConfig(AppConfig):
    default = True
    name = "scorekeeping"
    verbose_name = "Score-keeping"


class ThrottledAdminConfig(admin_apps.AdminConfig):
    """Django's admin app, its login throttled per address (``adminsite.ThrottledAdminSite``)."""

    default = False
    default_site = "scorekeeping.adminsite.ThrottledAdminSite"
