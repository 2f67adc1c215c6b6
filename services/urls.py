from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from scoring.api.scoresheet import ScoresheetView
from services.api.views import ApiIndexView, HealthView
from services.health import livez, readyz
from services.metrics import metrics_view

handler404 = "services.api.exceptions.api_aware_404"
handler500 = "services.api.exceptions.api_aware_500"

urlpatterns = [
    # Operations (docs/operations.md): liveness, readiness, Prometheus metrics.
    path("livez", livez, name="livez"),
    path("readyz", readyz, name="readyz"),
    path("metrics", metrics_view, name="metrics"),
    path("admin/", admin.site.urls),
    path("api/", ApiIndexView.as_view(), name="api-index"),
    path("api/health", HealthView.as_view(), name="api-health"),
    path("api/auth/", include("accounts.urls")),
    path("api/audit/", include("eventstore.urls")),
    path("api/", include("games.api.urls")),
    path("api/", include("scoring.api.urls")),
    path("api/", include("leagues.api.urls")),
    path("api/scoresheet", ScoresheetView.as_view(), name="scoresheet"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "api/docs/",
        # The split view serves Swagger UI's start-up script as a file (this URL with
        # ?script), so the page runs under the CSP's script-src 'self'.
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="web/api_docs.html"
        ),
        name="api-docs",
    ),
    path("", include("web.urls")),  # the browser client: / (play) and /calculator/
]
