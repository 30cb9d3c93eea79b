"""The assistant's state in one conversation: what drives the next turn, kept by the server.

It lives in ``Conversation.assistant_state`` (never in ``metadata``, which is the client's) and
only the chat turn writes it, in the same transaction as the reply it goes with. The JSON form
carries a version, so a future change of shape can migrate a state saved mid-conversation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

STATE_VERSION = 1


@dataclass(frozen=True)
class Option:
    """One numbered option the assistant offered; replying with its number picks it."""

    n: int
    action_type: str
    label: str
    agent: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"n": self.n, "action_type": self.action_type, "label": self.label}
        if self.agent:
            data["agent"] = self.agent
        return data


@dataclass(frozen=True)
class Wizard:
    """An open create-agent wizard: what is gathered, and the questions asked last."""

    kind: str = "create_agent"
    gathered: Mapping[str, str] = field(default_factory=dict)
    asking: tuple[str, ...] = ()
    proposed: bool = False  # offered, not asked for: waits for a yes
    duplicate_of: str | None = None  # the existing agent it would repeat, already pointed out

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "gathered": dict(self.gathered),
            "asking": list(self.asking),
        }
        if self.proposed:
            data["proposed"] = True
        if self.duplicate_of:
            data["duplicate_of"] = self.duplicate_of
        return data


@dataclass(frozen=True)
class Created:
    """The agent the previous reply created: amended or undone by the next message."""

    agent_id: str
    name: str
    frequency: str = ""
    zone: str = ""
    gathered: Mapping[str, str] = field(default_factory=dict)  # what it was created from

    def to_json(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "gathered": dict(self.gathered)}


@dataclass(frozen=True)
class PendingRequest:
    """The request a clarifying question is about, answered once an option is picked."""

    message: str
    entities: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class AssistantState:
    wizard: Wizard | None = None
    pending: PendingRequest | None = None
    options: tuple[Option, ...] = ()  # offered by the last reply only
    listed_agents: tuple[str, ...] = ()  # the last numbered list of agents shown
    last_agent: str | None = None  # what "it" means
    last_agent_run: str | None = None  # what "the same as last time" runs
    created: Created | None = None  # created by the last reply only
    skill_session: str | None = None  # the skill-creation session open in this conversation
    declined: Wizard | None = None  # the last proposal turned down ("let's do it after all")
    deleting: str | None = None  # the agent whose deletion waits for a yes (the last reply only)
    # The agents (id, name) whose deletion all at once waits for a yes (the last reply only).
    deleting_several: tuple[tuple[str, str], ...] = ()

    def replace(self, **changes: Any) -> AssistantState:
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"v": STATE_VERSION}
        if self.wizard is not None:
            data["wizard"] = self.wizard.to_json()
        if self.pending is not None:
            data["pending"] = {
                "message": self.pending.message,
                "entities": dict(self.pending.entities),
            }
        if self.options:
            data["options"] = [option.to_json() for option in self.options]
        if self.listed_agents:
            data["listed_agents"] = list(self.listed_agents)
        if self.last_agent:
            data["last_agent"] = self.last_agent
        if self.last_agent_run:
            data["last_agent_run"] = self.last_agent_run
        if self.created is not None:
            data["created"] = self.created.to_json()
        if self.skill_session:
            data["skill_session"] = self.skill_session
        if self.declined is not None:
            data["declined"] = self.declined.to_json()
        if self.deleting:
            data["deleting"] = self.deleting
        if self.deleting_several:
            data["deleting_several"] = [
                {"id": agent_id, "name": name} for agent_id, name in self.deleting_several
            ]
        return data

    @classmethod
    def from_json(cls, data: Any) -> AssistantState:
        """The state a stored document describes; anything unreadable in it is dropped.

        Version 0 is the layout before versions (the same keys, in the conversation's metadata).
        """
        if not isinstance(data, Mapping):
            return cls()
        version = data.get("v", 0)
        if not isinstance(version, int) or version > STATE_VERSION:
            return cls()
        return cls(
            wizard=_wizard(data.get("wizard")),
            pending=_pending(data.get("pending")),
            options=tuple(o for o in map(_option, _list(data.get("options"))) if o),
            listed_agents=tuple(str(n) for n in _list(data.get("listed_agents")) if _text(n)),
            last_agent=_text(data.get("last_agent")),
            last_agent_run=_text(data.get("last_agent_run")),
            created=_created(data.get("created")),
            skill_session=_text(data.get("skill_session")),
            declined=_wizard(data.get("declined")),
            deleting=_text(data.get("deleting")),
            deleting_several=tuple(
                d for d in map(_id_and_name, _list(data.get("deleting_several"))) if d
            ),
        )


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _strings(value: Any) -> dict[str, str]:
    if not isinstance(value, Mapping):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, str)}


def _wizard(value: Any) -> Wizard | None:
    if not isinstance(value, Mapping):
        return None
    return Wizard(
        kind=_text(value.get("kind")) or "create_agent",
        gathered=_strings(value.get("gathered")),
        asking=tuple(str(a) for a in _list(value.get("asking")) if _text(a)),
        proposed=value.get("proposed") is True,
        duplicate_of=_text(value.get("duplicate_of")),
    )


def _created(value: Any) -> Created | None:
    if not isinstance(value, Mapping) or not _text(value.get("agent_id")):
        return None
    fields = _strings(value)
    return Created(
        agent_id=fields["agent_id"],
        name=fields.get("name", ""),
        frequency=fields.get("frequency", ""),
        zone=fields.get("zone", ""),
        gathered=_strings(value.get("gathered")),
    )


def _id_and_name(value: Any) -> tuple[str, str] | None:
    if not isinstance(value, Mapping):
        return None
    agent_id, name = _text(value.get("id")), _text(value.get("name"))
    return (agent_id, name) if agent_id and name else None


def _pending(value: Any) -> PendingRequest | None:
    if not isinstance(value, Mapping) or not isinstance(value.get("message"), str):
        return None
    return PendingRequest(message=value["message"], entities=_strings(value.get("entities")))


def _option(value: Any) -> Option | None:
    if not isinstance(value, Mapping):
        return None
    n, action, label = value.get("n"), value.get("action_type"), value.get("label")
    if not isinstance(n, int) or isinstance(n, bool) or not _text(action):
        return None
    return Option(
        n=n, action_type=str(action), label=str(label or ""), agent=_text(value.get("agent"))
    )
