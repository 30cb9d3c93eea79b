"""The turn's understanding: the LLM tier's extra fields, validated one by one, complete the
offline reading; with no provider, the offline engine gives the same type."""

from __future__ import annotations

import json

import pytest

from conversations.models import Agent
from intents.llm.parsing import parse_llm_output
from intents.reading.acts import Act
from intents.types import ActionType, IntentResult, Method
from intents.understanding import Understanding as understand
from tests.conftest import World
from tests.intents.llm_server import Reply, ScriptedLLMServer, intent_json


def _llm(**extra: object) -> IntentResult:
    return parse_llm_output(json.dumps(intent_json("create_agent", 0.92, **extra)))


@pytest.mark.parametrize(
    ("extra", "understood"),
    [
        ({"dialogue_act": "affirm"}, {"dialogue_act": "affirm"}),
        ({"dialogue_act": "Pick", "pick": 2}, {"dialogue_act": "pick", "pick": 2}),
        ({"dialogue_act": "pick", "pick": True}, {"dialogue_act": "pick"}),  # not a number
        ({"dialogue_act": "pick", "pick": 500}, {"dialogue_act": "pick"}),  # no such item
        ({"dialogue_act": "affirm", "pick": 2}, {"dialogue_act": "affirm"}),  # no pick asked
        ({"dialogue_act": "delete_everything"}, None),  # not an act
        (
            {"dialogue_act": "none", "standalone_action": "query_info"},
            {"standalone_action": "query_info"},
        ),
        ({"standalone_action": "launch_missiles"}, None),
    ],
)
def test_each_extra_field_is_kept_only_when_valid(
    extra: dict[str, object], understood: dict[str, object] | None
) -> None:
    result = _llm(**extra)
    assert result.understood == understood
    assert "understood" not in result.to_dict()  # the contract's object is unchanged


def test_the_llm_act_completes_the_reading_and_takes_nothing_away() -> None:
    offline = understand("that'd be lovely", _llm())
    assert not offline.reading.yes
    told = understand("that'd be lovely", _llm(dialogue_act="affirm"))
    assert told.reading.yes and told.reading.shows(Act.OPENS_WITH_YES)
    picked = understand("the one about invoices", _llm(dialogue_act="pick", pick=3))
    assert picked.reading.pick(5) == 2 and picked.reading.pick(2) is None
    words = understand("yes please", _llm(dialogue_act="deny"))
    assert words.reading.yes and words.reading.no  # both said: the policy weighs them


def test_the_message_alone_comes_from_the_llm_when_it_said_so() -> None:
    llm = understand("btw how do I get an API token?", _llm(standalone_action="query_info"))
    assert llm.alone.action_type == ActionType.QUERY_INFO and llm.alone.method == Method.LLM
    offline = understand(
        "btw how do I get an API token?",
        IntentResult(action_type=ActionType.CREATE_AGENT, confidence=0.6),
    )
    assert offline.alone.method == Method.OFFLINE


@pytest.mark.django_db
def test_a_yes_only_the_llm_understood_takes_the_proposal_up(
    world: World, llm_server: ScriptedLLMServer
) -> None:
    client = world.client(world.owner)
    llm_server.script(
        Reply.intent("create_agent", 0.9),
        Reply.intent("create_agent", 0.9, dialogue_act="affirm"),
    )
    first = client.post(
        "/api/v1/chat/",
        {"message": "Every Friday I copy our Stripe payouts into the finance sheet by hand."},
        format="json",
    ).json()
    assert "Shall I set it up?" in first["assistant_message"]["content"]
    second = client.post(
        "/api/v1/chat/",
        {"message": "that'd be lovely", "conversation_id": first["conversation_id"]},
        format="json",
    ).json()
    assert second["intent"]["method"] == "llm"
    assert "won't set that up" not in second["assistant_message"]["content"]
    assert second["assistant_message"]["content"].startswith("Done! I've created")
    (agent,) = Agent.objects.for_tenant(world.tenant_a)
    assert "lovely" not in str(agent.config)  # the yes is no detail of the agent


