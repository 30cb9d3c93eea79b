"""The product as it runs: real Daphne processes over HTTP, restarted and side by side."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from conversations import services
from conversations.models import Agent, Conversation
from conversations.tenant_services import token_issue
from tests.conftest import World, subprocess_database_url

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = Path(sys.executable).with_name("daphne")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``daphne config.asgi:application`` on a free port, against the test database."""

    def __init__(self) -> None:
        self.port = free_port()
        env = {**os.environ, "DATABASE_URL": subprocess_database_url(), "LOG_LEVEL": "WARNING"}
        env.pop("REDIS_URL", None)  # each process on its own: only the database is shared
        self.process = subprocess.Popen(
            [str(DAPHNE), "-b", "127.0.0.1", "-p", str(self.port), "config.asgi:application"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:  # noqa: S310
                    if response.status == 200:
                        return
            except OSError as exc:
                if self.process.poll() is not None:
                    output = self.process.stderr.read() if self.process.stderr else ""
                    raise RuntimeError(output) from exc
                time.sleep(0.2)
        raise RuntimeError("daphne did not start")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def chat(self, token: str, message: str, conversation_id: str | None) -> dict[str, Any]:
        body = {"message": message}
        if conversation_id:
            body["conversation_id"] = conversation_id
        request = urllib.request.Request(  # noqa: S310
            f"{self.url}/api/v1/chat/",
            data=json.dumps(body).encode(),
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
            return dict(json.loads(response.read()))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


@pytest.mark.django_db(transaction=True)
def test_a_wizard_resumes_after_the_server_process_restarts(
    world: World, servers: list[Server]
) -> None:
    token = token_issue(user=world.owner)
    connections.close_all()  # the servers must not wait on this process's connection
    first = Server()
    servers.append(first)
    opened = first.chat(token, "I want to create an agent for weekly financial reports", None)
    conversation_id = opened["conversation_id"]
    asked = first.chat(token, "Google Sheets", conversation_id)["assistant_message"]["content"]
    first.stop()

    second = Server()
    servers.append(second)
    recap = second.chat(token, "Sorry, I had to step away. Where were we?", conversation_id)
    content = recap["assistant_message"]["content"]
    assert "- Source: Google Sheets" in content
    assert content.strip().endswith(asked.strip().splitlines()[-1])
    assert (
        Conversation.objects.for_tenant(world.tenant_a).get(id=conversation_id).message_count == 6
    )


@pytest.mark.django_db(transaction=True)
def test_two_server_processes_answer_one_conversation_one_turn_at_a_time(
    world: World, servers: list[Server]
) -> None:
    Agent.objects.create(tenant=world.tenant_a, name="notion-reporter", description="Notion")
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    token = token_issue(user=world.owner)
    connections.close_all()
    pair = [Server(), Server()]
    servers.extend(pair)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def send(server: Server, text: str) -> None:
        try:
            barrier.wait()
            for _ in range(4):
                server.chat(token, text, conversation.id)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [
        threading.Thread(target=send, args=(pair[0], "list my agents")),
        threading.Thread(target=send, args=(pair[1], "what can you do?")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    rows = list(conversation.messages.order_by("seq"))
    assert [m.seq for m in rows] == list(range(1, 17))
    for user, assistant in zip(rows[::2], rows[1::2], strict=True):
        assert (user.role, assistant.role) == ("user", "assistant")
        assert assistant.metadata["reply_to"] == user.id
    assert sorted({m.content for m in rows[::2]}) == ["list my agents", "what can you do?"]
