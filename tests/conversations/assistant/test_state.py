"""The assistant's state document: round trips, tolerance, versions, the move out of metadata."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from conversations.assistant.state import (
    STATE_VERSION,
    AssistantState,
    Option,
    PendingRequest,
    Wizard,
)
from conversations.models import Conversation
from conversations.store import services
from tests.conftest import World

FULL = AssistantState(
    wizard=Wizard(gathered={"source": "jira", "trigger": "overdue tickets"}, asking=("schedule",)),
    pending=PendingRequest("do the finance thing", {"data": "finance"}),
    options=(Option(1, "execute_task", "Run financial-analyzer now", "financial-analyzer"),),
    listed_agents=("financial-analyzer", "notion-reporter"),
    last_agent="notion-reporter",
    last_agent_run="financial-analyzer",
    declined=Wizard(gathered={"source": "linear", "destination": "#standup"}, proposed=True),
)


def test_a_state_round_trips_through_json() -> None:
    data = FULL.to_json()
    assert data["v"] == STATE_VERSION
    assert AssistantState.from_json(data) == FULL
    assert AssistantState().to_json() == {"v": STATE_VERSION}


@pytest.mark.parametrize(
    "junk",
    [None, [], "text", {"v": STATE_VERSION + 1, "last_agent": "x"}, {"v": "one"}],
)
def test_an_unreadable_or_future_document_is_an_empty_state(junk: object) -> None:
    assert AssistantState.from_json(junk) == AssistantState()


def test_unreadable_parts_are_dropped_and_the_rest_kept() -> None:
    state = AssistantState.from_json(
        {
            "v": 1,
            "wizard": "not an object",
            "options": [{"n": "1"}, {"n": 2, "action_type": "query_info", "label": "Show"}, 7],
            "listed_agents": ["a", 3, "", "b"],
            "last_agent": "  ",
        }
    )
    assert state.wizard is None and state.last_agent is None
    assert state.options == (Option(2, "query_info", "Show"),)
    assert state.listed_agents == ("a", "b")


def test_the_layout_before_versions_is_read() -> None:
    legacy = {"wizard": {"kind": "create_agent", "gathered": {"source": "notion"}, "asking": []}}
    state = AssistantState.from_json(legacy)
    assert state.wizard == Wizard(gathered={"source": "notion"})


@pytest.mark.django_db
def test_the_migration_moves_state_out_of_the_clients_metadata(world: World) -> None:
    migration = importlib.import_module("conversations.migrations.0003_assistant_state")
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    Conversation.objects.for_tenant(world.tenant_a).filter(id=conversation.id).update(
        metadata={"pinned": True, "wizard": {"kind": "create_agent", "gathered": {}, "asking": []},
                  "last_agent": "notion-reporter"},
    )  # fmt: skip
    untouched = services.conversation_create(
        tenant=world.tenant_a, user=world.owner, metadata={"colour": "blue"}
    )

    migration.move_state_out_of_metadata(apps, None)

    moved = Conversation.objects.for_tenant(world.tenant_a).get(id=conversation.id)
    assert moved.metadata == {"pinned": True}
    state = AssistantState.from_json(moved.assistant_state)
    assert state.wizard == Wizard() and state.last_agent == "notion-reporter"
    kept = Conversation.objects.for_tenant(world.tenant_a).get(id=untouched.id)
    assert kept.metadata == {"colour": "blue"} and kept.assistant_state == {}
