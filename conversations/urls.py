from django.urls import path, register_converter

from conversations.agents import views as agent_views
from conversations.chat import views as chat_views
from conversations.runs import views as run_views
from conversations.store import views
from skill_sessions import views as skill_views


class _TextConverter:
    regex = ""

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class IdConverter(_TextConverter):
    """An opaque id as the store mints them; anything else cannot name a row (a 404)."""

    regex = "[0-9A-Za-z]{1,26}"


register_converter(IdConverter, "id")


class SessionIdConverter(_TextConverter):
    """A skill session id as the server mints them (``sk_`` and URL-safe characters)."""

    regex = "[0-9A-Za-z_-]{1,64}"


register_converter(SessionIdConverter, "session_id")

urlpatterns = [
    path("chat/", chat_views.chat, name="chat"),
    path("skill-sessions/", skill_views.SkillSessionListView.as_view(), name="skill-session-list"),
    path(
        "skill-sessions/<session_id:session_id>/",
        skill_views.SkillSessionDetailView.as_view(),
        name="skill-session-detail",
    ),
    path(
        "skill-sessions/<session_id:session_id>/messages/",
        skill_views.SkillSessionMessagesView.as_view(),
        name="skill-session-messages",
    ),
    path("skills/", skill_views.SkillListView.as_view(), name="skill-list"),
    path("skills/<id:skill_id>/", skill_views.SkillDetailView.as_view(), name="skill-detail"),
    path("agents/", agent_views.AgentListView.as_view(), name="agent-list"),
    path("agents/<id:agent_id>/", agent_views.AgentDetailView.as_view(), name="agent-detail"),
    path("agents/<id:agent_id>/runs/", run_views.AgentRunsView.as_view(), name="agent-runs"),
    path("runs/", run_views.RunListView.as_view(), name="run-list"),
    path("runs/<id:run_id>/", run_views.RunDetailView.as_view(), name="run-detail"),
    path("runs/<id:run_id>/cancel/", run_views.RunCancelView.as_view(), name="run-cancel"),
    path("runs/<id:run_id>/events/", run_views.RunEventsView.as_view(), name="run-events"),
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
