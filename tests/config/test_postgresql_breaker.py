"""The PostgreSQL backend's breaker: while the server refuses connections, asking for one fails
at once instead of after the pool's timeout, and it notices the server coming back."""

from __future__ import annotations

import time
from typing import Any

import psycopg
import pytest
from django.db import connection

from config.postgresql.breaker import PROBE_EVERY_S, Breaker
from tests.faults.proxy import TcpProxy

pytestmark = pytest.mark.django_db


@pytest.fixture
def params() -> dict[str, Any]:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only (CI's second run)")
    return dict(connection.get_connection_params())


def test_a_tripped_breaker_fails_fast_and_resets_when_the_server_answers(
    params: dict[str, Any],
) -> None:
    with TcpProxy(params.get("host") or "127.0.0.1", int(params.get("port") or 5432)) as proxy:
        through = {**params, "host": "127.0.0.1", "port": proxy.port}
        breaker = Breaker()
        breaker.check(through)  # closed: nothing to do
        proxy.cut()
        breaker.trip()
        started = time.monotonic()
        for _ in range(20):
            with pytest.raises(psycopg.OperationalError):
                breaker.check(through)
        assert time.monotonic() - started < 1.0  # no pool timeout anywhere
        assert breaker.down_since is not None
        proxy.restore()
        time.sleep(PROBE_EVERY_S)
        breaker.check(through)  # the probe connects: closed again
        assert breaker.down_since is None


def test_the_pool_trips_the_breaker_when_it_cannot_connect(params: dict[str, Any]) -> None:
    from config.postgresql import breaker as module

    module.BREAKER.reset()
    with pytest.raises(psycopg.OperationalError):
        module.BreakerConnection.connect(**{**params, "port": 1, "connect_timeout": 2})
    assert module.BREAKER.down_since is not None
    module.BreakerConnection.connect(**params).close()
    assert module.BREAKER.down_since is None
