from django.contrib import admin
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path
from django.views.decorators.cache import never_cache
from drf_spectacular.views import SpectacularAPIView

from referee import urls as referee_urls


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness: answers without touching the database."""
    return HttpResponse("ok", content_type="text/plain")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: JSON under /api/, the plain page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": f"no such address: {request.path}", "errors": {}}, status=404)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception or Exception("not found"))


handler404 = not_found

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    *referee_urls.api_urlpatterns,
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("referee.urls")),
    path("", include("scorekeeping.api_urls")),
    path("", include("scorekeeping.web_urls")),
]
