"""Sessions across processes: a restarted server continues the same session, and a real Celery
worker with beat runs the retention task (the latter in the CI run that has Redis)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from skill_sessions.models import RetentionRun, SkillCreationSession
from tests.conftest import World, subprocess_database_url

pytestmark = pytest.mark.django_db(transaction=True)
REPO = Path(__file__).resolve().parents[2]
URL = "/api/v1/skill-sessions/"


def env() -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": subprocess_database_url(), "DJANGO_SETTINGS_MODULE":
            "config.settings"}  # fmt: skip


def test_a_new_process_continues_the_same_session(world: World) -> None:
    client: APIClient = world.client(world.owner)
    turn = client.post(URL, {"message": "Create a skill that extracts totals from invoices"},
                       format="json").json()  # fmt: skip
    sid = turn["session_id"]
    assert client.get(f"{URL}{sid}/").status_code == 200  # read (and cached) here
    # Another server process (a restart) answers the next message of the same session.
    script = textwrap.dedent(f"""
        import django; django.setup()
        from conversations.models import Tenant
        from django.contrib.auth.models import User
        from skill_sessions import services
        from intents.reading.reading import read
        from skill_sessions.flow import skill_step
        tenant = Tenant.objects.get(slug="acme")
        loaded = services.session_load(tenant=tenant, session_id={sid!r})
        step = skill_step(loaded.context, read("JSON with the total"))
        services.session_save(tenant=tenant, user=User.objects.get(username="olivia"),
                              session_id={sid!r}, context=step.context,
                              expected_version=loaded.row.version)
        print(step.context.asking)
    """)
    done = subprocess.run(
        [sys.executable, "-c", script], env=env(), cwd=REPO, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "examples"
    # This process sees the newer version (not its cached one) and finishes the skill.
    detail = client.get(f"{URL}{sid}/").json()
    assert "Gives back: JSON with the total" in detail["gathered"]
    for message in ('input: a.pdf -> output: {"total": 3}', "yes"):
        response = client.post(f"{URL}{sid}/messages/", {"message": message}, format="json")
        assert response.status_code == 200, response.content
    assert response.json()["status"] == "completed"
    assert client.get("/api/v1/skills/").json()["results"][0]["session_id"] == sid


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="a real worker needs the broker")
def test_a_real_worker_and_beat_run_the_retention_task(world: World, tmp_path: Path) -> None:
    from skill_sessions.context import SkillContext
    from skill_sessions.services import session_save

    session_save(tenant=world.tenant_a, user=world.owner, session_id="sk_idle",
                 context=SkillContext(), expected_version=0)  # fmt: skip
    SkillCreationSession.objects.for_tenant(world.tenant_a).update(
        last_activity_at="2020-01-01T00:00:00Z"
    )
    worker = subprocess.Popen(
        [str(REPO / ".venv" / "bin" / "celery"), "-A", "config", "worker", "-B",
         "-Q", "maintenance", "--pool=solo", "--loglevel=INFO",
         "-n", f"retention-{uuid.uuid4().hex[:8]}@%h", "--schedule", str(tmp_path / "beat")],
        env={**env(), "OMNIFORGE_RETENTION_EVERY_S": "2"}, cwd=REPO,
        stdout=subprocess.DEVNULL, stderr=open(tmp_path / "worker.log", "w"),  # noqa: SIM115
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if RetentionRun.objects.filter(trigger="beat", finished_at__isnull=False).exists():
                break
            time.sleep(0.5)
        else:
            pytest.fail((tmp_path / "worker.log").read_text()[-3000:])
    finally:
        worker.terminate()
        worker.wait(30)
    run = RetentionRun.objects.filter(trigger="beat").order_by("started_at").first()
    assert run is not None and run.counts["sessions_abandoned"] == 1
    assert SkillCreationSession.objects.for_tenant(world.tenant_a).get().status == "abandoned"
