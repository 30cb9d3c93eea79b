"""The app's rows, one module per subject."""

from conversations.models.agent import Agent
from conversations.models.conversation import Conversation, Message, new_id
from conversations.models.run import AgentRun, AgentRunEvent, RuntimeConnection
from conversations.models.tenancy import Membership, Tenant, TranscriptView
from conversations.models.token import ApiToken

__all__ = [
    "Agent",
    "AgentRun",
    "AgentRunEvent",
    "ApiToken",
    "Conversation",
    "Membership",
    "Message",
    "RuntimeConnection",
    "Tenant",
    "TranscriptView",
    "new_id",
]
