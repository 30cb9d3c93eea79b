"""LLM provider drill: 50 WebSocket clients chat on one Daphne (PostgreSQL + Redis) while the
OpenAI-compatible provider it classifies intents with fails in every way the intent service
handles, side by side with healthy answers.

The provider is the scripted server of ``tests/intents/llm_server.py`` in this process. Each turn
carries a tag (``[s07 t3]``: socket 7, turn 3) that tells it how to answer every attempt of that
turn, so which turns fail, and how, is known in advance:

- timeouts (every attempt slower than ``OMNIFORGE_INTENT_TIMEOUT_S``), HTTP 429, HTTP 500, a 200
  whose body is not JSON (a proxy's HTML page): transient, so retried to exhaustion
  (``OMNIFORGE_INTENT_MAX_RETRIES``), then answered by the offline tier;
- malformed output, not retried, answered by the offline tier: prose with no JSON in it, and
  JSON that is no object (an array);
- a 429 once, then a good answer: the retry recovers and the LLM answers;
- JSON that is an object but not a valid intent (an unknown action, a wordy confidence): the
  parser coerces it rather than rejecting it (intents/llm/parsing.py says why), so the LLM
  answers with ``unknown`` and a clarifying question; no fallback;
- healthy answers.

What it proves, from the frames each socket received and from the rows stored:

- every turn is answered: ``ack``, ``thinking``, ``intent``, ``chunk``s and a non-empty ``done``,
  no ``error`` frame, each turn within the retry budget (send → done);
- nothing is lost or duplicated: exactly two stored messages per turn, each ``client_message_id``
  stored once, in the order sent, each reply directly after the message it answers;
- the fallback is recorded: a turn whose LLM call failed has ``method: offline`` (and no model)
  in its ``intent`` frame, ``intent_usage.fallback_reason`` (timeout, rate_limited,
  server_error, unparseable) in its ``done`` frame's message and in the stored assistant
  message, whose ``intent_method`` column says ``offline``; the server's Prometheus counters
  (``omniforge_intent_fallbacks_total`` by reason, ``omniforge_intent_classifications_total`` by
  method) grew by exactly those turns; a turn the LLM answered says ``llm``, names the model
  and records how many attempts it took;
- the provider saw every failure kind, and exactly the requests the retry policy allows (one per
  attempt, none for a turn it should not have been asked about).

It prints the figures docs/BENCHMARKS.md quotes: wall time, turns, failures by kind, turn
latency (send → ``done``) p50/p95 overall and by kind.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from django.db import connections
from prometheus_client.parser import text_string_to_metric_families

from conversations.models import Conversation, Message, Tenant
from conversations.tenancy.services import tenant_create, token_issue, user_add
from intents.llm.client import BACKOFF_CAP_S, WAIT_FOR_EXTRA_S, WAIT_FOR_SLACK
from tests.intents.llm_server import RecordedRequest, Reply, running_server
from tests.live import LiveSocket, Server

USERS = 10
SOCKETS_PER_USER = 5  # each socket opens a conversation of its own: 50 conversations
SOCKETS = USERS * SOCKETS_PER_USER
TURNS = 5  # per socket: 250 turns
MODEL = "openai/test-model"
# The production defaults (CONTRACT.md, config/settings.py): 3 s an attempt, two retries, and
# 0.25 s as the base of the jittered exponential backoff.
TIMEOUT_S = 3.0
MAX_RETRIES = 2
BACKOFF_S = 0.25
SLOW_S = TIMEOUT_S + 2.0  # a "timeout" reply comes this late, long after the client gave up
# The longest a turn may take: every attempt timing out, the longest backoffs, and slack for
# the offline tier, the database and a loaded 2-core machine.
ATTEMPT_BOUND_S = TIMEOUT_S * WAIT_FOR_SLACK + WAIT_FOR_EXTRA_S
TURN_BOUND_S = (MAX_RETRIES + 1) * ATTEMPT_BOUND_S + MAX_RETRIES * BACKOFF_CAP_S + 10.0

# What each socket says, turn after turn (rotated per socket), and what a good model answers.
TEXTS: tuple[tuple[str, str], ...] = (
    ("list my agents", "query_info"),
    ("what can you do?", "query_info"),
    (
        "Create an agent that sends me a summary of new Notion pages every Monday at 9am",
        "create_agent",
    ),
    ("show me my agents", "query_info"),
    ("how do I run an agent?", "query_info"),
    ("where were we?", "query_info"),
)
TAG = re.compile(r"\[s(\d+) t(\d+)\]")
USER_MESSAGE = re.compile(r"<user_message>\n(.*?)\n</user_message>", re.DOTALL)


@dataclass(frozen=True)
class Kind:
    """One way the provider answers a turn, and what the product must make of it."""

    name: str
    method: str  # the intent's method: "llm" or "offline"
    reason: str | None  # intent_usage.fallback_reason when the offline tier answered
    attempts: int  # HTTP requests the turn costs the provider


TRANSIENT_ATTEMPTS = MAX_RETRIES + 1
KINDS = {
    kind.name: kind
    for kind in (
        Kind("healthy", "llm", None, 1),
        Kind("timeout", "offline", "timeout", TRANSIENT_ATTEMPTS),
        Kind("http_429", "offline", "rate_limited", TRANSIENT_ATTEMPTS),
        Kind("http_500", "offline", "server_error", TRANSIENT_ATTEMPTS),
        Kind("body_not_json", "offline", "server_error", TRANSIENT_ATTEMPTS),
        Kind("prose", "offline", "unparseable", 1),
        Kind("json_not_an_object", "offline", "unparseable", 1),
        Kind("invalid_intent_object", "llm", None, 1),
        Kind("429_then_ok", "llm", None, 2),
    )
}
# Turn n of the drill (socket-major) answers as CYCLE[n % len(CYCLE)]: every kind many times,
# a third of the turns healthy, and at most one slow (timeout) turn per socket.
CYCLE = (
    "healthy",
    "timeout",
    "http_429",
    "healthy",
    "prose",
    "http_500",
    "429_then_ok",
    "healthy",
    "json_not_an_object",
    "body_not_json",
    "healthy",
    "invalid_intent_object",
)


@dataclass(frozen=True)
class PlannedTurn:
    socket: int
    turn: int
    text: str
    action: str  # what a healthy model answers
    kind: Kind
    run: str

    @property
    def tag(self) -> str:
        return f"[s{self.socket:02d} t{self.turn}]"

    @property
    def content(self) -> str:
        return f"{self.text} {self.tag}"

    @property
    def cmid(self) -> str:
        return f"llm-{self.run}-s{self.socket:02d}-t{self.turn}"


def plan(run: str) -> list[list[PlannedTurn]]:
    turns = []
    for socket in range(SOCKETS):
        own = []
        for turn in range(1, TURNS + 1):
            text, action = TEXTS[(socket + turn - 1) % len(TEXTS)]
            kind = KINDS[CYCLE[(socket * TURNS + turn - 1) % len(CYCLE)]]
            own.append(PlannedTurn(socket, turn, text, action, kind, run))
        turns.append(own)
    return turns


class Provider:
    """The scripted provider's answers: each turn's by its tag, the warm-up's healthy."""

    def __init__(self, turns: Sequence[PlannedTurn]) -> None:
        self.by_tag = {t.tag: t for t in turns}
        self.attempts: Counter[str] = Counter()  # only touched under the server's lock

    @staticmethod
    def tag_of(request: RecordedRequest) -> str | None:
        prompt = str(request.messages[-1].get("content", "")) if request.messages else ""
        asked = USER_MESSAGE.findall(prompt)
        found = TAG.search(asked[-1]) if asked else None
        return f"[s{int(found[1]):02d} t{found[2]}]" if found else None

    def __call__(self, request: RecordedRequest) -> Reply:
        tag = self.tag_of(request)
        planned = self.by_tag.get(tag) if tag else None
        if planned is None:  # the warm-up turn
            return Reply.intent("query_info", 0.95)
        self.attempts[planned.tag] += 1
        good = Reply.intent(planned.action, 0.9)
        match planned.kind.name:
            case "healthy":
                return good
            case "timeout":
                return Reply.slow(SLOW_S, planned.action)
            case "http_429":
                return Reply.error(429, "Rate limit reached for requests")
            case "http_500":
                return Reply.error(500, "The server had an error while processing your request")
            case "body_not_json":
                return Reply(raw_body=b"<html><body><h1>502 Bad Gateway</h1></body></html>")
            case "prose":
                return Reply.text("Sure! It sounds like you would like to see your agents.")
            case "json_not_an_object":
                return Reply.text('["query_info", 0.9]')
            case "invalid_intent_object":
                return Reply.text('{"action_type": "launch_rockets", "confidence": "very sure"}')
            case "429_then_ok":
                if self.attempts[planned.tag] == 1:
                    return Reply.error(429, "Rate limit reached for requests")
                return good
        raise AssertionError(f"no reply for {planned.kind.name}")


