"""Saving and loading sessions: round trip, isolation, corruption, concurrency, the cache."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from skill_sessions import services
from skill_sessions.context import SkillContext, context_loads
from skill_sessions.models import SkillCreationSession
from tests.conftest import World

pytestmark = pytest.mark.django_db(transaction=True)


def started(world: World, session_id: str = "sk_one", **fields: Any) -> SkillCreationSession:
    context = SkillContext(state="gathering_details", purpose="reads receipts", **fields)
    return services.session_save(
        tenant=world.tenant_a, user=world.owner, session_id=session_id, context=context,
        expected_version=0,
    )  # fmt: skip


def test_a_session_round_trips_and_its_version_counts_saves(world: World) -> None:
    row = started(world, inputs="a photo", examples=["a → b"])
    assert (row.version, row.status, row.state) == (1, "active", "gathering_details")
    loaded = services.session_load(tenant=world.tenant_a, session_id="sk_one")
    assert loaded is not None
    assert loaded.context == SkillContext(
        state="gathering_details", purpose="reads receipts", inputs="a photo", examples=["a → b"]
    )
    context = loaded.context
    context.state, context.name = "confirming", "receipt-reader"
    saved = services.session_save(
        tenant=world.tenant_a, user=world.owner, session_id="sk_one", context=context,
        expected_version=1,
    )  # fmt: skip
    assert (saved.version, saved.skill_name, saved.state) == (2, "receipt-reader", "confirming")


def test_the_same_session_id_in_two_tenants_are_two_sessions(world: World) -> None:
    started(world, "sk_shared")
    services.session_save(
        tenant=world.tenant_b, user=world.outsider, session_id="sk_shared",
        context=SkillContext(purpose="something else"), expected_version=0,
    )  # fmt: skip
    a = services.session_load(tenant=world.tenant_a, session_id="sk_shared")
    b = services.session_load(tenant=world.tenant_b, session_id="sk_shared")
    assert a is not None and b is not None
    assert (a.context.purpose, b.context.purpose) == ("reads receipts", "something else")


def test_a_second_writer_of_the_same_version_is_refused_not_overwritten(world: World) -> None:
    started(world)
    first = SkillContext(state="gathering_details", purpose="reads receipts", inputs="a photo")
    second = SkillContext(state="gathering_details", purpose="reads receipts", inputs="a PDF")
    services.session_save(
        tenant=world.tenant_a, user=world.owner, session_id="sk_one", context=first,
        expected_version=1,
    )  # fmt: skip
    with pytest.raises(services.StaleSession):
        services.session_save(
            tenant=world.tenant_a, user=world.owner, session_id="sk_one", context=second,
            expected_version=1,
        )  # fmt: skip
    loaded = services.session_load(tenant=world.tenant_a, session_id="sk_one")
    assert loaded is not None and loaded.context.inputs == "a photo"
    # Starting a session with an id the tenant already has is refused the same way.
    with pytest.raises(services.StaleSession):
        started(world)


def test_a_corrupted_document_is_reported_and_treated_as_missing(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    row = started(world)
    SkillCreationSession.objects.for_tenant(world.tenant_a).filter(pk=row.pk).update(
        context='{"v": 1, "state": "nonsense"', version=5
    )
    cache.delete(f"omniforge:skill-session:{world.tenant_a.pk}:sk_one")
    with caplog.at_level(logging.ERROR, logger="omniforge.skills"):
        assert services.session_load(tenant=world.tenant_a, session_id="sk_one") is None
    assert "unreadable document" in caplog.text


def test_a_large_document_is_stored_compressed(world: World, settings: Any) -> None:
    settings.OMNIFORGE_SKILL_CONTEXT_GZIP_BYTES = 1024
    history = [{"role": "user", "content": f"message number {n} " * 8} for n in range(100)]
    row = started(world, history=history)
    with connection.cursor() as cursor:
        cursor.execute("SELECT context FROM skill_sessions_skillcreationsession WHERE id = %s",
                       [row.pk])  # fmt: skip
        raw = cursor.fetchone()[0]
    assert raw.startswith("gz:") and len(raw) < 6000
    assert context_loads(raw).history == history


def test_reads_come_from_the_cache_and_a_save_moves_it_on(world: World) -> None:
    started(world)
    assert services.session_load(tenant=world.tenant_a, session_id="sk_one") is not None
    with CaptureQueriesContext(connection) as queries:
        loaded = services.session_load(tenant=world.tenant_a, session_id="sk_one")
    assert loaded is not None
    # The row is checked for its version; the document itself is not read from the table.
    assert all("context" not in q["sql"].split("FROM")[0] for q in queries)
    context = loaded.context
    context.inputs = "a CSV file"
    services.session_save(
        tenant=world.tenant_a, user=world.owner, session_id="sk_one", context=context,
        expected_version=loaded.row.version,
    )  # fmt: skip
    again = services.session_load(tenant=world.tenant_a, session_id="sk_one")
    assert again is not None and again.context.inputs == "a CSV file"


def test_a_stale_cache_entry_is_never_served(world: World) -> None:
    row = started(world)
    services.session_load(tenant=world.tenant_a, session_id="sk_one")
    # Another process saves without this cache seeing it (the row moves to version 2).
    SkillCreationSession.objects.for_tenant(world.tenant_a).filter(pk=row.pk).update(
        context='{"v":1,"state":"confirming","purpose":"changed elsewhere"}', version=2
    )
    loaded = services.session_load(tenant=world.tenant_a, session_id="sk_one")
    assert loaded is not None and loaded.context.purpose == "changed elsewhere"


def test_the_cache_holds_the_document_encrypted_when_keys_are_set(
    world: World, settings: Any
) -> None:
    from cryptography.fernet import Fernet

    settings.OMNIFORGE_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    started(world)
    key = f"omniforge:skill-session:{world.tenant_a.pk}:sk_one"
    entry = cache.get(f"{key}:v{cache.get(key)}")
    assert entry is not None and "reads receipts" not in entry["document"]


def test_marking_abandoned_keeps_the_last_activity_and_purge_removes_the_row(
    world: World,
) -> None:
    row = started(world)
    assert services.session_mark_abandoned(session=row)
    again = SkillCreationSession.objects.for_tenant(world.tenant_a).get(pk=row.pk)
    assert again.status == "abandoned" and again.last_activity_at == row.last_activity_at
    assert not services.session_mark_abandoned(session=again)  # only an active one
    services.session_purge(session=again)
    assert services.session_load(tenant=world.tenant_a, session_id="sk_one") is None
