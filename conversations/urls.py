from django.urls import path, register_converter

from conversations.agents import views as agent_views
from conversations.chat import views as chat_views
from conversations.store import views


class IdConverter:
    """An opaque id as the store mints them; anything else cannot name a row (a 404)."""

    regex = "[0-9A-Za-z]{1,26}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(IdConverter, "id")

urlpatterns = [
    path("chat/", chat_views.chat, name="chat"),
    path("agents/", agent_views.AgentListView.as_view(), name="agent-list"),
    path("agents/<id:agent_id>/", agent_views.AgentDetailView.as_view(), name="agent-detail"),
    path("conversations/", views.ConversationListView.as_view(), name="conversation-list"),
    path(
        "conversations/<id:conversation_id>/",
        views.ConversationDetailView.as_view(),
        name="conversation-detail",
    ),
    path(
        "conversations/<id:conversation_id>/messages/",
        views.ConversationMessagesView.as_view(),
        name="conversation-messages",
    ),
    path(
        "conversations/<id:conversation_id>/export/",
        views.ConversationExportView.as_view(),
        name="conversation-export",
    ),
]
