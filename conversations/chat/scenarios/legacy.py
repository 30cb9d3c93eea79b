"""The older scenario format (JSON Lines, one scenario a line) in the contract's format.

A legacy scenario is ``{"id", "about", "user": "owner"|"member"|"admin", "agents"?: [{"name",
"description", "config"}], "turns": [{"say", "resend"?, <checks>}]}``, its checks beside the
turn's text. Each becomes the same check under the format's name (``LEGACY_CHECKS``), so a file
converted scores what it scored under the old runner, check for check. Keys the old runner did
not read are not carried over.
"""

from __future__ import annotations

from typing import Any

from conversations.agents.selectors import agent_name

# A legacy turn's check -> the same check in a turn's ``expect``.
LEGACY_CHECKS = {
    "intent": "action_type",
    "reply_contains": "reply_mentions",
    "reply_contains_any": "reply_mentions_any",
    "reply_not_contains": "reply_excludes",
    "reply_same_as_previous": "reply_repeats_previous",
    "reply_names_agent": "reply_names_latest_agent",
    "reply_contains_listed_item": "reply_names_listed_item",
    "picks_option": "picks_option",
    "agents_after": "agents_after",
    "runs_after": "runs_after",
}
# An ``agent`` check's keys -> the same in ``expect.agent``.
LEGACY_AGENT_CHECKS = {
    "name": "name",
    "mentions": "mentions",
    "mentions_any": "mentions_any",
    "not_mentions": "excludes",
    "config": "config",
}
# Checks the old runner skipped when their value was false (or empty).
_FLAGS = ("reply_same_as_previous", "reply_names_agent")


def legacy_scenario(legacy: Any) -> Any:
    """One legacy scenario in the contract's format (anything else is returned as it is, for
    the serializer to refuse)."""
    if not isinstance(legacy, dict) or not isinstance(legacy.get("turns"), list):
        return legacy
    scenario: dict[str, Any] = {"id": legacy.get("id")}
    if "about" in legacy:
        scenario["about"] = legacy["about"]
    scenario["role"] = legacy.get("user", "owner")
    agents = legacy.get("agents") or []
    if agents:
        scenario["setup"] = {"agents": [_agent(spec) for spec in agents]}
    scenario["turns"] = _turns(legacy["turns"])
    return scenario


def _agent(spec: Any) -> Any:
    """Stored as the assistant stores a name it is given ("call it Invoice Chaser"): under the
    slug invoice-chaser, with the name as written in the agent's details."""
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
        return spec
    config = dict(spec.get("config") or {})
    if agent_name(spec["name"]) != spec["name"]:
        config.setdefault("details", f"Called \u201c{spec['name']}\u201d")
    agent = {"name": spec["name"], "description": spec.get("description", "")}
    if config:
        agent["config"] = config
    return agent


def _turns(legacy: list[Any]) -> list[Any]:
    turns: list[Any] = []
    said: Any = None
    for turn in legacy:
        if not isinstance(turn, dict):
            turns.append(turn)
            continue
        resend = bool(turn.get("resend"))
        # A re-send says what the previous turn said, unless it says otherwise.
        said = turn.get("say", said) if resend else turn.get("say")
        converted: dict[str, Any] = {"user": said}
        if resend:
            converted["resend"] = True
        converted["expect"] = _expect(turn)
        turns.append(converted)
    return turns


def _expect(turn: dict[str, Any]) -> dict[str, Any]:
    expect: dict[str, Any] = {}
    for old, new in LEGACY_CHECKS.items():
        if old not in turn or (old in _FLAGS and not turn[old]):
            continue
        if isinstance(turn[old], list) and not turn[old]:
            continue  # no check
        expect[new] = turn[old]
    agent = turn.get("agent")
    if isinstance(agent, dict):
        checks = {
            new: agent[old]
            for old, new in LEGACY_AGENT_CHECKS.items()
            if old in agent and agent[old] not in ([], {})
        }
        if checks:
            expect["agent"] = checks
    elif agent is not None:
        expect["agent"] = agent  # not an object: the serializer says so
    return expect
