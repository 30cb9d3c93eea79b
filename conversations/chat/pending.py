"""Turns acknowledged while storage was unavailable: where a re-send finds them, and the
conversation's backlog that keeps them in the order they were answered.

Each such turn is handed to the background retry (``conversations.tasks``), one task a turn.
Tasks run when they run (backoff with jitter), so two turns answered during one outage could
land in either order, or after a turn answered once storage was back. The backlog prevents
that: a conversation's unstored turns are listed in the cache in the order they were answered,
and whatever stores one of them (a retry, the conversation's next turn, a re-send) first stores
every turn listed before it. Storing is idempotent (every message carries its id), so a turn
stored by another's flush is a no-op for its own task.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import DatabaseError

from conversations.chat.commit import turn_commit_pending
from conversations.chat.seal import seal, unseal
from conversations.store.outage import TRANSIENT_STORAGE_ERRORS
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


# --- the conversation's backlog ---------------------------------------------------------------


def _backlog_key(conversation_id: str) -> str:
    return f"omniforge:backlog:{conversation_id}"


def _backlog(conversation_id: str) -> list[dict[str, Any]]:
    value = cache.get(_backlog_key(conversation_id))
    return list(unseal(value)["turns"]) if value else []


def backlog_add(
    *, tenant_id: int, user_id: int, conversation_id: str, payload: dict[str, Any]
) -> None:
    """List a turn the retry holds, after the conversation's earlier unstored turns.

    Best effort, like everything in the cache: without it (the cache down as well), each turn
    is still stored exactly once by its own retry, only perhaps out of order.
    """
    entry = {"tenant_id": tenant_id, "user_id": user_id, "payload": payload}
    try:
        turns = _backlog(conversation_id)
        turns.append(entry)
        cache.set(_backlog_key(conversation_id), seal({"turns": turns}), PENDING_TURN_TTL_S)
    except Exception:
        logger.warning("store: could not list a pending turn in order", exc_info=True)


def _entry_id(entry: dict[str, Any]) -> str:
    return str(entry["payload"]["messages"][-1]["id"])


def backlog_flush(conversation_id: str) -> int:
    """Store the conversation's listed turns, oldest first; how many messages were new.

    Raises what storage raises (a transient error leaves the rest listed, for the next try).
    """
    try:
        turns = _backlog(conversation_id)
    except Exception:
        logger.warning("store: could not read the pending turns", exc_info=True)
        return 0
    stored = 0
    done: set[str] = set()
    try:
        for entry in turns:
            try:
                stored += turn_commit_pending(
                    tenant_id=int(entry["tenant_id"]),
                    user_id=int(entry["user_id"]),
                    conversation_id=conversation_id,
                    payload=entry["payload"],
                )
            except TRANSIENT_STORAGE_ERRORS:
                raise
            except (DatabaseError, ValidationError):
                # Refused for its data: it never will be stored, and must not hold up the rest.
                logger.exception("store: a pending turn of %s was refused", conversation_id)
            done.add(_entry_id(entry))
    finally:
        if done:
            try:
                # Turns listed meanwhile (another process answering in the outage) stay.
                left = [e for e in _backlog(conversation_id) if _entry_id(e) not in done]
                if left:
                    cache.set(
                        _backlog_key(conversation_id), seal({"turns": left}), PENDING_TURN_TTL_S
                    )
                else:
                    cache.delete(_backlog_key(conversation_id))
            except Exception:
                logger.warning("store: could not update the pending turns", exc_info=True)
    return stored
