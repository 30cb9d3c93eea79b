"""Telling open sockets that something changed: a user's conversations, a conversation's turn.

The channel layer is delivery, not storage (at most once): the database is the truth, and a
socket that missed something resyncs from it when it reconnects. So a failed send is logged
and forgotten, never an error for the write that caused it.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from conversations.models import Conversation

logger = logging.getLogger("omniforge.chat")

ConversationEvent = Literal["created", "updated", "deleted"]


def user_group(user_id: int) -> str:
    """Every socket of one user: the sidebar's ``conversation`` frames."""
    return f"user.{user_id}"


def conversation_group(conversation_id: str) -> str:
    """Every socket open on one conversation: its turns' frames."""
    return f"conversation.{conversation_id}"


def conversation_dict(conversation: Conversation) -> dict[str, Any]:
    from conversations.store.serializers import ConversationSerializer

    return dict(ConversationSerializer(conversation).data)


async def group_send(group: str, message: dict[str, Any]) -> bool:
    """Whether the layer took the message (False: logged, and the caller may deliver it itself)."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        await layer.group_send(group, message)
    except Exception:
        logger.warning("chat: could not deliver to %s", group.split(".")[0], exc_info=True)
        return False
    return True


def conversation_changed(conversation: Conversation, event: ConversationEvent) -> None:
    """Send a ``conversation`` frame to every socket of its user, once the change is committed."""
    frame = {
        "type": "conversation",
        "event": event,
        "conversation": conversation_dict(conversation),
    }
    group = user_group(conversation.user_id)
    transaction.on_commit(
        lambda: async_to_sync(group_send)(group, {"type": "conversation.frame", "frame": frame})
    )
