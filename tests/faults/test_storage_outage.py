"""PostgreSQL refusing connections for 10 s in the middle of conversations.

A Daphne and a Celery worker reach PostgreSQL through the drill's own TCP proxy, which is cut
for ten seconds while sockets chat. Sockets already open keep getting answers (the degraded
path), new requests get a 503 with ``Retry-After`` (HTTP) or an ``unavailable`` error frame and
close code 4503 (WebSocket), ``/healthz`` names the database, and once the proxy is back every
acknowledged message is stored exactly once, in the order it was answered.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from typing import Any

import aiohttp
import pytest
from django.db import connection, connections

from conversations.models import Conversation, Message
from conversations.store import services
from conversations.tenancy.services import token_issue
from tests.conftest import World
from tests.faults.proxy import TcpProxy, proxied_database_url
from tests.faults.services import CeleryWorker, own_redis_db
from tests.live import LiveSocket, Server

OUTAGE_S = 10.0


class Talker:
    """One open socket on one conversation, and what it was told."""

    def __init__(self, name: str, socket: LiveSocket) -> None:
        self.name = name
        self.socket = socket
        self.turns: list[tuple[str, str, str, list[str]]] = []  # (cmid, ack id, done id, degraded)
        self.conversation_id = ""

    async def turn(self, text: str) -> list[dict[str, Any]]:
        cmid = f"{self.name}-{len(self.turns)}"
        frames = await self.socket.say(text, client_message_id=cmid)
        kinds = [f["type"] for f in frames]
        assert "error" not in kinds, (self.name, frames)
        ack = next(f for f in frames if f["type"] == "ack")
        done = frames[-1]
        assert done["type"] == "done" and done["content"].strip(), frames
        intent = next(f for f in frames if f["type"] == "intent")
        degraded = list(done["message"]["metadata"].get("degraded", []))
        self.conversation_id = self.conversation_id or ack["conversation_id"]
        assert ack["conversation_id"] == self.conversation_id
        self.turns.append((cmid, ack["message_id"], done["message_id"], degraded))
        assert intent["intent"]["action_type"]
        return frames


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_postgresql_down_for_ten_seconds_loses_and_duplicates_nothing(
    world: World, servers: list[Server]
) -> None:
    redis_url = own_redis_db(9)
    owner_token = token_issue(user=world.owner)
    member_token = token_issue(user=world.member)
    conversations = [
        services.conversation_create(tenant=world.tenant_a, user=user)
        for user in (world.owner, world.owner, world.member)
    ]
    connections.close_all()
    with TcpProxy("127.0.0.1", int(connection.settings_dict.get("PORT") or 5432)) as proxy:
        env = {
            "DATABASE_URL": proxied_database_url(proxy),
            "REDIS_URL": redis_url,
            "CHANNEL_LAYER_PREFIX": f"outage-{os.getpid()}",
        }
        server = Server(env=env)
        servers.append(server)
        with CeleryWorker(env=env, queues="celery"):
            report = asyncio.run(_drill(server, proxy, owner_token, member_token, conversations))
            talkers: list[Talker] = report.pop("_talkers")
            # Every acknowledged message is stored exactly once, in the order it was answered.
            expected = {m for t in talkers for (_, ack, done, _) in t.turns for m in (ack, done)}
            waited = time.monotonic()
            while time.monotonic() - waited < 120:
                stored = set(
                    Message.objects.for_tenant(world.tenant_a)
                    .filter(id__in=expected)
                    .values_list("id", flat=True)
                )
                if stored == expected:
                    break
                time.sleep(0.5)
            report["all_stored_s_after_the_drill"] = round(time.monotonic() - waited, 1)
    print(json.dumps(report, indent=2))
    missing = expected - stored
    assert not missing, f"{len(missing)} acknowledged messages never stored"
    for talker in talkers:
        conversation_id = talker.conversation_id
        rows = list(
            Message.objects.for_tenant(world.tenant_a)
            .filter(conversation_id=conversation_id)
            .order_by("seq")
            .values_list("id", "role", "seq", "client_message_id", "reply_to")
        )
        assert [r[2] for r in rows] == list(range(1, len(rows) + 1))
        answered = [mid for (_, ack, done, _) in talker.turns for mid in (ack, done)]
        assert [r[0] for r in rows] == answered, talker.name  # order as answered, once each
        assert [r[1] for r in rows] == ["user", "assistant"] * len(talker.turns)
        for user_row, reply_row in zip(rows[::2], rows[1::2], strict=True):
            assert reply_row[4] == user_row[0]
        assert [r[3] for r in rows[::2]] == [cmid for (cmid, _, _, _) in talker.turns]
    # The turns in the outage really ran degraded, and were stored all the same.
    degraded = [d for t in talkers for (_, _, _, d) in t.turns if d]
    assert len(degraded) >= report["turns_in_outage"]
    fresh = talkers[-1]
    created = Conversation.objects.for_tenant(world.tenant_a).get(id=fresh.conversation_id)
    assert created.user_id == world.owner.pk
    assert created.message_count == 2 * len(fresh.turns)


async def _drill(
    server: Server,
    proxy: TcpProxy,
    owner_token: str,
    member_token: str,
    conversations: list[Conversation],
) -> dict[str, Any]:
    async with aiohttp.ClientSession() as session:
        talkers = []
        for n, (conversation, token) in enumerate(
            zip(conversations, (owner_token, owner_token, member_token), strict=True)
        ):
            socket, ready = await LiveSocket.open(session, server, token, conversation.id)
            assert ready["type"] == "ready"
            talkers.append(Talker(f"c{n}", socket))
        # A socket opened before the outage, on no conversation yet: its first message comes
        # during the outage and creates one that storage cannot yet hold.
        fresh_socket, _ = await LiveSocket.open(session, server, owner_token)
        fresh = Talker("fresh", fresh_socket)

        for talker in talkers:
            await talker.turn("list my agents")

        proxy.cut()
        cut_at = time.monotonic()
        texts = ["what can you do?", "Create an agent that watches Jira", "every day at 9am"]
        chats = [_turns(t, texts) for t in [*talkers, fresh]]
        checks = _new_requests_refused(session, server, owner_token)
        outcomes = await asyncio.gather(*chats, checks)
        turn_latencies = [x for o in outcomes[:-1] for x in o]
        refusals = outcomes[-1]
        in_outage = time.monotonic() - cut_at
        assert in_outage < OUTAGE_S, f"the turns in the outage took {in_outage:.1f} s"
        await asyncio.sleep(OUTAGE_S - in_outage)
        proxy.restore()
        restored_at = time.monotonic()

        # Afterwards the same sockets go on; the first turn of each stores its backlog first.
        after = [await _turns(t, ["where were we?"]) for t in [*talkers, fresh]]
        back_after = time.monotonic() - restored_at
        for talker in [*talkers, fresh]:
            await talker.socket.ws.close()
    latencies = sorted(turn_latencies)
    return {
        "outage_s": OUTAGE_S,
        "turns_in_outage": len(turn_latencies),
        "turn_in_outage_p50_ms": round(latencies[len(latencies) // 2] * 1000, 1),
        "turn_in_outage_max_ms": round(latencies[-1] * 1000, 1),
        "first_turns_after_s": round(back_after, 2),
        "after_max_ms": round(max(x for o in after for x in o) * 1000, 1),
        "refusals": refusals,
        "_talkers": [*talkers, fresh],
    }


async def _turns(talker: Talker, texts: list[str]) -> list[float]:
    latencies = []
    for text in texts:
        started = time.monotonic()
        await talker.turn(text)
        latencies.append(time.monotonic() - started)
    return latencies


async def _new_requests_refused(
    session: aiohttp.ClientSession, server: Server, token: str
) -> dict[str, Any]:
    """What arrives new while storage is down: a 503 that says when to come back."""
    await asyncio.sleep(0.5)
    headers = {"Authorization": f"Token {token}"}
    seen: dict[str, Any] = {}
    for name, method, path, body in (
        ("list", "GET", "/api/v1/conversations/", None),
        ("chat", "POST", "/api/v1/chat/", {"message": "hello"}),
    ):
        started = time.monotonic()
        async with session.request(
            method, f"{server.url}{path}", json=body, headers=headers
        ) as response:
            assert response.status == 503, (name, response.status, await response.text())
            assert int(response.headers["Retry-After"]) > 0
            assert (await response.json())["detail"].startswith("Storage is unavailable")
            seen[name] = {"status": 503, "ms": round((time.monotonic() - started) * 1000, 1)}
    async with session.get(f"{server.url}/healthz") as response:
        health = await response.json()
        assert response.status == 503 and health["checks"]["database"] == "down", health
    started = time.monotonic()
    ws = await session.ws_connect(f"ws://127.0.0.1:{server.port}/ws/chat/", headers=headers)
    frame = await ws.receive_json(timeout=30)
    assert frame["type"] == "error" and frame["code"] == "unavailable", frame
    closing = await ws.receive(timeout=30)
    assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4503, closing
    seen["socket"] = {"close": 4503, "ms": round((time.monotonic() - started) * 1000, 1)}
    return seen
