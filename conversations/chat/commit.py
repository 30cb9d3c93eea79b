"""Storing what a turn decided: its effects, its reply and the assistant's new state, at once.

One transaction, so a reply never claims a change that was not made, and a change never lands
without the reply and state that go with it. The chat turn commits right after answering; when
storage is briefly unavailable, the background retry commits the same payload later, exactly
once (every message and effect carries an id chosen up front).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import transaction

from conversations.agents import selectors as agent_selectors
from conversations.agents import services as agent_services
from conversations.agents.schedules import ScheduleSpec, schedule_from_words
from conversations.agents.services import KEEP
from conversations.assistant.effects import (
    CreateAgent,
    CreateSkill,
    DeleteAgent,
    Effect,
    RunAgent,
    SaveSkillSession,
    UpdateAgent,
    effect_from_json,
    effect_to_json,
)
from conversations.assistant.state import AssistantState
from conversations.models import AgentRun, Conversation, Message, Tenant
from conversations.store.broadcast import conversation_changed
from conversations.store.services import AddedMessage, PendingMessage
from conversations.tenancy.permissions import membership_of
from skill_sessions import services as skill_services
from skill_sessions.context import SkillContext

logger = logging.getLogger("omniforge.chat")
# A change the assistant decided that the platform then refused (a name taken meanwhile).
_CHANGE_REFUSED = (
    agent_services.AgentNameTaken,
    ValidationError,
    ObjectDoesNotExist,
    skill_services.StaleSession,  # the session moved on (another tab): reload, answer again
)


def _schedule_of(config: Mapping[str, str]) -> ScheduleSpec | None:
    """The machine schedule of the assistant's words for it ("Every Monday at 08:00
    (Europe/Berlin)"): one conversion for every agent the chat creates or reschedules."""
    return schedule_from_words(config.get("schedule", ""))


def _apply(
    effect: Effect, *, tenant: Tenant, user: User, conversation_id: str, reply_to: str
) -> None:
    if isinstance(effect, CreateAgent):
        agent_services.agent_create(
            tenant=tenant,
            agent_id=effect.agent_id,
            name=effect.name,
            description=effect.description,
            config=effect.config,
            created_by=user,
            schedule=_schedule_of(effect.config),
        )
    elif isinstance(effect, RunAgent):
        agent = agent_selectors.agent_get(tenant=tenant, agent_id=effect.agent_id)
        agent_services.agent_run_request(
            agent=agent,
            user=user,
            conversation_id=conversation_id,
            message_id=reply_to,
            run_id=effect.run_id,
            trigger=AgentRun.Trigger.CHAT,
        )
    elif isinstance(effect, UpdateAgent):
        agent = agent_selectors.agent_get(tenant=tenant, agent_id=effect.agent_id)
        agent_services.agent_update(
            agent=agent,
            name=effect.name,
            description=effect.description,
            config=effect.config or None,
            paused=effect.paused,
            schedule=_schedule_of(effect.config) if "schedule" in effect.config else KEEP,
        )
    elif isinstance(effect, SaveSkillSession):
        skill_services.session_save(
            tenant=tenant,
            user=user,
            session_id=effect.session_id,
            context=SkillContext.from_json(dict(effect.context)),
            expected_version=effect.expected_version,
            conversation_id=effect.conversation_id,
        )
    elif isinstance(effect, CreateSkill):
        skill_services.skill_create(
            tenant=tenant,
            user=user,
            skill_id=effect.skill_id,
            name=effect.name,
            description=effect.description,
            definition=dict(effect.definition),
            session_id=effect.session_id,
        )
    elif isinstance(effect, DeleteAgent):
        # Applied twice (a retry), the second finds nothing left to delete.
        gone = agent_selectors.agent_get_or_none(tenant=tenant, agent_id=effect.agent_id)
        membership = membership_of(user)
        admin = membership is not None and membership.is_admin
        if gone is not None and not agent_services.agent_deletable_by(
            agent=gone, user=user, admin=admin
        ):
            # The assistant only offers what the caller may do; this is the door's own check.
            logger.warning("chat: a deletion the caller may not make was refused")
        elif gone is not None:
            agent_services.agent_delete(agent=gone)


