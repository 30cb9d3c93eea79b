"""Keeping a conversation's turn lease while a turn runs (the lease: ``ConversationQuerySet``)."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

from conversations.models.conversation import ConversationQuerySet

logger = logging.getLogger("omniforge.chat")


def lease_expiry() -> datetime:
    return timezone.now() + timedelta(seconds=settings.OMNIFORGE_TURN_LEASE_S)


async def lease_keep(leased: ConversationQuerySet, *, owner: str) -> None:
    """Renew ``owner``'s lease every quarter of its length until cancelled or lost.

    A turn slower than the lease (a slow model) is never overtaken; a process that dies
    stops renewing, and its conversations are free again within one lease.
    """
    interval = settings.OMNIFORGE_TURN_LEASE_S / 4
    while True:
        await asyncio.sleep(interval)
        try:
            renewed = await sync_to_async(leased.lease_renew)(owner=owner, until=lease_expiry())
        except DatabaseError:
            logger.warning("chat: could not renew the turn lease", exc_info=True)
            continue
        if not renewed:
            logger.warning("chat: a turn lease was lost to another process")
            return
