"""Per-turn persistence cost through our services vs plain sqlite3 (the physical floor).

A turn: append a user and an assistant message (~60 words each) and read the last 20 in order.
The floor commits both messages in one transaction. Our chat turn commits the user message
before it classifies (so nothing is lost if a later part fails) and the reply after it: a
second floor, committing per message, shows what that design choice costs by itself.
"""

from __future__ import annotations

import sqlite3
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

from bench.common import median, percentile, print_table
from conversations.models import Conversation, Message, Tenant, new_id
from conversations.store import selectors, services

LENGTHS = (10, 100, 1_000, 10_000)
TURNS = 150
SENTENCE = (
    "please build an agent that reads our notion workspace every monday morning and posts "
    "a short summary of project updates blockers and decisions into the sales channel so "
    "the whole team sees what changed last week without opening ten different pages today"
)
WORDS = (SENTENCE + " " + SENTENCE).split(" ")[:60]
USER_TEXT = " ".join(WORDS)
ASSISTANT_TEXT = " ".join(reversed(WORDS))


def _prefill(conversation: Conversation, count: int) -> None:
    now = timezone.now()
    rows = [
        Message(
            id=new_id(),
            tenant_id=conversation.tenant_id,
            conversation=conversation,
            seq=i + 1,
            role="user" if i % 2 == 0 else "assistant",
            content=USER_TEXT,
            token_count=60,
            created_at=now,
        )
        for i in range(count)
    ]
    Message.objects.bulk_create(rows, batch_size=2000)
    Conversation.objects.for_tenant(conversation.tenant_id).filter(id=conversation.id).update(
        message_count=count
    )
    conversation.message_count = count


def _ours(tenant: Tenant, user: User, length: int) -> list[float]:
    conversation = services.conversation_create(tenant=tenant, user=user, title="bench")
    _prefill(conversation, length)
    samples = []
    for _ in range(TURNS):
        start = time.perf_counter()
        services.message_add(conversation=conversation, role="user", content=USER_TEXT)
        services.message_add(conversation=conversation, role="assistant", content=ASSISTANT_TEXT)
        recent = selectors.message_recent(conversation=conversation, limit=20)
        samples.append(time.perf_counter() - start)
        assert len(recent) == min(20, conversation.message_count)
    return samples


def _floor(path: Path, length: int, *, commit_per_message: bool = False) -> list[float]:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE IF NOT EXISTS conv (id TEXT PRIMARY KEY, n INTEGER, updated TEXT)")
    db.execute(
        "CREATE TABLE IF NOT EXISTS msg (id TEXT PRIMARY KEY, conv TEXT, seq INTEGER, role TEXT,"
        " content TEXT, created TEXT)"
    )
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS msg_conv_seq ON msg (conv, seq)")
    conv = new_id()
    db.execute("INSERT INTO conv VALUES (?, ?, ?)", (conv, length, "now"))
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO msg VALUES (?, ?, ?, ?, ?, ?)",
        [(new_id(), conv, i + 1, "user", USER_TEXT, "now") for i in range(length)],
    )
    db.execute("COMMIT")
    seq = length
    samples = []
    for _ in range(TURNS):
        start = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute(
            "INSERT INTO msg VALUES (?, ?, ?, ?, ?, ?)",
            (new_id(), conv, seq + 1, "user", USER_TEXT, "now"),
        )
        if commit_per_message:
            db.execute("UPDATE conv SET n = n + 1, updated = ? WHERE id = ?", ("now", conv))
            db.execute("COMMIT")
            db.execute("BEGIN IMMEDIATE")
        db.execute(
            "INSERT INTO msg VALUES (?, ?, ?, ?, ?, ?)",
            (new_id(), conv, seq + 2, "assistant", ASSISTANT_TEXT, "now"),
        )
        db.execute("UPDATE conv SET n = n + 2, updated = ? WHERE id = ?", ("now", conv))
        db.execute("COMMIT")
        rows = db.execute(
            "SELECT id, role, content FROM msg WHERE conv = ? ORDER BY seq DESC LIMIT 20", (conv,)
        ).fetchall()
        rows.reverse()
        samples.append(time.perf_counter() - start)
        seq += 2
        assert len(rows) == min(20, seq)
    db.close()
    return samples


def _list_page_one(tenant: Tenant, user: User) -> tuple[list[float], int]:
    now = timezone.now()
    existing = Conversation.objects.for_tenant(tenant).filter(user=user).count()
    missing = 10_000 - existing
    if missing > 0:
        Conversation.objects.bulk_create(
            [
                Conversation(
                    id=new_id(),
                    tenant=tenant,
                    user=user,
                    title=f"c{i}",
                    created_at=now,
                    updated_at=now - timedelta(seconds=i),
                )
                for i in range(missing)
            ],
            batch_size=2000,
        )
    total = Conversation.objects.for_tenant(tenant).filter(user=user).count()
    samples = []
    for _ in range(200):
        start = time.perf_counter()
        page = selectors.conversation_list(tenant=tenant, user=user, limit=50)
        samples.append(time.perf_counter() - start)
        assert len(page.items) == 50
    return samples, total


def run() -> None:
    suffix = new_id().lower()[-8:]
    with transaction.atomic():
        tenant = Tenant.objects.create(slug=f"bench-{suffix}", name="bench")
        user = User.objects.create(username=f"bench-{suffix}")
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for length in LENGTHS:
                ours = _ours(tenant, user, length)
                floor = _floor(Path(tmp) / f"floor-{length}.sqlite3", length)
                floor2 = _floor(
                    Path(tmp) / f"floor2-{length}.sqlite3", length, commit_per_message=True
                )
                rows.append(
                    (
                        length,
                        f"{median(ours) * 1e6:.0f}",
                        f"{percentile(ours, 95) * 1e6:.0f}",
                        f"{median(floor) * 1e6:.0f}",
                        f"{median(floor2) * 1e6:.0f}",
                        f"{median(ours) / median(floor):.2f}x",
                        f"{median(ours) / median(floor2):.2f}x",
                    )
                )
        print_table(
            f"Per-turn persistence ({connection.vendor}, {TURNS} turns per length; µs per turn)",
            [
                "messages",
                "ours p50",
                "ours p95",
                "floor p50",
                "floor, commit per message p50",
                "ours / floor",
                "ours / commit-per-message floor",
            ],
            rows,
        )
        samples, total = _list_page_one(tenant, user)
        print_table(
            f"Conversation list, page 1 of 50 ({connection.vendor}, user with {total})",
            ["p50 µs", "p95 µs"],
            [(f"{median(samples) * 1e6:.0f}", f"{percentile(samples, 95) * 1e6:.0f}")],
        )
    finally:
        # cross-tenant: benchmark data cleanup, scoped to the bench tenant by the cascade.
        tenant.delete()
        user.delete()
