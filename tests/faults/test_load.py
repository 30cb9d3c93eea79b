"""Load drill: 200 WebSocket clients of 20 turns each on two Daphne processes sharing PostgreSQL
and Redis, with a burst of REST traffic on both at the same time.

What it proves, from the frames every socket received and from the rows stored:

- no message is lost or duplicated: 4,000 WebSocket turns store exactly 8,000 messages (plus two
  per REST chat turn), and every ``client_message_id`` is stored exactly once;
- none is reordered: each conversation's ``seq`` is 1..N without a gap, every assistant message
  directly follows the user message it answers (``reply_to``), and each client's own messages
  are stored in the order it sent them;
- every socket on a conversation sees the same order: the two sockets of a conversation (one on
  each server process, the same user, sending at the same time) receive the identical sequence
  of ``ack``/``thinking``/``intent``/``chunk``/``done`` frames, turn after turn without
  interleaving, and its acks and dones name the stored messages in the stored order;
- nothing fails under the load: no ``error`` frame, no socket closed, every turn gets its
  ``done``, every REST answer is a 200, both processes still serve, no traceback in their logs;
  and a REST read taken mid-drill shows a gapless, in-order slice of the conversation.

It prints the figures docs/BENCHMARKS.md quotes: wall time, turns a second, turn latency
(send → ``done``) p50/p95/p99, REST p50/p95, counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from django.db import connections

from conversations.models import Conversation, Message, Tenant
from conversations.store import services
from conversations.tenancy.services import tenant_create, token_issue, user_add
from tests.live import Server

TENANTS = 10
USERS_PER_TENANT = 10  # one conversation each, with two sockets: 100 conversations, 200 sockets
TURNS = 20  # per socket
REST_USERS_PER_TENANT = 2
REST_CHATS_PER_USER = 15  # 300 POST chat/, each opening a conversation of its own
REST_THREADS = 8
TURN_TIMEOUT_S = 90.0  # a turn waits at most one other turn (TURN_WAIT_S is 30 s)
TEXTS = ("list my agents", "show my agents")  # the offline tier answers both at once

WS_CONVERSATIONS = TENANTS * USERS_PER_TENANT
WS_TURNS = WS_CONVERSATIONS * 2 * TURNS
REST_CHATS = TENANTS * REST_USERS_PER_TENANT * REST_CHATS_PER_USER
TURN_KINDS = ("ack", "thinking", "intent")


def percentile(values: Sequence[float], pct: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))]


def _ms(seconds: Sequence[float]) -> str:
    return ", ".join(f"p{p} {percentile(seconds, p) * 1e3:.0f} ms" for p in (50, 95, 99))


@dataclass
class Client:
    """One socket: it sends its own turns and records every turn frame it hears, in order."""

    label: str  # "c017a": conversation 17, socket a
    conversation_id: str
    server: Server
    token: str
    run: str
    ws: Any = None
    frames: list[dict[str, Any]] = field(default_factory=list)  # turn frames, as received
    arrived: dict[tuple[str, str], float] = field(default_factory=dict)  # (ack|done, id) -> when
    sidebar: int = 0  # "conversation" frames: one per commit in the user's conversation
    sent: list[str] = field(default_factory=list)  # own client_message_ids, in order
    latencies: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    close_code: int | None = None
    heard_all: asyncio.Event = field(default_factory=asyncio.Event)  # both sockets' turns
    dones: int = 0
    _acked: dict[str, str] = field(default_factory=dict)  # own user message id -> cmid
    _waiting: dict[str, asyncio.Future[float]] = field(default_factory=dict)

    def cmid(self, turn: int) -> str:
        return f"{self.run}-{self.label}-t{turn:02d}"

    def content(self, turn: int) -> str:
        return f"{TEXTS[turn % len(TEXTS)]} ({self.label} t{turn:02d})"

    async def open(self, session: aiohttp.ClientSession) -> None:
        self.ws = await session.ws_connect(
            f"ws://127.0.0.1:{self.server.port}/ws/chat/?conversation_id={self.conversation_id}",
            headers={"Authorization": f"Token {self.token}"},
        )
        ready = await self.ws.receive_json(timeout=30)
        assert ready["type"] == "ready", ready
        assert ready["conversation_id"] == self.conversation_id
        assert ready["history"] == []

    async def read(self) -> None:
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                self.problems.append(f"{self.label}: unexpected {message.type.name} message")
                break
            frame = json.loads(message.data)
            kind = frame["type"]
            if kind == "conversation":
                self.sidebar += 1
                continue
            self.frames.append(frame)
            if kind in ("ack", "done"):
                self.arrived[kind, frame["message_id"]] = time.perf_counter()
            if kind == "ack" and frame.get("client_message_id") in self._waiting:
                self._acked[frame["message_id"]] = frame["client_message_id"]
            elif kind == "done":
                self.dones += 1
                if self.dones == 2 * TURNS:
                    self.heard_all.set()
                cmid = self._acked.pop(frame["message"]["metadata"].get("reply_to"), None)
                if cmid is not None:
                    self._waiting.pop(cmid).set_result(time.perf_counter())
            elif kind == "error":
                self.problems.append(f"{self.label}: error frame {frame}")
                cmid = frame.get("client_message_id")
                if cmid in self._waiting:
                    self._waiting.pop(cmid).set_exception(AssertionError(f"error frame {frame}"))
        self.close_code = self.ws.close_code

    async def talk(self, start: asyncio.Event) -> None:
        """Twenty turns, each sent once the previous one's ``done`` arrived."""
        await start.wait()
        loop = asyncio.get_running_loop()
        for turn in range(1, TURNS + 1):
            cmid = self.cmid(turn)
            answered = self._waiting[cmid] = loop.create_future()
            self.sent.append(cmid)
            sent_at = time.perf_counter()
            await self.ws.send_json(
                {"type": "message", "content": self.content(turn), "client_message_id": cmid}
            )
            try:
                done_at = await asyncio.wait_for(answered, TURN_TIMEOUT_S)
            except TimeoutError:
                self.problems.append(f"{self.label}: no done for {cmid} in {TURN_TIMEOUT_S} s")
                return
            except AssertionError as exc:
                self.problems.append(f"{self.label}: {cmid} failed: {exc}")
                return
            self.latencies.append(done_at - sent_at)


