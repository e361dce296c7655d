from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.cache import never_cache
from drf_spectacular.views import SpectacularAPIView


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness: answers without touching the database."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("admin/", admin.site.urls),
    path("", include("referee.urls")),
]
