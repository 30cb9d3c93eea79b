"""The context window: which recent messages a turn's classification sees.

Pure functions over stored rows; token counts come from the rows (counted once, when each
message was stored), never from re-tokenizing history. ``conversation_history`` reads the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from django.conf import settings

from conversations.models import Conversation
from conversations.store.selectors import message_recent
from intents.types import HistoryTurn

MIN_RECENT = 6  # the last three exchanges, always kept
# What an assistant turn's metadata may carry into the window: what it showed, compactly. An
# open wizard is not among them: the classifiers get it from the assistant's state.
ROUTING_KEYS = ("listed_agents", "options", "offer", "agent_run", "agents_referenced")
INTENT_KEYS = ("action_type", "method", "entities")


class StoredMessage(Protocol):
    """What the window needs of a message: RecentMessage rows and Message instances both fit."""

    @property
    def role(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def token_count(self) -> int: ...
    @property
    def metadata(self) -> dict[str, Any]: ...


M = TypeVar("M", bound=StoredMessage)


def assemble_context(
    messages: Sequence[M], *, token_budget: int, max_messages: int, min_recent: int = MIN_RECENT
) -> list[M]:
    """The messages that fit, oldest first.

    At most ``max_messages``; the last ``min_recent`` always, even when they alone exceed the
    budget; then older ones, newest first, while their stored token counts fit the budget.
    ``messages`` is chronological.
    """
    if not messages or max_messages <= 0:
        return []
    candidates = messages[-max_messages:]
    keep = min(min_recent, len(candidates))
    chosen_start = len(candidates) - keep
    used = sum(m.token_count for m in candidates[chosen_start:])
    for index in range(chosen_start - 1, -1, -1):
        cost = candidates[index].token_count
        if used + cost > token_budget:
            break
        used += cost
        chosen_start = index
    return list(candidates[chosen_start:])


def routing_annotation(metadata: dict[str, Any]) -> dict[str, Any]:
    """The compact part of an assistant turn's metadata the classifiers read."""
    note: dict[str, Any] = {key: metadata[key] for key in ROUTING_KEYS if metadata.get(key)}
    intent = metadata.get("intent")
    if isinstance(intent, dict):
        note["intent"] = {key: intent[key] for key in INTENT_KEYS if key in intent}
    return note


def to_history(messages: Sequence[StoredMessage]) -> list[HistoryTurn]:
    """History turns for the classifiers; assistant turns carry their routing annotation."""
    turns: list[HistoryTurn] = []
    for message in messages:
        role = message.role if message.role in ("user", "assistant", "system") else "user"
        turn = HistoryTurn(role=role, content=message.content)  # type: ignore[typeddict-item]
        if role == "assistant" and message.metadata:
            turn["metadata"] = routing_annotation(message.metadata)  # type: ignore[typeddict-item]
        turns.append(turn)
    return turns


def conversation_history(
    conversation: Conversation, *, exclude: str | None = None
) -> list[HistoryTurn]:
    """The window of a conversation's recent messages, as every classification sees it.

    The chat turn (which excludes the message it is answering) and ``POST intents/classify/``
    both call this, so the two never decide on different histories.
    """
    recent = message_recent(
        conversation=conversation, limit=settings.OMNIFORGE_CONTEXT_MAX_MESSAGES + 1
    )
    window = assemble_context(
        [m for m in recent if m.id != exclude],
        token_budget=settings.OMNIFORGE_CONTEXT_TOKEN_BUDGET,
        max_messages=settings.OMNIFORGE_CONTEXT_MAX_MESSAGES,
    )
    return to_history(window)
