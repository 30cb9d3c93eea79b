"""Scenario files through the chat turn: the service behind ``manage.py eval_scenarios``.

A scenario is one conversation: agents that exist before it, then turns, each with what it
must give (its action, and substrings its reply must contain; optionally more checks on the
reply and on the workspace after the turn). Each scenario runs as the admin (or the ``role``
it names) of a tenant of its own, made for it and removed afterwards, through the same
``ChatTurn`` as ``POST chat/``; with ``offline`` the intent tier is the offline engine even
when a provider is configured, so the two engines can be compared on the same conversations.
A check is one turn's action, one substring, or one other check, counted one by one.

A ``.jsonl`` file is read in the older format, one scenario a line, converted in memory by
``legacy_scenario``.
"""

from conversations.chat.scenarios.files import ScenarioFileError, scenario_validate, scenarios_load
from conversations.chat.scenarios.legacy import legacy_scenario
from conversations.chat.scenarios.results import Check, ScenarioResult, report
from conversations.chat.scenarios.runner import TurnSeen, scenario_run, scenarios_run

__all__ = [
    "Check",
    "ScenarioFileError",
    "ScenarioResult",
    "TurnSeen",
    "legacy_scenario",
    "report",
    "scenario_run",
    "scenario_validate",
    "scenarios_load",
    "scenarios_run",
]
