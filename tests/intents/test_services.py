"""intent_classify end to end: tiers in order, fallback, logging, metrics, the REST endpoint."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from conversations.agents.selectors import agent_refs
from conversations.models import Agent
from conversations.store import services
from intents.evaluation import DEFAULT_DATASET, LABELS
from intents.services import intent_classify, mentions
from tests.conftest import World
from tests.intents.llm_server import Reply, ScriptedLLMServer

pytestmark = pytest.mark.django_db
URL = "/api/v1/intents/classify/"
ROOT = Path(__file__).resolve().parents[2]


def classify(world: World, message: str) -> Any:
    """As the doors call it: with the caller's tenant's agents."""
    return intent_classify(
        message=message, agents=agent_refs(world.tenant_a, mentioned=mentions(message))
    )


@pytest.fixture
def agents(world: World) -> None:
    for name in ("notion-reporter", "jira-overdue-monitor"):
        Agent.objects.create(tenant=world.tenant_a, name=name, description=f"{name} agent")
    Agent.objects.create(tenant=world.tenant_b, name="globex-secret-agent", description="b")


def test_an_at_mention_of_an_existing_agent_takes_the_fast_path_without_a_model_call(
    world: World, agents: None, llm_server: ScriptedLLMServer
) -> None:
    result = classify(world, "@notion-reporter do your thing")
    assert result.action_type == "execute_task"
    assert result.method == "fast_path" and result.confidence == 1.0
    assert result.entities == {"agent": "notion-reporter"}
    assert llm_server.call_count == 0


def test_an_unknown_or_foreign_at_mention_falls_through_to_the_classifiers(
    world: World, agents: None, llm_server: ScriptedLLMServer
) -> None:
    llm_server.script(Reply.intent("query_info", 0.9))
    result = classify(world, "what does @globex-secret-agent do?")
    assert result.method == "llm"
    assert llm_server.call_count == 1
    assert (
        "globex-secret-agent"
        not in llm_server.chat_requests[0].prompt_text.split("<user_message>")[0]
    )


def test_the_llm_tier_answers_when_configured_with_the_tenants_agents_in_the_prompt(
    world: World, agents: None, llm_server: ScriptedLLMServer
) -> None:
    llm_server.script(Reply.intent("create_agent", 0.88, entities={"source": "notion"}))
    result = classify(world, "our weekly reports are always late, can you help?")
    assert (result.action_type, result.method, result.model) == (
        "create_agent",
        "llm",
        "openai/test-model",
    )
    prompt = llm_server.chat_requests[0].prompt_text
    assert "notion-reporter" in prompt and "jira-overdue-monitor" in prompt
    assert "globex-secret-agent" not in prompt


def test_a_failing_llm_falls_back_to_offline_and_logs_the_reason_without_content(
    world: World, llm_server: ScriptedLLMServer, caplog: pytest.LogCaptureFixture
) -> None:
    llm_server.script(*[Reply.error(500)] * 3)
    secret = "create an agent that posts the launch code hunter2 to slack every morning"
    with caplog.at_level(logging.INFO, logger="omniforge.intents"):
        result = classify(world, secret)
    assert result.method == "offline"
    assert result.action_type == "create_agent"
    assert llm_server.call_count == 3  # the first call and two retries
    lines = [r.getMessage() for r in caplog.records if r.name == "omniforge.intents"]
    assert len(lines) == 1
    logged = json.loads(lines[0].split(" ", 1)[1])
    assert logged["method"] == "offline" and logged["fallback_reason"] == "server_error"
    assert "hunter2" not in caplog.text


def test_without_a_provider_the_offline_tier_answers_with_no_failure(world: World) -> None:
    result = classify(world, "list my agents please")
    assert result.method == "offline"
    assert result.action_type == "query_info"


def test_metrics_count_methods_and_fallbacks(world: World, llm_server: ScriptedLLMServer) -> None:
    llm_server.script(Reply.error(400))
    classify(world, "show me my agents")
    body = Client().get("/metrics").content.decode()
    assert 'omniforge_intent_fallbacks_total{reason="bad_request"}' in body
    assert 'omniforge_intent_classification_seconds_count{method="offline"}' in body


# --- POST /api/v1/intents/classify/ ----------------------------------------------------------


def test_the_endpoint_returns_the_contracts_intent_result_and_stores_nothing(world: World) -> None:
    response = world.client(world.owner).post(
        URL, {"message": "Create an agent that monitors Jira"}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {
        "action_type", "confidence", "entities", "reasoning", "is_ambiguous",
        "alternative_action", "clarifying_question", "method", "model", "latency_ms",
    }  # fmt: skip
    assert body["action_type"] == "create_agent"
    assert body["entities"].get("source") == "jira"
    from conversations.models import Conversation

    assert not Conversation.objects.for_tenant(world.tenant_a).exists()


def test_the_endpoint_uses_the_conversations_history(world: World) -> None:
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    services.message_add(conversation=conversation, role="user", content="List my agents")
    services.message_add(
        conversation=conversation,
        role="assistant",
        content="1. notion-reporter\n2. jira-overdue-monitor",
        metadata={"listed_agents": ["notion-reporter", "jira-overdue-monitor"]},
    )
    response = world.client(world.owner).post(
        URL, {"message": "run the second one", "conversation_id": conversation.id}, format="json"
    )
    body = response.json()
    assert (body["action_type"], body["entities"].get("agent")) == (
        "execute_task",
        "jira-overdue-monitor",
    )


@pytest.mark.parametrize("intruder", ["member", "outsider"])
def test_another_users_conversation_id_is_a_404_and_never_reaches_a_prompt(
    world: World, intruder: str, llm_server: ScriptedLLMServer
) -> None:
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    services.message_add(
        conversation=conversation, role="user", content="the launch codes are 0000"
    )
    response = world.client(getattr(world, intruder)).post(
        URL, {"message": "what did I say?", "conversation_id": conversation.id}, format="json"
    )
    assert response.status_code == 404
    assert llm_server.call_count == 0


@pytest.mark.parametrize(
    "body", [{}, {"message": ""}, {"message": "   "}, {"message": ["x"]}, {"message": "x" * 20001}]
)
def test_bad_classify_bodies_are_a_400(world: World, body: dict[str, Any]) -> None:
    response = world.client(world.owner).post(URL, body, format="json")
    assert response.status_code == 400
    assert "message" in response.json()


def test_anonymous_classify_is_a_401(world: World) -> None:
    assert world.client(None).post(URL, {"message": "hi"}, format="json").status_code == 401


# --- eval_intents ----------------------------------------------------------------------------


def test_eval_intents_prints_the_contracts_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = StringIO()
    call_command("eval_intents", "--offline", "--json", stdout=out)
    result = json.loads(out.getvalue())
    for key in ("accuracy", "n", "per_class", "confusion", "latency_ms", "method_counts", "cases"):
        assert key in result
    assert set(result["per_class"]) == set(LABELS)
    assert set(result["latency_ms"]) >= {"p50", "p95"}
    assert result["n"] == len(result["cases"]) >= 250
    case = result["cases"][0]
    assert set(case) >= {"id", "expected", "predicted", "correct", "method"}
    assert "/" in capsys.readouterr().err  # the progress bar went to stderr


def test_eval_intents_counts_also_ok_as_correct(tmp_path: Path) -> None:
    dataset = tmp_path / "tiny.jsonl"
    dataset.write_text(
        json.dumps({"id": "a", "message": "list my agents", "expected": "unknown",
                    "also_ok": ["query_info"], "ignored": 1}) + "\n"
        + json.dumps({"id": "b", "message": "list my agents", "expected": "create_skill"}) + "\n"
    )  # fmt: skip
    out = StringIO()
    call_command("eval_intents", "--dataset", str(dataset), "--offline", "--json", stdout=out)
    result = json.loads(out.getvalue())
    assert [c["correct"] for c in result["cases"]] == [True, False]
    assert result["accuracy"] == 0.5


def test_eval_intents_refuses_a_bad_dataset(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x", "message": "hi", "expected": "fly_to_the_moon"}\n')
    with pytest.raises(CommandError, match="unknown expected action"):
        call_command("eval_intents", "--dataset", str(bad), "--offline")
    with pytest.raises(CommandError, match="no dataset"):
        call_command("eval_intents", "--dataset", str(tmp_path / "missing.jsonl"))


def test_eval_intents_prints_a_readable_report_as_a_subprocess() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "eval_intents", "--offline", "--dataset", DEFAULT_DATASET],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("accuracy: ")
    assert "confusion (rows: expected, columns: predicted):" in result.stdout
    assert "p95" in result.stdout