@transaction.atomic
def turn_commit(
    *,
    tenant: Tenant,
    user: User,
    conversation: Conversation,
    messages: Sequence[PendingMessage],
    effects: Sequence[Effect] = (),
    reply_to: str = "",
    release_lease_of: str | None = None,
) -> list[AddedMessage]:
    """Apply the effects and append the messages (the reply carries the new state).

    ``release_lease_of`` frees that owner's turn lease in the same statement as the last
    message (a live turn's commit is its end).
    """
    for effect in effects:
        _apply(effect, tenant=tenant, user=user, conversation_id=conversation.id, reply_to=reply_to)
    last = len(messages) - 1
    added = [
        message.store(conversation, release_lease_of=release_lease_of if n == last else None)
        for n, message in enumerate(messages)
    ]
    # Its title (set by the first message), activity and count changed: every sidebar re-sorts.
    conversation_changed(conversation, "updated")
    return added


def turn_commit_or_correct(
    *,
    tenant: Tenant,
    user: User,
    conversation: Conversation,
    reply: PendingMessage,
    effects: Sequence[Effect],
    reply_to: str,
    state_before: AssistantState,
    release_lease_of: str | None = None,
) -> Message:
    """Commit the turn; if the platform refuses a change it decided, say so instead.

    The reply has streamed by then, but the ``done`` frame carries the stored content, which
    every client shows in its place: the corrected reply, with the state as it was.
    """
    try:
        added = turn_commit(
            tenant=tenant,
            user=user,
            conversation=conversation,
            messages=[reply],
            effects=effects,
            reply_to=reply_to,
            release_lease_of=release_lease_of,
        )
    except _CHANGE_REFUSED as exc:
        logger.warning("chat: a decided change was refused: %s", type(exc).__name__)
        corrected = PendingMessage(
            id=reply.id,
            role=reply.role,
            content=(
                "I couldn't make that change after all: something changed on the platform "
                "while I was answering (for example the name was just taken). Nothing was "
                "changed; please try again."
            ),
            metadata={**reply.metadata, "routing": "action_refused", "announced": reply.content},
            client_message_id=None,
            created_at=reply.created_at,
            assistant_state=state_before.to_json(),
        )
        added = turn_commit(
            tenant=tenant,
            user=user,
            conversation=conversation,
            messages=[corrected],
            release_lease_of=release_lease_of,
        )
    return added[0].message


def turn_payload(
    messages: Sequence[PendingMessage], effects: Sequence[Effect], reply_to: str
) -> dict[str, Any]:
    """What the background retry needs to commit a turn later (JSON, for a Celery task)."""
    return {
        "messages": [m.to_payload() for m in messages],
        "effects": [effect_to_json(e) for e in effects],
        "reply_to": reply_to,
    }


def turn_commit_pending(
    *, tenant_id: int, user_id: int, conversation_id: str, payload: Mapping[str, Any]
) -> int:
    """Commit a turn storage refused earlier; returns how many messages were new.

    Creates the conversation with its chosen id when that write had failed too.
    """
    tenant = Tenant.objects.get(pk=tenant_id)
    conversation, _ = Conversation.objects.for_tenant(tenant).get_or_create(
        id=conversation_id, tenant=tenant, defaults={"user_id": user_id}
    )
    if conversation.user_id != user_id:
        raise ValidationError("The conversation belongs to another user.")
    added = turn_commit(
        tenant=tenant,
        user=conversation.user,
        conversation=conversation,
        messages=[PendingMessage.from_payload(m) for m in payload["messages"]],
        effects=[effect_from_json(e) for e in payload.get("effects", ())],
        reply_to=str(payload.get("reply_to", "")),
    )
    return sum(int(a.created) for a in added)
