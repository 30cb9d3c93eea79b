"""The reply lint over every turn of the scenario files, held to a baseline that only goes down.

Each scenario of ``scenarios/*.json`` (the frozen ones excepted) is played through the chat
turn by the scenario service (``conversations.chat.scenarios``, as ``test_scenarios`` plays it),
and every reply is linted against the user messages of its conversation so far and the
tenant's agent names (``reply_lint``). The test prints the counts per check and per file and
the first examples, and fails when a count is above the baseline: a reply got worse. When a
count goes down, lower the baseline to it in the same change.

Run with ``-s`` to see the summary.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest

from conversations.assistant.text import called_in
from conversations.chat.scenarios import TurnSeen, scenarios_run
from conversations.models import Agent
from tests.conversations.assistant.reply_lint import CHECKS, reply_violations
from tests.conversations.assistant.test_scenarios import SCENARIOS, load

pytestmark = pytest.mark.django_db

# Frozen benchmarks: never played, opened or printed outside their own test or command.
FROZEN = frozenset({"heldout.jsonl", "blind22.json"})
FILES = sorted(path.name for path in SCENARIOS.glob("*.json") if path.name not in FROZEN)
EXAMPLES = 20
# Violations per file and check, measured on 2026-11-27 on 8215095 (the replies as they were
# when the lint was written). Lower a figure when replies get better; never raise one.
# fmt: off
BASELINE: dict[str, dict[str, int]] = {
    "dev.json": {"quoted_user_sentence": 24, "doubled_verb": 0, "lowercase_tool_name": 0,
        "slot_starts_with_verb_or_pronoun": 0},
    "dev2.json": {"quoted_user_sentence": 29, "doubled_verb": 0, "lowercase_tool_name": 0,
        "slot_starts_with_verb_or_pronoun": 1},
    "dev3.json": {"quoted_user_sentence": 28, "doubled_verb": 0, "lowercase_tool_name": 0,
        "slot_starts_with_verb_or_pronoun": 0},
    "dev4.json": {"quoted_user_sentence": 10, "doubled_verb": 0, "lowercase_tool_name": 0,
        "slot_starts_with_verb_or_pronoun": 0},
    "dev5.json": {"quoted_user_sentence": 31, "doubled_verb": 0, "lowercase_tool_name": 0,
        "slot_starts_with_verb_or_pronoun": 0},
    "dev6.json": {"quoted_user_sentence": 24, "doubled_verb": 0, "lowercase_tool_name": 0,
        "slot_starts_with_verb_or_pronoun": 1},
    "dev7.json": {"quoted_user_sentence": 24, "doubled_verb": 0, "lowercase_tool_name": 0,
        "slot_starts_with_verb_or_pronoun": 5},
    "dev8.json": {"quoted_user_sentence": 24, "doubled_verb": 0, "lowercase_tool_name": 1,
        "slot_starts_with_verb_or_pronoun": 5},
}
# fmt: on


@dataclass(frozen=True)
class Violation:
    file: str
    scenario: str
    turn: int
    check: str
    text: str

    def describe(self) -> str:
        shown = self.text if len(self.text) <= 120 else f"{self.text[:117]}..."
        return f"{self.check}: {self.file} {self.scenario} turn {self.turn}: {shown!r}"


@dataclass
class Linter:
    """Watches the turns of one file's scenarios as they are played, linting each reply."""

    file: str
    said: list[str] = field(default_factory=list)
    agent_names: set[str] = field(default_factory=set)
    violations: list[Violation] = field(default_factory=list)

    def __call__(self, seen: TurnSeen) -> None:
        if seen.number == 1:  # a new scenario, in a workspace of its own
            self.said, self.agent_names = [], set()
        self.said.append(seen.said)
        # Names of agents deleted since still count: a reply may name what it just removed.
        for name, config in Agent.objects.for_tenant(seen.tenant).values_list("name", "config"):
            details = config.get("details") if isinstance(config, dict) else None
            self.agent_names |= {name, called_in(str(details or "")) or ""}
        found = reply_violations(seen.reply, user_messages=self.said, agent_names=self.agent_names)
        for check, spans in found.items():
            self.violations += [
                Violation(self.file, seen.scenario, seen.number, check, span.text) for span in spans
            ]


def lint_report(violations: list[Violation], counts: Counter[tuple[str, str]]) -> str:
    """Counts per check and per file, then the first examples of each check."""
    checks = [check.__name__ for check in CHECKS]
    lines = ["", "reply lint (violations; baseline in brackets):"]
    for check in checks:
        total = sum(counts[file, check] for file in FILES)
        allowed = sum(BASELINE.get(file, {}).get(check, 0) for file in FILES)
        lines.append(f"  {check}: {total} [{allowed}]")
    for file in FILES:
        figures = ", ".join(
            f"{check} {counts[file, check]} [{BASELINE.get(file, {}).get(check, '-')}]"
            for check in checks
        )
        lines.append(f"  {file}: {figures}")
    better = [
        f"{file} {check} {counts[file, check]}"
        for file in FILES
        for check in checks
        if counts[file, check] < BASELINE.get(file, {}).get(check, 0)
    ]
    if better:
        lines.append(f"  below the baseline, lower it: {', '.join(better)}")
    # The first examples of each check, so that the rarer checks show too.
    each = EXAMPLES // len(checks)
    shown = [v for check in checks for v in [v for v in violations if v.check == check][:each]]
    shown += [v for v in violations if v not in shown][: EXAMPLES - len(shown)]
    lines.append(f"examples ({len(shown)} of {len(violations)}):")
    lines += [f"  {violation.describe()}" for violation in shown]
    return "\n".join(lines)


def test_scenario_replies_are_no_worse_than_the_lint_baseline() -> None:
    violations: list[Violation] = []
    for file in FILES:
        linter = Linter(file)
        for _ in scenarios_run(load(file), offline=False, observe=linter):
            pass
        violations += linter.violations
    counts = Counter((violation.file, violation.check) for violation in violations)
    print(lint_report(violations, counts))

    checks = [check.__name__ for check in CHECKS]
    unmeasured = [
        f"{file} {check}: {counts[file, check]}"
        for file in FILES
        for check in checks
        if check not in BASELINE.get(file, {})
    ]
    assert not unmeasured, "add these measured counts to BASELINE:\n" + "\n".join(unmeasured)
    worse = [
        f"{file} {check}: {counts[file, check]} > {BASELINE[file][check]}"
        for file in FILES
        for check in checks
        if counts[file, check] > BASELINE[file][check]
    ]
    assert not worse, "replies got worse than the lint baseline:\n" + "\n".join(worse)
