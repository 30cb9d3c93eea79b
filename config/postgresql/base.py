"""PostgreSQL through Django's connection pool, failing fast while the server is down.

psycopg_pool waits up to its ``timeout`` for a connection when the server refuses new ones, so
during an outage every request, and every step of a chat turn, would wait that long in turn.
With this backend, once connecting has failed (the pool's own reconnection attempts report it
at once, through ``BreakerConnection``), asking for a connection fails immediately with an
``OperationalError``: a 503 with ``Retry-After`` at the doors, the degraded path in a chat turn.
Everything else is Django's backend.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base

from config.postgresql.breaker import BREAKER


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        if getattr(self, "pool", None) is not None:  # Django 5.1+ (not in the stubs yet)
            BREAKER.check(conn_params)
        return super().get_new_connection(conn_params)