@dataclass
class Chatter:
    """One socket: it sends its turns one after the other and keeps every frame of each."""

    token: str
    turns: list[PlannedTurn]
    sock: LiveSocket | None = None
    conversation_id: str | None = None
    frames: list[list[dict[str, Any]]] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    async def open(self, session: aiohttp.ClientSession, server: Server) -> None:
        self.sock, ready = await LiveSocket.open(session, server, self.token)
        assert ready["type"] == "ready" and ready["conversation_id"] is None, ready

    async def talk(self) -> None:
        sock = self.sock
        assert sock is not None
        try:
            for planned in self.turns:
                started = time.perf_counter()
                await sock.ws.send_json(
                    {
                        "type": "message",
                        "content": planned.content,
                        "client_message_id": planned.cmid,
                    }
                )
                frames = [await sock.frame(timeout=TURN_BOUND_S)]
                while frames[-1]["type"] not in ("done", "error"):
                    frames.append(await sock.frame(timeout=TURN_BOUND_S))
                self.latencies.append(time.perf_counter() - started)
                self.frames.append(frames)
                if frames[-1]["type"] == "error":
                    self.problems.append(f"{planned.tag} ({planned.kind.name}): {frames[-1]}")
                    return
                self.conversation_id = self.conversation_id or frames[0].get("conversation_id")
        except TimeoutError:
            self.problems.append(f"{self.turns[len(self.frames)].tag}: no done in {TURN_BOUND_S} s")
        finally:
            await sock.ws.close()


