"""An agent run asked for in the chat, carried out by the reference runtime (tests/runtime_server)
and told back in the page: the reply that hands it over, then its outcome pushed live over the
socket as a new assistant message, without a reload, and still there (once) after one.

The product runs as its own Daphne process, told where the runtime is and where it is itself
(``OMNIFORGE_RUNTIME_URL``, ``OMNIFORGE_PUBLIC_URL``); the runtime runs in this process and calls
back with the tenant's token, minted by ``manage.py runtime_credentials``.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connections
from playwright.sync_api import BrowserContext, Page, expect

from conversations.models import Agent, AgentRun
from tests.browser.live_page import ChatPage, messages, runs
from tests.conftest import World
from tests.live import Server, free_port
from tests.runtime_server import Outcome, RuntimeServer, runtime_server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AGENT = "notion-reporter"
DESCRIPTION = "summarizes new Notion pages"
# Before each of the runtime's two callbacks (started, then the outcome): long enough for the
# handover's reply to be seen alone first, short enough for a quick test.
DELAY_S = 1.0
# A sign left on the page's window: gone if the page reloaded.
MARK = "window.__notReloaded"


@pytest.fixture(scope="module")
def runtime() -> Iterator[RuntimeServer]:
    with runtime_server() as server:
        yield server


@pytest.fixture(scope="module")
def product(
    runtime: RuntimeServer, django_db_setup: Any, django_db_blocker: Any
) -> Iterator[Server]:
    """The product in Daphne, on the test database, dispatching to ``runtime``."""
    port = free_port()
    env = {
        "DEBUG": "true",
        "OMNIFORGE_RUNTIME_URL": runtime.url,
        "OMNIFORGE_PUBLIC_URL": f"http://127.0.0.1:{port}",
    }
    with django_db_blocker.unblock():
        connections.close_all()
        server = Server(env=env, port=port)
    yield server
    server.stop()


def connect(world: World, runtime: RuntimeServer, outcome: Outcome) -> Agent:
    """The agent, and the tenant's runtime connected (credentials minted) and scripted."""
    agent = Agent.objects.create(
        tenant=world.tenant_a,
        name=AGENT,
        description=DESCRIPTION,
        config={},
        created_by=world.owner,
    )
    out = io.StringIO()
    call_command("runtime_credentials", world.tenant_a.slug, stdout=out)
    credentials = json.loads(out.getvalue())
    runtime.secret, runtime.token = credentials["secret"], credentials["token"]
    runtime.script(outcome)
    connections.close_all()
    return agent


def ask_to_run(chat: ChatPage, runtime: RuntimeServer, world: World) -> AgentRun:
    """Ask for the run in the page; its reply names the run handed over, shown alone."""
    dispatched = len(runtime.dispatches)
    reply = chat.ask(f"run {AGENT}")
    # The wording names the agent and the run; whether it also quotes the agent's description
    # has changed while the feature was built, so it is not pinned here.
    expect(reply).to_contain_text(f"Running {AGENT}")
    (run,) = runs_of(world, chat)
    expect(reply).to_contain_text(f"I've handed it to the agent runtime (run {run.id})")
    # The outcome comes two callbacks later: for now the reply is the only answer.
    expect(chat.answers).to_have_count(1)
    (dispatch,) = runtime.wait_for_dispatches(dispatched + 1)[dispatched:]
    assert dispatch.run_id == run.id
    assert dispatch.body["run"]["trigger"] == "chat"
    assert dispatch.body["run"]["agent"]["name"] == AGENT
    chat.page.evaluate(f"{MARK} = true")
    return run


def runs_of(world: World, chat: ChatPage) -> list[AgentRun]:
    return [run for run in runs(world) if run.conversation_id == chat.conversation_id]


def expect_outcome_once(chat: ChatPage, words: str) -> None:
    """The transcript: the request, the handover, then the outcome as a third message, once."""
    transcript = chat.page.locator("#transcript .msg")
    expect(transcript).to_have_count(3)
    expect(transcript.nth(0)).to_contain_text(f"run {AGENT}")
    expect(transcript.nth(1)).to_contain_text(f"Running {AGENT}")
    expect(transcript.nth(2)).to_contain_text(words)
    expect(chat.answers.filter(has_text=words)).to_have_count(1)
    expect(chat.finished_answers).to_have_count(2)


def test_a_run_asked_for_in_the_chat_shows_its_outcome_without_a_reload(
    context: BrowserContext,
    shot: Callable[[Page, str], Path],
    product: Server,
    runtime: RuntimeServer,
    olivia: World,
) -> None:
    outcome = Outcome.succeed("12 pages summarized", callback_delay_s=DELAY_S)
    connect(olivia, runtime, outcome)
    chat = ChatPage.open(context, product)
    called_back = len(runtime.callbacks)
    run = ask_to_run(chat, runtime, olivia)

    words = f"{AGENT} finished: 12 pages summarized"
    expect(chat.answers.last).to_contain_text(words, timeout=15_000)
    assert chat.page.evaluate(MARK) is True, "the page reloaded"
    expect_outcome_once(chat, words)
    pushed = [f for f in chat.frames if f["type"] == "message"]
    assert [f["message"]["content"] for f in pushed] == [words]
    assert pushed[0]["message"]["metadata"]["run_id"] == run.id

    callbacks = runtime.wait_for_callbacks(called_back + 2)[called_back:]
    assert [(c.body["type"], c.status) for c in callbacks] == [("started", 204), ("succeeded", 204)]
    (stored_run,) = runs_of(olivia, chat)
    assert stored_run.status == AgentRun.Status.SUCCEEDED
    assert stored_run.summary == "12 pages summarized"
    stored = messages(olivia, chat.conversation_id)
    assert [(m.role, m.content) for m in stored][-1] == ("assistant", words)
    assert [m.role for m in stored] == ["user", "assistant", "assistant"]
    shot(chat.page, "run-outcome")

    chat.page.reload()
    chat.expect_connected()
    expect_outcome_once(chat, words)
    assert not chat.errors


def test_a_failed_run_shows_why_it_failed(
    context: BrowserContext, product: Server, runtime: RuntimeServer, olivia: World
) -> None:
    outcome = Outcome.fail("the Notion token expired", callback_delay_s=DELAY_S)
    connect(olivia, runtime, outcome)
    chat = ChatPage.open(context, product)
    ask_to_run(chat, runtime, olivia)

    words = f"{AGENT} failed: the Notion token expired"
    expect(chat.answers.last).to_contain_text(words, timeout=15_000)
    assert chat.page.evaluate(MARK) is True, "the page reloaded"
    expect_outcome_once(chat, words)
    (stored_run,) = runs_of(olivia, chat)
    assert stored_run.status == AgentRun.Status.FAILED
    assert stored_run.reason == "the Notion token expired"

    chat.page.reload()
    chat.expect_connected()
    expect_outcome_once(chat, words)
    assert not chat.errors


def test_an_outcome_told_live_offers_no_earlier_messages(
    context: BrowserContext, product: Server, runtime: RuntimeServer, olivia: World
) -> None:
    connect(olivia, runtime, Outcome.succeed("12 pages summarized", callback_delay_s=DELAY_S))
    chat = ChatPage.open(context, product)
    ask_to_run(chat, runtime, olivia)
    expect(chat.answers.last).to_contain_text(f"{AGENT} finished", timeout=15_000)
    expect(chat.page.locator("#transcript .msg")).to_have_count(3)
    # Three messages, all shown: there is nothing earlier to load.
    expect(chat.page.get_by_role("button", name="Show earlier messages")).to_be_hidden(timeout=2000)