@dataclass
class RestCall:
    kind: str
    status: int
    seconds: float
    body: Any
    path: str
    conversation_id: str | None = None


def _rest(
    server: Server, kind: str, token: str, path: str, conversation_id: str | None
) -> RestCall:
    body = {"message": f"list my agents (rest {uuid.uuid4().hex[:8]})"} if kind == "chat" else None
    started = time.perf_counter()
    status, _, raw = server.request(
        "POST" if kind == "chat" else "GET", path, token=token, body=body, timeout=60
    )
    seconds = time.perf_counter() - started
    try:
        parsed = json.loads(raw)
    except ValueError:
        parsed = raw[:500]
    return RestCall(kind, status, seconds, parsed, path, conversation_id)


def _rest_burst(
    pair: Sequence[Server],
    rest_tokens: Sequence[str],
    ws_tokens: Sequence[str],
    conversation_ids: Sequence[str],
) -> list[RestCall]:
    """POST chat/ on new conversations, and reads of the busy ones, from a few threads."""
    jobs: list[tuple[str, str, str, str | None]] = []
    for n in range(REST_CHATS_PER_USER):
        for token in rest_tokens:
            jobs.append(("chat", token, "/api/v1/chat/", None))
        # Reads of the conversations the sockets are busy on, by their owners, spread along.
        for k in range(n, WS_CONVERSATIONS, REST_CHATS_PER_USER):
            token, conversation_id = ws_tokens[k], conversation_ids[k]
            jobs.append(("list", token, "/api/v1/conversations/", None))
            jobs.append(
                (
                    "messages",
                    token,
                    f"/api/v1/conversations/{conversation_id}/messages/?limit=100",
                    conversation_id,
                )
            )
            jobs.append(
                (
                    "messages",
                    token,
                    f"/api/v1/conversations/{conversation_id}/messages/?limit=7",
                    conversation_id,
                )
            )
    with ThreadPoolExecutor(REST_THREADS, thread_name_prefix="rest") as pool:
        calls = pool.map(lambda job: _rest(pair[job[0] % 2], *job[1]), enumerate(jobs), chunksize=1)
        return list(calls)


def _slice_problem(page_ids: list[str], stored_ids: list[str]) -> str | None:
    """A page read mid-drill must be a gapless, in-order slice of what ends up stored."""
    if not page_ids:
        return None
    try:
        start = stored_ids.index(page_ids[0])
    except ValueError:
        return f"page starts with {page_ids[0]}, never stored"
    if stored_ids[start : start + len(page_ids)] != page_ids:
        return f"page {page_ids} is not the stored slice from position {start}"
    return None


