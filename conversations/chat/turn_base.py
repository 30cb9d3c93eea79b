"""What one chat turn is given and what it keeps while it runs: the fields of ``ChatTurn``.

``TurnBase`` is the dataclass the modules holding the turn's steps build on (``begin``,
``answer``, ``finish``; ``ChatTurn`` in ``conversations.chat.turn`` is all of them), with
the message as the classifier and the assistant see it and the end of the turn lease.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import uuid
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import DatabaseError

from conversations.assistant.outcome import Outcome
from conversations.assistant.state import AssistantState
from conversations.chat.pending import PendingTurn
from conversations.models import Conversation, Message, Tenant
from conversations.store.services import PendingMessage
from intents.redaction import Redacted, redact
from intents.types import IntentResult

logger = logging.getLogger("omniforge.chat")


@dataclass
class TurnBase:
    """The state of one turn (``ChatTurn`` adds its steps)."""

    tenant: Tenant
    user: User
    role: str
    content: str
    conversation_id: str | None = None
    client_message_id: str | None = None
    offline_only: bool = False
    # The conversation as the asking socket last saw it: what the turn goes on with when
    # storage cannot be read (a socket already open keeps being answered in an outage).
    known: Conversation | None = None
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    conversation: Conversation | None = None
    degraded: list[str] = field(default_factory=list)
    # This turn's messages that storage refused, in order, for the background retry.
    _unstored: list[PendingMessage] = field(default_factory=list)
    # A turn acknowledged earlier under this client_message_id, not stored yet.
    _recalled: PendingTurn | None = None
    _owner: str = field(default_factory=lambda: uuid.uuid4().hex)
    _leased: bool = False
    _created: bool = False  # this turn created the conversation (for its first message)
    _heartbeat: asyncio.Task[None] | None = None
    _user_message: Message | PendingMessage | None = None
    # While the reply streams: what is needed to store it if the stream is closed early.
    _streaming: tuple[Outcome, AssistantState, IntentResult | None, str, list[str]] | None = None

    @functools.cached_property
    def redacted(self) -> Redacted:
        """The message with any secret replaced: what classification and the assistant see."""
        return redact(self.content)

    def _release(self) -> None:
        assert self.conversation is not None
        try:
            Conversation.objects.for_tenant(self.tenant).filter(
                id=self.conversation.id
            ).lease_release(owner=self._owner)
        except DatabaseError:
            # The lease expires by itself; the next turn waits at most one lease.
            logger.warning("chat: could not release the turn lease", exc_info=True)
        self._leased = False
