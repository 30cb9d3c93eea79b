"""The retention policy: a matrix of statuses and ages, twice in a row, dry runs, records."""

from __future__ import annotations

import datetime as dt
import threading
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connections
from django.test import Client

from conversations.models import Conversation
from skill_sessions.context import SkillContext
from skill_sessions.models import RetentionRun, SkillCreationSession
from skill_sessions.retention import retention_run
from tests.conftest import World

TODAY = dt.date(2026, 6, 30)
NOON = dt.time(12, tzinfo=dt.UTC)


def ago(days: int) -> dt.datetime:
    return dt.datetime.combine(TODAY - dt.timedelta(days=days), NOON)


def session(world: World, sid: str, status: str, *, idle: int, since: int, tenant: Any = None,
            user: Any = None) -> SkillCreationSession:  # fmt: skip
    return SkillCreationSession.objects.create(
        tenant=tenant or world.tenant_a, user=user or world.owner, session_id=sid,
        context='{"v":1,"state":"gathering_details"}', state="gathering_details", status=status,
        last_activity_at=ago(idle), status_changed_at=ago(since), updated_at=ago(idle),
    )  # fmt: skip


@pytest.fixture
def matrix(world: World) -> None:
    session(world, "active-fresh", "active", idle=29, since=29)
    session(world, "active-idle", "active", idle=31, since=31)
    session(world, "completed-89", "completed", idle=89, since=89)
    session(world, "completed-91", "completed", idle=91, since=91)
    session(world, "abandoned-29", "abandoned", idle=60, since=29)
    session(world, "abandoned-31", "abandoned", idle=60, since=31)
    session(world, "deleted-31", "deleted", idle=40, since=31)
    session(world, "error-31", "error", idle=40, since=31)
    session(world, "error-5", "error", idle=5, since=5)
    session(world, "b-idle", "active", idle=45, since=45, tenant=world.tenant_b,
            user=world.outsider)  # fmt: skip


def left(world: World) -> dict[str, str]:
    rows = SkillCreationSession.objects.cross_tenant()  # cross-tenant: the test audits all
    return dict(rows.values_list("session_id", "status"))


def run(*args: str) -> str:
    out = StringIO()
    call_command("cleanup_sessions", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.mark.django_db
def test_the_policy_over_a_matrix_of_statuses_and_ages(world: World, matrix: None) -> None:
    before_activity = (
        SkillCreationSession.objects.for_tenant(world.tenant_a)
        .get(session_id="active-idle")
        .last_activity_at
    )
    out = run("--as-of", str(TODAY))
    assert out.splitlines() == [
        "skill sessions marked abandoned: 2",
        "completed sessions purged: 1",
        "abandoned/deleted/error sessions purged: 3",
        "conversations purged: 0",
    ]
    assert left(world) == {
        "active-fresh": "active",
        "active-idle": "abandoned",
        "completed-89": "completed",
        "abandoned-29": "abandoned",
        "error-5": "error",
        "b-idle": "abandoned",
    }
    abandoned = SkillCreationSession.objects.for_tenant(world.tenant_a).get(
        session_id="active-idle"
    )
    assert abandoned.last_activity_at == before_activity  # abandoning keeps the last activity
    # Twice in a row: the second run finds nothing left to do.
    assert run("--as-of", str(TODAY)).splitlines() == [
        "skill sessions marked abandoned: 0",
        "completed sessions purged: 0",
        "abandoned/deleted/error sessions purged: 0",
        "conversations purged: 0",
    ]
    # 30 days after being abandoned, the newly abandoned ones go too.
    later = TODAY + dt.timedelta(days=31)
    assert "abandoned/deleted/error sessions purged: 4" in run("--as-of", str(later))


@pytest.mark.django_db
def test_a_dry_run_counts_and_changes_nothing(world: World, matrix: None) -> None:
    before = left(world)
    out = run("--dry-run", "--as-of", str(TODAY), "--tenant", "acme")
    assert out.splitlines()[0] == "skill sessions would be marked abandoned: 1"
    assert "abandoned/deleted/error sessions would be purged: 3" in out
    assert left(world) == before
    record = RetentionRun.objects.get()
    assert (record.dry_run, record.trigger, record.tenant_slug) == (True, "command", "acme")
    assert record.counts["completed_purged"] == 1
    assert record.per_tenant == {"acme": record.counts}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [(("--tenant", "nope"), "No tenant"), (("--as-of", "30/06/2026"), "YYYY-MM-DD")],
)
def test_bad_arguments_are_refused(world: World, args: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        run(*args)
    assert not RetentionRun.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("setting", "purged"), [(None, 0), ("", 0), (10, 1), (60, 0), ("x", 0)])
