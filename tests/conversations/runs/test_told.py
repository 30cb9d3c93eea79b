"""What the user is told: the reply to "run it", the outcome in the conversation, on the socket."""

from __future__ import annotations

import statistics
import time
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.utils import timezone

from config.asgi import application
from conversations.agents.services import agent_create
from conversations.models import AgentRun, Conversation, Membership, Message
from conversations.runs.services import RunEvent, run_event_apply, run_request, runs_time_out
from conversations.tenancy.services import token_issue
from tests.conftest import World
from tests.conversations.chat.test_chat_api import Chat
from tests.conversations.runs.conftest import Connected, mint_credentials
from tests.runtime_server import Outcome, runtime_server


def _messages(conversation_id: str) -> list[Message]:
    conversation = Conversation.objects.cross_tenant().get(id=conversation_id)  # cross-tenant: test
    return list(conversation.messages.order_by("seq"))


def _wait_for(predicate: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := predicate()):
        assert time.monotonic() < deadline, "the state never came"
        time.sleep(0.05)
    return found


def test_a_run_asked_for_in_the_chat_is_told_there_when_it_finishes(connected: Connected) -> None:
    connected.runtime.default = Outcome.succeed("12 pages summarized")
    chat = Chat(connected.world, connected.world.owner)
    reply = chat.reply("run notion-reporter")
    assert reply.startswith("Running notion-reporter")
    assert "handed it to the agent runtime" in reply
    connected.runtime.wait_for_callbacks(2)
    told = _wait_for(lambda: _messages(str(chat.conversation_id))[2:])
    [outcome] = told
    assert outcome.role == "assistant"
    assert outcome.content == "notion-reporter finished: 12 pages summarized"
    run = AgentRun.objects.for_tenant(connected.world.tenant_a).get()
    assert outcome.metadata["run_id"] == run.id and outcome.metadata["run_status"] == "succeeded"
    assert run.trigger == "chat" and run.conversation_id == chat.conversation_id
    assert run.told_at is not None


def test_a_failure_of_a_scheduled_run_reaches_its_owner(connected: Connected) -> None:
    connected.runtime.default = Outcome.fail("the Notion token expired")
    schedule = {"rrule": "FREQ=MINUTELY", "timezone": "UTC"}
    agent = connected.agent
    this_minute = timezone.now().replace(second=0, microsecond=0)  # a slot of the rule
    agent.schedule, agent.next_run_at = schedule, this_minute
    agent.save(update_fields=["schedule", "next_run_at"])
    from conversations.runs.tasks import runs_tick_once

    assert runs_tick_once()["enqueued"] == 1
    connected.runtime.wait_for_callbacks(2)
    owner = connected.world.owner
    membership = Membership.objects.cross_tenant().get(user=owner)  # cross-tenant: test
    runs_conversation = _wait_for(
        lambda: (
            Conversation.objects.cross_tenant()  # cross-tenant: test
            .filter(
                user=owner,
                id=Membership.objects.cross_tenant().get(user=owner).runs_conversation_id,
            )
            .first()
        )
    )
    assert runs_conversation.title == "Agent runs"
    [told] = _wait_for(lambda: _messages(runs_conversation.id))
    assert told.content == "notion-reporter failed: the Notion token expired"
    assert membership.user_id == owner.pk
    listed = connected.world.client(owner).get("/api/v1/conversations/").json()["results"]
    assert runs_conversation.id in [c["id"] for c in listed]


def test_without_a_runtime_the_chat_says_so_and_the_run_waits_for_one(
    world: World, live_server: Any, settings: Any, fast_dispatch: None
) -> None:
    settings.OMNIFORGE_PUBLIC_URL = live_server.url
    agent_create(tenant=world.tenant_a, name="lead-digest", created_by=world.owner)
    chat = Chat(world, world.owner)
    reply = chat.reply("run lead-digest")
    assert not reply.startswith("Running")
    assert "no agent runtime is connected" in reply
    run = _wait_for(
        lambda: (
            AgentRun.objects.for_tenant(world.tenant_a).filter(status="waiting_for_runtime").first()
        )
    )
    # The operator connects a runtime; new credentials hand the waiting run on.
    with runtime_server() as runtime:
        settings.OMNIFORGE_RUNTIME_URL = runtime.url
        credentials = mint_credentials("acme")
        runtime.secret, runtime.token = credentials["secret"], credentials["token"]
        assert runtime.wait_for_dispatches(1)[0].run_id == run.id
        runtime.wait_for_callbacks(2)
    assert _wait_for(lambda: AgentRun.objects.for_tenant(world.tenant_a).get().final)
    assert _messages(str(chat.conversation_id))[-1].content == "lead-digest finished: done"


