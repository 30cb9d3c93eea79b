"""The app's rows, one module per subject."""

from conversations.models.agent import Agent, AgentRun
from conversations.models.conversation import Conversation, Message, new_id
from conversations.models.tenancy import Membership, Tenant, TranscriptView
from conversations.models.token import ApiToken

__all__ = [
    "Agent",
    "AgentRun",
    "ApiToken",
    "Conversation",
    "Membership",
    "Message",
    "Tenant",
    "TranscriptView",
    "new_id",
]
