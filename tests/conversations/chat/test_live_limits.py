"""The socket's bounds through live Daphne processes."""

from __future__ import annotations

import asyncio

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
