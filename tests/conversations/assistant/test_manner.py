"""How the user does a chore today ("by hand", "manually") is not what the agent does."""

from __future__ import annotations

import pytest

from conversations.models import Agent
from intents.reading.said import without_manner
from tests.conftest import World
from tests.conversations.assistant.chatting import replies


@pytest.mark.parametrize(
    ("phrase", "kept"),
    [
        ("copy the payouts into a sheet by hand", "copy the payouts into a sheet"),
        ("manually export the deals, by hand", "export the deals"),
        ("copio a mano los pagos", "copio los pagos"),
        ("recopie à la main les factures", "recopie les factures"),
        ("a manometer reading", "a manometer reading"),  # a word that only starts like one
        ("shorthand notes", "shorthand notes"),
    ],
)  # fmt: skip
def test_the_manner_leaves_the_phrase(phrase: str, kept: str) -> None:
    assert without_manner(phrase) == kept


@pytest.mark.django_db
def test_an_agent_taking_over_a_chore_done_by_hand_does_not_do_it_by_hand(world: World) -> None:
    proposal, which, created = replies(
        world,
        "Every Friday I copy our Stripe payouts into a spreadsheet by hand. "
        "Could you take that off my plate?",
        "sure, do it",
        "the Finance Payouts sheet",
    )
    assert "copies our Stripe payouts into a spreadsheet every Friday" in proposal
    assert "by hand" not in proposal + which + created
    (agent,) = Agent.objects.for_tenant(world.tenant_a)
    assert "by hand" not in str(agent.config) + agent.description
