"""A breaker per process that fails fast while PostgreSQL is unreachable.

Once connecting has failed, asking for a connection raises an ``OperationalError`` at once
instead of waiting for the pool's timeout, and at most every ``PROBE_EVERY_S`` one direct
connection attempt, bounded by a short connect timeout, finds out whether the server is back.
The pool's own connections (``BreakerConnection``) trip and reset it as they connect. No Django
import here: the settings name ``BreakerConnection`` as the pool's connection class.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import psycopg

logger = logging.getLogger("omniforge.db")

PROBE_EVERY_S = 0.5
PROBE_CONNECT_TIMEOUT_S = 2


class Breaker:
    """Whether this process knows the database to be unreachable, and when it last checked."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.down_since: float | None = None
        self._probed_at = 0.0

    def trip(self) -> None:
        with self._lock:
            if self.down_since is None:
                self.down_since = time.monotonic()
                logger.warning("database: unreachable, failing fast until it answers again")

    def reset(self) -> None:
        with self._lock:
            if self.down_since is not None:
                logger.warning(
                    "database: reachable again after %.1f s", time.monotonic() - self.down_since
                )
            self.down_since = None

    def check(self, conn_params: dict[str, Any]) -> None:
        """Return when connecting is worth trying; raise at once while the server is down."""
        if self.down_since is None:
            return
        now = time.monotonic()
        with self._lock:
            probing = now - self._probed_at >= PROBE_EVERY_S
            if probing:
                self._probed_at = now
        if not probing:
            raise psycopg.OperationalError("the database is unavailable (failing fast)")
        params = {**conn_params, "connect_timeout": PROBE_CONNECT_TIMEOUT_S}
        try:
            psycopg.connect(**params).close()
        except psycopg.Error:
            raise psycopg.OperationalError("the database is unavailable") from None
        self.reset()


BREAKER = Breaker()


class BreakerConnection(psycopg.Connection[Any]):
    """The pool's connections: a failure to connect trips the breaker, a success resets it."""

    @classmethod
    def connect(cls, *args: Any, **kwargs: Any) -> Any:
        try:
            connection = super().connect(*args, **kwargs)
        except psycopg.OperationalError:
            BREAKER.trip()
            raise
        BREAKER.reset()
        return connection
