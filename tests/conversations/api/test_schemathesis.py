"""schemathesis against a live Daphne: the OpenAPI document and the API agree.

Every check schemathesis has, every phase (examples, coverage, fuzzing and the stateful phase,
which follows the links it infers from one answer to the next request), throttles raised for
the run, a real token. Each run draws a fresh seed, so CI explores new requests every time; the
seed is printed when the run starts and named in every assertion, and
``OMNIFORGE_SCHEMATHESIS_SEED=<seed>`` (or ``st run … --seed <seed>``) replays a failure.
Bounded by the number of examples per operation (about two minutes on two cores), so it runs
where ``OMNIFORGE_SCHEMATHESIS=1`` is set: ``.ci/run`` sets it for the run against PostgreSQL and
Redis. There, a skip would hide a regression, so a missing schemathesis fails instead. What a
run found is kept as plain tests in ``test_schemathesis_findings.py``.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from conversations.agents.services import agent_create
from conversations.runs.runtime import runtime_credentials_rotate
from conversations.tenancy.services import token_issue
from skill_sessions.models import Skill
from tests.conftest import World
from tests.live import Server

ENABLED = os.environ.get("OMNIFORGE_SCHEMATHESIS") == "1"
PHASES = "examples,coverage,fuzzing,stateful"
MAX_EXAMPLES = 150  # per operation and phase: about 4,000 test cases over the 22 operations
MIN_TEST_CASES = 3000

pytestmark = [
    pytest.mark.skipif(not ENABLED, reason="set OMNIFORGE_SCHEMATHESIS=1 (CI does)"),
    pytest.mark.django_db(transaction=True),
]


def test_schemathesis_with_a_fresh_seed_finds_no_failure_in_3000_generated_requests(
    world: World, servers: list[Server], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = int(os.environ.get("OMNIFORGE_SCHEMATHESIS_SEED") or secrets.randbelow(2**31))
    replay = f"schemathesis seed {seed} (replay: OMNIFORGE_SCHEMATHESIS_SEED={seed})"
    with capsys.disabled():
        print(f"\n{replay}")
    st = Path(sys.executable).with_name("st")
    assert st.exists() or shutil.which("st"), "schemathesis is not installed"
    token = token_issue(user=world.owner)
    # One skill to read and delete: the API creates skills only when a session completes.
    Skill.objects.create(tenant=world.tenant_a, created_by=world.owner, name="dates-converter")
    # Agents to run, list runs of and cancel (their creation has a pass of its own, below).
    for name in ("lead-digest", "notion-reporter"):
        agent_create(tenant=world.tenant_a, name=name, created_by=world.owner)
    connections.close_all()
    server = Server(
        env={
            "DEBUG": "false",
            "SECURE_SSL_REDIRECT": "false",  # production settings over plain HTTP on loopback
            "OMNIFORGE_ALLOW_PLAINTEXT": "true",
            "SECRET_KEY": "schemathesis-run-only",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "API_THROTTLE_RATE": "1000000/min",
            "INTENT_THROTTLE_RATE": "1000000/min",
            "ANON_THROTTLE_RATE": "1000000/min",
            "AUTH_FAILURE_THROTTLE_RATE": "1000000/min",
            "TENANT_THROTTLE_RATE": "1000000/min",
        }
    )
    servers.append(server)
    report_dir = tmp_path / "report"
    completed = subprocess.run(
        [
            str(st), "run", f"{server.url}/api/schema/",
            "--checks", "all",
            "--phases", PHASES,
            "--seed", str(seed),
            "--max-examples", str(MAX_EXAMPLES),
            "--header", f"Authorization: Token {token}",
            # The runtime's callbacks take a runtime token, not a user's; an agent's schedule is
            # RFC 5545 text that no JSON schema states exactly: each has its own pass below.
            "--exclude-operation-id", EVENTS,
            *(arg for op in SCHEDULED for arg in ("--exclude-operation-id", op)),
            "--generation-database", "none",
            "--report", "json",
            "--report-dir", str(report_dir),
            "--no-color",
        ],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    output = completed.stdout + completed.stderr
    reports = list(report_dir.glob("json-*.json"))
    assert reports, f"{replay}\n{output[-4000:]}"
    report: dict[str, Any] = json.loads(reports[0].read_text())
    generated = report["test_cases"]["generated"]
    failed = report["test_cases"]["with_failures"]
    summary = (
        f"{replay}, schemathesis {report['schemathesis_version']}: {generated} test cases, "
        f"{failed} failed, in {report['running_time']:.0f} s"
    )
    print(f"\n{summary}")
    assert report["seed"] == seed, summary
    assert not report["failures"] and not report["errors"], f"{summary}\n{output[-6000:]}"
    passes_of_their_own = 1 + len(SCHEDULED)
    assert report["operations"]["tested"] == report["operations"]["total"] - passes_of_their_own
    ran = {name: phase["status"] for name, phase in report["phases"].items()}
    assert ran["stateful"] == "success" and ran["fuzzing"] == "success", f"{summary}: {ran}"
    assert generated >= MIN_TEST_CASES, f"{summary}\n{output[-2000:]}"
    assert completed.returncode == 0, f"{summary}\n{output[-6000:]}"
    assert "Traceback" not in server.log(), summary
    token_for_runtime = runtime_credentials_rotate(tenant=world.tenant_a).token
    connections.close_all()
    # The runtime's callbacks, with the tenant's runtime token (nothing links to them).
    _one_pass(server, seed, tmp_path / "events", [EVENTS], f"Bearer {token_for_runtime}")
    # Writing agents: every check but "a schema-valid request is accepted", since the document
    # cannot say which strings are RFC 5545 rules or zone names; refusals are still checked.
    checks = ("--exclude-checks", "positive_data_acceptance")
    _one_pass(server, seed, tmp_path / "agents", SCHEDULED, f"Token {token}", checks)


EVENTS = "runs_events_create"
SCHEDULED = ("v1_agents_create", "v1_agents_partial_update")


def _one_pass(
    server: Server,
    seed: int,
    report_dir: Path,
    operations: Sequence[str],
    authorization: str,
    extra: Sequence[str] = (),
) -> None:
    """A run over a few operations only: no stateful phase (they link to nothing new)."""
    completed = subprocess.run(
        [
            str(Path(sys.executable).with_name("st")), "run", f"{server.url}/api/schema/",
            "--checks", "all", *extra, "--phases", "examples,coverage,fuzzing",
            "--seed", str(seed), "--max-examples", "100",
            *(arg for op in operations for arg in ("--include-operation-id", op)),
            "--header", f"Authorization: {authorization}", "--generation-database", "none",
            "--report", "json", "--report-dir", str(report_dir), "--no-color",
        ],
        cwd=report_dir.parent, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    output = completed.stdout + completed.stderr
    reports = list(report_dir.glob("json-*.json"))
    assert reports, output[-4000:]
    report: dict[str, Any] = json.loads(reports[0].read_text())
    assert not report["failures"] and not report["errors"], output[-6000:]
    assert report["operations"]["tested"] == len(operations), output[-2000:]
    assert completed.returncode == 0, output[-6000:]
    assert "Traceback" not in server.log()
