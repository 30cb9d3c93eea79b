from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from cryptography.fernet import Fernet
from django.contrib.auth import authenticate, get_user_model
from django.core.management import CommandError, call_command
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from conversations.models import Agent, ApiToken, Conversation, Membership, Tenant
from tests.conftest import subprocess_database_url

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_create_tenant_prints_the_slug_and_is_idempotent() -> None:
    assert run("create_tenant", "acme", "--name", "Acme Inc").strip() == "acme"
    assert run("create_tenant", "acme").strip() == "acme"
    assert Tenant.objects.get(slug="acme").name == "Acme Inc"
    assert Tenant.objects.count() == 1


@pytest.mark.django_db
def test_create_tenant_refuses_a_bad_slug() -> None:
    with pytest.raises(CommandError, match="invalid slug"):
        run("create_tenant", "not a slug!")


@pytest.mark.django_db
def test_add_user_puts_the_user_in_the_tenant_with_a_role() -> None:
    run("create_tenant", "acme")
    assert run("add_user", "acme", "alice", "--password", "s3cret-pw").strip() == "alice"
    assert run("add_user", "acme", "alice", "--password", "s3cret-pw", "--admin").strip() == "alice"
    user = authenticate(
        RequestFactory().post("/accounts/login/"), username="alice", password="s3cret-pw"
    )
    assert user is not None and user.is_staff
    membership = Membership.objects.for_tenant(Tenant.objects.get(slug="acme")).get(user=user)
    assert membership.role == "admin"


@pytest.mark.django_db
def test_add_user_refuses_a_missing_tenant_and_a_second_tenant() -> None:
    with pytest.raises(CommandError, match="no tenant"):
        run("add_user", "nope", "alice")
    run("create_tenant", "acme")
    run("create_tenant", "globex")
    run("add_user", "acme", "alice")
    with pytest.raises(CommandError, match="another tenant"):
        run("add_user", "globex", "alice")


@pytest.mark.django_db
def test_tokens_are_minted_hashed_used_and_revoked() -> None:
    run("create_tenant", "acme")
    run("add_user", "acme", "alice")
    first = run("issue_token", "alice")
    assert first.endswith("\n") and first.count("\n") == 1
    first = first.strip()
    second = run("issue_token", "alice").strip()
    assert len(first) == len(second) == 40 and first != second
    # Stored hashed: no row holds a key.
    stored = list(ApiToken.objects.values_list("digest", "prefix"))
    assert all(first not in row and second not in row for row in stored)
    assert all(APIClient(HTTP_AUTHORIZATION=f"Token {k}").get("/api/v1/agents/").status_code == 200
               for k in (first, second))  # fmt: skip
    assert run("revoke_tokens", "alice").strip() == "2"
    assert APIClient(HTTP_AUTHORIZATION=f"Token {first}").get("/api/v1/agents/").status_code == 401
    assert run("revoke_tokens", "alice").strip() == "0"
    with pytest.raises(CommandError, match="no user"):
        run("issue_token", "ghost")


@pytest.mark.django_db
def test_seed_demo_loads_the_demo_tenant_once() -> None:
    out = run("seed_demo")
    run("seed_demo")
    assert "user: demo" in out and "password: demo" in out
    demo = Tenant.objects.get(slug="demo")
    assert sorted(Agent.objects.for_tenant(demo).values_list("name", flat=True)) == [
        "financial-analyzer",
        "jira-overdue-monitor",
        "notion-reporter",
    ]
    assert Conversation.objects.for_tenant(demo).count() == 1
    user = authenticate(RequestFactory().post("/accounts/login/"), username="demo", password="demo")
    assert user is not None and user.is_staff


@pytest.mark.django_db
def test_seed_demo_again_leaves_the_demo_users_password_sessions_and_data_alone() -> None:
    run("seed_demo")
    user = get_user_model().objects.get(username="demo")
    user.set_password("changed-by-demo")
    user.save()
    password_hash = user.password
    demo = Tenant.objects.get(slug="demo")
    Agent.objects.for_tenant(demo).filter(name="notion-reporter").delete()
    browser = Client()
    browser.force_login(user)
    assert browser.get("/").status_code == 200

    out = run("seed_demo")

    user.refresh_from_db()
    assert user.password == password_hash
    signed_in = browser.get("/")
    assert signed_in.status_code == 200 and signed_in.wsgi_request.user == user
    assert "exists already" in out and "sessions and data are left as they are" in out
    assert not Agent.objects.for_tenant(demo).filter(name="notion-reporter").exists()
    assert Conversation.objects.for_tenant(demo).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_commands_work_as_subprocesses_with_exit_codes() -> None:
    env = {**os.environ, "DATABASE_URL": subprocess_database_url()}

    def manage(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
            text=True, timeout=120, check=False,
        )  # fmt: skip

    created = manage("create_tenant", "acme")
    assert (created.returncode, created.stdout) == (0, "acme\n")
    added = manage("add_user", "acme", "bob", "--password", "pw-bob-123")
    assert (added.returncode, added.stdout) == (0, "bob\n")
    token = manage("issue_token", "bob")
    assert token.returncode == 0 and len(token.stdout.strip()) == 40
    missing = manage("add_user", "nope", "carol")
    assert missing.returncode != 0
    assert missing.stderr.strip().splitlines()[-1].startswith("CommandError: no tenant")
    assert get_user_model().objects.filter(username="bob").exists()


def test_settings_refuse_production_without_a_secret_key() -> None:
    env: dict[str, Any] = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env["DEBUG"] = "false"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_settings_pass_the_deploy_checks_with_no_warning() -> None:
    env: dict[str, Any] = {**os.environ, "DEBUG": "false", "ALLOWED_HOSTS": "chat.example.com",
                           "SECRET_KEY": "a-production-length-secret-" + "x" * 40,
                           "OMNIFORGE_ENCRYPTION_KEYS": Fernet.generate_key().decode()}  # fmt: skip
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


@pytest.mark.django_db
def test_a_foreign_host_is_a_400(settings: Any) -> None:
    from django.test import Client

    settings.DEBUG = False
    assert Client(HTTP_HOST="evil.example").get("/healthz").status_code == 400
    assert Client(HTTP_HOST="evil.example").get("/api/v1/agents/").status_code == 400


def test_production_refuses_to_start_without_encryption_keys() -> None:
    env: dict[str, Any] = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OMNIFORGE_ENCRYPTION_KEYS", "OMNIFORGE_ALLOW_PLAINTEXT")
    }
    env.update({"DEBUG": "false", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "chat.example.com"})
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode != 0
    assert "OMNIFORGE_ENCRYPTION_KEYS must be set" in result.stderr
