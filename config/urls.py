from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.health import healthz, metrics
from conversations.chat.pages import chat_page
from conversations.urls import IdConverter  # noqa: F401 - registers the "id" converter

admin.site.site_header = "OmniForge console"
admin.site.site_title = "OmniForge console"
admin.site.index_title = "Operations and audit"
admin.site.site_url = "/"  # "View site" opens the chat

urlpatterns = [
    path("", chat_page, name="chat"),
    path("c/<id:conversation_id>/", chat_page, name="chat-conversation"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("conversations.urls")),
    path("api/v1/", include("intents.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics, name="metrics"),
]
