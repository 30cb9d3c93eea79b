"""Names the assistant makes up are made of the product's words, never of what a user typed:
names are stored plain, so with encryption keys set a word of the request is in no column."""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.fernet import Fernet

from conversations.models import Agent
from intents.reading.names import generated_name, name_objects
from tests.conftest import World, columns_holding
from tests.conversations.assistant.chatting import replies

pytestmark = pytest.mark.django_db
WORD = "zqxvplorf"  # made up: in no vocabulary


def test_an_agent_the_wizard_names_keeps_no_typed_word_in_any_column(
    world: World, settings: Any
) -> None:
    settings.OMNIFORGE_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    said = replies(
        world,
        f"Create an agent that watches Jira for {WORD} tickets",
        "every day at 9am to #ops",
    )
    assert columns_holding(WORD) == []
    agent = Agent.objects.for_tenant(world.tenant_a).get()
    assert WORD in agent.config["trigger"]  # taken in, and kept encrypted
    assert agent.name == "jira-tickets-monitor"  # still says what it is
    assert said[-1].startswith("Done! I've created jira-tickets-monitor, an agent that")


def test_a_name_the_user_chose_is_kept_as_written(world: World, settings: Any) -> None:
    settings.OMNIFORGE_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    replies(
        world,
        f"Create an agent called {WORD}-watch that watches Jira for overdue tickets",
        "every day at 9am to #ops",
    )
    assert Agent.objects.for_tenant(world.tenant_a).get().name == f"{WORD}-watch"
    assert columns_holding(WORD) == ["conversations_agent.name"]


def test_a_tool_the_product_does_not_know_is_left_out_of_a_name() -> None:
    # An LLM's entities may name any source.
    name = generated_name(tool=WORD, objects=["tickets"], role="monitor", fallback="agent")
    assert name == "tickets-monitor"
    assert generated_name(tool="", objects=[WORD], role=WORD, fallback="agent") == "agent"


def test_objects_are_read_in_order_once_and_as_a_name_writes_them() -> None:
    text = f"an overdue pull request, {WORD} invoices, the invoice and an opportunity"
    assert name_objects(text) == ["pull-requests", "invoices", "opportunities"]
    assert name_objects("je préviens l'équipe des paiements échoués") == []
