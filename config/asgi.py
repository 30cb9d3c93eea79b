"""ASGI entry point: HTTP through Django, WebSocket through Channels, one process under Daphne."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models (the routing below does).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from conversations.routing import websocket_urlpatterns  # noqa: E402
from intents.apps import announce_llm_tier  # noqa: E402

announce_llm_tier()

application = ProtocolTypeRouter(
    {
        # Serves the admin's and the API docs' static files from the apps without collectstatic;
        # behind a reverse proxy in production, /static/ is served from STATIC_ROOT instead.
        "http": ASGIStaticFilesHandler(django_asgi_app),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
