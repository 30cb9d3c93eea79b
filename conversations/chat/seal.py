"""Turns in flight, sealed: what a user typed never sits readable in the broker or the cache.

A turn storage refused travels to the background retry as a Celery argument (through Redis when
it is the broker) and waits in the cache for a re-send; both hold its messages. With encryption
keys configured the payload is one Fernet token, like a stored row; without keys it stays as is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from conversations.models.fields import current_fernet, decrypt_text, encrypt_text

_SEALED = "sealed"


def seal(payload: Mapping[str, Any]) -> dict[str, Any]:
    if current_fernet() is None:
        return dict(payload)
    return {_SEALED: encrypt_text(json.dumps(payload, ensure_ascii=False))}


def unseal(payload: Mapping[str, Any]) -> dict[str, Any]:
    if set(payload) == {_SEALED}:
        return dict(json.loads(decrypt_text(str(payload[_SEALED]))))
    return dict(payload)
