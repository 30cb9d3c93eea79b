"""Which agent a message means, through POST chat/: nicknames and slips find the agent, and
the words of a described task do not stand for an agent whose name shares one."""

from __future__ import annotations

import pytest

from conversations.models import Agent, AgentRun
from intents.reading.reading import read
from intents.reading.referent import InView, referent
from tests.conftest import World

pytestmark = pytest.mark.django_db
URL = "/api/v1/chat/"


@pytest.fixture
def two_agents(world: World) -> list[Agent]:
    return [
        Agent.objects.create(tenant=world.tenant_a, name=name, description=description)
        for name, description in (
            ("refund-alert", "Alerts on refunds over 500 EUR"),
            ("lead-digest", "Daily digest of new leads"),
        )
    ]


def _say(world: World, message: str) -> str:
    response = world.client(world.owner).post(URL, {"message": message}, format="json")
    assert response.status_code == 200, response.content
    return str(response.json()["assistant_message"]["content"])


def test_a_nickname_with_a_reason_pauses_that_agent(world: World, two_agents: list[Agent]) -> None:
    reply = _say(world, "pause the refund one, we're changing payment providers")
    assert reply.startswith("Paused refund-alert")
    paused = {a.name: a.paused for a in Agent.objects.for_tenant(world.tenant_a)}
    assert paused == {"refund-alert": True, "lead-digest": False}


def test_a_nickname_typed_in_a_hurry_runs_that_agent(world: World, two_agents: list[Agent]) -> None:
    reply = _say(world, "run teh lead one plz")
    assert reply.startswith("lead-digest can't run yet")
    runs = AgentRun.objects.for_tenant(world.tenant_a)
    assert [run.agent.name for run in runs] == ["lead-digest"]


@pytest.mark.parametrize(
    ("message", "meant"),
    [
        ("pause the refund one", "refund-alert"),
        ("run the refnud bot", "refund-alert"),  # two letters swapped
        ("run it", "lead-digest"),  # the agent just talked about
        ("now the other one", "refund-alert"),  # of the two, the one not run last
        ("run lead-digest", "lead-digest"),
        ("analyze our refund data for the board", None),  # a task's word, not a name
        ("run the digest one", None),  # a word every digest shares names none
    ],
)
def test_the_referent_of_a_message(message: str, meant: str | None) -> None:
    in_view = InView(
        agents=["refund-alert", "lead-digest"], last_agent="lead-digest", last_run="lead-digest"
    )
    assert referent(read(message), in_view) == meant
