"""Redis down for 10 s: the channel layer, the cache and the broker gone at once.

Two Daphnes reach Redis through the drill's own TCP proxy, which is cut for ten seconds while
a user talks on one socket and the same conversation is open on a socket of the other server.
``/healthz`` names what is down; the sender keeps getting whole answers (the database is the
truth, and it is up); nothing is lost; and once Redis is back, the other socket catches up from
history (``ready``), as the page does when it reconnects, and hears new turns live again.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from typing import Any

import aiohttp
import pytest
from django.db import connections

from conversations.models import Message
from conversations.store import services
from conversations.tenancy.services import token_issue
from tests.conftest import World
from tests.faults.proxy import TcpProxy
from tests.faults.services import own_redis_db
from tests.live import LiveSocket, Server

OUTAGE_S = 10.0


@pytest.mark.timeout(240)
@pytest.mark.django_db(transaction=True)
def test_redis_down_for_ten_seconds_answers_the_sender_and_loses_nothing(
    world: World, servers: list[Server]
) -> None:
    redis_url = own_redis_db(10)
    host_port = redis_url.split("//", 1)[1].split("/", 1)[0]
    host, port = host_port.rsplit(":", 1)
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    token = token_issue(user=world.owner)
    connections.close_all()
    with TcpProxy(host, int(port)) as proxy:
        env = {
            "REDIS_URL": f"redis://127.0.0.1:{proxy.port}/10",
            "CHANNEL_LAYER_PREFIX": f"redis-outage-{os.getpid()}",
        }
        pair = [Server(env=env), Server(env=env)]
        servers.extend(pair)
        report = asyncio.run(_drill(pair, proxy, token, conversation.id))
    print(json.dumps({k: v for k, v in report.items() if k != "said"}, indent=2))

    # Nothing lost: every answered turn is stored once, in the order it was answered.
    rows = list(
        Message.objects.for_tenant(world.tenant_a)
        .filter(conversation_id=conversation.id)
        .order_by("seq")
        .values_list("id", "role", "client_message_id")
    )
    assert [r[0] for r in rows] == report["said"]
    assert [r[1] for r in rows] == ["user", "assistant"] * (len(rows) // 2)
    assert len({r[2] for r in rows[::2]}) == len(rows) // 2


async def _drill(
    pair: list[Server], proxy: TcpProxy, token: str, conversation_id: str
) -> dict[str, Any]:
    said: list[str] = []
    timings: list[float] = []

    async def turn(socket: LiveSocket, text: str, cmid: str) -> list[dict[str, Any]]:
        started = time.monotonic()
        frames = await socket.say(text, client_message_id=cmid)
        timings.append(time.monotonic() - started)
        kinds = [f["type"] for f in frames]
        assert "error" not in kinds and kinds[-1] == "done", frames
        assert frames[-1]["content"].strip()
        assert frames[0]["type"] == "ack", frames
        said.extend([frames[0]["message_id"], frames[-1]["message_id"]])
        return frames

    async with aiohttp.ClientSession() as session:
        sender, _ = await LiveSocket.open(session, pair[0], token, conversation_id)
        other, _ = await LiveSocket.open(session, pair[1], token, conversation_id)
        heard = await asyncio.gather(turn(sender, "list my agents", "r-0"), other.until_done())
        assert heard[1] == heard[0]  # across processes while Redis is up

        proxy.cut()
        cut_at = time.monotonic()
        health = await _health(session, pair[0])
        in_outage = []
        for n, text in enumerate(["what can you do?", "hello", "list my agents"], start=1):
            in_outage.append([f["type"] for f in await turn(sender, text, f"r-{n}")])
        elapsed = time.monotonic() - cut_at
        assert elapsed < OUTAGE_S, f"the turns in the outage took {elapsed:.1f} s"
        await asyncio.sleep(OUTAGE_S - elapsed)
        proxy.restore()
        # Right away: publishing works again a moment before the server's subscription is
        # made again; the sender still gets its turn whole, from the ack on.
        await turn(sender, "are you still there?", "r-back")

        # The other tab reconnects (as the page does) and catches up from history.
        await other.ws.close()
        deadline = time.monotonic() + 30
        while True:
            try:
                other, ready = await LiveSocket.open(session, pair[1], token, conversation_id)
                break
            except (aiohttp.ClientError, AssertionError):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.5)
        caught_up = [m["id"] for m in ready["history"]]
        assert caught_up == said, "the other tab's history is not what was said"
        # And it hears new turns live again, across processes.
        live = await asyncio.gather(turn(sender, "thanks", "r-after"), other.until_done(timeout=30))
        assert live[1] == live[0]
        await sender.ws.close()
        await other.ws.close()
    return {
        "outage_s": OUTAGE_S,
        "healthz_in_outage": health,
        "turns_in_outage": len(in_outage),
        "turn_ms_max": round(max(timings) * 1000, 1),
        "said": said,
    }


async def _health(session: aiohttp.ClientSession, server: Server) -> dict[str, Any]:
    async with session.get(f"{server.url}/healthz") as response:
        body = dict(await response.json())
        assert response.status == 503, body
        assert body["checks"]["channel_layer"] == "down", body
        assert body["checks"]["broker"] == "down", body
        assert body["checks"]["database"] == "ok", body
        return body
