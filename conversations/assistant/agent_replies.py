"""The replies about the tenant's agents, marked for translation (``agents.py`` sends them).

Every template names its placeholders, so a translation may put them in any order; a sentence
that differs with what the agent has (a description, a schedule) has one template per variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from conversations.assistant.text import LABELS, as_written, display
from conversations.models import Agent, AgentRun
from intents.types import ActionType


def shown_name(agent: Agent) -> str:
    return as_written(agent.name, agent.config)


def which_templates(action: ActionType) -> tuple[str, str]:
    """The question and an option's label for picking the agent to run or to change."""
    if action == ActionType.EXECUTE_TASK:
        return _("Which agent should I run?"), _("Run %(name)s")
    return _("Which agent should I change?"), _("Change %(name)s")


def running_said(agent: Agent, run_id: str, *, runtime: bool) -> str:
    """The reply to a run asked for: handed to the runtime, or waiting for one."""
    values = {"name": shown_name(agent), "run": run_id}
    if not runtime:
        return (
            _(
                "%(name)s can't run yet: no agent runtime is connected to this workspace. "
                "I've recorded the request (run %(run)s), and it will start as soon as an admin "
                "connects one."
            )
            % values
        )
    return (
        _(
            "Running %(name)s: I've handed it to the agent runtime (run %(run)s) and will tell "
            "you here when it finishes."
        )
        % values
    )


_RUN_SAID = {
    "succeeded": gettext_lazy("Yes: %(name)s finished at %(time)s UTC: %(summary)s"),
    "failed": gettext_lazy("No: %(name)s failed at %(time)s UTC: %(reason)s"),
    "timed_out": gettext_lazy(
        "No: %(name)s did not report back in time, so its run timed out at %(time)s UTC."
    ),
    "cancelled": gettext_lazy("That run of %(name)s was cancelled at %(time)s UTC."),
    "running": gettext_lazy("%(name)s is still running: it started at %(time)s UTC."),
    "dispatched": gettext_lazy(
        "%(name)s went to the agent runtime at %(time)s UTC and hasn't reported back yet."
    ),
    "queued": gettext_lazy("%(name)s is on its way to the agent runtime (asked at %(time)s UTC)."),
    "waiting_for_runtime": gettext_lazy(
        "%(name)s hasn't run: no agent runtime is connected to this workspace yet."
    ),
}


def run_said(run: AgentRun) -> str:
    """How a run went, from its record: "did it work?", "why did it fail?"."""
    moment = run.finished_at or run.started_at or run.dispatched_at or run.requested_at
    values = {"name": run.agent.name, "time": minute(moment), "summary": run.summary}
    values["reason"] = run.reason or _("it gave no reason")
    return str(_RUN_SAID[run.status] % values)


def listed_line(agent: Agent) -> str:
    """An agent's line in the list: its name, what it does, and whether it is paused."""
    name = shown_name(agent)
    if agent.description and agent.paused:
        line = _("%(name)s - %(description)s (paused)")
    elif agent.description:
        line = _("%(name)s - %(description)s")
    elif agent.paused:
        line = _("%(name)s (paused)")
    else:
        return name
    return line % {"name": name, "description": agent.description}


def minute(moment: datetime) -> str:
    """A moment as the replies write it: 2026-11-27 09:30 (in UTC)."""
    return moment.strftime("%Y-%m-%d %H:%M")


def lowered(schedule: str) -> str:
    """A schedule as it reads inside a sentence ("Every Monday at 09:00" → "every Monday…")."""
    return schedule[0].lower() + schedule[1:] if schedule else ""


def paused_said(agent: Agent, paused: bool) -> str:
    """What pausing or resuming the agent says, its schedule in brackets when it has one."""
    schedule = lowered(str((agent.config or {}).get("schedule") or ""))
    values = {"name": agent.name, "shown": shown_name(agent), "schedule": schedule}
    resume = _('Say "resume %(name)s" to turn it back on.') % values
    if paused == agent.paused and paused:
        return _("%(name)s is already paused.") % values + " " + resume
    if paused == agent.paused:
        said = (
            _("%(name)s isn't paused: it runs on its schedule (%(schedule)s).")
            if schedule
            else _("%(name)s isn't paused: it runs on its schedule.")
        )
        return said % values
    if paused:
        said = (
            _("Paused %(shown)s: it won't run on its schedule (%(schedule)s) until you resume it.")
            if schedule
            else _("Paused %(shown)s: it won't run on its schedule until you resume it.")
        )
        return said % values + " " + _("Nothing else changed.") + " " + resume
    said = (
        _("Resumed %(shown)s: it runs on its schedule again (%(schedule)s).")
        if schedule
        else _("Resumed %(shown)s: it runs on its schedule again.")
    )
    return said % values


def change_lines(before: Mapping[str, Any], changes: Mapping[str, str]) -> list[str]:
    """A line for each changed setting: its label, the old value and the new one."""
    lines = []
    for key, value in changes.items():
        if key == "details":
            continue
        values = {
            "label": LABELS[key],
            "old": display(before.get(key) or ""),
            "new": display(value),
        }
        if before.get(key):
            lines.append(_("- %(label)s: %(old)s \u2192 %(new)s") % values)
        else:
            lines.append(_("- %(label)s: not set \u2192 %(new)s") % values)
    return lines
