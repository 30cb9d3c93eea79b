"""A real Daphne killed with SIGKILL in the middle of turns, again and again.

Four clients chat at once, each in its own conversation, re-sending every message with its
``client_message_id`` until it is answered, as the chat page does after a reconnect. A local
LLM server answers slowly enough that kills land mid-turn. Afterwards every acknowledged
message is stored exactly once with exactly one reply, every conversation's sequence is
gapless with each reply right after its message, and no re-send was refused because a dead
process still held the conversation.
"""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from django.db import connections

from conversations.models import Agent, Conversation
from conversations.store import services
from conversations.tenancy.services import token_issue
from tests.conftest import World
from tests.intents.llm_server import Reply, running_server
from tests.live import Server

CLIENTS = 4
TURNS_PER_CLIENT = 50
KILLS = 10
MESSAGES = (
    "list my agents",
    "what can you do?",
    "tell me about notion-reporter",
    "run the first one",
)


@dataclass
class Client:
    name: str
    conversation_id: str
    acked: dict[str, tuple[str, str]] = field(default_factory=dict)  # cmid -> (user, reply)
    longest_to_ack_s: float = 0.0
    longest_request_s: float = 0.0
    refused: list[str] = field(default_factory=list)
    resends: int = 0


@pytest.fixture
def slow_llm() -> Iterator[str]:
    # Slow enough that a kill often lands while a turn waits for its classification.
    with running_server(default=Reply.slow(0.15)) as server:
        yield server.base_url


def _send(server: Server, token: str, client: Client, cmid: str, text: str) -> None:
    body = json.dumps(
        {"message": text, "conversation_id": client.conversation_id, "client_message_id": cmid}
    ).encode()
    first = time.monotonic()
    while True:
        request = urllib.request.Request(  # noqa: S310
            f"{server.url}/api/v1/chat/",
            data=body,
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
            method="POST",
        )
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310
                data = json.loads(response.read())
        except urllib.error.HTTPError as error:
            if error.code == 409:
                client.refused.append(cmid)
            client.resends += 1
            time.sleep(0.2)
            continue
        except (OSError, http_errors()):
            # The server died under us (reset, refused while it restarts): send it again.
            client.resends += 1
            time.sleep(0.2)
            continue
        done = time.monotonic()
        client.longest_request_s = max(client.longest_request_s, done - started)
        client.longest_to_ack_s = max(client.longest_to_ack_s, done - first)
        client.acked[cmid] = (data["user_message"]["id"], data["assistant_message"]["id"])
        return


def http_errors() -> type[Exception]:
    import http.client

    return http.client.HTTPException


@pytest.mark.django_db(transaction=True)
def test_sigkill_mid_turn_loses_and_duplicates_nothing(
    world: World, servers: list[Server], slow_llm: str
) -> None:
    for name in ("notion-reporter", "jira-overdue-monitor", "financial-analyzer"):
        Agent.objects.create(tenant=world.tenant_a, name=name, description=f"the {name}")
    token = token_issue(user=world.owner)
    clients = [
        Client(f"c{n}", services.conversation_create(tenant=world.tenant_a, user=world.owner).id)
        for n in range(CLIENTS)
    ]
    connections.close_all()
    server = Server(
        env={"OMNIFORGE_INTENT_API_BASE": slow_llm, "OPENAI_API_KEY": "sk-test-not-a-real-key"}
    )
    servers.append(server)
    done = threading.Event()
    kills: list[float] = []
    errors: list[BaseException] = []

    def chat(client: Client) -> None:
        try:
            rng = random.Random(client.name)
            for turn in range(TURNS_PER_CLIENT):
                _send(server, token, client, f"{client.name}-{turn}", rng.choice(MESSAGES))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def kill_loop() -> None:
        rng = random.Random(7)
        while len(kills) < KILLS and not done.is_set():
            time.sleep(rng.uniform(0.4, 1.2))
            server.kill()
            kills.append(time.monotonic())
            server.start()

    threads = [threading.Thread(target=chat, args=(c,)) for c in clients]
    killer = threading.Thread(target=kill_loop)
    for thread in [*threads, killer]:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    killer.join()

    assert errors == []
    assert len(kills) >= KILLS, f"only {len(kills)} kills happened during the turns"
    longest_to_ack = max(c.longest_to_ack_s for c in clients)
    longest_request = max(c.longest_request_s for c in clients)
    print(  # recorded in docs/BENCHMARKS.md (reliability)
        f"\ncrash loop: {CLIENTS * TURNS_PER_CLIENT} turns, {len(kills)} SIGKILLs, "
        f"{sum(c.resends for c in clients)} re-sends, longest time to an answer "
        f"{longest_to_ack:.1f} s, longest single request {longest_request:.1f} s"
    )
    for client in clients:
        assert client.refused == [], "a re-send was refused while a dead turn held the lease"
        assert len(client.acked) == TURNS_PER_CLIENT
        conversation = Conversation.objects.for_tenant(world.tenant_a).get(
            id=client.conversation_id
        )
        rows = list(conversation.messages.order_by("seq"))
        assert [m.seq for m in rows] == list(range(1, len(rows) + 1)), "a gap in the sequence"
        assert len(rows) == 2 * TURNS_PER_CLIENT, "a message stored twice, or lost"
        for user, reply in zip(rows[::2], rows[1::2], strict=True):
            assert (user.role, reply.role) == ("user", "assistant")
            assert reply.metadata["reply_to"] == user.id
            assert client.acked[str(user.client_message_id)] == (user.id, reply.id)
    assert longest_request < 10, "a re-send waited too long for a dead turn's lease"