@pytest.mark.django_db
def test_the_turns_own_message_is_read_with_what_the_llm_understood(world: World) -> None:
    from conversations.assistant.outcome import Turn

    turn = Turn(
        tenant=world.tenant_a,
        user=world.owner,
        role="member",
        conversation_id="01C",
        message="that'd be lovely",
        message_id="01M",
        intent=_llm(dialogue_act="affirm"),
        agents=(),
    )
    assert turn.reading_of("that'd be lovely") is turn.reading
    assert turn.reading_of("that'd be lovely").yes  # the LLM's yes, kept
    assert not turn.reading_of("a pending request, read on its own").yes


@pytest.mark.parametrize(
    ("fields", "understood"),
    [
        ({"schedule": "every weekday at 8am", "Destination": "#ops"},
         {"schedule": "every weekday at 8am", "destination": "#ops"}),
        ({"schedule": 8, "owner": "ana", "name": ["a", "b"]}, None),  # no string, no such field
        ("every weekday", None),  # not an object
    ],
)  # fmt: skip
def test_the_wizard_fields_are_kept_only_when_known_and_written(
    fields: object, understood: dict[str, str] | None
) -> None:
    result = _llm(fields=fields)
    assert (result.understood or {}).get("fields") == understood


def test_each_field_the_llm_read_is_read_again_the_offline_way() -> None:
    from intents.reading.told import details_told

    told = details_told(
        {
            "source": "Jira",
            "schedule": "every weekday at 8am",
            "timezone": "Europe/Berlin",
            "destination": "#platform-crew",
            "name": "Crash Brief",
            "trigger": "blocked tickets",
        }
    )
    assert told == {
        "source": "jira",
        "frequency": "weekdays 08:00",
        "zone": "Europe/Berlin",
        "destination": "Slack #platform-crew",
        "name": "crash-brief",
        "title": "Crash Brief",
        "trigger": "blocked tickets",
    }
    # What cannot be read in the wizard's form is no field at all.
    assert details_told({"schedule": "whenever", "timezone": "Mars/Olympus", "source": "?"}) == {}


_OPEN = "create an agent that watches Jira for blocked tickets"
_ANSWER = "post them in the platform-crew room, weekday mornings at eight, Berlin hours"


@pytest.mark.django_db
def test_the_llm_fills_the_wizards_open_fields(world: World, llm_server: ScriptedLLMServer) -> None:
    client = world.client(world.owner)
    llm_server.script(
        Reply.intent("create_agent", 0.95, entities={"source": "jira"}),
        Reply.intent(
            "create_agent",
            0.9,
            fields={
                "destination": "#platform-crew",
                "schedule": "every weekday at 08:00",
                "timezone": "Europe/Berlin",
            },
        ),
    )
    first = client.post("/api/v1/chat/", {"message": _OPEN}, format="json").json()
    client.post(
        "/api/v1/chat/",
        {"message": _ANSWER, "conversation_id": first["conversation_id"]},
        format="json",
    )
    (agent,) = Agent.objects.for_tenant(world.tenant_a)
    assert agent.config["destination"] == "Slack #platform-crew"
    assert agent.config["schedule"] == "Every weekday at 08:00 (Europe/Berlin)"


@pytest.mark.django_db
def test_offline_the_same_answer_is_read_by_the_detail_reader_alone(world: World) -> None:
    client = world.client(world.owner)
    first = client.post("/api/v1/chat/", {"message": _OPEN}, format="json").json()
    client.post(
        "/api/v1/chat/",
        {"message": _ANSWER, "conversation_id": first["conversation_id"]},
        format="json",
    )
    agents = list(Agent.objects.for_tenant(world.tenant_a))
    # What the LLM test above gets from the fields is not what these words give offline.
    assert not agents or agents[0].config.get("schedule") != (
        "Every weekday at 08:00 (Europe/Berlin)"
    )
