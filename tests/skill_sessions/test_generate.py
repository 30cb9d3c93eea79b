"""The skill's definition through the LLM tier (a scripted OpenAI-compatible server on
127.0.0.1, fake key), and what happens when that fails."""

from __future__ import annotations

import json
from typing import Any

import pytest

from skill_sessions.models import Skill, SkillCreationSession
from tests.conftest import World
from tests.intents.llm_server import Reply, ScriptedLLMServer

pytestmark = pytest.mark.django_db
URL = "/api/v1/skill-sessions/"


def confirming(world: World) -> tuple[Any, str]:
    client = world.client(world.owner)
    sid = client.post(URL, {"message": "Create a skill that turns messy dates into ISO 8601"},
                      format="json").json()["session_id"]  # fmt: skip
    for message in (
        "free text like 3rd of March",
        "input: 3rd of March 2024 -> output: 2024-03-03",
    ):
        assert client.post(f"{URL}{sid}/messages/", {"message": message},
                           format="json").status_code == 200  # fmt: skip
    return client, sid


def test_the_definition_is_written_by_the_llm_when_one_is_configured(
    world: World, llm_server: ScriptedLLMServer
) -> None:
    client, sid = confirming(world)
    llm_server.script(
        Reply.text(json.dumps({
            "instructions": "Read the date in any common format and return it as YYYY-MM-DD.",
            "inputs": [{"name": "text", "description": "a date as people write it"}],
            "outputs": [{"name": "iso_date", "description": "the date in ISO 8601"}],
        }))
    )  # fmt: skip
    done = client.post(f"{URL}{sid}/messages/", {"message": "yes"}, format="json").json()
    assert done["status"] == "completed"
    skill = Skill.objects.for_tenant(world.tenant_a).get()
    assert skill.definition["generated_by"] == "llm"
    assert skill.definition["instructions"].startswith("Read the date in any common format")
    assert skill.definition["outputs"] == [{"name": "iso_date",
                                            "description": "the date in ISO 8601"}]  # fmt: skip
    assert skill.definition["examples"] == ["3rd of March 2024 → 2024-03-03"]  # the user's
    (request,) = llm_server.chat_requests
    assert "turns messy dates into ISO 8601" in request.prompt_text
    assert "sk-test-not-a-real-key" not in request.prompt_text


def test_a_failed_generation_keeps_everything_and_a_retry_finishes_the_skill(
    world: World, llm_server: ScriptedLLMServer
) -> None:
    client, sid = confirming(world)
    llm_server.script(Reply.error(400, "bad request"), Reply.text("not json at all"))
    failed = client.post(f"{URL}{sid}/messages/", {"message": "yes"}, format="json").json()
    assert (failed["state"], failed["status"]) == ("error", "error")
    assert "Everything you told me is kept" in failed["reply"]
    detail = client.get(f"{URL}{sid}/").json()
    assert "Takes: free text like 3rd of March" in detail["gathered"]
    assert not Skill.objects.for_tenant(world.tenant_a).exists()
    # The retry fails again (unparseable): the template is used rather than failing twice.
    done = client.post(f"{URL}{sid}/messages/", {"message": "try again"}, format="json").json()
    assert (done["state"], done["status"]) == ("completed", "completed")
    skill = Skill.objects.for_tenant(world.tenant_a).get()
    assert "generated_by" not in skill.definition
    row = SkillCreationSession.objects.for_tenant(world.tenant_a).get()
    assert row.status == "completed"
