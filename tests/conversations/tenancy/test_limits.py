"""Limits: anonymous and bad-token traffic by address, tenants as a whole, sign-in lockout."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from tests.conftest import World

pytestmark = pytest.mark.django_db
URL = "/api/v1/conversations/"


@pytest.fixture(autouse=True)
def _fresh_counters(settings: Any) -> Iterator[None]:
    # Counters live in the cache under this test process's prefix; start each test at zero.
    cache.delete_many([f"throttle_{scope}_127.0.0.1" for scope in ("anon", "auth_failures")])
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "anon": "5/min", "auth_failures": "3/min", "tenant": "8/min",
        },
    }  # fmt: skip
    from rest_framework.settings import api_settings
    from rest_framework.throttling import SimpleRateThrottle

    before = SimpleRateThrottle.THROTTLE_RATES
    api_settings.reload()
    SimpleRateThrottle.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES
    yield
    SimpleRateThrottle.THROTTLE_RATES = before  # DRF reads it once, at import


def test_anonymous_requests_are_throttled_by_address() -> None:
    statuses = [APIClient().get(URL).status_code for _ in range(8)]
    assert statuses[:5] == [401] * 5 and set(statuses[5:]) == {429}
    response = APIClient().get(URL)
    assert response.json()["detail"].startswith("Request was throttled")
    assert int(response["Retry-After"]) > 0


def test_guessing_tokens_is_throttled_sooner(world: World) -> None:
    bad = APIClient(HTTP_AUTHORIZATION="Token 0000000000000000000000000000000000000000")
    statuses = [bad.get(URL).status_code for _ in range(5)]
    assert statuses[:3] == [401] * 3 and set(statuses[3:]) == {429}


def test_a_tenant_is_limited_as_a_whole(world: World) -> None:
    # Tenant ids repeat across tests in one process: start this tenant's counter at zero.
    cache.delete_many([f"throttle_tenant_{t.pk}" for t in (world.tenant_a, world.tenant_b)])
    owner, member = world.client(world.owner), world.client(world.member)
    statuses = [c.get(URL).status_code for _ in range(5) for c in (owner, member)]
    assert statuses.count(200) == 8 and statuses[-2:] == [429, 429]
    # Another tenant is not affected.
    assert world.client(world.outsider).get(URL).status_code == 200


def test_repeated_failed_sign_ins_lock_out_until_an_operator_lifts_it(
    world: World, settings: Any
) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    client = Client()
    for _ in range(3):
        client.post("/accounts/login/", {"username": "olivia", "password": "wrong"})
    locked = client.post("/accounts/login/", {"username": "olivia", "password": "pw-olivia-1"})
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
    call_command("axes_reset_username", "olivia", verbosity=0)
    signed_in = client.post("/accounts/login/", {"username": "olivia", "password": "pw-olivia-1"})
    assert signed_in.status_code == 302 and "_auth_user_id" in client.session
