"""Background work of the conversation store: landing chat writes that failed.

With a broker (``REDIS_URL``) the retry is a Celery task with exponential backoff and jitter;
in the embedded mode, where tasks would run eagerly inside the failing request, it is a
thread in this process with the same backoff. Both call ``messages_store_pending``, which is
idempotent, so a retry that runs twice stores nothing twice.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, close_old_connections, connections

from conversations.services import PendingMessage, messages_store_pending

logger = logging.getLogger("omniforge.chat")

RETRY_BASE_S = 0.5
RETRY_CAP_S = 60.0
MAX_ATTEMPTS = 12  # about five minutes of backoff in all

__all__ = ("PendingMessage", "message_store_retry", "pending_messages_schedule")


@shared_task(
    bind=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=int(RETRY_CAP_S),
    retry_jitter=True,
    max_retries=MAX_ATTEMPTS,
    acks_late=True,
)
def message_store_retry(
    self: Any, tenant_id: int, user_id: int, conversation_id: str, messages: list[dict[str, Any]]
) -> int:
    """Store a chat turn's unwritten messages; returns how many were new."""
    return messages_store_pending(
        tenant_id=tenant_id,
        user_id=user_id,
        conversation_id=conversation_id,
        messages=[PendingMessage.from_payload(m) for m in messages],
    )


def _retry_in_process(
    tenant_id: int, user_id: int, conversation_id: str, messages: list[PendingMessage]
) -> None:
    try:
        for attempt in range(MAX_ATTEMPTS + 1):
            close_old_connections()
            try:
                stored = messages_store_pending(
                    tenant_id=tenant_id,
                    user_id=user_id,
                    conversation_id=conversation_id,
                    messages=messages,
                )
            except DatabaseError:
                delay = random.uniform(0, min(RETRY_CAP_S, RETRY_BASE_S * 2**attempt))
                logger.warning("chat: retrying a failed write in %.1f s", delay)
                time.sleep(delay)
                continue
            logger.info("chat: stored %d message(s) after a failed write", stored)
            return
        logger.error("chat: gave up storing %d message(s) of %s", len(messages), conversation_id)
    finally:
        connections.close_all()


def pending_messages_schedule(
    *, tenant_id: int, user_id: int, conversation_id: str, messages: list[PendingMessage]
) -> None:
    """Hand a turn's unwritten messages to the background retry."""
    if settings.REDIS_URL:
        message_store_retry.apply_async(
            args=(tenant_id, user_id, conversation_id, [m.to_payload() for m in messages]),
            countdown=RETRY_BASE_S,
        )
        return
    threading.Thread(
        target=_retry_in_process,
        args=(tenant_id, user_id, conversation_id, list(messages)),
        name=f"chat-retry-{conversation_id}",
        daemon=True,
    ).start()
