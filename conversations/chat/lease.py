"""Keeping a conversation's turn lease while a turn runs (the lease: ``ConversationQuerySet``)."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

from conversations.models.conversation import ConversationQuerySet

logger = logging.getLogger("omniforge.chat")


def lease_expiry() -> datetime:
    return timezone.now() + timedelta(seconds=settings.OMNIFORGE_TURN_LEASE_S)


def _renew(leased: ConversationQuerySet, owner: str) -> bool | None:
    """True when renewed; None when the turn has just released it (its commit does, and may
    run beside this); False when another turn holds it."""
    try:
        if leased.lease_renew(owner=owner, until=lease_expiry()):
            return True
        return None if leased.filter(turn_owner="").exists() else False
    finally:
        connection.close()  # this executor thread's own connection, back to the pool


async def lease_keep(leased: ConversationQuerySet, *, owner: str) -> None:
    """Renew ``owner``'s lease every quarter of its length until cancelled or lost.

    A turn slower than the lease (a slow model) is never overtaken; a process that dies
    stops renewing, and its conversations are free again within one lease.
    """
    interval = settings.OMNIFORGE_TURN_LEASE_S / 4
    while True:
        await asyncio.sleep(interval)
        try:
            # Not on the thread every other database call of this process queues on (Django's
            # thread-sensitive default): a busy process would delay the renewal past the lease,
            # and another process's next turn would start beside this one.
            renewed = await sync_to_async(_renew, thread_sensitive=False)(leased, owner)
        except DatabaseError:
            logger.warning("chat: could not renew the turn lease", exc_info=True)
            continue
        if renewed is None:
            return
        if not renewed:
            logger.warning("chat: a turn lease was lost to another turn")
            return