def _turns_of(frames: list[dict[str, Any]]) -> tuple[list[list[dict[str, Any]]], list[str]]:
    """The frames cut into turns, and what is wrong with their grammar (interleaving)."""
    turns: list[list[dict[str, Any]]] = []
    problems = []
    for frame in frames:
        if frame["type"] == "ack":
            turns.append([frame])
        elif not turns or turns[-1][-1]["type"] == "done":
            problems.append(f"a {frame['type']} frame outside a turn")
        else:
            turns[-1].append(frame)
    for turn in turns:
        kinds = [f["type"] for f in turn]
        if tuple(kinds[:3]) != TURN_KINDS or kinds[-1] != "done" or set(kinds[3:-1]) != {"chunk"}:
            problems.append(f"turn {turn[0].get('client_message_id')} frames {kinds}")
            continue
        if "".join(f["content"] for f in turn[3:-1]) != turn[-1]["content"]:
            problems.append(f"turn {turn[0].get('client_message_id')}: chunks != done content")
        if turn[-1]["message"]["metadata"].get("reply_to") != turn[0]["message_id"]:
            problems.append(f"turn {turn[0].get('client_message_id')}: done answers another")
    return turns, problems


def _order_findings(a: Client, b: Client, rows: list[Message]) -> list[str]:
    """What two sockets of one conversation saw that differs between them or from the store."""
    if a.frames != b.frames:
        first = next(
            i for i, (x, y) in enumerate(itertools.zip_longest(a.frames, b.frames)) if x != y
        )

        def around(frames: list[dict[str, Any]]) -> list[str]:
            return [
                f"{f['type']}:{f.get('message_id', '')[-6:]}"
                for f in frames[max(0, first - 2) : first + 4]
            ]

        return [
            f"{a.label}/{b.label}: {len(a.frames)}/{len(b.frames)} turn frames, differing from "
            f"#{first}: {around(a.frames)} vs {around(b.frames)}"
        ]
    turns, grammar = _turns_of(a.frames)
    findings = [f"{a.label}/{b.label}: {g}" for g in grammar]
    seen = [(t[0]["message_id"], t[-1]["message_id"]) for t in turns]
    if seen != [(u.id, r.id) for u, r in zip(rows[::2], rows[1::2], strict=True)]:
        findings.append(f"{a.label}/{b.label}: the turns seen are not the turns stored, in order")
    return findings


