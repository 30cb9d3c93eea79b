"""What a scenario run gives: each check of each turn, and the ``--json`` report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The checks the contract defines; every other check (SCENARIO_EXTRA_CHECKS) also says why
# it failed, in ``detail``.
CONTRACT_CHECKS = ("action_type", "reply_mentions")


@dataclass(frozen=True)
class Check:
    turn: int  # 1-based
    check: str  # "action_type", "reply_mentions", or a key of SCENARIO_EXTRA_CHECKS ("agent.…")
    expected: Any
    actual: str  # the action for "action_type", the reply for a check on the reply, else state
    ok: bool
    detail: str = ""  # why an extra check failed
    said: str = ""  # what the user said in that turn
    action: str = ""  # the turn's action ("" when it was refused)
    reply: str = ""  # the turn's whole reply

    def describe(self, scenario: str) -> str:
        """The check, the turn and the whole reply, as a failing test shows them."""
        reply = "\n".join(f"    | {line}" for line in (self.reply or "<empty>").splitlines())
        why = f": {self.detail or self._why()}"
        return (
            f"scenario {scenario!r}, turn {self.turn} (user said {self.said!r}):\n"
            f"  check {self.check} {self.expected!r} FAILED{why}\n"
            f"  action: {self.action or None}\n"
            f"  reply:\n{reply or '    |'}"
        )

    def _why(self) -> str:
        if self.check == "action_type":
            return f"got {self.actual or 'no action'}"
        return "not in the reply"


@dataclass(frozen=True)
class ScenarioResult:
    id: str
    checks: list[Check] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(check.ok for check in self.checks)

    @property
    def total(self) -> int:
        return len(self.checks)

    @property
    def failures(self) -> list[Check]:
        return [check for check in self.checks if not check.ok]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "passed": self.passed,
            "total": self.total,
            "failures": [_failure(check) for check in self.failures],
        }


def _failure(check: Check) -> dict[str, Any]:
    failure = {
        "turn": check.turn,
        "check": check.check,
        "expected": check.expected,
        "actual": check.actual,
    }
    if check.detail:
        failure["detail"] = check.detail
    return failure


def report(results: list[ScenarioResult]) -> dict[str, Any]:
    """The ``--json`` object: ``{"passed", "total", "scenarios": [...]}``."""
    return {
        "passed": sum(r.passed for r in results),
        "total": sum(r.total for r in results),
        "scenarios": [r.to_dict() for r in results],
    }
