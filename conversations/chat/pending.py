"""Turns acknowledged while storage was unavailable, where a re-send can find them."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from conversations.chat.seal import seal, unseal
from conversations.store.services import PendingMessage

logger = logging.getLogger("omniforge.chat")

# Longer than the background retry keeps trying, so a re-send always finds what was promised.
PENDING_TURN_TTL_S = 24 * 3600


@dataclass(frozen=True)
class PendingTurn:
    """A turn the client was answered for, whose messages the background retry still holds."""

    conversation_id: str
    user_message: PendingMessage  # what the acknowledgement showed (stored or not)
    reply: PendingMessage
    payload: dict[str, Any]  # what the retry holds: the unstored messages, the effects


def _pending_turn_key(tenant_id: int, user_id: int, client_message_id: str) -> str:
    digest = hashlib.sha256(client_message_id.encode()).hexdigest()[:32]
    return f"omniforge:pending-turn:{tenant_id}:{user_id}:{digest}"


def pending_turn_remember(
    *,
    tenant_id: int,
    user_id: int,
    client_message_id: str,
    turn: PendingTurn,
) -> None:
    """Keep a degraded turn where a re-send of its ``client_message_id`` finds it.

    The cache is shared by every server process when Redis is configured. Best effort: the
    database is the truth, this only lets a re-send arriving before the retry has landed
    answer with the ids it was given the first time.
    """
    value = seal(
        {
            "conversation_id": turn.conversation_id,
            "user_message": turn.user_message.to_payload(),
            "reply": turn.reply.to_payload(),
            "payload": turn.payload,
        }
    )  # the cache is Redis, shared and outside the database's encryption
    try:
        cache.set(
            _pending_turn_key(tenant_id, user_id, client_message_id), value, PENDING_TURN_TTL_S
        )
    except Exception:
        logger.warning("store: could not remember a pending turn", exc_info=True)


def pending_turn_recall(
    *, tenant_id: int, user_id: int, client_message_id: str
) -> PendingTurn | None:
    try:
        value = cache.get(_pending_turn_key(tenant_id, user_id, client_message_id))
    except Exception:
        logger.warning("store: could not read the pending turns", exc_info=True)
        return None
    if not value:
        return None
    value = unseal(value)
    return PendingTurn(
        conversation_id=value["conversation_id"],
        user_message=PendingMessage.from_payload(value["user_message"]),
        reply=PendingMessage.from_payload(value["reply"]),
        payload=value["payload"],
    )