@pytest.mark.timeout(600)
@pytest.mark.django_db(transaction=True)
def test_two_hundred_sockets_on_two_processes_lose_duplicate_and_reorder_nothing(
    servers: list[Server],
) -> None:
    run = uuid.uuid4().hex[:8]
    tenants: list[Tenant] = []
    ws_tokens: list[str] = []
    rest_tokens: list[str] = []
    conversations: list[Conversation] = []
    for t in range(TENANTS):
        tenant = tenant_create(slug=f"load-{run}-{t}", name=f"Load {t}")
        tenants.append(tenant)
        for u in range(USERS_PER_TENANT):
            user = user_add(tenant=tenant, username=f"load-{run}-{t}-{u}").user
            ws_tokens.append(token_issue(user=user))
            conversations.append(services.conversation_create(tenant=tenant, user=user))
        for u in range(REST_USERS_PER_TENANT):
            user = user_add(tenant=tenant, username=f"load-{run}-{t}-rest-{u}").user
            rest_tokens.append(token_issue(user=user))
    conversation_ids = [c.id for c in conversations]
    connections.close_all()  # the servers must not wait on this process's connection

    shared = {
        "REDIS_URL": os.environ["REDIS_URL"],
        "CHANNEL_LAYER_PREFIX": f"load-{os.getpid()}-{run}",
        # This drill measures capacity and ordering, not throttling (the throttles have tests
        # of their own). The load is spread over 10 tenants and 120 users anyway, but a closed-
        # loop client answering at machine speed outruns a socket's 2 messages a second, and the
        # servers' per-minute counters live in a Redis cache shared, unprefixed, with whatever
        # else runs on this machine's Redis at the same time (users there have the same ids).
        "OMNIFORGE_WS_BURST": "100000",
        "OMNIFORGE_WS_RATE_PER_S": "100000",
        "OMNIFORGE_WS_USER_PER_MIN": "1000000",
        "OMNIFORGE_WS_TENANT_PER_MIN": "1000000",
        "API_THROTTLE_RATE": "1000000/min",
        "TENANT_THROTTLE_RATE": "1000000/min",
    }
    pair = [Server(env=shared), Server(env=shared)]
    servers.extend(pair)

    clients = [
        Client(f"c{n:03d}{side}", conversation_ids[n], pair[s], ws_tokens[n], run)
        for n in range(WS_CONVERSATIONS)
        for s, side in enumerate("ab")
    ]
    rest_calls: list[RestCall] = []
    figures: dict[str, float] = {}

    async def drill() -> None:
        connector = aiohttp.TCPConnector(limit=0)  # aiohttp holds 100 connections by default
        timeout = aiohttp.ClientTimeout(total=None, connect=30)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            for first in range(0, len(clients), 20):
                await asyncio.gather(*(c.open(session) for c in clients[first : first + 20]))
            readers = [asyncio.create_task(c.read()) for c in clients]
            start = asyncio.Event()
            talkers = [asyncio.create_task(c.talk(start)) for c in clients]
            loop = asyncio.get_running_loop()
            started = time.perf_counter()
            start.set()
            rest = loop.run_in_executor(
                None, _rest_burst, pair, rest_tokens, ws_tokens, conversation_ids
            )
            rest.add_done_callback(
                lambda _: figures.update(rest_seconds=time.perf_counter() - started)
            )
            await asyncio.gather(*talkers)
            figures["ws_seconds"] = time.perf_counter() - started
            rest_calls.extend(await rest)
            # The other socket's last frames may still be on their way through Redis.
            heard = [c.heard_all.wait() for c in clients if not c.problems]
            with contextlib.suppress(TimeoutError):  # asserted below, frame by frame
                await asyncio.wait_for(asyncio.gather(*heard), 30)
            for client in clients:
                await client.ws.close()
            await asyncio.gather(*readers)

    asyncio.run(drill())

    # --- figures (printed before any assertion, so a failing run still shows them) ---
    latencies = [s for c in clients for s in c.latencies]
    by_kind: dict[str, list[RestCall]] = {}
    for call in rest_calls:
        by_kind.setdefault(call.kind, []).append(call)
    ws_seconds = figures["ws_seconds"]
    print(
        f"\nload drill: {len(clients)} sockets on 2 Daphne processes, {WS_CONVERSATIONS} "
        f"conversations; {len(latencies)}/{WS_TURNS} WS turns in {ws_seconds:.1f} s "
        f"({len(latencies) / ws_seconds:.1f} turns/s); turn latency send->done: "
        f"{_ms(latencies)}, max {max(latencies, default=0) * 1e3:.0f} ms"
    )
    print(
        f"REST burst alongside: {len(rest_calls)} requests, all answered "
        f"{figures['rest_seconds']:.1f} s after the start; {_ms([c.seconds for c in rest_calls])}; "
        f"statuses "
        f"{dict(Counter(c.status for c in rest_calls))}"
    )
    for kind, calls in by_kind.items():
        print(f"  {kind}: {len(calls)} requests, {_ms([c.seconds for c in calls])}")
    print(
        f"frames: {sum(len(c.frames) for c in clients)} turn frames and "
        f"{sum(c.sidebar for c in clients)} sidebar frames received by the sockets "
        f"(at least {2 * 5 * WS_TURNS} and {2 * WS_TURNS} expected)"
    )
    # An ack or done reaches the asking socket directly, the other one through Redis.
    lags = [
        abs(there - here)
        for n in range(WS_CONVERSATIONS)
        for key, here in clients[2 * n].arrived.items()
        if (there := clients[2 * n + 1].arrived.get(key)) is not None
    ]
    print(
        f"cross-process delivery lag of ack/done frames: {_ms(lags)}, "
        f"max {max(lags, default=0) * 1e3:.0f} ms"
    )

    # --- what the users saw and what is stored, summed up before any assertion ---
    stored: dict[str, list[Message]] = {
        c.id: list(c.messages.order_by("seq")) for c in conversations
    }
    health = [server.request("GET", "/healthz") for server in pair]
    seen_findings = [
        finding
        for n, conversation in enumerate(conversations)
        for finding in _order_findings(clients[2 * n], clients[2 * n + 1], stored[conversation.id])
    ]
    problems = [p for c in clients for p in c.problems]
    lost = [
        f"{c.label}: {kinds['ack']} acks and {kinds['done']} dones of {2 * TURNS}"
        for c in clients
        if (kinds := Counter(f["type"] for f in c.frames))["ack"] != 2 * TURNS
        or kinds["done"] != 2 * TURNS
    ]
    short_sidebar = [c.label for c in clients if c.sidebar != 2 * TURNS]
    print(
        f"findings: {len(problems)} socket problems (error frames, missing done), "
        f"{len(lost)} sockets missing acks or dones of the other socket's turns, "
        f"{len(seen_findings)} ordering findings, {len(short_sidebar)} sockets without one "
        f"sidebar frame per turn of their conversation, REST non-200 "
        f"{sum(c.status != 200 for c in rest_calls)}, /healthz {[h[0] for h in health]}"
    )
    for finding in (problems + lost[:5] + seen_findings)[:10]:
        print(f"  {finding}")

    # --- every turn answered, nothing refused ---
    assert problems == [], problems[:20]
    assert [c.label for c in clients if c.close_code not in (None, 1000)] == []
    assert all(len(c.latencies) == TURNS for c in clients)
    assert [(c.kind, c.status, c.body) for c in rest_calls if c.status != 200][:10] == []

    # --- what is stored ---
    counted = sum(Message.objects.for_tenant(t).count() for t in tenants)
    assert counted == 2 * WS_TURNS + 2 * REST_CHATS

    for n, conversation in enumerate(conversations):
        rows = stored[conversation.id]
        assert [m.seq for m in rows] == list(range(1, 4 * TURNS + 1)), conversation.id
        conversation.refresh_from_db()
        assert conversation.message_count == 4 * TURNS
        assert conversation.turn_owner == ""
        for user_row, reply in zip(rows[::2], rows[1::2], strict=True):
            assert (user_row.role, reply.role) == ("user", "assistant"), conversation.id
            assert reply.reply_to == user_row.id == reply.metadata["reply_to"]
            assert "degraded" not in reply.metadata and "interrupted" not in reply.metadata
        cmids = [str(m.client_message_id) for m in rows if m.role == "user"]
        a, b = clients[2 * n], clients[2 * n + 1]
        assert sorted(cmids) == sorted(a.sent + b.sent)  # each stored once, none lost
        for client in (a, b):  # each client's own messages in the order it sent them
            assert [c for c in cmids if c in client.sent] == client.sent
        contents = {m.client_message_id: m.content for m in rows if m.role == "user"}
        for client in (a, b):
            for turn, cmid in enumerate(client.sent, start=1):
                assert contents[cmid] == client.content(turn)

    rest_chats = by_kind["chat"]
    assert len(rest_chats) == REST_CHATS
    for call in rest_chats:
        conversation_id = call.body["conversation_id"]
        user_id, reply_id = call.body["user_message"]["id"], call.body["assistant_message"]["id"]
        owned = [
            m
            for t in tenants
            for m in Message.objects.for_tenant(t).filter(conversation_id=conversation_id)
        ]
        assert sorted((m.seq, m.id, m.reply_to) for m in owned) == [
            (1, user_id, ""),
            (2, reply_id, user_id),
        ]

    # --- REST reads taken mid-drill: in-order, gapless slices of what was stored ---
    for call in by_kind["messages"]:
        assert call.conversation_id is not None
        page_ids = [m["id"] for m in call.body["results"]]
        stored_ids = [m.id for m in stored[call.conversation_id]]
        problem = _slice_problem(page_ids, stored_ids)
        assert problem is None, problem
        if call.path.endswith("limit=100"):  # a conversation holds 80 at most: one page
            assert call.body["next"] is None
    for call in by_kind["list"]:
        assert {c["id"] for c in call.body["results"]} <= set(conversation_ids)

    # --- what the users saw ---
    # Every socket on a conversation heard every turn of it, its own and the other socket's...
    assert lost == [], lost[:20]
    # ...the same frames, turn after turn, in the stored order.
    assert seen_findings == [], seen_findings[:20]
    # And every socket of a user heard of each change to the user's conversation (the sidebar).
    assert short_sidebar == []

    # --- both processes came through ---
    for server, (status, _, body) in zip(pair, health, strict=True):
        assert server.process is not None and server.process.poll() is None, server.log()[-4000:]
        assert status == 200, body
        log = server.log()
        assert "Traceback" not in log, log[-4000:]
        assert " ERROR " not in log, log[-4000:]
