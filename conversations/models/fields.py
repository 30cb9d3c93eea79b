"""Text encrypted at rest with the keys in ``OMNIFORGE_ENCRYPTION_KEYS``."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import models

# Ciphertext is stored with this prefix so rows written before encryption was switched on (or
# after it was switched off) still read back: only prefixed values are decrypted.
_PREFIX = "enc1:"


@cache
def _fernet(keys: tuple[str, ...]) -> MultiFernet | None:
    if not keys:
        return None
    try:
        return MultiFernet([Fernet(key.encode()) for key in keys])
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"OMNIFORGE_ENCRYPTION_KEYS holds an invalid key: {exc}"
        ) from exc


def current_fernet() -> MultiFernet | None:
    return _fernet(tuple(settings.OMNIFORGE_ENCRYPTION_KEYS))


def encrypt_text(value: str) -> str:
    fernet = current_fernet()
    if fernet is None:
        return value
    return _PREFIX + fernet.encrypt(value.encode()).decode()


def decrypt_text(value: str) -> str:
    if not value.startswith(_PREFIX):
        return value
    fernet = current_fernet()
    if fernet is None:
        raise ImproperlyConfigured("Encrypted rows found but OMNIFORGE_ENCRYPTION_KEYS is unset")
    try:
        return fernet.decrypt(value[len(_PREFIX) :].encode()).decode()
    except InvalidToken as exc:
        raise ImproperlyConfigured("No key in OMNIFORGE_ENCRYPTION_KEYS decrypts a row") from exc


class EncryptedTextField(models.TextField):
    """A TextField whose stored value is Fernet ciphertext when keys are configured.

    Newest key first: it encrypts, and every listed key decrypts, so keys rotate by prepending.
    Encrypted columns cannot be searched or filtered by content in the database.
    """

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> str | None:
        return None if value is None else decrypt_text(value)

    def get_prep_value(self, value: Any) -> Any:
        value = super().get_prep_value(value)
        # An empty value says nothing: kept empty, so "is it set?" stays a plain comparison.
        return value if value in (None, "") else encrypt_text(value)


class EncryptedJSONField(models.TextField):
    """A JSON document stored as (encrypted, when keys are configured) text.

    For documents that hold what users typed (the assistant's state: a wizard's gathered values,
    a pending request). Rows written as plain JSON, before this field or without keys, read back.
    """

    # What django-stubs reads as the Python-side type (a document, not text).
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("default", dict)
        super().__init__(*args, **kwargs)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is None:
            return None
        if not isinstance(value, str):  # a backend that decoded JSON already
            return value
        return json.loads(decrypt_text(value)) if value else {}

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):
            return json.loads(decrypt_text(value)) if value else {}
        return value

    def get_prep_value(self, value: Any) -> Any:
        if value is None:
            return None
        return encrypt_text(json.dumps(value, ensure_ascii=False, separators=(",", ":")))

    def value_to_string(self, obj: Any) -> str:
        return json.dumps(self.value_from_object(obj))
