"""A place named only by its kind ("into a spreadsheet") is where results go, but not which
one: the setup asks which, and the agent puts them there."""

from __future__ import annotations

import pytest

from conversations.models import Agent
from intents.reading.said import place_by_kind
from tests.conftest import World
from tests.conversations.assistant.chatting import replies


@pytest.mark.parametrize(
    ("phrase", "place"),
    [
        ("copy our Stripe payouts into a spreadsheet", "a spreadsheet"),
        ("copying our Trello cards into a Google Sheet for my boss", "a Google Sheet"),
        ("copio los pagos en una hoja de cálculo", "una hoja de cálculo"),
        ("paste them into the Finance sheet", ""),  # named: that one
        ("send it to a slack channel", ""),  # a channel is asked for otherwise
        ("", ""),
    ],
)
def test_a_place_is_read_when_only_its_kind_is_named(phrase: str, place: str) -> None:
    assert place_by_kind(phrase) == place


@pytest.mark.django_db
def test_the_setup_asks_which_spreadsheet_and_puts_the_results_there(world: World) -> None:
    proposal, which, created = replies(
        world,
        "Every Friday I copy our Stripe payouts into a spreadsheet. Could you take that over?",
        "sure, do it",
        "the Finance Payouts sheet",
    )
    assert "Shall I set it up?" in proposal
    assert "Which spreadsheet should it put them in?" in which
    assert "Done!" not in which
    assert "copies our Stripe payouts into the Finance Payouts sheet every Friday" in created
    (agent,) = Agent.objects.for_tenant(world.tenant_a)
    assert agent.config["destination"] == "the Finance Payouts sheet"


@pytest.mark.django_db
def test_a_place_named_at_once_is_not_asked_for(world: World) -> None:
    _, created = replies(
        world,
        "Every Friday I copy our Stripe payouts into the Finance Payouts sheet. Take it over?",
        "sure, do it",
    )
    assert "Which" not in created and created.startswith("Done!")