def _percentile(values: Sequence[float], pct: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))]


def _ms(seconds: Sequence[float]) -> str:
    return (
        f"p50 {_percentile(seconds, 50) * 1e3:.0f} ms, p95 {_percentile(seconds, 95) * 1e3:.0f} ms"
    )


def _intent_counters(server: Server) -> dict[tuple[str, str], float]:
    """This process's fallbacks by reason and classifications by method, from /metrics."""
    status, _, body = server.request("GET", "/metrics")
    assert status == 200, body[:500]
    counts: dict[tuple[str, str], float] = defaultdict(float)
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            if sample.name == "omniforge_intent_fallbacks_total":
                counts["fallback", sample.labels["reason"]] += sample.value
            elif sample.name == "omniforge_intent_classifications_total":
                counts["method", sample.labels["method"]] += sample.value
    return counts


def _turn_problems(planned: PlannedTurn, frames: list[dict[str, Any]]) -> list[str]:
    """What is wrong with one turn's frames, as the user received them."""
    where = f"{planned.tag} ({planned.kind.name})"
    kinds = [f["type"] for f in frames]
    if kinds[:3] != ["ack", "thinking", "intent"] or kinds[-1] != "done" or len(kinds) < 5:
        return [f"{where}: frames {kinds}"]
    if set(kinds[3:-1]) != {"chunk"}:
        return [f"{where}: frames {kinds}"]
    ack, intent, done = frames[0], frames[2]["intent"], frames[-1]
    problems = []
    if ack["client_message_id"] != planned.cmid:
        problems.append(f"{where}: ack for {ack['client_message_id']}")
    if not done["content"].strip():
        problems.append(f"{where}: an empty reply")
    metadata = done["message"]["metadata"]
    streamed = "".join(f["content"] for f in frames[3:-1])
    # The one case where ``done`` replaces what streamed (conversations/chat/commit.py): the
    # platform refused a change the reply announced, here an agent name another user of the
    # tenant took a moment earlier ("Create an agent that …" is said on many sockets at once).
    refused = metadata.get("routing") == "action_refused" and metadata.get("announced") == streamed
    if streamed != done["content"] and not refused:
        problems.append(f"{where}: the chunks are not the reply")
    if metadata.get("reply_to") != ack["message_id"] or done["interrupted"]:
        problems.append(f"{where}: done answers {metadata.get('reply_to')}, {done['interrupted']=}")
    usage = metadata.get("intent_usage") or {}
    expected = planned.kind
    seen = (intent["method"], intent["model"], usage.get("fallback_reason"))
    if expected.method == "offline":
        if seen != ("offline", None, expected.reason):
            problems.append(f"{where}: intent {seen}, expected offline for {expected.reason}")
        if (
            expected.name == "timeout"
            and intent["latency_ms"] < 1000 * TIMEOUT_S * expected.attempts
        ):
            problems.append(f"{where}: answered in {intent['latency_ms']} ms, before the timeouts")
    else:
        if seen != ("llm", MODEL, None) or usage.get("attempts") != expected.attempts:
            problems.append(f"{where}: intent {seen} after {usage.get('attempts')} attempt(s)")
        action = "unknown" if expected.name == "invalid_intent_object" else planned.action
        if intent["action_type"] != action:
            problems.append(f"{where}: classified {intent['action_type']}, the model said {action}")
        if expected.name == "invalid_intent_object" and not (
            intent["confidence"] <= 0.5 and intent["clarifying_question"]
        ):
            problems.append(f"{where}: an invalid object was trusted: {intent}")
    if metadata.get("intent") != intent:
        problems.append(f"{where}: the done frame's intent differs from the intent frame's")
    return problems


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_every_turn_is_answered_while_the_llm_provider_fails(servers: list[Server]) -> None:
    run = uuid.uuid4().hex[:8]
    planned = plan(run)
    every_turn = [t for own in planned for t in own]
    tenant: Tenant = tenant_create(slug=f"llm-drill-{run}", name="LLM drill")
    tokens = [
        token_issue(user=user_add(tenant=tenant, username=f"llm-{run}-{u}").user)
        for u in range(USERS)
    ]
    warm_tenant = tenant_create(slug=f"llm-warm-{run}", name="LLM drill warm-up")
    warm_token = token_issue(user=user_add(tenant=warm_tenant, username=f"llm-{run}-warm").user)
    chatters = [Chatter(tokens[s % USERS], planned[s]) for s in range(SOCKETS)]
    connections.close_all()  # the server must not wait on this process's connection

    provider = Provider(every_turn)
    with running_server(default=provider) as llm:
        server = Server(
            env={
                "REDIS_URL": os.environ["REDIS_URL"],
                "CHANNEL_LAYER_PREFIX": f"llm-drill-{os.getpid()}-{run}",
                "OPENAI_API_KEY": "sk-test-not-a-real-key",
                "OMNIFORGE_INTENT_MODEL": MODEL,
                "OMNIFORGE_INTENT_API_BASE": llm.base_url,
                "OMNIFORGE_INTENT_TIMEOUT_S": str(TIMEOUT_S),
                "OMNIFORGE_INTENT_MAX_RETRIES": str(MAX_RETRIES),
                "OMNIFORGE_INTENT_BACKOFF_S": str(BACKOFF_S),
                # 25 messages a user and 250 for the tenant fit the per-minute limits, but those
                # counters live in this machine's Redis cache, unprefixed and shared with every
                # other run at the same time, whose users have the same ids: their traffic must
                # not throttle this drill. The per-socket limits are left as they are.
                "OMNIFORGE_WS_USER_PER_MIN": "1000000",
                "OMNIFORGE_WS_TENANT_PER_MIN": "1000000",
            }
        )
        servers.append(server)
        _warm_up(server, warm_token)
        before = _intent_counters(server)
        llm_calls_before = llm.call_count

        async def drill() -> float:
            connector = aiohttp.TCPConnector(limit=0)
            async with aiohttp.ClientSession(connector=connector) as session:
                await asyncio.gather(*(c.open(session, server) for c in chatters))
                started = time.perf_counter()
                await asyncio.gather(*(c.talk() for c in chatters))
                return time.perf_counter() - started

        wall_s = asyncio.run(drill())
        after = _intent_counters(server)
        drill_requests = llm.chat_requests[llm_calls_before:]
        log = server.log()

    # --- figures (printed before any assertion, so a failing run still shows them) ---
    latencies = [s for c in chatters for s in c.latencies]
    by_kind: dict[str, list[float]] = defaultdict(list)
    for chatter in chatters:
        for turn, seconds in zip(chatter.turns, chatter.latencies, strict=False):
            by_kind[turn.kind.name].append(seconds)
    requests_by_tag = Counter(Provider.tag_of(r) for r in drill_requests)
    print(
        f"\nLLM provider drill: {SOCKETS} sockets ({USERS} users, one tenant) on one Daphne, "
        f"{len(latencies)}/{len(every_turn)} turns answered in {wall_s:.1f} s; "
        f"turn latency send->done {_ms(latencies)}, max {max(latencies, default=0) * 1e3:.0f} ms; "
        f"{len(drill_requests)} requests to the provider "
        f"(timeout {TIMEOUT_S} s, {MAX_RETRIES} retries)"
    )
    methods = Counter(t.kind.method for t in every_turn)
    refused = sum(
        1
        for c in chatters
        for frames in c.frames
        if frames[-1]["type"] == "done"
        and frames[-1]["message"]["metadata"].get("routing") == "action_refused"
    )
    print(
        f"  by method: llm {methods['llm']}, offline fallback {methods['offline']}; "
        f"{refused} agent creations refused (the name was taken by another socket first)"
    )
    for name, kind in KINDS.items():
        turns = [t for t in every_turn if t.kind is kind]
        calls = sum(requests_by_tag[t.tag] for t in turns)
        print(
            f"  {name:<22} {len(turns):>3} turns, {calls:>3} requests -> {kind.method}"
            f"{f' ({kind.reason})' if kind.reason else ''}; {_ms(by_kind[name])}"
        )

    # --- what the users saw ---
    problems = [p for c in chatters for p in c.problems]
    assert problems == [], problems[:20]
    for chatter in chatters:
        assert len(chatter.frames) == TURNS
        for turn, frames in zip(chatter.turns, chatter.frames, strict=True):
            problems.extend(_turn_problems(turn, frames))
    assert problems == [], problems[:20]
    assert max(latencies) < TURN_BOUND_S

    # --- what the provider saw: every kind, one request per attempt, nothing else ---
    assert {t.kind.name for t in every_turn if requests_by_tag[t.tag]} == set(KINDS)
    assert {
        t.tag: requests_by_tag[t.tag]
        for t in every_turn
        if requests_by_tag[t.tag] != t.kind.attempts
    } == {}
    assert sum(requests_by_tag.values()) == len(drill_requests)  # no request without a turn

    # --- what the server counted ---
    grew = {key: after[key] - before.get(key, 0.0) for key in after}
    expected_fallbacks = Counter(t.kind.reason for t in every_turn if t.kind.reason)
    assert {r: grew.get(("fallback", r), 0.0) for r in expected_fallbacks} == expected_fallbacks
    assert sum(v for (label, _), v in grew.items() if label == "fallback") == sum(
        expected_fallbacks.values()
    )
    assert {m: grew.get(("method", m), 0.0) for m in ("llm", "offline", "fast_path")} == {
        "llm": methods["llm"],
        "offline": methods["offline"],
        "fast_path": 0,
    }
    assert server.process is not None and server.process.poll() is None
    assert "Traceback" not in log, log[-5000:]

    # --- what is stored ---
    assert Message.objects.for_tenant(tenant).count() == 2 * len(every_turn)
    cmids = list(
        Message.objects.for_tenant(tenant)
        .filter(role=Message.Role.USER)
        .values_list("client_message_id", flat=True)
    )
    assert sorted(map(str, cmids)) == sorted(
        t.cmid for t in every_turn
    )  # each stored once, none lost
    assert len({c.conversation_id for c in chatters}) == SOCKETS
    for chatter in chatters:
        conversation = Conversation.objects.for_tenant(tenant).get(id=chatter.conversation_id)
        rows = list(conversation.messages.order_by("seq"))
        assert [m.seq for m in rows] == list(range(1, 2 * TURNS + 1)), conversation.id
        for turn, frames, user_row, reply in zip(
            chatter.turns, chatter.frames, rows[::2], rows[1::2], strict=True
        ):
            where = f"{turn.tag} ({turn.kind.name})"
            assert (user_row.role, reply.role) == ("user", "assistant"), where
            assert (user_row.client_message_id, user_row.content) == (turn.cmid, turn.content)
            assert reply.reply_to == user_row.id == reply.metadata["reply_to"], where
            done = frames[-1]
            assert (reply.id, reply.content) == (done["message_id"], done["content"]), where
            assert reply.intent_method == turn.kind.method == reply.metadata["intent"]["method"]
            usage = reply.metadata.get("intent_usage") or {}
            assert usage.get("fallback_reason") == turn.kind.reason, where
            if turn.kind.method == "llm":
                assert usage["attempts"] == turn.kind.attempts, where
            assert "degraded" not in reply.metadata and "interrupted" not in reply.metadata


def _warm_up(server: Server, token: str) -> None:
    """One healthy turn first, in a tenant of its own: the server loads litellm and trains the
    offline model in the background at startup, and the drill must not time that."""

    async def turn() -> dict[str, Any]:
        async with aiohttp.ClientSession() as session:
            sock, _ = await LiveSocket.open(session, server, token)
            try:
                for attempt in range(5):
                    await sock.ws.send_json({"type": "message", "content": "list my agents"})
                    frames = [await sock.frame(timeout=60)]
                    while frames[-1]["type"] not in ("done", "error"):
                        frames.append(await sock.frame(timeout=60))
                    intent = next((f["intent"] for f in frames if f["type"] == "intent"), None)
                    if intent is not None and intent["method"] == "llm":
                        return intent
                    await asyncio.sleep(1 + attempt)
                raise AssertionError(f"the LLM tier never answered the warm-up: {frames}")
            finally:
                await sock.ws.close()

    asyncio.run(turn())
