"""Re-encrypting stored text with the newest key (``rotate_encryption_keys``).

Keys rotate by putting a new one first in ``OMNIFORGE_ENCRYPTION_KEYS``: new writes use it and
every listed key still decrypts. This rewrites older rows (and plaintext rows written before keys
were set) with the newest key, so an old key can then be dropped. It walks each column in primary
key order, a batch per transaction, and each row is rewritten only if its stored value is still
the one read (a concurrent write wins); a row already under the newest key is left alone. So an
interrupted run is resumed by running it again: it skips what is done.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, transaction

from conversations.models.fields import _PREFIX, current_fernet, encrypt_text

# (kind, table, column): every column that holds what users typed, encrypted.
COLUMNS = (
    ("message content", "conversations_message", "content"),
    ("message metadata", "conversations_message", "metadata"),
    ("conversation titles", "conversations_conversation", "title"),
    ("assistant states", "conversations_conversation", "assistant_state"),
    ("conversation metadata", "conversations_conversation", "metadata"),
    ("agent descriptions", "conversations_agent", "description"),
    ("agent configs", "conversations_agent", "config"),
    ("skill-session documents", "skill_sessions_skillcreationsession", "context"),
    ("skill descriptions", "skill_sessions_skill", "description"),
    ("skill definitions", "skill_sessions_skill", "definition"),
    ("run summaries", "conversations_agentrun", "summary"),
    ("run progress", "conversations_agentrun", "progress"),
    ("run reasons", "conversations_agentrun", "reason"),
    ("runtime secrets", "conversations_runtimeconnection", "secret"),
)


@dataclass
class Rotated:
    kind: str
    checked: int = 0
    rewritten: int = 0


def _current(value: str, newest: Fernet) -> bool:
    if not value.startswith(_PREFIX):
        return value == ""  # plaintext (an empty value stays empty)
    try:
        newest.decrypt(value[len(_PREFIX) :].encode())
        return True
    except InvalidToken:
        return False


def _rows(table: str, column: str, batch: int) -> Iterator[list[tuple[Any, str]]]:
    last: Any = None
    quoted_table, quoted_column = (connection.ops.quote_name(n) for n in (table, column))
    while True:
        where = "" if last is None else "WHERE id > %s "
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT id, {quoted_column} FROM {quoted_table} {where}"  # noqa: S608
                "ORDER BY id LIMIT %s",
                ([] if last is None else [last]) + [batch],
            )
            rows = [(pk, str(value)) for pk, value in cursor.fetchall() if value is not None]
        if not rows:
            return
        yield rows
        last = rows[-1][0]


def rotate_keys(
    *, dry_run: bool = False, batch: int = 500, progress: Callable[[str], None] | None = None
) -> list[Rotated]:
    """Rewrite every encrypted column under the newest key; counts per kind."""
    fernet = current_fernet()
    if fernet is None:
        raise ImproperlyConfigured("OMNIFORGE_ENCRYPTION_KEYS is unset: nothing to rotate to.")
    newest = Fernet(settings.OMNIFORGE_ENCRYPTION_KEYS[0].encode())
    results = []
    for kind, table, column in COLUMNS:
        done = Rotated(kind)
        quoted_table, quoted_column = (connection.ops.quote_name(n) for n in (table, column))
        for rows in _rows(table, column, batch):
            stale = [(pk, value) for pk, value in rows if not _current(value, newest)]
            done.checked += len(rows)
            if dry_run or not stale:
                done.rewritten += len(stale)
                continue
            with transaction.atomic(), connection.cursor() as cursor:
                for pk, value in stale:
                    if value.startswith(_PREFIX):
                        token = fernet.rotate(value[len(_PREFIX) :].encode()).decode()
                        new = _PREFIX + token
                    else:
                        new = encrypt_text(value)
                    cursor.execute(
                        f"UPDATE {quoted_table} SET {quoted_column} = %s "  # noqa: S608
                        f"WHERE id = %s AND {quoted_column} = %s",
                        [new, pk, value],
                    )
                    done.rewritten += cursor.rowcount
            if progress:
                progress(f"{kind}: {done.checked} checked, {done.rewritten} rewritten")
        results.append(done)
    return results
