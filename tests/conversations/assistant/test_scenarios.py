"""Conversation scenarios, written blind from the contract and the spec, run through the chat turn.

Every suite runs through the service behind ``manage.py eval_scenarios``
(``conversations.chat.scenarios``): each scenario in a workspace of its own, as the user its
``role`` names, every turn through the same ``ChatTurn`` as ``POST chat/``, and each turn's
checks counted against the reply, the action and the workspace after the turn (see
``scenarios/README.md``).

Each scenario of ``scenarios/dev.json`` and ``scenarios/dev2.json`` is one test case;
``dev3.json`` to ``dev8.json`` are one counted test each, held to a floor; the frozen
``scenarios/heldout.jsonl`` (the older format, converted in memory) runs as a single test that
only reports how many checks passed.

Run with ``-s`` to see per-scenario pass counts of the dev set; with ``SCENARIO_TRACE=1`` every
turn and reply of a dev scenario is printed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conversations.chat.scenarios import (
    ScenarioFileError,
    ScenarioResult,
    TurnSeen,
    scenario_run,
    scenarios_load,
    scenarios_run,
)

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).parent / "scenarios"


def load(name: str) -> list[dict[str, Any]]:
    """The scenarios of ``scenarios/<name>``, validated as ``eval_scenarios`` reads them."""
    return scenarios_load(SCENARIOS / name)


# dev2.json: a second round written the same way (182/226 checks when first run, 2026-11-24).
DEV = load("dev.json") + load("dev2.json")
# Later rounds, tuned on and not all passing yet: one counted test each, with a floor, every
# failed check printed. First runs: dev3 188/260, dev4 373/459, dev5 399/502, dev6 315/387,
# dev7 322/427 checks (305 on the fifth session's first commit, 39c7ac1), dev8 421/519 (on
# 1cba989, the sixth session's first commit).
COUNTED = (
    ("dev3.json", 0.99),
    ("dev4.json", 0.98),
    ("dev5.json", 0.99),
    ("dev6.json", 0.97),
    ("dev7.json", 0.98),
    ("dev8.json", 0.96),
)
# Read by its own tests only (not on import): other modules import this one (test_reply_lint).
HELDOUT_PATH = SCENARIOS / "heldout.jsonl"
# Frozen: the checksum the scenarios were written with (scenarios/heldout.sha256).
HELDOUT_SHA256 = (SCENARIOS / "heldout.sha256").read_text().split()[0]


def _trace(seen: TurnSeen) -> None:
    print(f"\n[{seen.scenario} {seen.number}] {seen.said}\n  -> {seen.reply}")


def play(scenario: dict[str, Any]) -> ScenarioResult:
    """One scenario through the service, as ``POST chat/`` answers it (the engine configured)."""
    observe = _trace if os.environ.get("SCENARIO_TRACE") else None
    return scenario_run(scenario, offline=False, observe=observe)


# -- dev: one case per scenario, failing on its first failed check --------------------------

_DEV_RESULTS: dict[str, ScenarioResult] = {}


def dev_report(results: dict[str, ScenarioResult]) -> str:
    """Per-scenario pass counts of the dev scenarios that ran (printed with ``-s``)."""
    lines = ["", "dev scenarios (passed/total checks):"]
    for sid, result in results.items():
        status = "ok  " if not result.failures else "FAIL"
        lines.append(f"  {status} {result.passed:3d}/{result.total:<3d} {sid}")
    passed = sum(result.passed for result in results.values())
    total = sum(result.total for result in results.values())
    whole = sum(not result.failures for result in results.values())
    lines.append(f"dev: {whole}/{len(results)} scenarios, {passed}/{total} checks")
    return "\n".join(lines)


@pytest.fixture(scope="module", autouse=True)
def _print_dev_report() -> Iterator[None]:
    yield
    if _DEV_RESULTS:
        print(dev_report(_DEV_RESULTS))


@pytest.mark.parametrize("scenario", DEV, ids=[scenario["id"] for scenario in DEV])
def test_dev_scenario(scenario: dict[str, Any]) -> None:
    result = play(scenario)
    _DEV_RESULTS[scenario["id"]] = result
    if result.failures:
        first, *others = result.failures
        also = "".join(
            f"\n  - turn {c.turn}: {c.check} {c.expected!r}: {c.detail or 'failed'}" for c in others
        )
        pytest.fail(
            f"{first.describe(result.id)}\n"
            f"{result.passed}/{result.total} checks passed"
            + (f"; later failures:{also}" if others else ""),
            pytrace=False,
        )


@pytest.mark.parametrize(("name", "floor"), COUNTED, ids=[name for name, _ in COUNTED])
def test_counted_scenarios(name: str, floor: float) -> None:
    """A dev round held to a floor as a whole, printing every failed check."""
    passed = total = 0
    failures: list[str] = []
    for result in scenarios_run(load(name), offline=False):
        passed += result.passed
        total += result.total
        failures += [" ".join(f.describe(result.id).splitlines()[:2]) for f in result.failures]
    print(f"\n{name}: {passed}/{total} checks" + "".join(f"\n  {f}" for f in failures))
    assert passed / total >= floor, f"{name}: {passed}/{total} checks"


# -- held-out: one case for all, reporting only the pass count ------------------------------


def test_heldout_file_is_unchanged() -> None:
    """A change to the frozen file is a change of the benchmark, not a fix."""
    assert hashlib.sha256(HELDOUT_PATH.read_bytes()).hexdigest() == HELDOUT_SHA256


def test_heldout_scenarios() -> None:
    """Frozen scenarios never tuned on: only the total is reported, never which checks failed
    (nor, when the file does not read, why: the reason would quote it)."""
    assert hashlib.sha256(HELDOUT_PATH.read_bytes()).hexdigest() == HELDOUT_SHA256
    scenarios: list[dict[str, Any]] = []
    with contextlib.suppress(ScenarioFileError):
        scenarios = scenarios_load(HELDOUT_PATH)
    if not scenarios:
        pytest.fail(
            "heldout.jsonl does not read as scenarios (the reason is withheld)", pytrace=False
        )
    passed = total = 0
    for result in scenarios_run(scenarios, offline=False):
        passed += result.passed
        total += result.total
    print(f"\nheld-out scenarios: {passed}/{total} checks")
    # The floor sits under the score recorded in docs/BENCHMARKS.md (202/206 at the end of the
    # fourth session; 191 and 170 before), set from the total alone; an environment may raise it.
    floor = float(os.environ.get("OMNIFORGE_HELDOUT_FLOOR", "0.95"))
    assert total > 0
    assert passed / total >= floor, f"held-out scenarios: {passed}/{total} checks, floor {floor}"
