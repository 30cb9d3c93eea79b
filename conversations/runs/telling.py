"""Telling a run's outcome where its user will see it, once.

A run asked for in a chat is told in that conversation. A scheduled run was asked for in no
conversation, and telling it in whichever one is open would break into another subject; it is
told in its owner's "Agent runs" conversation, made on the first such outcome, which the
sidebar shows live and which holds every unattended outcome, failures included. A run asked
for through the API is told to nobody: its caller reads ``GET runs/{id}/``.

The message is written in the transaction that makes the run final, so it exists exactly when
the final state does; the frame goes out after that transaction commits.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from conversations.models import AgentRun, Conversation, Membership, Message
from conversations.store.broadcast import conversation_changed, conversation_group, group_send
from conversations.store.serializers import MessageSerializer
from conversations.store.services import conversation_create, message_add

logger = logging.getLogger("omniforge.runs")


def _outcome_words(run: AgentRun) -> str:
    values: dict[str, Any] = {"name": run.agent.name}
    if run.status == AgentRun.Status.SUCCEEDED:
        values["summary"] = run.summary or _("it reported no summary")
        words = _("%(name)s finished: %(summary)s") % values
        if run.link.lower().startswith(("https://", "http://")):  # never javascript: or data:
            words += "\n\n" + _("The result: %(link)s") % {"link": run.link}
        return words
    if run.status == AgentRun.Status.FAILED:
        values["reason"] = run.reason or _("no reason was given")
        return _("%(name)s failed: %(reason)s") % values
    values["minutes"] = max(1, round(settings.OMNIFORGE_RUN_DEADLINE_S / 60))
    return (
        _(
            "%(name)s did not report back within %(minutes)s minutes, so I've marked the run "
            "as timed out. It may still have done some of its work."
        )
        % values
    )


def _runs_conversation(run: AgentRun) -> Conversation | None:
    """The owner's "Agent runs" conversation (made now when they have none yet)."""
    owner_id = run.agent.created_by_id
    if owner_id is None:
        return None
    membership = Membership.objects.for_tenant(run.tenant_id).filter(user_id=owner_id).first()
    if membership is None:
        return None
    conversations = Conversation.objects.for_tenant(run.tenant_id).filter(user_id=owner_id)
    found = conversations.filter(id=membership.runs_conversation_id).first()
    if found is None:
        found = conversation_create(tenant=run.tenant, user=membership.user, title=_("Agent runs"))
        membership.runs_conversation_id = found.id
        membership.save(update_fields=["runs_conversation_id"])
    return found


def _where(run: AgentRun) -> Conversation | None:
    if run.trigger == AgentRun.Trigger.CHAT and run.conversation_id:
        asked_in = (
            Conversation.objects.for_tenant(run.tenant_id).filter(id=run.conversation_id).first()
        )
        # A conversation deleted since: the owner's runs conversation, so it is not unseen.
        return asked_in or _runs_conversation(run)
    if run.trigger == AgentRun.Trigger.SCHEDULE:
        return _runs_conversation(run)
    return None


def run_tell(*, run: AgentRun) -> Message | None:
    """Store the outcome of a run that just became final as an assistant message, and push it.

    Called inside the transaction that made the run final (which holds the run's row).
    """
    conversation = _where(run)
    if conversation is None:
        return None
    added = message_add(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        content=_outcome_words(run),
        metadata={
            "run_id": run.id,
            "run_status": run.status,
            "agent_run": run.agent.name,
            "agents_referenced": [run.agent.name],
        },
    )
    frame = {"type": "message", "message": dict(MessageSerializer(added.message).data)}
    group = conversation_group(conversation.id)
    # The message first, then the sidebar's count: a page never counts a message it lacks.
    transaction.on_commit(
        lambda: async_to_sync(group_send)(group, {"type": "conversation.frame", "frame": frame})
    )
    conversation_changed(conversation, "updated")
    return added.message
