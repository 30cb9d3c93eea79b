"""DRF's plaintext tokens become hashed ones: clients keep working, no key stays in a row."""

from __future__ import annotations

import hashlib

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from conversations.models import ApiToken
from conversations.tenancy.services import tenant_create, user_add

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [
    ("conversations", "0003_assistant_state"),
    ("authtoken", "0004_alter_tokenproxy_options"),
]
AFTER = [("conversations", "0004_api_tokens")]


def test_a_token_issued_before_the_migration_still_works_after_it() -> None:
    # The tenant and user with today's code, before the schema goes back: their rows survive
    # the way back (today's Membership has columns the old schema does not).
    tenant = tenant_create(slug="acme")
    user = user_add(tenant=tenant, username="alice", password="pw-alice-1").user
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old_apps = executor.loader.project_state(BEFORE).apps
    executor.loader.build_graph()
    Token = old_apps.get_model("authtoken", "Token")
    key = "0123456789abcdef0123456789abcdef01234567"
    Token.objects.create(key=key, user_id=user.pk)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    call_command("migrate", verbosity=0)  # and the rest, as a deploy would

    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0  # no plaintext key left
    token = ApiToken.objects.get()
    assert token.digest == hashlib.sha256(key.encode()).hexdigest() and token.prefix == key[:8]
    assert APIClient(HTTP_AUTHORIZATION=f"Token {key}").get("/api/v1/agents/").status_code == 200
