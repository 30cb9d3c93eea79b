"""A canary sent every way a user can send text is nowhere in plaintext, with keys set.

A real Daphne with ``OMNIFORGE_ENCRYPTION_KEYS`` receives the canary through ``POST chat/``, the
REST API (a conversation's title and metadata), two WebSockets on one conversation and a skill
session. Then the bytes at rest are searched: the SQLite file with its write-ahead log (the first
CI run), or a ``pg_dump`` of the database (the second), and, with Redis, every key's value in the
server's Redis database (channel-layer messages, the cache, and the broker's queues: a turn
answered while PostgreSQL was cut through the test's own proxy is waiting there for a worker).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
import uuid
from contextlib import ExitStack
from pathlib import Path

import aiohttp
import pytest
import redis
from cryptography.fernet import Fernet
from django.db import connection, connections

from conversations.tenancy.services import token_issue
from tests.conftest import World
from tests.faults.proxy import TcpProxy, proxied_database_url
from tests.live import LiveSocket, Server

pytestmark = pytest.mark.django_db(transaction=True)


def _redis_values(client: redis.Redis) -> list[bytes]:
    """Every key and every value it holds, whatever its type."""
    found: list[bytes] = []
    for key in client.scan_iter(count=1000):
        found.append(key)
        kind = client.type(key).decode()
        if kind == "string":
            found.append(client.get(key) or b"")
        elif kind == "list":
            found.extend(client.lrange(key, 0, -1))
        elif kind == "hash":
            for field, value in client.hgetall(key).items():
                found.extend([field, value])
        elif kind == "set":
            found.extend(client.smembers(key))
        elif kind == "zset":
            found.extend(member for member, _ in client.zrange(key, 0, -1, withscores=True))
        elif kind == "stream":
            for _, fields in client.xrange(key):
                for field, value in fields.items():
                    found.extend([field, value])
        else:
            raise AssertionError(f"a Redis key of type {kind} was not searched")
    return found


def _at_rest() -> list[tuple[str, bytes]]:
    if connection.vendor == "sqlite":
        name = Path(connection.settings_dict["NAME"])
        files = [name, name.with_name(name.name + "-wal"), name.with_name(name.name + "-shm")]
        return [(f.name, f.read_bytes()) for f in files if f.exists()]
    params = connection.settings_dict
    dump = subprocess.run(
        ["pg_dump", "--no-owner", "-h", params.get("HOST") or "127.0.0.1",
         "-p", str(params.get("PORT") or 5432), "-U", params["USER"], params["NAME"]],
        capture_output=True, check=True, timeout=120,
    )  # fmt: skip
    assert b"conversations_message" in dump.stdout  # the dump is of the right database
    return [("pg_dump", dump.stdout)]


def test_a_canary_sent_every_way_is_nowhere_in_plaintext(
    world: World, servers: list[Server]
) -> None:
    canary = f"Zebracanary{uuid.uuid4().hex[:8]}"
    token = token_issue(user=world.owner)
    env: dict[str, str] = {"OMNIFORGE_ENCRYPTION_KEYS": Fernet.generate_key().decode()}
    redis_url = os.environ.get("REDIS_URL")
    with ExitStack() as stack:
        proxy = None
        if redis_url:
            redis_url = f"{redis_url.rsplit('/', 1)[0]}/12"
            redis.Redis.from_url(redis_url).flushdb()
            env |= {"REDIS_URL": redis_url, "CHANNEL_LAYER_PREFIX": f"canary-{os.getpid()}"}
        if connection.vendor == "postgresql":
            params = connection.settings_dict
            proxy = stack.enter_context(
                TcpProxy(params.get("HOST") or "127.0.0.1", int(params.get("PORT") or 5432))
            )
            env["DATABASE_URL"] = proxied_database_url(proxy)
        connections.close_all()
        server = Server(env=env)
        servers.append(server)
        _send_everywhere(server, token, canary, proxy if redis_url else None)
        # Read back through the server, everything is as typed (once the server has seen
        # PostgreSQL back: until then it answers 503 with Retry-After).
        for _ in range(50):
            status, _, body = server.request("GET", "/api/v1/conversations/", token=token)
            if status != 503:
                break
            time.sleep(0.2)
        assert status == 200 and canary.encode() in body

    connections.close_all()
    lowered = canary.lower().encode()
    places = _at_rest()
    if redis_url:
        values = _redis_values(redis.Redis.from_url(redis_url))
        assert any(b"celery" in v for v in values)  # the broker's queue was there to search
        places.append(("redis", b"\n".join(values)))
    leaks = [name for name, data in places if lowered in data.lower()]
    assert leaks == [], f"the canary is readable in {leaks}"


def _send_everywhere(server: Server, token: str, canary: str, proxy: TcpProxy | None) -> None:
    # The chat over HTTP: a wizard opens (its state holds the canary), a title is taken.
    chat = server.chat(
        token, f"Create an agent named ops-watch that watches Jira for {canary} tickets", None
    )
    assert chat["assistant_message"]["content"]
    # The REST API: a conversation's title and the client's metadata.
    status, _, _ = server.request(
        "POST", "/api/v1/conversations/", token=token,
        body={"title": f"{canary} plans", "metadata": {"draft": f"{canary} draft"}},
    )  # fmt: skip
    assert status == 201
    # A skill session.
    status, _, _ = server.request(
        "POST", "/api/v1/skill-sessions/", token=token,
        body={"message": f"Create a skill named totals-extractor that reads {canary} totals"},
    )  # fmt: skip
    assert status == 201
    asyncio.run(_sockets(server, token, canary, chat["conversation_id"], proxy))


async def _sockets(
    server: Server, token: str, canary: str, conversation_id: str, proxy: TcpProxy | None
) -> None:
    async with aiohttp.ClientSession() as session:
        first, _ = await LiveSocket.open(session, server, token, conversation_id)
        second, _ = await LiveSocket.open(session, server, token, conversation_id)
        said = await first.say(f"every day at 9am to #{canary.lower()}", client_message_id="c-1")
        assert said[-1]["type"] == "done"
        assert (await second.until_done())[-1]["type"] == "done"  # through the channel layer
        if proxy is not None:
            # PostgreSQL cut: the turn is answered and handed to the broker, sealed.
            with proxy.down():
                frames = await first.say(f"also watch {canary} bugs", client_message_id="c-2")
                assert frames[-1]["type"] == "done"
                assert frames[-1]["message"]["metadata"]["degraded"]
        await first.ws.close()
        await second.ws.close()
