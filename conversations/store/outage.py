"""Storage that is unavailable for now, and how each door says so.

Errors that say "storage is unavailable for now" (locked, timed out, connection lost, the pool
found no connection), as opposed to "this write can never succeed" (bad data, a constraint, a
bug): only these are worth a retry, an acknowledgement of a message that is not stored yet, or
a 503 that tells the client when to come back.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError

TRANSIENT_STORAGE_ERRORS = (OperationalError, InterfaceError)
# What a 503 tells the client to wait: about one reconnect of the database pool.
RETRY_AFTER_S = 5
UNAVAILABLE = "Storage is unavailable; try again shortly."


def is_transient(exc: BaseException) -> bool:
    return isinstance(exc, TRANSIENT_STORAGE_ERRORS)
