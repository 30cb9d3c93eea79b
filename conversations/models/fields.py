"""Text encrypted at rest with the keys in ``OMNIFORGE_ENCRYPTION_KEYS``."""

from __future__ import annotations

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
        return None if value is None else encrypt_text(value)
