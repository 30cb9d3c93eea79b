"""The checks of one answered turn, each counted once, in the order the file format lists them.

The contract's two (``action_type`` and each of ``reply_mentions``) read the action and the
reply exactly as they always have. The others (``SCENARIO_EXTRA_CHECKS``) read the reply, the
replies before it and the workspace after the turn; on a refused turn every one of them fails.
All comparisons of text are case-insensitive.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from conversations.agents.selectors import agent_name
from conversations.chat.scenarios.results import Check
from conversations.chat.serializers import SCENARIO_EXTRA_CHECKS
from conversations.models import Agent, AgentRun, Tenant

# Filler words that do not show which numbered option a reply followed ("create", "run",
# "update" and the option's subject do).
# fmt: off
STOPWORDS = frozenset({
    "the", "and", "for", "you", "your", "our", "this", "that", "with", "from", "them", "they",
    "what", "which", "would", "could", "should", "about", "there", "their", "these", "those",
    "where", "while", "anyway", "something", "option", "options", "instead", "first", "second",
    "third", "specifically", "agent", "agents", "new", "one", "now", "can", "will", "may", "help",
    "tell", "more", "own", "words", "reply", "number", "ask",
})
# fmt: on


@dataclass(frozen=True)
class Answered:
    """One turn as its checks see it."""

    number: int  # 1-based
    said: str
    action: str  # "" when refused
    reply: str  # the whole reply; for a refused turn, the refusal
    refused: bool
    earlier: tuple[str, ...]  # the replies of the turns before ("" for a refused one)
    tenant: Tenant

    def check(
        self, name: str, expected: Any, ok: bool, *, actual: str | None = None, detail: str = ""
    ) -> Check:
        return Check(
            turn=self.number,
            check=name,
            expected=expected,
            actual=self.reply if actual is None else actual,
            ok=ok,
            detail="" if ok else detail,
            said=self.said,
            action=self.action,
            reply=self.reply,
        )


def turn_checks(turn: Answered, expect: dict[str, Any]) -> list[Check]:
    checks = _contract_checks(turn, expect)
    extra = [
        check
        for key in SCENARIO_EXTRA_CHECKS
        if expect.get(key) is not None and expect.get(key) is not False
        for check in _EXTRA[key](turn, expect[key])
    ]
    if turn.refused:
        why = f"the turn was refused: {turn.reply}"
        extra = [replace(check, ok=False, detail=why) for check in extra]
    return checks + extra


def _contract_checks(turn: Answered, expect: dict[str, Any]) -> list[Check]:
    checks = []
    if "action_type" in expect:
        allowed = [expect["action_type"], *expect.get("also_ok", [])]
        expected = allowed if len(allowed) > 1 else allowed[0]
        checks.append(
            turn.check("action_type", expected, turn.action in allowed, actual=turn.action)
        )
    lowered = turn.reply.lower()
    checks += [
        turn.check("reply_mentions", wanted, wanted.lower() in lowered)
        for wanted in expect.get("reply_mentions", [])
    ]
    return checks


# -- on the reply ----------------------------------------------------------------------------


def _mentions_any(turn: Answered, groups: list[list[str]]) -> list[Check]:
    lowered = turn.reply.lower()
    return [
        turn.check(
            "reply_mentions_any",
            group,
            any(text.lower() in lowered for text in group),
            detail=f"none of {group!r} is in the reply",
        )
        for group in groups
    ]


def _excludes(turn: Answered, texts: list[str]) -> list[Check]:
    lowered = turn.reply.lower()
    return [
        turn.check(
            "reply_excludes", text, text.lower() not in lowered, detail=f"{text!r} is in the reply"
        )
        for text in texts
    ]


def _repeats_previous(turn: Answered, _: bool) -> list[Check]:
    previous = turn.earlier[-1] if turn.earlier else ""
    same = turn.reply.strip() == previous.strip()
    detail = f"the previous reply was: {previous!r}"
    return [turn.check("reply_repeats_previous", True, same, detail=detail)]


def _names_latest_agent(turn: Answered, _: bool) -> list[Check]:
    agents = _agents(turn.tenant)
    if not agents:
        return [turn.check("reply_names_latest_agent", True, False, detail="no agent exists")]
    name = agents[-1].name
    named = name.lower() in turn.reply.lower()
    detail = f"the latest agent {name!r} is not named"
    return [turn.check("reply_names_latest_agent", name, named, detail=detail)]


def _names_listed_item(turn: Answered, number: int) -> list[Check]:
    """The reply names the agent on line ``number.`` of the latest numbered list before it."""
    names = [agent.name.lower() for agent in _agents(turn.tenant)]
    ok, detail = False, f"no earlier reply has a numbered item {number}"
    for earlier in reversed(turn.earlier):
        item = _numbered_item(earlier, number)
        if item is None:
            continue
        name = _named_agent(item, names)
        if name is None:
            ok, detail = False, f"item {number} of the last list names no agent: {item!r}"
        else:
            ok, detail = name in turn.reply.lower(), f"item {number} was {name!r}, not named"
        break
    return [turn.check("reply_names_listed_item", number, ok, detail=detail)]


def _picks_option(turn: Answered, number: int) -> list[Check]:
    ok, detail = _picked(turn, number)
    return [turn.check("picks_option", number, ok, detail=detail)]


def _picked(turn: Answered, number: int) -> tuple[bool, str]:
    """The previous reply had option ``number``; the reply is not that menu again, and names the
    agent the option names, or else shares a content word with it."""
    previous = turn.earlier[-1] if turn.earlier else ""
    item = _numbered_item(previous, number)
    if item is None:
        return False, f"the previous reply has no option {number}"
    reply = turn.reply.lower()
    if turn.reply.strip() == previous.strip():
        return False, "the reply repeats the options instead of taking one"
    name = _named_agent(item, [agent.name.lower() for agent in _agents(turn.tenant)])
    if name is not None:
        return name in reply, f"option {number} ({item!r}) names {name!r}"
    words = _words(item.lower()) - STOPWORDS
    shared = [word for word in words if word in reply]
    return bool(shared), f"the reply shares no word with option {number}: {item!r}"


# -- on the workspace after the turn ---------------------------------------------------------


def _agents_after(turn: Answered, expected: int | list[int]) -> list[Check]:
    allowed = expected if isinstance(expected, list) else [expected]
    agents = _agents(turn.tenant)
    listed = ", ".join(f"{a.name} {a.config}" for a in agents) or "none"
    found = f"{len(agents)} agents: {listed}"
    return [
        turn.check(
            "agents_after", expected, len(agents) in allowed, actual=found, detail=f"found {found}"
        )
    ]


def _runs_after(turn: Answered, expected: int) -> list[Check]:
    runs = list(AgentRun.objects.for_tenant(turn.tenant).select_related("agent"))
    found = f"{len(runs)} runs: {', '.join(run.agent.name for run in runs) or 'none'}"
    return [
        turn.check(
            "runs_after", expected, len(runs) == expected, actual=found, detail=f"found {found}"
        )
    ]


def _agent(turn: Answered, expected: dict[str, Any]) -> list[Check]:
    """On the latest created agent, or the one called ``name`` (whose existence is a check)."""
    which = expected.get("name")
    agents = _agents(turn.tenant)
    if which:
        agents = [agent for agent in agents if _is_named(agent, which)]
    agent = agents[-1] if agents else None
    text = _agent_text(agent) if agent is not None else ""
    missing = f"no agent {which!r}" if which else "no agent exists"
    label = f"agent {which!r}" if which else "the latest agent"

    def check(name: str, wanted: Any, ok: bool, why: str) -> Check:
        detail = f"{why}; {label}: {text}" if agent is not None else missing
        return turn.check(
            f"agent.{name}", wanted, agent is not None and ok, actual=text, detail=detail
        )

    checks = [check("exists", which, True, "")] if which else []
    checks += [
        check("mentions", t, t.lower() in text, f"{t!r} not mentioned")
        for t in expected.get("mentions", [])
    ]
    checks += [
        check(
            "mentions_any",
            group,
            any(t.lower() in text for t in group),
            f"none of {group!r} mentioned",
        )
        for group in expected.get("mentions_any", [])
    ]
    checks += [
        check("excludes", t, t.lower() not in text, f"{t!r} mentioned")
        for t in expected.get("excludes", [])
    ]
    for key, value in expected.get("config", {}).items():
        stored = (
            agent.config.get(key) if agent is not None and isinstance(agent.config, dict) else None
        )
        # As the checks were first written: the stored value as JSON, non-ASCII escaped.
        found = stored is not None and value.lower() in json.dumps(stored).lower()
        checks.append(check("config", {key: value}, found, f"config[{key!r}] is {stored!r}"))
    return checks


_EXTRA: dict[str, Callable[[Answered, Any], list[Check]]] = {
    "reply_mentions_any": _mentions_any,
    "reply_excludes": _excludes,
    "reply_repeats_previous": _repeats_previous,
    "reply_names_latest_agent": _names_latest_agent,
    "reply_names_listed_item": _names_listed_item,
    "picks_option": _picks_option,
    "agents_after": _agents_after,
    "runs_after": _runs_after,
    "agent": _agent,
}


# -- reading agents and lists ----------------------------------------------------------------


def _agents(tenant: Tenant) -> list[Agent]:
    return list(Agent.objects.for_tenant(tenant).order_by("created_at", "id"))


def _is_named(agent: Agent, name: str) -> bool:
    """Whether ``agent`` is the one called ``name``: agent names are slugs ("Late Load Digest"
    is stored as late-load-digest), so a name written otherwise must also be kept as written,
    case and accents intact, in what the agent stores."""
    if agent.name == name:
        return True
    stored = json.dumps(agent.config, ensure_ascii=False) + agent.description
    return agent.name == agent_name(name) and name in stored


def _agent_text(agent: Agent) -> str:
    """What the agent stores, as checks read it: name, description, config, and whether it is
    paused (kept beside the config, in ``paused_at``)."""
    config = json.dumps(agent.config, ensure_ascii=False, sort_keys=True)
    paused = " (paused)" if agent.paused_at else ""
    return f"{agent.name} {agent.description} {config}{paused}".lower()


def _numbered_item(text: str, number: int) -> str | None:
    """The text of item ``number`` of a numbered list ("2. …", "2) …", "**2.** …", "- 2. …"):
    the first line that starts with it (after any spaces and blank lines), from the first
    character after the spaces that follow the number to the end of that line."""
    marker = str(number)
    starts = [0, *(i + 1 for i, char in enumerate(text) if char == "\n")]
    for start in starts:
        at = _space_end(text, start)
        bullet = [_space_end(text, at + 1), at] if text[at : at + 1] in ("-", "*") else [at]
        for after_bullet in bullet:
            for here in _optional_stars(text, after_bullet):
                end = here + len(marker)
                if text[here:end] != marker or text[end : end + 1] not in (".", ")"):
                    continue
                for tail in _optional_stars(text, end + 1):
                    item = _rest_after_space(text, tail)
                    if item is not None:
                        return item
    return None


def _space_end(text: str, at: int) -> int:
    """Where the run of white space (newlines too) starting at ``at`` ends."""
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _optional_stars(text: str, at: int) -> list[int]:
    """Where reading may go on after an optional "**" at ``at`` (taken first)."""
    return [at + 2, at] if text[at : at + 2] == "**" else [at]


def _rest_after_space(text: str, at: int) -> str | None:
    """After at least one white space character from ``at``, the rest of a line: the line
    after all the white space, or else the last line-less characters the space leaves."""
    end = _space_end(text, at)
    if end == at:
        return None
    if end < len(text):
        return text[end : _line_end(text, end)]
    for start in range(end - 1, at, -1):  # the space runs to the end: give some back
        if text[start] != "\n":
            return text[start : _line_end(text, start)]
    return None


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _words(text: str) -> set[str]:
    """The runs of three or more letters a to z in ``text``."""
    words, run = set(), ""
    for char in f"{text} ":
        if "a" <= char <= "z":
            run += char
            continue
        if len(run) >= 3:
            words.add(run)
        run = ""
    return words


def _named_agent(text: str, names: list[str]) -> str | None:
    """The agent name that occurs first in ``text`` (the longest one at a tie)."""
    lowered = text.lower()
    found = [(lowered.find(name), -len(name), name) for name in names if name in lowered]
    return min(found)[2] if found else None
