"""The socket's bounds through live Daphne processes: the frame size, the shared chat limits.

The shared per-user and per-tenant limits are counted across every socket and server process;
here many sockets on two processes send at once, as the probe that found them overrun did.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import aiohttp
import pytest
from django.db import connections

from conversations.models import Message
from conversations.tenancy.services import token_issue
from tests.conftest import World
from tests.live import LiveSocket, Server

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_frame_over_64_kib_closes_with_4009_and_no_traceback(
    world: World, servers: list[Server]
) -> None:
    token = token_issue(user=world.owner)
    connections.close_all()
    server = Server()
    servers.append(server)

    async def oversized() -> int:
        async with aiohttp.ClientSession() as session:
            socket, ready = await LiveSocket.open(session, server, token)
            assert ready["type"] == "ready"
            await socket.ws.send_str('{"type": "message", "content": "' + "x" * 70_000 + '"}')
            message = await socket.ws.receive(timeout=10)
            assert message.type == aiohttp.WSMsgType.CLOSE, message
            return int(message.data)

    assert asyncio.run(oversized()) == 4009
    assert not Message.objects.for_tenant(world.tenant_a).exists()
    log = server.log()
    assert "Exception inside application" not in log and "Traceback" not in log, log[-2000:]


def _wait_for_a_fresh_minute() -> None:
    """The limits count in minute windows: start well inside one, so one window holds it all."""
    into = time.time() % 60
    if into > 40:
        time.sleep(60 - into + 0.5)


async def _send_all(
    server_sockets: list[tuple[Server, int]], token: str, per_socket: int
) -> tuple[int, int]:
    """Every socket sends ``per_socket`` messages at once; (acknowledged, rate-limited)."""
    async with aiohttp.ClientSession() as session:
        sockets: list[LiveSocket] = []
        for server, count in server_sockets:
            for _ in range(count):
                socket, _ = await LiveSocket.open(session, server, token)
                sockets.append(socket)

        async def burst(n: int, socket: LiveSocket) -> dict[str, int]:
            for m in range(per_socket):
                frame = {"type": "message", "content": "list my agents"}
                await socket.ws.send_json({**frame, "client_message_id": f"{n}-{m}"})
            seen = {"ack": 0, "rate_limited": 0, "done": 0}
            while seen["rate_limited"] + seen["done"] < per_socket:
                frame = await socket.frame(timeout=60)
                if frame["type"] == "ack":
                    seen["ack"] += 1
                elif frame["type"] == "done":
                    seen["done"] += 1
                elif frame["type"] == "error":
                    assert frame["code"] == "rate_limited", frame
                    seen["rate_limited"] += 1
            return seen

        results: list[dict[str, Any]] = await asyncio.gather(
            *(burst(n, s) for n, s in enumerate(sockets))
        )
        for socket in sockets:
            await socket.ws.close()
    return sum(r["ack"] for r in results), sum(r["rate_limited"] for r in results)


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (CI's second run)")
def test_the_per_user_limit_holds_for_many_sockets_on_two_processes(
    world: World, servers: list[Server]
) -> None:
    token = token_issue(user=world.owner)
    connections.close_all()
    shared = {
        "REDIS_URL": os.environ["REDIS_URL"],
        "CHANNEL_LAYER_PREFIX": f"limits-{os.getpid()}",
        "CACHE_KEY_PREFIX": f"limits-{os.getpid()}-{time.time_ns()}",
        "OMNIFORGE_WS_USER_PER_MIN": "12",
    }
    pair = [Server(env=shared), Server(env=shared)]
    servers.extend(pair)
    _wait_for_a_fresh_minute()
    # 8 sockets, 6 messages each: = 48 sent at once, each socket within its own burst of 10.
    accepted, limited = asyncio.run(_send_all([(pair[0], 4), (pair[1], 4)], token, 6))
    assert (accepted, limited) == (12, 36)
    assert Message.objects.for_tenant(world.tenant_a).filter(role="user").count() == 12


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (CI's second run)")
def test_the_per_tenant_limit_holds_for_several_users_on_two_processes(
    world: World, servers: list[Server]
) -> None:
    tokens = [token_issue(user=user) for user in (world.owner, world.member, world.admin_a)]
    connections.close_all()
    shared = {
        "REDIS_URL": os.environ["REDIS_URL"],
        "CHANNEL_LAYER_PREFIX": f"limits-{os.getpid()}",
        "CACHE_KEY_PREFIX": f"limits-{os.getpid()}-{time.time_ns()}",
        "OMNIFORGE_WS_TENANT_PER_MIN": "10",
    }
    pair = [Server(env=shared), Server(env=shared)]
    servers.extend(pair)
    _wait_for_a_fresh_minute()

    async def everyone() -> list[tuple[int, int]]:
        return await asyncio.gather(
            *(_send_all([(pair[0], 2), (pair[1], 2)], token, 4) for token in tokens)
        )

    counts = asyncio.run(everyone())
    assert sum(a for a, _ in counts) == 10 and sum(r for _, r in counts) == 38
