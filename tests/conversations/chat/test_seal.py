"""Turns in flight keep what users typed sealed: the broker's task arguments and the cache."""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.fernet import Fernet
from django.core.cache import cache
from django.utils import timezone

from conversations import tasks
from conversations.chat.pending import PendingTurn, pending_turn_recall, pending_turn_remember
from conversations.chat.seal import seal, unseal
from conversations.store.services import PendingMessage

CANARY = "Quokkacanary"


@pytest.fixture
def keys(settings: Any) -> None:
    settings.OMNIFORGE_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]


def message(content: str) -> PendingMessage:
    return PendingMessage(
        id="01MSG", role="user", content=content, metadata={}, client_message_id="c-1",
        created_at=timezone.now(),
    )  # fmt: skip


def test_a_payload_is_sealed_only_when_keys_are_set(settings: Any) -> None:
    payload = {"messages": [{"content": CANARY}]}
    assert seal(payload) == payload  # no keys: as is (the embedded mode says so at startup)
    settings.OMNIFORGE_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    sealed = seal(payload)
    assert CANARY not in str(sealed) and unseal(sealed) == payload


def test_the_retry_task_gets_sealed_arguments(keys: None, settings: Any, monkeypatch: Any) -> None:
    sent: list[Any] = []
    monkeypatch.setattr(tasks.turn_commit_retry, "apply_async", lambda **kw: sent.append(kw))
    settings.REDIS_URL = "redis://broker.example:6379/0"  # the broker path (no broker is called)
    payload = {"messages": [message(CANARY).to_payload()], "effects": []}
    tasks.turn_commit_schedule(tenant_id=1, user_id=2, conversation_id="01CONV", payload=payload)
    (call,) = sent
    assert CANARY not in str(call["args"]) and unseal(call["args"][3]) == payload


@pytest.mark.django_db
def test_a_pending_turn_waits_in_the_cache_sealed(keys: None) -> None:
    turn = PendingTurn(
        conversation_id="01CONV", user_message=message(CANARY), reply=message("ok"),
        payload={"messages": []},
    )  # fmt: skip
    pending_turn_remember(tenant_id=1, user_id=2, client_message_id="c-1", turn=turn)
    from conversations.chat.pending import _pending_turn_key

    assert CANARY not in str(cache.get(_pending_turn_key(1, 2, "c-1")))
    recalled = pending_turn_recall(tenant_id=1, user_id=2, client_message_id="c-1")
    assert recalled is not None and recalled.user_message.content == CANARY
