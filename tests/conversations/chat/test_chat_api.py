"""POST /api/v1/chat/: the spec's journeys, streaming, isolation, ordering, degraded storage."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient

from conversations.models import Agent, AgentRun, Conversation, Message
from conversations.store import services
from conversations.tenancy.services import token_issue
from tests.conftest import World
from tests.intents.llm_server import Reply, ScriptedLLMServer

URL = "/api/v1/chat/"
DEMO_AGENTS = (
    ("notion-reporter", "Weekly Notion project summaries"),
    ("jira-overdue-monitor", "Daily overdue ticket alerts"),
    ("financial-analyzer", "Monthly financial analysis"),
)


@pytest.fixture
def agents(world: World) -> list[Agent]:
    return [
        Agent.objects.create(tenant=world.tenant_a, name=name, description=description)
        for name, description in DEMO_AGENTS
    ]


class Chat:
    """A user chatting through POST chat/, one conversation at a time."""

    def __init__(self, world: World, user: Any) -> None:
        self.client = world.client(user)
        self.conversation_id: str | None = None

    def say(self, message: str, **extra: Any) -> dict[str, Any]:
        body = {"message": message, **extra}
        if self.conversation_id and "conversation_id" not in extra:
            body["conversation_id"] = self.conversation_id
        response = self.client.post(URL, body, format="json")
        assert response.status_code == 200, response.content
        data = response.json()
        self.conversation_id = data["conversation_id"]
        return data

    def reply(self, message: str, **extra: Any) -> str:
        return str(self.say(message, **extra)["assistant_message"]["content"])


def stored(conversation_id: str) -> list[Message]:
    conversation = Conversation.objects.cross_tenant().get(id=conversation_id)  # cross-tenant: test
    return list(conversation.messages.order_by("seq"))


# --- One turn ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_turn_answers_and_stores_both_messages_with_the_intent(world: World, agents: Any) -> None:
    data = Chat(world, world.owner).say("List my agents")

    assert set(data) == {"conversation_id", "user_message", "assistant_message", "intent"}
    assert data["intent"]["action_type"] == "query_info"
    assert data["intent"]["method"] == "offline"
    assistant = data["assistant_message"]
    assert set(assistant) == {"id", "conversation_id", "role", "content", "created_at", "metadata"}
    assert assistant["content"].startswith("Here are your agents:\n1. financial-analyzer")
    rows = stored(data["conversation_id"])
    assert [(m.seq, m.role) for m in rows] == [(1, "user"), (2, "assistant")]
    assert rows[0].id == data["user_message"]["id"] and rows[0].content == "List my agents"
    assert rows[1].metadata["intent"] == data["intent"]
    assert rows[1].metadata["listed_agents"] == [
        "financial-analyzer",
        "jira-overdue-monitor",
        "notion-reporter",
    ]
    assert rows[1].metadata["reply_to"] == rows[0].id
    conversation = Conversation.objects.for_tenant(world.tenant_a).get(id=data["conversation_id"])
    assert conversation.title == "List my agents" and conversation.user == world.owner


@pytest.mark.django_db(transaction=True)
async def test_the_turn_streams_server_sent_events(world: World, agents: Any) -> None:
    token = await sync_to_async(token_issue)(user=world.owner)
    response = await AsyncClient().post(
        URL, {"message": "list my agents"}, content_type="application/json",
        headers={"Authorization": f"Token {token}", "Accept": "text/event-stream"},
    )  # fmt: skip
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    raw = b"".join([part async for part in response.streaming_content]).decode()
    events = [
        (block.split("\n")[0].removeprefix("event: "), json.loads(block.split("\n")[1][6:]))
        for block in raw.strip().split("\n\n")
    ]
    kinds = [kind for kind, _ in events]
    assert kinds[0] == "intent" and kinds[-1] == "done"
    assert set(kinds[1:-1]) == {"chunk"}
    assert events[0][1]["action_type"] == "query_info"
    done = events[-1][1]
    assert set(done) == {"conversation_id", "user_message_id", "assistant_message_id"}
    rows = await sync_to_async(stored)(done["conversation_id"])
    # The ORM ran on asgiref's shared sync thread: close its connection, or it outlives the test.
    await sync_to_async(connections.close_all)()
    assert [m.id for m in rows] == [done["user_message_id"], done["assistant_message_id"]]
    assert "".join(data["content"] for kind, data in events if kind == "chunk") == rows[1].content


@pytest.mark.django_db(transaction=True)
async def test_a_client_that_goes_away_mid_stream_finds_the_whole_reply_stored(
    world: World, agents: Any
) -> None:
    token = await sync_to_async(token_issue)(user=world.owner)
    response = await AsyncClient().post(
        URL, {"message": "what can you do?"}, content_type="application/json",
        headers={"Authorization": f"Token {token}", "Accept": "text/event-stream"},
    )  # fmt: skip
    stream = response.streaming_content
    received = [await anext(stream), await anext(stream)]  # the intent and the first chunk
    await stream.aclose()  # the client disconnects
    del stream, response
    first_chunk = json.loads(received[1].decode().split("data: ", 1)[1])["content"]

    conversation = await sync_to_async(
        lambda: Conversation.objects.for_tenant(world.tenant_a).get()
    )()
    for _ in range(50):  # the turn runs on in its own task
        await asyncio.sleep(0.05)
        rows = await sync_to_async(stored)(conversation.id)
        if len(rows) == 2:
            break
    await sync_to_async(conversation.refresh_from_db)()
    await sync_to_async(connections.close_all)()
    assert [m.role for m in rows] == ["user", "assistant"]
    assert rows[1].content.startswith(first_chunk)
    assert len(rows[1].content) > len(first_chunk)
    assert "interrupted" not in rows[1].metadata
    assert conversation.turn_owner == ""  # the turn lease was released


# --- What the client accepts ------------------------------------------------------------------

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def stored_rows() -> tuple[int, int]:
    # cross-tenant: the test counts every row stored anywhere.
    return Conversation.objects.cross_tenant().count(), Message.objects.cross_tenant().count()


@pytest.mark.django_db
@pytest.mark.parametrize("accept", ["application/xml", "text/html", "image/png, application/*+xml"])
def test_a_turn_asking_for_what_chat_cannot_answer_is_a_406_and_stores_nothing(
    world: World, agents: Any, accept: str
) -> None:
    chat = Chat(world, world.owner)
    chat.say("hello")  # an open conversation the refused turns could have been stored in
    before = stored_rows()
    for extra in ({}, {"conversation_id": chat.conversation_id}):
        body = {"message": "list my agents", **extra}
        response = chat.client.post(URL, body, format="json", HTTP_ACCEPT=accept)
        assert response.status_code == 406, response.content
        assert response["Content-Type"] == "application/json"
        assert response.json() == {"detail": "Could not satisfy the request Accept header."}
    assert stored_rows() == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("accept", "answer"),
    [
        (None, "application/json"),
        ("application/json", "application/json"),
        ("application/json; charset=utf-8", "application/json"),
        ("application/*", "application/json"),
        ("*/*", "application/json"),
        (BROWSER_ACCEPT, "application/json"),
        ("text/event-stream", "text/event-stream"),
        ("text/*", "text/event-stream"),
        ("text/event-stream, */*", "text/event-stream"),
    ],
)
async def test_a_turn_answers_json_or_the_stream_as_drf_negotiates_the_accept_header(
    world: World, agents: Any, accept: str | None, answer: str
) -> None:
    token = await sync_to_async(token_issue)(user=world.owner)
    headers = {"Authorization": f"Token {token}", **({"Accept": accept} if accept else {})}
    response = await AsyncClient().post(
        URL, {"message": "list my agents"}, content_type="application/json", headers=headers
    )
    assert response.status_code == 200
    assert response["Content-Type"] == answer
    if answer == "text/event-stream":
        raw = b"".join([part async for part in response.streaming_content]).decode()
        assert raw.startswith("event: intent") and "event: done" in raw
    else:
        assert response.json()["intent"]["action_type"] == "query_info"
    for _ in range(50):  # a streamed turn stores its reply as the stream ends
        if (await sync_to_async(stored_rows)())[1] == 2:
            break
        await asyncio.sleep(0.05)
    rows = await sync_to_async(stored_rows)()
    await sync_to_async(connections.close_all)()
    assert rows == (1, 2)


# --- The five journeys, offline tier ----------------------------------------------------------


@pytest.mark.django_db
def test_journey_1_a_described_problem_starts_an_agent(world: World, agents: Any) -> None:
    chat = Chat(world, world.owner)
    data = chat.say(
        "Our team wastes hours every Monday compiling project updates from Notion. "
        "Can the platform help with that?"
    )
    assert data["intent"]["action_type"] == "create_agent"
    assert data["intent"]["entities"]["source"] == "notion"
    reply = data["assistant_message"]["content"]
    # Not asked for in so many words: proposed, named back, and waiting for a yes.
    assert reply.startswith("That sounds like a job for an agent. I can set up an agent that ")
    assert "- Source: Notion" in reply and "every Monday" in reply
    assert reply.endswith("Shall I set it up?")
    assert not Agent.objects.for_tenant(world.tenant_a).exclude(id__in=[a.id for a in agents])


@pytest.mark.django_db
def test_journey_2_the_wizard_gathers_answers_across_turns_and_creates_the_agent(
    world: World,
) -> None:
    chat = Chat(world, world.owner)
    first = chat.reply("Create an agent that monitors our Jira board for overdue tickets")
    assert first.startswith("I'll create a new agent that watches Jira for overdue tickets.")
    assert "How often should it run" in first  # asks only for what is missing
    second = chat.reply("The PLATFORM project, past due date, and Slack alerts to #platform")
    assert "sends an alert to Slack #platform" in second
    assert "How often should it run" in second
    done = chat.reply("Every morning at 9am Berlin time")

    agent = Agent.objects.for_tenant(world.tenant_a).get()
    assert done.startswith(f"Done! I've created {agent.name}, an agent that watches Jira")
    for detail in (agent.name, "Jira", "overdue tickets", "#platform", "Europe/Berlin"):
        assert detail in done
    assert agent.config["source"] == "jira"
    assert agent.config["schedule"] == "Every day at 09:00 (Europe/Berlin)"
    assert agent.config["destination"] == "Slack #platform"
    assert "wizard" not in Conversation.objects.for_tenant(world.tenant_a).get().metadata


@pytest.mark.django_db
def test_the_wizard_takes_corrections_in_any_order_and_can_be_cancelled(world: World) -> None:
    chat = Chat(world, world.owner)
    chat.reply("Set up an automation that posts a daily digest of new HubSpot deals")
    corrected = chat.reply("actually make it weekly on mondays at 8am")
    assert "every Monday at 08:00 (UTC)" in corrected  # the correction completed it
    cancelled = chat.reply("cancel")
    assert "I've undone that" in cancelled
    assert not Agent.objects.for_tenant(world.tenant_a).exists()


@pytest.mark.django_db
def test_journey_3_where_were_we_recaps_and_repeats_the_open_question(world: World) -> None:
    chat = Chat(world, world.owner)
    chat.reply("I want to create an agent for weekly financial reports")
    asked = chat.reply("Google Sheets")
    question = asked.strip().splitlines()[-1]
    # A new device: another client, the same conversation id.
    again = Chat(world, world.owner)
    again.conversation_id = chat.conversation_id
    recap = again.reply("Sorry, I had to step away. Where were we?")
    assert "- Source: Google Sheets" in recap
    assert "- For: weekly financial reports" in recap
    assert recap.strip().endswith(question)


@pytest.mark.django_db
def test_journey_4_run_the_first_one_and_the_same_as_last_time(
    world: World, agents: list[Agent]
) -> None:
    chat = Chat(world, world.owner)
    chat.reply("List my agents")
    ran = chat.say("Run the first one")
    assert ran["assistant_message"]["content"].startswith("financial-analyzer can't run yet")
    chat.reply("what can you do?")
    again = chat.reply("run the same thing as last time")
    assert again.startswith("financial-analyzer can't run yet")
    runs = list(AgentRun.objects.for_tenant(world.tenant_a).order_by("requested_at"))
    assert [r.agent.name for r in runs] == ["financial-analyzer", "financial-analyzer"]
    assert runs[0].status == "queued" and runs[0].requested_by == world.owner
    assert runs[0].message_id == ran["user_message"]["id"]


@pytest.mark.django_db
def test_journey_5_an_unclear_task_gets_numbered_options_and_a_number_picks_one(
    world: World, agents: Any
) -> None:
    chat = Chat(world, world.owner)
    data = chat.say(
        "I need to analyze our customer churn data and put together a presentation for the "
        "board meeting next week"
    )
    reply = data["assistant_message"]["content"]
    options = data["assistant_message"]["metadata"]["options"]
    assert "1. Run financial-analyzer anyway" in reply
    assert "2. Create a new agent" in reply
    assert [o["n"] for o in options] == list(range(1, len(options) + 1))
    picked = chat.reply("2")
    assert picked.startswith("I'll create a new agent that analyzes our customer churn data")
    assert "once, right away" in picked  # a one-off job is not asked for a schedule
    assert "How often" not in picked


@pytest.mark.django_db
def test_update_agent_resolves_it_and_answers_before_and_after(
    world: World, agents: list[Agent]
) -> None:
    chat = Chat(world, world.owner)
    chat.reply("tell me about notion-reporter")
    reply = chat.reply("make it daily at 8am instead")
    assert reply == "Updated notion-reporter:\n- Schedule: not set → Every day at 08:00 (UTC)"
    assert Agent.objects.for_tenant(world.tenant_a).get(name="notion-reporter").config == {
        "schedule": "Every day at 08:00 (UTC)"
    }


@pytest.mark.django_db
def test_the_intent_label_is_never_a_permission(world: World) -> None:
    member = Chat(world, world.member).reply("give bob admin rights on our workspace")
    admin = Chat(world, world.admin_a).reply("give bob admin rights on our workspace")
    assert "Your role is member" in member
    assert "as a tenant admin" in admin
    # What was asked is named back as values (the role), never as the sentence quoted.
    assert "Changing someone's role (as an admin)" in member
    assert "give bob" not in member and "give bob" not in admin
    assert not world.member.is_staff


@pytest.mark.django_db
def test_create_skill_opens_a_skill_session_keyed_by_the_conversation(world: World) -> None:
    chat = Chat(world, world.owner)
    data = chat.say("create a skill that extracts line items from invoices")
    assert data["intent"]["action_type"] == "create_skill"
    reply = data["assistant_message"]["content"]
    assert reply.startswith("Let's build that skill.")
    assert "- Does: extracts line items from invoices" in reply
    conversation = Conversation.objects.for_tenant(world.tenant_a).get()
    session_id = conversation.assistant_state["skill_session"]
    assert data["assistant_message"]["metadata"]["skill_session"] == session_id


# --- The journeys on the LLM tier, through a local OpenAI-compatible server -------------------


@pytest.mark.django_db
def test_journeys_on_the_llm_tier(world: World, agents: Any, llm_server: ScriptedLLMServer) -> None:
    chat = Chat(world, world.owner)
    llm_server.script(Reply.intent("create_agent", 0.88, entities={"source": "notion"}))
    first = chat.say("Our weekly reports are always late, can you help?")
    assert first["intent"]["method"] == "llm"
    assert "- Source: Notion" in first["assistant_message"]["content"]
    llm_server.script(Reply.intent("unknown", 0.9))
    assert "won't set that up" in chat.reply("never mind, cancel that")

    llm_server.script(Reply.intent("query_info", 0.95))
    chat.reply("What agents do I have?")
    llm_server.script(Reply.intent("execute_task", 0.9, entities={"agent": "the second one"}))
    assert chat.reply("Run the second one").startswith("jira-overdue-monitor can't run yet")
    # The classifier saw the numbered list of the previous turn.
    assert "jira-overdue-monitor" in llm_server.chat_requests[-1].prompt_text

    llm_server.script(
        Reply.intent(
            "execute_task", 0.72, is_ambiguous=True, alternative_action="create_agent",
            entities={"data": "customer churn"},
        )
    )  # fmt: skip
    unsure = chat.say("I need to analyze churn and build a board presentation")
    assert [o["action_type"] for o in unsure["assistant_message"]["metadata"]["options"]][:2] == [
        "execute_task",
        "create_agent",
    ]
    llm_server.script(Reply.intent("unknown", 0.5))
    assert chat.reply("the second option").startswith(
        "I'll create a new agent that analyzes churn and builds a board presentation"
    )


# --- Isolation and bad input ------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("intruder", ["member", "outsider"])
def test_another_users_conversation_is_a_404_and_nothing_is_stored(
    world: World, intruder: str
) -> None:
    owner = Chat(world, world.owner)
    owner.say("hello there")
    response = world.client(getattr(world, intruder)).post(
        URL, {"message": "what did they say?", "conversation_id": owner.conversation_id},
        format="json",
    )  # fmt: skip
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}
    assert len(stored(owner.conversation_id or "")) == 2


@pytest.mark.django_db
def test_anonymous_chat_is_a_401(world: World) -> None:
    response = world.client(None).post(URL, {"message": "hi"}, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "message"),
        ({"message": ""}, "message"),
        ({"message": "   "}, "message"),
        ({"message": ["list"]}, "message"),
        ({"message": "x" * 16001}, "message"),
        ({"message": "hi", "conversation_id": 12}, "conversation_id"),
        ({"message": "hi", "surprise": True}, "surprise"),
    ],
)
def test_bad_chat_bodies_are_a_400_and_store_nothing(
    world: World, body: dict[str, Any], field: str
) -> None:
    response = world.client(world.owner).post(URL, body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert not Conversation.objects.for_tenant(world.tenant_a).exists()


@pytest.mark.django_db
def test_a_body_that_is_not_json_and_a_get_are_refused(world: World) -> None:
    client = world.client(world.owner)
    assert client.generic("POST", URL, "{nope", content_type="application/json").status_code == 400
    assert client.get(URL).status_code == 405
    assert not Conversation.objects.for_tenant(world.tenant_a).exists()


@pytest.mark.django_db
def test_a_resent_client_message_id_is_answered_from_storage(world: World, agents: Any) -> None:
    chat = Chat(world, world.owner)
    first = chat.say("list my agents", client_message_id="tab-1-msg-1")
    again = chat.say("list my agents", client_message_id="tab-1-msg-1")
    assert again["user_message"]["id"] == first["user_message"]["id"]
    assert again["assistant_message"]["id"] == first["assistant_message"]["id"]
    assert len(stored(first["conversation_id"])) == 2


# --- Ordering and storage failures ------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_senders_at_once_get_whole_turns_in_order(world: World, agents: Any) -> None:
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def send(text: str) -> None:
        try:
            chat = Chat(world, world.owner)
            chat.conversation_id = conversation.id
            barrier.wait()
            for _ in range(3):
                chat.say(text)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=send, args=(t,)) for t in ("list my agents", "what can you do?")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    rows = stored(conversation.id)
    assert [m.seq for m in rows] == list(range(1, 13))
    # Each reply directly follows the message it answers: turns never interleave.
    for user, assistant in zip(rows[::2], rows[1::2], strict=True):
        assert (user.role, assistant.role) == ("user", "assistant")
        assert assistant.metadata["reply_to"] == user.id
    lists = [m for m in rows if m.content == "list my agents"]
    helps = [m for m in rows if m.content == "what can you do?"]
    assert len(lists) == len(helps) == 3


@pytest.mark.django_db
def test_the_openapi_document_describes_the_chat_turn(world: World) -> None:
    response = world.client(None).get("/api/schema/", HTTP_ACCEPT="application/json")
    operation = response.json()["paths"]["/api/v1/chat/"]["post"]
    assert set(operation["responses"]["200"]["content"]) == {
        "application/json",
        "text/event-stream",
    }
    assert operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "ChatMessageRequest"
    )
    refused = operation["responses"]["406"]["content"]["application/json"]["schema"]
    assert refused == {"$ref": "#/components/schemas/Error"}
