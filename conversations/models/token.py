"""API tokens, stored hashed: the key is shown once, when it is minted, and never stored."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

KEY_BYTES = 20  # 40 hex characters, as DRF's tokens had: old keys keep working


def token_digest(key: str) -> str:
    """SHA-256 of a key: the keys are random, so no salt or slow hash is needed to protect them."""
    return hashlib.sha256(key.encode()).hexdigest()


def token_mint() -> str:
    return secrets.token_hex(KEY_BYTES)


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    digest = models.CharField(max_length=64, unique=True)  # authentication looks it up
    prefix = models.CharField(max_length=8)  # shown in the admin to tell tokens apart
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        verbose_name = "API token"
        verbose_name_plural = "API tokens"

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"
