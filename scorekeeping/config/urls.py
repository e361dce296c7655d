from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from referee import urls as referee_urls
from scorekeeping.errors import is_api
from scorekeeping.serve import failures, health
from scorekeeping.webkit.errors import api_error


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: JSON under /api/, the plain page elsewhere."""
    if is_api(request):
        return api_error(f"no such address: {request.path}", 404)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception or Exception("not found"))


handler404 = not_found
handler400 = failures.handler400
handler500 = failures.handler500

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("api/", include(referee_urls.api_urlpatterns)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scorekeeping.api.urls")),
    path("", include("scorekeeping.web.urls")),  # before the referee's: rules/new/ is the site's
    path("", include("referee.urls")),
]

if settings.ADMIN_ENABLED:
    urlpatterns.append(path("admin/", admin.site.urls))
