"""The agent runtime as a failing dependency: down, slow, a worker killed mid-dispatch, two
beats, forged or replayed dispatches, and a storm of duplicate callbacks.

The product runs as real processes on the test database (a Daphne serving the chat, the API
and the runtime's callbacks; Celery workers dispatching on the drill's own Redis database),
and the runtime is the reference receiver of ``tests/runtime_server.py``. Each drill asserts
what a user and the database see: each run is delivered at least once and applied once, and
a run that cannot be handed over ends ``failed`` with its reason, told where it was asked.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

import pytest
import redis
from django.db import connections
from django.utils import timezone

from conversations.agents.services import agent_create
from conversations.models import Agent, AgentRun, AgentRunEvent, Conversation, Message
from conversations.runs.dispatch import Attempt, dispatch_attempt
from conversations.runs.services import runs_hand_on_stale
from conversations.tenancy.services import token_issue
from tests.conftest import World, subprocess_database_url
from tests.conversations.runs.conftest import mint_credentials
from tests.faults.services import ROOT, CeleryWorker, own_redis_db
from tests.live import Server, free_port
from tests.runtime_server import Outcome, RuntimeServer, runtime_server, sign

pytestmark = [pytest.mark.timeout(120), pytest.mark.django_db(transaction=True)]

REDIS_DB = 12
AGENT = "notion-reporter"
UNREACHABLE = "The agent runtime could not be reached."
TOO_SLOW = "The agent runtime did not answer in time."
SLOW_S = 3  # how long the slow drill's dispatch attempts wait for the runtime
T = TypeVar("T")


def _wait_for(what: str, predicate: Callable[[], T | None], timeout: float = 30.0) -> T:
    """Poll (the database, mostly) until ``predicate`` gives something, or fail naming it."""
    deadline = time.monotonic() + timeout
    while not (found := predicate()):
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        time.sleep(0.1)
    return found


@dataclass
class Product:
    world: World
    agent: Agent
    token: str  # the owner's API token
    server: Server
    worker: CeleryWorker
    env: dict[str, str]

    def run(self, run_id: str) -> AgentRun:
        return AgentRun.objects.for_tenant(self.world.tenant_a).get(id=run_id)

    def chat_run(self) -> tuple[AgentRun, str, float]:
        """ "run notion-reporter" in a new chat: the run, its conversation, the turn's seconds."""
        started = time.monotonic()
        said = self.server.chat(self.token, f"run {AGENT}", None)
        elapsed = time.monotonic() - started
        assert said["assistant_message"]["content"].startswith(f"Running {AGENT}"), said
        conversation_id = str(said["conversation_id"])
        run = AgentRun.objects.for_tenant(self.world.tenant_a).get(conversation_id=conversation_id)
        return run, conversation_id, elapsed

    def api_run(self) -> str:
        status, _, raw = self.server.request(
            "POST", f"/api/v1/agents/{self.agent.id}/runs/", token=self.token
        )
        assert status == 201, raw
        return str(json.loads(raw)["id"])

    def api_read(self, run_id: str) -> dict[str, Any]:
        status, _, raw = self.server.request("GET", f"/api/v1/runs/{run_id}/", token=self.token)
        assert status == 200, raw
        return dict(json.loads(raw))

    def ended(self, run_id: str, timeout: float = 30.0) -> AgentRun:
        def final() -> AgentRun | None:
            run = self.run(run_id)
            return run if run.final else None

        return _wait_for(f"run {run_id} final", final, timeout)

    def python(self, *args: str) -> subprocess.Popen[str]:
        """``python <args>`` in a process of its own, on the drill's database and Redis."""
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **self.env}
        return subprocess.Popen(
            [sys.executable, *args], cwd=ROOT, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip

    def manage(self, *args: str) -> subprocess.Popen[str]:
        return self.python("manage.py", *args)


def _dispatch_tasks(worker: CeleryWorker) -> tuple[int, int]:
    """How many dispatch tasks the worker received, and how many of them ended."""
    lines = [line for line in worker.log().splitlines() if "conversations.runs_dispatch[" in line]
    received = sum(line.endswith("] received") for line in lines)
    ended = sum("] succeeded in " in line or "] raised " in line for line in lines)
    return received, ended


def _told(conversation_id: str, run_id: str) -> list[Message]:
    """The messages of the conversation that tell this run's outcome (the reply that asked for
    the run names it too, without a ``run_status``)."""
    conversation = Conversation.objects.cross_tenant().get(id=conversation_id)  # cross-tenant: test
    return [
        m
        for m in conversation.messages.order_by("seq")
        if (m.metadata or {}).get("run_id") == run_id and "run_status" in (m.metadata or {})
    ]


def _credentials(world: World, runtime: RuntimeServer | None) -> None:
    credentials = mint_credentials(world.tenant_a.slug)
    if runtime is not None:
        runtime.secret, runtime.token = credentials["secret"], credentials["token"]


def _agent(world: World) -> Agent:
    return agent_create(
        tenant=world.tenant_a,
        name=AGENT,
        config={"source": "notion", "destination": "#team"},
        created_by=world.owner,
    )


@contextlib.contextmanager
def product(
    world: World, runtime_url: str, runtime: RuntimeServer | None = None, **settings: str
) -> Iterator[Product]:
    """A Daphne and a Celery worker on the test database and the drill's Redis, handing runs to
    ``runtime_url``; ``settings`` are OMNIFORGE_RUNTIME_* values (TIMEOUT_S=...)."""
    _credentials(world, runtime)
    agent = _agent(world)
    token = token_issue(user=world.owner)
    port = free_port()
    env = {
        "DATABASE_URL": subprocess_database_url(),
        "REDIS_URL": own_redis_db(REDIS_DB),
        "CHANNEL_LAYER_PREFIX": f"runtime-drill-{os.getpid()}",
        "OMNIFORGE_RUNTIME_URL": runtime_url,
        "OMNIFORGE_PUBLIC_URL": f"http://127.0.0.1:{port}",
        "OMNIFORGE_RUNTIME_BACKOFF_S": "0.1",
        **{f"OMNIFORGE_RUNTIME_{key}": value for key, value in settings.items()},
    }
    connections.close_all()
    server = Server(env=env, port=port)
    live = None
    try:
        live = Product(world, agent, token, server, CeleryWorker(env, queues="celery").start(), env)
        yield live
    finally:
        if live is not None:
            live.worker.stop()  # the drill's last one: it may have replaced a killed one
        server.stop()


def test_runtime_down_retries_then_fails_the_run_and_tells_the_chat(world: World) -> None:
    closed = f"http://127.0.0.1:{free_port()}/dispatch"
    with product(world, closed, MAX_ATTEMPTS="3", TIMEOUT_S="2") as live:
        chat_run, conversation_id, _ = live.chat_run()
        api_run_id = live.api_run()
        for run_id in (chat_run.id, api_run_id):
            run = live.ended(run_id)
            assert (run.status, run.reason, run.attempts) == ("failed", UNREACHABLE, 3)
            assert run.dispatched_at is None and run.finished_at is not None
        # The API's caller reads the outcome; the chat's user is told in the conversation.
        read = live.api_read(api_run_id)
        assert (read["status"], read["reason"]) == ("failed", UNREACHABLE)
        [told] = _told(conversation_id, chat_run.id)
        assert told.content == f"{AGENT} failed: {UNREACHABLE}"
        assert told.metadata["run_status"] == "failed"
        assert AgentRun.objects.for_tenant(world.tenant_a).count() == 2  # nothing lost, no extra
        # Each attempt a task of its own (retries are new tasks with a countdown): 2 runs x 3.
        _wait_for("the last task logged", lambda: len(set(_dispatch_tasks(live.worker))) == 1)
        assert _dispatch_tasks(live.worker) == (6, 6)


def test_a_slow_runtime_is_retried_then_the_run_fails_while_chat_is_not_slowed(
    world: World,
) -> None:
    with (
        runtime_server(default=Outcome.hang(10)) as runtime,
        product(world, runtime.url, runtime, MAX_ATTEMPTS="2", TIMEOUT_S=str(SLOW_S)) as live,
    ):
        run, conversation_id, asking_s = live.chat_run()
        runtime.wait_for_dispatches(1, timeout=30)
        # A turn while the dispatch hangs in the worker: the chat does not wait on it.
        started = time.monotonic()
        live.server.chat(live.token, "hello", conversation_id)
        meanwhile_s = time.monotonic() - started
        run = live.ended(run.id)
        [told] = _told(conversation_id, run.id)
        delivered = [d for d in runtime.dispatches if d.run_id == run.id]
    print(json.dumps({"asking_turn_s": asking_s, "turn_during_hang_s": meanwhile_s}))
    assert (run.status, run.reason, run.attempts) == ("failed", TOO_SLOW, 2)
    assert [d.attempt for d in delivered] == [1, 2]
    assert told.content == f"{AGENT} failed: {TOO_SLOW}"
    # Neither turn waited on an attempt (each waits SLOW_S for the runtime before giving up).
    assert asking_s < SLOW_S and meanwhile_s < SLOW_S


def test_a_worker_killed_mid_dispatch_hands_the_run_on_again_and_it_is_applied_once(
    world: World,
) -> None:
    with runtime_server() as runtime:
        runtime.script(Outcome.hang(60))  # the first delivery never answers; then "done"
        with product(world, runtime.url, runtime, TIMEOUT_S="30") as live:
            run, conversation_id, _ = live.chat_run()
            runtime.wait_for_dispatches(1, timeout=30)
            live.worker.kill()  # the request is in flight
            lost = live.run(run.id)
            assert (lost.status, lost.attempts) == ("queued", 1)
            assert lost.deadline_at is not None
            live.worker = CeleryWorker(env=live.env, queues="celery").start()
            # The beat's next tick, a moment past the deadline of the run nobody handed on.
            as_of = (lost.deadline_at + timedelta(seconds=1)).isoformat()
            out, _ = live.manage("run_due_agents", "--as-of", as_of).communicate(timeout=60)
            assert "handed on again: 1" in out, out
            first, second = runtime.wait_for_dispatches(2, timeout=30)
            done = live.ended(run.id)
            runtime.wait_for_callbacks(2, timeout=30)
            # Later ticks find nothing to hand on: the run is past queued.
            assert runs_hand_on_stale(now=lost.deadline_at + timedelta(minutes=5)) == []
            told = _told(conversation_id, run.id)
    assert [first.run_id, second.run_id] == [run.id, run.id]
    assert first.headers["idempotency-key"] == second.headers["idempotency-key"] == run.id
    assert first.headers["x-omniforge-signature"] != second.headers["x-omniforge-signature"]
    assert len(runtime.dispatches) == 2 and not runtime.refused
    assert (done.status, done.attempts, done.summary) == ("succeeded", 2, "done")
    events = AgentRunEvent.objects.for_tenant(world.tenant_a).filter(run_id=run.id)
    assert sorted(events.values_list("type", "applied")) == [
        ("started", True),
        ("succeeded", True),
    ]
    assert [m.content for m in told] == [f"{AGENT} finished: done"]
    assert all(c.status == 204 for c in runtime.callbacks)


def _schedule_200(world: World, slot: datetime) -> list[Agent]:
    every_minute = {"rrule": "FREQ=MINUTELY", "timezone": "UTC"}
    agents = [
        Agent(
            tenant=world.tenant_a, name=f"digest-{n:03d}", created_by=world.owner,
            schedule=every_minute, next_run_at=slot,
        )
        for n in range(200)
    ]  # fmt: skip
    return Agent.objects.cross_tenant().bulk_create(agents)  # cross-tenant: test


def _drained(worker: CeleryWorker, redis_url: str) -> bool:
    """Every dispatch task the worker took has ended, and none waits in the queue."""
    received, ended = _dispatch_tasks(worker)
    return (
        received > 0 and received == ended and redis.Redis.from_url(redis_url).llen("celery") == 0
    )


# A beat's tick (``run_due_agents``) in a process of its own that, once Django is up, waits at
# a Redis barrier: both ticks then start together, instead of one finishing while the other is
# still importing Django.
BEAT = """
import sys, django, redis
django.setup()
from django.core.management import call_command
print("ready", flush=True)
redis.Redis.from_url(sys.argv[1]).blpop([sys.argv[2]], timeout=60)
call_command("run_due_agents", "--as-of", sys.argv[3])
"""


def _beats_together(live: Product, as_of: str, n: int = 2) -> list[str]:
    """``n`` ticks at the same moment as of ``as_of``; what each printed."""
    gate = f"runtime-drill-beats-{os.getpid()}"
    redis_url = live.env["REDIS_URL"]
    beats = [live.python("-c", BEAT, redis_url, gate, as_of) for _ in range(n)]
    for beat in beats:
        assert beat.stdout is not None
        while (line := beat.stdout.readline()) and line.strip() != "ready":
            pass
    redis.Redis.from_url(redis_url).rpush(gate, *["go"] * n)
    said = [beat.communicate(timeout=60)[0] for beat in beats]
    assert all(beat.returncode == 0 for beat in beats), said
    return said


def test_two_beats_fire_each_slot_once(world: World) -> None:
    slot = timezone.now().replace(second=0, microsecond=0)
    agents = _schedule_200(world, slot)
    as_of = (slot + timedelta(seconds=30)).isoformat()
    with (
        runtime_server(default=Outcome.silent()) as runtime,
        product(world, runtime.url, runtime) as live,
    ):
        said = _beats_together(live, as_of)
        runs = AgentRun.objects.for_tenant(world.tenant_a).filter(trigger="schedule")
        _wait_for("200 runs dispatched", lambda: runs.filter(status="dispatched").count() == 200)
        _wait_for("the dispatch tasks done", lambda: _drained(live.worker, live.env["REDIS_URL"]))
        tasks, _ = _dispatch_tasks(live.worker)
    # Both ticks saw the 200 agents due when they overlapped; each then reports 200 enqueued.
    report = {
        "beats": said,
        "dispatch_tasks": tasks,
        "attempts": Counter(runs.values_list("attempts", flat=True)),
        "overlapped": sum("due: 200" in out for out in said) == 2,
    }
    print(json.dumps(report))
    rows = list(runs.values_list("id", "agent_id", "slot", "status"))
    assert len(rows) == 200
    assert {agent_id for _, agent_id, _, _ in rows} == {a.id for a in agents}
    assert {row_slot for _, _, row_slot, _ in rows} == {slot}
    slot_of = {run_id: row_slot for run_id, _, row_slot, _ in rows}
    delivered = Counter(d.run_id for d in runtime.dispatches)
    # Each run at least once (here: exactly once), and only runs that exist.
    assert set(delivered) == set(slot_of) and set(delivered.values()) == {1}
    slots_per_agent = Counter(
        (d.body["run"]["agent"]["id"], slot_of[d.run_id]) for d in runtime.dispatches
    )
    assert len(slots_per_agent) == 200 and set(slots_per_agent.values()) == {1}
    moved = Agent.objects.for_tenant(world.tenant_a).filter(id__in=[a.id for a in agents])
    assert set(moved.values_list("next_run_at", flat=True)) == {slot + timedelta(minutes=1)}


def _post(url: str, raw: bytes, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, data=raw, method="POST", headers=headers)  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_forged_stale_and_replayed_dispatches_are_refused(world: World, settings: Any) -> None:
    with runtime_server(default=Outcome.silent()) as runtime:
        settings.OMNIFORGE_RUNTIME_URL = runtime.url
        _credentials(world, runtime)
        agent = _agent(world)
        run = AgentRun.objects.for_tenant(world.tenant_a).create(
            tenant=world.tenant_a, agent=agent, trigger="api", requested_by=world.owner,
            deadline_at=timezone.now() + timedelta(minutes=2),
        )  # fmt: skip
        # The product's own dispatch (what a worker does), to the reference receiver.
        assert dispatch_attempt(tenant_id=world.tenant_a.id, run_id=run.id).attempt is (
            Attempt.DELIVERED
        )
        [sent] = runtime.wait_for_dispatches(1)
        now = int(time.time())
        wrong = {**sent.headers, "x-omniforge-timestamp": str(now)}
        wrong["x-omniforge-signature"] = sign("not-the-tenant-secret", now, sent.raw)
        stale = {**sent.headers, "x-omniforge-timestamp": str(now - 600)}
        stale["x-omniforge-signature"] = sign(runtime.secret, now - 600, sent.raw)
        answers = [_post(runtime.url, sent.raw, h) for h in (wrong, stale, dict(sent.headers))]
        refused = [(r.reason, r.status) for r in runtime.refused]
        dispatches = len(runtime.dispatches)
    assert sent.status == 202 and sent.headers["idempotency-key"] == run.id
    assert answers == [401, 401, 401]
    assert refused == [
        ("wrong signature", 401),
        ("stale timestamp", 401),
        ("replayed signature", 401),
    ]
    assert dispatches == 1  # nothing but the product's own was acted on
    handed = AgentRun.objects.for_tenant(world.tenant_a).get(id=run.id)
    assert (handed.status, handed.attempts) == ("dispatched", 1)


def test_a_storm_of_duplicate_callbacks_changes_the_run_once(world: World) -> None:
    storm = Outcome.succeed("12 pages summarized", duplicates=20)
    with (
        runtime_server(default=storm) as runtime,
        product(world, runtime.url, runtime) as live,
    ):
        run, conversation_id, _ = live.chat_run()
        callbacks = runtime.wait_for_callbacks(40, timeout=60)
        done = live.ended(run.id)
        told = _told(conversation_id, run.id)
        server_log = live.server.log()
    answered = Counter(c.status for c in callbacks)
    print(json.dumps({"callback_answers": answered}))
    assert set(answered) <= {204, 429}, answered  # no 500, none unanswered
    assert answered[204] >= 2  # at least one copy of each event was taken
    assert "Traceback" not in server_log, server_log[-3000:]
    events = AgentRunEvent.objects.for_tenant(world.tenant_a).filter(run_id=run.id)
    assert events.count() == 2 and all(events.values_list("applied", flat=True))
    assert sorted(events.values_list("type", flat=True)) == ["started", "succeeded"]
    assert len({c.body["event_id"] for c in callbacks}) == 2
    assert (done.status, done.summary) == ("succeeded", "12 pages summarized")
    assert [m.content for m in told] == [f"{AGENT} finished: 12 pages summarized"]
    assert done.told_at is not None and len(runtime.dispatches) == 1
