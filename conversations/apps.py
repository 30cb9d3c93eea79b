import logging

from django.apps import AppConfig
from django.conf import settings

logger = logging.getLogger("omniforge")


class ConversationsConfig(AppConfig):
    name = "conversations"
    verbose_name = "Conversations and tenants"

    def ready(self) -> None:
        if not settings.OMNIFORGE_ENCRYPTION_KEYS:
            # Said once per process, at startup: the embedded mode's default.
            logger.warning(
                "Encryption at rest is off: OMNIFORGE_ENCRYPTION_KEYS is unset, so messages, "
                "titles and assistant state are stored in plaintext."
            )
