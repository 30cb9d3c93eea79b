from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.health import healthz, metrics

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("conversations.urls")),
    path("api/v1/", include("intents.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics, name="metrics"),
]
