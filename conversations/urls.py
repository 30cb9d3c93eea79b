from django.urls import path

from conversations import chat_views, views

urlpatterns = [
    path("chat/", chat_views.chat, name="chat"),
    path("agents/", views.AgentListView.as_view(), name="agent-list"),
    path("agents/<str:agent_id>/", views.AgentDetailView.as_view(), name="agent-detail"),
    path("conversations/", views.ConversationListView.as_view(), name="conversation-list"),
    path(
        "conversations/<str:conversation_id>/",
        views.ConversationDetailView.as_view(),
        name="conversation-detail",
    ),
    path(
        "conversations/<str:conversation_id>/messages/",
        views.ConversationMessagesView.as_view(),
        name="conversation-messages",
    ),
    path(
        "conversations/<str:conversation_id>/export/",
        views.ConversationExportView.as_view(),
        name="conversation-export",
    ),
]
