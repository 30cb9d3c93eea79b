"""A tenant connected to a reference runtime on 127.0.0.1, and the product served live so the
runtime can call back (runs are handed on after commit: these tests commit)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from conversations.agents.services import agent_create
from conversations.models import Agent, AgentRun
from tests.conftest import World
from tests.runtime_server import RuntimeServer, runtime_server


def mint_credentials(slug: str) -> dict[str, str]:
    out = StringIO()
    call_command("runtime_credentials", slug, stdout=out)
    return dict(json.loads(out.getvalue()))


@dataclass
class Connected:
    world: World
    runtime: RuntimeServer
    credentials: dict[str, str]
    agent: Agent
    url: str  # the product, served live

    def run(self, run_id: str) -> AgentRun:
        return AgentRun.objects.for_tenant(self.world.tenant_a).get(id=run_id)


@pytest.fixture(autouse=True)
def _dispatched_in_process(settings: Any) -> None:
    # With Redis (CI's second run) no Celery worker serves these tests: runs are handed on as in
    # the embedded mode, by a thread. The drills in tests/faults run a real worker.
    settings.CELERY_TASK_ALWAYS_EAGER = True


@pytest.fixture
def fast_dispatch(settings: Any) -> None:
    settings.OMNIFORGE_RUNTIME_BACKOFF_S = 0.05
    settings.OMNIFORGE_RUNTIME_TIMEOUT_S = 2.0
    settings.OMNIFORGE_RUNTIME_MAX_ATTEMPTS = 3


@pytest.fixture
def connected(
    world: World, live_server: Any, settings: Any, fast_dispatch: None
) -> Iterator[Connected]:
    settings.OMNIFORGE_PUBLIC_URL = live_server.url
    with runtime_server() as runtime:
        settings.OMNIFORGE_RUNTIME_URL = runtime.url
        credentials = mint_credentials(world.tenant_a.slug)
        runtime.secret, runtime.token = credentials["secret"], credentials["token"]
        agent = agent_create(
            tenant=world.tenant_a,
            name="notion-reporter",
            description="summarizes new Notion pages",
            config={"source": "notion", "destination": "#team"},
            created_by=world.owner,
        )
        yield Connected(
            world=world, runtime=runtime, credentials=credentials, agent=agent, url=live_server.url
        )