@pytest.mark.django_db
def test_a_run_that_never_reports_back_times_out_and_is_told(world: World) -> None:
    agent = agent_create(tenant=world.tenant_a, name="lead-digest", created_by=world.owner)
    chat_conversation = Chat(world, world.owner)
    chat_conversation.reply("hello")
    run = run_request(
        agent=agent, user=world.owner, trigger="chat",
        conversation_id=str(chat_conversation.conversation_id),
    )  # fmt: skip
    past = timezone.now() - timedelta(minutes=1)
    AgentRun.objects.for_tenant(world.tenant_a).filter(id=run.id).update(
        status="dispatched", dispatched_at=past - timedelta(hours=1), deadline_at=past
    )
    assert runs_time_out(now=timezone.now()) == 1
    run.refresh_from_db()
    assert run.status == "timed_out" and run.finished_at is not None
    told = _messages(str(chat_conversation.conversation_id))[-1].content
    assert told.startswith("lead-digest did not report back within 60 minutes")
    assert runs_time_out(now=timezone.now()) == 0  # final stays final


@pytest.mark.django_db(transaction=True)
async def test_the_outcome_reaches_the_open_socket_as_a_message_frame(world: World) -> None:
    def setup() -> tuple[str, AgentRun, str]:
        agent = agent_create(tenant=world.tenant_a, name="lead-digest", created_by=world.owner)
        chat = Chat(world, world.owner)
        chat.reply("hello")
        run = run_request(
            agent=agent, user=world.owner, trigger="chat",
            conversation_id=str(chat.conversation_id),
        )  # fmt: skip
        return str(chat.conversation_id), run, token_issue(user=world.owner)

    conversation_id, run, key = await sync_to_async(setup)()
    socket = WebsocketCommunicator(
        application,
        f"/ws/chat/?conversation_id={conversation_id}",
        headers=[(b"authorization", f"Token {key}".encode()), (b"origin", b"http://testserver")],
    )
    connected, _ = await socket.connect(timeout=5)
    assert connected
    assert (await socket.receive_json_from(timeout=5))["type"] == "ready"
    await sync_to_async(run_event_apply)(
        tenant_id=world.tenant_a.pk, run_id=run.id,
        event=RunEvent(type="succeeded", summary="90 leads scored", event_id="s1"),
    )  # fmt: skip
    frames = []
    while not any(f["type"] == "message" for f in frames):
        frames.append(await socket.receive_json_from(timeout=5))
    frame = next(f for f in frames if f["type"] == "message")
    assert frame["message"]["content"] == "lead-digest finished: 90 leads scored"
    assert frame["message"]["conversation_id"] == conversation_id
    assert frame["message"]["role"] == "assistant"
    await socket.disconnect()
    await sync_to_async(connections.close_all)()


def test_a_runtime_that_hangs_delays_no_other_turn(connected: Connected, settings: Any) -> None:
    settings.OMNIFORGE_RUNTIME_TIMEOUT_S = 10.0
    connected.runtime.default = Outcome.hang(10)
    chat = Chat(connected.world, connected.world.owner)

    def turn_ms() -> float:
        started = time.perf_counter()
        chat.reply("what can you do?")
        return (time.perf_counter() - started) * 1000

    before = statistics.median([turn_ms() for _ in range(5)])
    chat.reply("run notion-reporter")
    connected.runtime.wait_for_dispatches(1)  # the runtime holds the request now
    during = [turn_ms() for _ in range(5)]
    assert max(during) < before + 100, (before, during)
    assert AgentRun.objects.for_tenant(connected.world.tenant_a).get().status == "queued"


@pytest.mark.django_db(transaction=True)
def test_did_it_work_and_why_did_it_fail_are_answered_from_the_run(world: World) -> None:
    agent = agent_create(
        tenant=world.tenant_a, name="lead-digest", created_by=world.owner,
        schedule={"rrule": "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0", "timezone": "UTC"},
        config={"schedule": "Every Monday at 09:00 (UTC)"},
    )  # fmt: skip
    chat = Chat(world, world.owner)
    assert "lead-digest can't run yet" in chat.reply("run lead-digest")
    runs = AgentRun.objects.for_tenant(world.tenant_a)
    _wait_for(lambda: runs.filter(status="waiting_for_runtime").exists())
    assert chat.reply("did it work?") == (
        "lead-digest hasn't run: no agent runtime is connected to this workspace yet."
    )
    run = AgentRun.objects.for_tenant(world.tenant_a).get()
    run_event_apply(
        tenant_id=world.tenant_a.pk, run_id=run.id,
        event=RunEvent(type="failed", reason="HubSpot answered 401", event_id="f1"),
    )  # fmt: skip
    why = chat.reply("why did it fail?")
    assert why.startswith("No: lead-digest failed at ") and why.endswith(": HubSpot answered 401")
    assert "lead-digest can't run yet" in chat.reply("run it again")
    assert AgentRun.objects.for_tenant(world.tenant_a).count() == 2
    agent.refresh_from_db()
    assert agent.next_run_at is not None
    next_at = agent.next_run_at.strftime("%Y-%m-%d %H:%M")
    when = chat.reply("when does lead-digest run next?")
    assert when.startswith(f"lead-digest runs every Monday at 09:00 (UTC); next at {next_at} UTC.")
