"""A second agent identical to one the tenant has: found by comparing what it would watch, do,
send where and when (``identical_agent``), and pointed out before it is created (``point_out``),
the setup then waiting for a yes.
"""

from __future__ import annotations

import string
from collections.abc import Mapping

from conversations.agents import selectors as agents
from conversations.assistant.describe import detail_line, planned_config
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.state import AssistantState, Wizard
from conversations.assistant.text import as_written, display
from conversations.assistant.wizard_replies import ALREADY_HAVE, SETTING_LABELS
from conversations.models import Agent
from intents.reading.values import Setting

# Words that say nothing of what an agent does: two agents are compared on their other words.
FILLER_WORDS = frozenset((
    "the", "a", "an", "our", "my", "for", "of", "to", "on", "in", "and", "any", "all", "that",
    "when", "with", "from", "every", "monitor", "monitors", "watch", "watches", "daily",
    "weekly", "monthly", "hourly", "new", "board", "than", "more", "de", "la", "le", "les",
    "los", "las", "der", "die", "das", "des", "du", "et", "y", "und", "into", "dashboard",
))  # fmt: skip

_WORD_CHARACTERS = frozenset(string.ascii_lowercase + string.digits)


def _words(value: str) -> set[str]:
    kept = "".join(c if c in _WORD_CHARACTERS else " " for c in value.lower())
    return {w for w in kept.split() if len(w) >= 3 and w not in FILLER_WORDS}


def _when_key(value: str) -> tuple[frozenset[str], str]:
    lowered = value.lower()
    days = frozenset(d for d in ("mon", "tue", "wed", "thu", "fri", "sat", "sun") if d in lowered)
    clock = Setting(lowered).clock
    return days, (str(int(clock[0])) + ":" + clock[1] if clock else "")


def identical_agent(turn: Turn, gathered: Mapping[str, str]) -> Agent | None:
    """An agent of the tenant that already does this: same source and most details alike."""
    config = planned_config(gathered)
    ours_where = Setting(config.get("destination", "")).addresses
    ours_what = _words(config.get("trigger", "") + " " + config.get("action", ""))
    for agent in agents.agents_for_matching(tenant=turn.tenant):
        theirs = {k: str(v) for k, v in (agent.config or {}).items()}
        if theirs.get("source", "").lower() != config.get("source", "").lower():
            continue
        score = 1
        where = Setting(theirs.get("destination", "")).addresses
        if ours_where and where:
            score += 1 if ours_where == where else -1
        what = _words(theirs.get("trigger", "") + " " + theirs.get("action", ""))
        if what and ours_what and len(what & ours_what) / min(len(what), len(ours_what)) >= 0.5:
            score += 1
        if _when_key(theirs.get("schedule", "")) == _when_key(config.get("schedule", "")):
            score += 1
        if score >= 3:
            return agent
    return None


def point_out(state: AssistantState, gathered: dict[str, str], agent: Agent) -> Outcome:
    lines = "\n".join(
        detail_line(SETTING_LABELS.get(k, k.title()), display(str(v)) if k == "source" else str(v))
        for k, v in (agent.config or {}).items()
        if v and k != "details"
    )
    content = ALREADY_HAVE % {
        "agent": as_written(agent.name, agent.config),
        "details": lines,
        "name": agent.name,
    }
    return Outcome(
        Reply(
            content,
            meta={"agents_referenced": [agent.name], "offer": {"action_type": "create_agent"}},
            decision="wizard_duplicate",
        ),
        state.replace(
            wizard=Wizard("create_agent", gathered, (), proposed=True, duplicate_of=agent.name),
            last_agent=agent.name,
        ),
    )
