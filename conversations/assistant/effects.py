"""What a turn changes in the platform, decided by the assistant and applied by the chat turn.

The assistant only decides; the chat turn applies these in the same transaction as the reply
and the new state. Each carries an id chosen up front, so applying it again (a retry after
storage was briefly unavailable) changes nothing twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class CreateAgent:
    agent_id: str
    name: str
    description: str
    config: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RunAgent:
    run_id: str
    agent_id: str


@dataclass(frozen=True)
class UpdateAgent:
    agent_id: str
    name: str | None = None
    config: Mapping[str, str] = field(default_factory=dict)
    description: str | None = None  # rewritten when the change alters what it says
    paused: bool | None = None  # True pauses it, False resumes it


@dataclass(frozen=True)
class DeleteAgent:
    """Undo of an agent created the turn before ("actually cancel that")."""

    agent_id: str


@dataclass(frozen=True)
class SaveSkillSession:
    """A skill-creation session's document after this exchange (version 0: a new session)."""

    session_id: str
    context: Mapping[str, Any]
    expected_version: int
    conversation_id: str = ""


@dataclass(frozen=True)
class CreateSkill:
    skill_id: str
    name: str
    description: str
    definition: Mapping[str, Any]
    session_id: str = ""


Effect = CreateAgent | RunAgent | UpdateAgent | DeleteAgent | SaveSkillSession | CreateSkill


_KINDS: dict[str, type[Effect]] = {
    "create_agent": CreateAgent,
    "run_agent": RunAgent,
    "update_agent": UpdateAgent,
    "delete_agent": DeleteAgent,
    "save_skill_session": SaveSkillSession,
    "create_skill": CreateSkill,
}


def effect_to_json(effect: Effect) -> dict[str, object]:
    kind = next(name for name, cls in _KINDS.items() if isinstance(effect, cls))
    return {"kind": kind, **{k: v for k, v in vars(effect).items()}}


def effect_from_json(data: Mapping[str, object]) -> Effect:
    fields = {k: v for k, v in data.items() if k != "kind"}
    return _KINDS[str(data["kind"])](**fields)  # type: ignore[arg-type]
