"""The evaluation commands print their table, not a log line per case (unless asked with -v 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import subprocess_database_url

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    {"id": "a", "message": "Create an agent that posts bugs to Slack", "expected": "create_agent"},
    {"id": "b", "message": "list my agents", "expected": "query_info"},
    {"id": "c", "message": "run the first one", "expected": "execute_task"},
]  # fmt: skip
SCENARIO = [
    {"id": "s", "role": "owner", "turns": [
        {"user": "list my agents", "expect": {"action_type": "query_info"}},
        {"user": "hello", "expect": {"agents_after": 0}},
    ]},
]  # fmt: skip


def manage(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": subprocess_database_url(), "LOG_LEVEL": "INFO"}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=120, check=False,
    )  # fmt: skip


def per_case_lines(stderr: str) -> int:
    return sum("intent_classified" in line for line in stderr.splitlines())


@pytest.mark.django_db(transaction=True)
def test_eval_intents_prints_the_table_and_no_line_per_case(tmp_path: Path) -> None:
    dataset = tmp_path / "cases.jsonl"
    dataset.write_text("\n".join(json.dumps(case) for case in CASES), encoding="utf-8")
    quiet = manage("eval_intents", "--offline", "--dataset", str(dataset))
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stdout.startswith("accuracy: ")
    assert per_case_lines(quiet.stderr) == 0
    assert "3 cases from" in quiet.stderr
    verbose = manage("eval_intents", "--offline", "--dataset", str(dataset), "-v", "2")
    assert per_case_lines(verbose.stderr) == len(CASES)


@pytest.mark.django_db(transaction=True)
def test_eval_scenarios_prints_its_score_and_no_line_per_turn(tmp_path: Path) -> None:
    dataset = tmp_path / "scenarios.json"
    dataset.write_text(json.dumps(SCENARIO), encoding="utf-8")
    quiet = manage("eval_scenarios", "--offline", "--dataset", str(dataset))
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stdout.strip().endswith("/2")
    assert per_case_lines(quiet.stderr) == 0
    verbose = manage("eval_scenarios", "--offline", "--dataset", str(dataset), "-v", "2")
    assert per_case_lines(verbose.stderr) >= 2
