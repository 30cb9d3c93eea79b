"""A run goes to a real HTTP runtime and back: signed, retried, refused, timed out, told."""

from __future__ import annotations

import json
from typing import Any

from conversations.models import AgentRun, AgentRunEvent
from tests.conversations.runs.conftest import Connected
from tests.runtime_server import Outcome, verify


def _run_now(connected: Connected) -> dict[str, Any]:
    client = connected.world.client(connected.world.owner)
    response = client.post(f"/api/v1/agents/{connected.agent.id}/runs/")
    assert response.status_code == 201, response.content
    return dict(response.json())


def test_a_run_asked_for_through_the_api_is_signed_dispatched_and_succeeds(
    connected: Connected,
) -> None:
    connected.runtime.default = Outcome.succeed(
        "12 pages summarized", link="https://notion.example/x", progress=("halfway",)
    )
    run = _run_now(connected)
    assert run["status"] == "queued" and run["trigger"] == "api"
    assert run["agent_name"] == "notion-reporter"

    dispatch = connected.runtime.wait_for_dispatches(1)[0]
    body = json.loads(dispatch.raw)
    assert body == {
        "version": 1,
        "run": {
            "id": run["id"],
            "trigger": "api",
            "requested_by": "olivia",
            "callback_url": f"{connected.url}/api/v1/runs/{run['id']}/events/",
            "agent": {
                "id": connected.agent.id,
                "name": "notion-reporter",
                "config": {"source": "notion", "destination": "#team"},
            },
        },
    }
    headers = dispatch.headers
    assert headers["idempotency-key"] == run["id"]
    signed = verify(
        connected.credentials["secret"],
        headers["x-omniforge-timestamp"],
        headers["x-omniforge-signature"],
        dispatch.raw,
    )
    assert signed is None

    callbacks = connected.runtime.wait_for_callbacks(3)  # started, progress, succeeded
    assert [c.status for c in callbacks] == [204, 204, 204]
    shown = connected.world.client(connected.world.owner).get(f"/api/v1/runs/{run['id']}/")
    assert shown.status_code == 200
    final = shown.json()
    assert final["status"] == "succeeded"
    assert final["summary"] == "12 pages summarized"
    assert final["link"] == "https://notion.example/x"
    assert final["started_at"] and final["finished_at"]
    stored = connected.run(run["id"])
    assert stored.attempts == 1 and stored.dispatched_at is not None
    assert (
        AgentRunEvent.objects.for_tenant(connected.world.tenant_a).filter(run=stored).count() == 3
    )


def test_a_5xx_is_retried_with_a_fresh_signature_and_then_delivered(connected: Connected) -> None:
    connected.runtime.script(Outcome.status(503), Outcome.status(502))
    run = _run_now(connected)
    dispatches = connected.runtime.wait_for_dispatches(3)
    assert [d.status for d in dispatches] == [503, 502, 202]
    assert [d.attempt for d in dispatches] == [1, 2, 3]
    # Every attempt signed afresh: no two signatures alike (the receiver refuses replays).
    assert len({d.headers["x-omniforge-signature"] for d in dispatches}) == 3
    connected.runtime.wait_for_callbacks(2)
    stored = connected.run(run["id"])
    assert stored.status == AgentRun.Status.SUCCEEDED and stored.attempts == 3


def test_a_runtime_that_keeps_failing_fails_the_run_with_the_reason(connected: Connected) -> None:
    connected.runtime.default = Outcome.status(500)
    run = _run_now(connected)
    connected.runtime.wait_for_dispatches(3)
    stored = _wait_final(connected, run["id"])
    assert stored.status == AgentRun.Status.FAILED
    assert stored.reason == "The agent runtime answered HTTP 500."
    assert stored.attempts == 3  # OMNIFORGE_RUNTIME_MAX_ATTEMPTS in these tests


def test_a_refusal_fails_the_run_at_once(connected: Connected) -> None:
    connected.runtime.default = Outcome.status(400)
    run = _run_now(connected)
    stored = _wait_final(connected, run["id"])
    assert stored.status == AgentRun.Status.FAILED and stored.attempts == 1
    assert "refused the run (HTTP 400)" in stored.reason


def test_a_runtime_that_does_not_answer_in_time_is_retried_then_fails(
    connected: Connected, settings: Any
) -> None:
    settings.OMNIFORGE_RUNTIME_TIMEOUT_S = 0.3
    settings.OMNIFORGE_RUNTIME_MAX_ATTEMPTS = 2
    connected.runtime.default = Outcome.hang(3)
    run = _run_now(connected)
    stored = _wait_final(connected, run["id"], timeout=15)
    assert stored.status == AgentRun.Status.FAILED and stored.attempts == 2
    assert stored.reason == "The agent runtime did not answer in time."


def test_a_failed_outcome_is_kept_with_its_reason(connected: Connected) -> None:
    connected.runtime.default = Outcome.fail("Notion said 403: the integration lost access")
    run = _run_now(connected)
    connected.runtime.wait_for_callbacks(2)
    final = connected.world.client(connected.world.owner).get(f"/api/v1/runs/{run['id']}/").json()
    assert final["status"] == "failed"
    assert final["reason"] == "Notion said 403: the integration lost access"


def _wait_final(connected: Connected, run_id: str, timeout: float = 10.0) -> AgentRun:
    import time

    deadline = time.monotonic() + timeout
    while True:
        run = connected.run(run_id)
        if run.final or time.monotonic() > deadline:
            return run
        time.sleep(0.05)