def test_conversations_follow_the_tenants_retention_setting(
    world: World, setting: Any, purged: int
) -> None:
    if setting is not None:
        world.tenant_a.settings = {"conversation_retention_days": setting}
        world.tenant_a.save()
    for days, title in ((31, "old"), (29, "recent")):
        conversation = Conversation.objects.create(
            tenant=world.tenant_a, user=world.owner, title=title
        )
        Conversation.objects.for_tenant(world.tenant_a).filter(pk=conversation.pk).update(
            updated_at=ago(days)
        )
    # Anything under 30 days counts as 30: "recent" (29 days) always stays.
    assert f"conversations purged: {purged}" in run("--as-of", str(TODAY))
    titles = set(Conversation.objects.for_tenant(world.tenant_a).values_list("title", flat=True))
    assert titles == ({"recent"} if purged else {"old", "recent"})


@pytest.mark.django_db(transaction=True)
def test_two_overlapping_runs_do_each_row_once(world: World, matrix: None) -> None:
    results: list[dict[str, int]] = []
    errors: list[BaseException] = []

    def one() -> None:
        try:
            results.append(retention_run(as_of=TODAY, trigger="test").counts)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    total = {k: sum(r[k] for r in results) for k in results[0]}
    assert total["sessions_abandoned"] == 2
    assert total["completed_purged"] == 1
    assert total["abandoned_deleted_error_purged"] == 3
    assert len(left(world)) == 6


@pytest.mark.django_db
def test_operators_see_runs_and_start_one_from_the_admin(world: World, matrix: None) -> None:
    from django.contrib.auth.models import User

    root = User.objects.create_superuser("root", "root@example.com", "pw-root-1")
    client = Client()
    client.force_login(root)
    page = client.get("/admin/skill_sessions/retentionrun/")
    assert page.status_code == 200 and b"Start a dry run" in page.content
    response = client.post("/admin/skill_sessions/retentionrun/start/", {"dry_run": "1"})
    assert response.status_code == 302
    record = RetentionRun.objects.get()
    assert (record.trigger, record.dry_run) == ("admin", True)
    listed = client.get("/admin/skill_sessions/retentionrun/")
    assert b"sessions abandoned" in listed.content
    # A tenant admin cannot start one.
    tenant_admin = Client()
    world.admin_a.is_staff = True
    world.admin_a.save()
    tenant_admin.force_login(world.admin_a)
    assert tenant_admin.post(
        "/admin/skill_sessions/retentionrun/start/", {"dry_run": "0"}
    ).status_code in (302, 403)
    assert RetentionRun.objects.count() == 1
    # Sessions show their document decoded, read-only.
    row = SkillCreationSession.objects.for_tenant(world.tenant_a).get(session_id="active-idle")
    SkillCreationSession.objects.for_tenant(world.tenant_a).filter(pk=row.pk).update(
        context=str(SkillContext(purpose="reads receipts").to_json()).replace("'", '"')
    )
    detail = client.get(f"/admin/skill_sessions/skillcreationsession/{row.pk}/change/")
    assert detail.status_code == 200 and b"reads receipts" in detail.content
