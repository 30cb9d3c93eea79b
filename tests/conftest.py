"""The shared two-tenant world: an owner and a member in tenant A, an outsider in tenant B."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from conversations.models import Tenant
from conversations.tenancy.services import tenant_create, token_issue, user_add
from intents.llm.client import reset_llm_status
from tests.intents.llm_server import ScriptedLLMServer, running_server


@dataclass
class World:
    tenant_a: Tenant
    tenant_b: Tenant
    owner: Any
    member: Any
    outsider: Any
    admin_a: Any

    def client(self, user: Any | None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=user)}")
        return client


def pytest_configure(config: Any) -> None:
    """Each test process on its own channel-layer prefix and cache keys when Redis is shared
    (xdist workers number their users alike, and would otherwise hear each other's groups)."""
    from django.conf import settings

    layer = settings.CHANNEL_LAYERS["default"]
    if "prefix" in layer.get("CONFIG", {}):
        layer["CONFIG"]["prefix"] = f"omniforge-test-{os.getpid()}"
    # The same goes for a Redis cache, which also outlives the run: a pending turn remembered
    # by an earlier run for the same (tenant, user, client_message_id) must not answer this one.
    settings.CACHES["default"]["KEY_PREFIX"] = f"omniforge-test-{os.getpid()}-{uuid.uuid4().hex}"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # The production hasher costs ~0.3 s per user on purpose; tests create many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db: None) -> World:
    tenant_a = tenant_create(slug="acme", name="Acme")
    tenant_b = tenant_create(slug="globex", name="Globex")
    return World(
        tenant_a=tenant_a,
        tenant_b=tenant_b,
        owner=user_add(tenant=tenant_a, username="olivia", password="pw-olivia-1").user,
        member=user_add(tenant=tenant_a, username="mark", password="pw-mark-1").user,
        outsider=user_add(tenant=tenant_b, username="oscar", password="pw-oscar-1").user,
        admin_a=user_add(tenant=tenant_a, username="ada", password="pw-ada-1", admin=True).user,
    )


@pytest.fixture
def owner_client(world: World) -> APIClient:
    return world.client(world.owner)


def subprocess_database_url() -> str:
    """DATABASE_URL of the test database, for code run in another process."""
    params = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{params['NAME']}"
    host = params.get("HOST") or "127.0.0.1"
    port = params.get("PORT") or 5432
    password = f":{params['PASSWORD']}" if params.get("PASSWORD") else ""
    return f"postgres://{params['USER']}{password}@{host}:{port}/{params['NAME']}"


def columns_holding(text: str) -> list[str]:
    """Every ``table.column`` of the database whose stored value holds ``text`` (case-blind),
    read with SQL rather than through the models: what a copy of the database gives away."""
    found: set[str] = set()
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            columns = [column[0] for column in cursor.description]
            for row in cursor.fetchall():
                found |= {
                    f"{table}.{column}"
                    for column, value in zip(columns, row, strict=True)
                    if text.lower() in str(value).lower()
                }
    return sorted(found)


@pytest.fixture
def servers() -> Iterator[list[Any]]:
    """Daphne processes a test starts (``tests.live.Server``), stopped when it ends."""
    started: list[Any] = []
    yield started
    for server in started:
        server.stop()


@pytest.fixture
def llm_server(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedLLMServer]:
    """A scripted OpenAI-compatible server on 127.0.0.1, with the LLM tier pointed at it.

    Backoff is small so failure paths take tenths of a second; the fake key makes
    any call that escaped to a real provider fail authentication instead of spending money.
    """
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    with running_server() as server:
        settings.OMNIFORGE_INTENT_API_BASE = server.base_url
        settings.OMNIFORGE_INTENT_MODEL = "openai/test-model"
        # Roomy by default so a loaded machine never turns a scripted answer into a timeout;
        # the timeout tests set their own small value.
        settings.OMNIFORGE_INTENT_TIMEOUT_S = 1.5
        settings.OMNIFORGE_INTENT_MAX_RETRIES = 2
        settings.OMNIFORGE_INTENT_BACKOFF_S = 0.01
        reset_llm_status()
        yield server
    reset_llm_status()
