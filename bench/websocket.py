"""Chat over WebSockets against live Daphne processes, beside a bare echo consumer's floor.

- The floor: a Channels echo consumer under Daphne on this machine (round trip, messages a
  second with 50 sockets in a closed loop).
- Offered load: 50 sockets on one process (the current database, offline tier) together send
  25 turns a second for 20 s; time to the first chunk and to ``done``, p50/p95/p99; lost,
  duplicated and out-of-order frames (must be 0). Target: p95 time to first chunk under 50 ms.
- Capacity: the most turns a second one process sustains (closed loop: each socket sends its
  next message on ``done``), with its ratio to the floor's messages a second.
- With PostgreSQL and Redis configured: 200 sockets on two processes, the same figures.

Each socket belongs to its own user (a user's sockets all hear about its conversations).
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import connections

from bench.common import percentile, print_table
from conversations.agents import services as agent_services
from conversations.models import Tenant, new_id
from conversations.tenancy.services import tenant_create, token_issue, user_add

ROOT = Path(__file__).resolve().parent.parent
DAPHNE = Path(sys.executable).with_name("daphne")
MESSAGES = ("list my agents", "what can you do?", "tell me about notion-reporter", "run it")
OFFERED_RATE = 25.0
OFFERED_SECONDS = 20.0
CAPACITY_SECONDS = 15.0
TARGET_FIRST_CHUNK_P95_MS = 50.0
TURN_ORDER = ("ack", "thinking", "intent")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class _Server:
    def __init__(self, app: str, *, redis: bool) -> None:
        self.port = _free_port()
        env = {
            **os.environ,
            "LOG_LEVEL": "WARNING",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "OMNIFORGE_WS_BURST": "100000",
            "OMNIFORGE_WS_RATE_PER_S": "100000",
        }
        if not redis:
            env.pop("REDIS_URL", None)
        self.process = subprocess.Popen(
            [str(DAPHNE), "-b", "127.0.0.1", "-p", str(self.port), app],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    time.sleep(1.0)  # the offline model trains in a startup thread
                    return
            time.sleep(0.1)
        raise RuntimeError(f"{app} did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=15)


# --- the floor -------------------------------------------------------------------------------


async def _echo_floor(port: int) -> tuple[float, float]:
    import aiohttp

    url = f"ws://127.0.0.1:{port}/echo/"
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(url)
        trips = []
        for n in range(500):
            start = time.perf_counter()
            await ws.send_str(f'{{"n": {n}}}')
            await ws.receive_str()
            trips.append(time.perf_counter() - start)
        await ws.close()
        sockets = [await session.ws_connect(url) for _ in range(50)]
        count = 0
        stop_at = time.monotonic() + 5.0

        async def loop(ws: Any) -> None:
            nonlocal count
            while time.monotonic() < stop_at:
                await ws.send_str('{"type": "message", "content": "echo"}')
                await ws.receive_str()
                count += 1

        started = time.monotonic()
        await asyncio.gather(*(loop(ws) for ws in sockets))
        elapsed = time.monotonic() - started
        for ws in sockets:
            await ws.close()
    return percentile(trips, 50) * 1e3, count / elapsed


# --- chat turns ------------------------------------------------------------------------------


@dataclass
class _Turn:
    sent_at: float
    first_chunk: float | None = None
    done: float | None = None
    kinds: list[str] = field(default_factory=list)
    dones: int = 0


@dataclass
class _Client:
    ws: Any
    turns: dict[str, _Turn] = field(default_factory=dict)
    order_errors: int = 0
    stray: int = 0
    current: str | None = None  # frames after the ack carry no client_message_id
    finished: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        while True:
            message = await self.ws.receive()
            if message.type.name != "TEXT":
                return
            frame = message.json()
            kind = frame["type"]
            if kind in ("conversation", "ready"):
                continue
            cmid = frame.get("client_message_id") or self.current
            turn = self.turns.get(cmid or "")
            if turn is None:
                self.stray += 1
                continue
            if kind == "ack":
                self.current = cmid
            turn.kinds.append(kind)
            now = time.perf_counter()
            if kind == "chunk" and turn.first_chunk is None:
                turn.first_chunk = now
            if kind == "done":
                turn.done, turn.dones = now, turn.dones + 1
                if turn.kinds[:3] != list(TURN_ORDER) or set(turn.kinds[3:-1]) != {"chunk"}:
                    self.order_errors += 1
                self.finished.set()

    async def send(self, n: int) -> None:
        cmid = new_id()
        self.turns[cmid] = _Turn(time.perf_counter())
        self.current = cmid
        self.finished.clear()
        content = MESSAGES[n % len(MESSAGES)]
        await self.ws.send_json({"type": "message", "content": content, "client_message_id": cmid})


async def _connect(session: Any, ports: Sequence[int], tokens: Sequence[str]) -> list[_Client]:
    clients = []
    for n, token in enumerate(tokens):
        port = ports[n % len(ports)]
        ws = await session.ws_connect(
            f"ws://127.0.0.1:{port}/ws/chat/", headers={"Authorization": f"Token {token}"}
        )
        ready = await ws.receive_json()
        assert ready["type"] == "ready", ready
        clients.append(_Client(ws))
    return clients


def _session() -> Any:
    import aiohttp

    # aiohttp holds at most 100 connections by default; every socket here is one.
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))


async def _offered(ports: Sequence[int], tokens: Sequence[str]) -> dict[str, Any]:
    async with _session() as session:
        clients = await _connect(session, ports, tokens)
        readers = [asyncio.create_task(c.read()) for c in clients]
        interval = 1.0 / OFFERED_RATE
        total = int(OFFERED_RATE * OFFERED_SECONDS)
        started = time.perf_counter()
        for n in range(total):
            delay = started + n * interval - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            await clients[n % len(clients)].send(n)
        deadline = time.perf_counter() + 15
        while time.perf_counter() < deadline:
            if all(t.done for c in clients for t in c.turns.values()):
                break
            await asyncio.sleep(0.05)
        for reader in readers:
            reader.cancel()
        for client in clients:
            await client.ws.close()
    return _summary(clients, total, time.perf_counter() - started)


async def _capacity(ports: Sequence[int], tokens: Sequence[str]) -> float:
    async with _session() as session:
        clients = await _connect(session, ports, tokens)
        readers = [asyncio.create_task(c.read()) for c in clients]
        stop_at = time.perf_counter() + CAPACITY_SECONDS
        done = 0

        async def loop(client: _Client, offset: int) -> None:
            nonlocal done
            n = offset
            while time.perf_counter() < stop_at:
                await client.send(n)
                await client.finished.wait()
                done += 1
                n += 1

        started = time.perf_counter()
        await asyncio.gather(*(loop(c, i) for i, c in enumerate(clients)))
        elapsed = time.perf_counter() - started
        for reader in readers:
            reader.cancel()
        for client in clients:
            await client.ws.close()
    return done / elapsed


def _summary(clients: Sequence[_Client], total: int, elapsed: float) -> dict[str, Any]:
    turns = [t for c in clients for t in c.turns.values()]
    answered = [t for t in turns if t.done is not None]
    first = [(t.first_chunk - t.sent_at) * 1e3 for t in answered if t.first_chunk]
    whole = [(t.done - t.sent_at) * 1e3 for t in answered if t.done]
    return {
        "turns": total,
        "elapsed": elapsed,
        "lost": total - len(answered),
        "duplicated": sum(max(0, t.dones - 1) for t in turns) + sum(c.stray for c in clients),
        "out_of_order": sum(c.order_errors for c in clients),
        "first": [percentile(first, p) for p in (50, 95, 99)],
        "done": [percentile(whole, p) for p in (50, 95, 99)],
    }


def _world(users: int) -> tuple[Tenant, list[Any], list[str]]:
    suffix = new_id().lower()[-8:]
    tenant = tenant_create(slug=f"bench-ws-{suffix}", name="bench")
    people = [user_add(tenant=tenant, username=f"bench-ws-{suffix}-{n}").user for n in range(users)]
    for name in ("notion-reporter", "jira-monitor", "financial-analyzer"):
        agent_services.agent_create(tenant=tenant, name=name, description=f"the {name}")
    tokens = [token_issue(user=u) for u in people]
    connections.close_all()  # the servers must not wait behind this process's connection
    return tenant, people, tokens


def _cleanup(tenant: Tenant, people: Sequence[Any]) -> None:
    # cross-tenant: benchmark data cleanup, scoped to the bench tenant by the cascade.
    tenant.delete()
    for person in people:
        person.delete()


def _load(label: str, processes: int, users: int, *, redis: bool) -> list[list[object]]:
    tenant, people, tokens = _world(users)
    servers = [_Server("config.asgi:application", redis=redis) for _ in range(processes)]
    ports = [s.port for s in servers]
    try:
        offered = asyncio.run(_offered(ports, tokens))
        capacity = asyncio.run(_capacity(ports, tokens[: min(len(tokens), 50)]))
    finally:
        for server in servers:
            server.stop()
        _cleanup(tenant, people)
    first, whole = offered["first"], offered["done"]
    return [
        [
            label,
            f"{offered['turns']} in {offered['elapsed']:.1f} s",
            *(f"{v:.1f}" for v in first),
            *(f"{v:.1f}" for v in whole),
            offered["lost"],
            offered["duplicated"],
            offered["out_of_order"],
            f"{capacity:.0f}",
        ]
    ]


def run() -> None:
    echo = _Server("bench.echo:application", redis=False)
    try:
        rtt_ms, echo_rate = asyncio.run(_echo_floor(echo.port))
    finally:
        echo.stop()
    print_table(
        "WebSocket floor: a bare Channels echo consumer under Daphne",
        ["round trip p50 ms", "messages/s (50 sockets, closed loop)"],
        [[f"{rtt_ms:.2f}", f"{echo_rate:.0f}"]],
    )
    vendor = connections["default"].vendor
    rows = _load(f"1 process, 50 sockets ({vendor})", 1, 50, redis=False)
    postgres = vendor == "postgresql" and os.environ.get("REDIS_URL")
    if postgres:
        rows += _load("2 processes, 200 sockets (postgresql, redis)", 2, 200, redis=True)
    print_table(
        f"Chat over WebSockets, offline tier: {OFFERED_RATE:.0f} turns/s offered for "
        f"{OFFERED_SECONDS:.0f} s (ms from send), then capacity (closed loop, 50 sockets)",
        [
            "setup", "offered", "first chunk p50", "p95", "p99", "done p50", "p95", "p99",
            "lost", "duplicated", "out of order", "capacity turns/s",
        ],
        rows,
    )  # fmt: skip
    capacity = float(rows[0][-1])
    print(
        f"\nCapacity of one process: {capacity:.0f} turns/s, {capacity / echo_rate:.3f} of the "
        f"echo floor's {echo_rate:.0f} messages/s (aim: 150 turns/s)."
    )
    first_p95 = float(rows[0][3])
    verdict = "met" if first_p95 < TARGET_FIRST_CHUNK_P95_MS else "MISSED"
    print(f"Target p95 time to first chunk under {TARGET_FIRST_CHUNK_P95_MS:.0f} ms: {verdict}")
