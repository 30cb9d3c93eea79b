from __future__ import annotations

import logging
import threading

from django.apps import AppConfig

logger = logging.getLogger("omniforge.intents")


class IntentsConfig(AppConfig):
    name = "intents"
    verbose_name = "Intent classification"


def announce_llm_tier() -> None:
    """Log once whether the LLM tier is on; load both tiers off the request path.

    Called by the servers at startup (not in ``ready()``: every management command would pay
    the seconds litellm's import costs).
    """

    def check() -> None:
        from intents.llm.client import llm_status, warm_up
        from intents.offline.model import engine

        engine()  # trains the offline model (a few seconds) before the first chat turn needs it
        enabled, why = llm_status()
        if enabled:
            logger.info("intent classification: LLM tier on (%s), offline fallback", why)
            warm_up()
        else:
            logger.info("intent classification: offline tier only (%s)", why)

    threading.Thread(target=check, name="llm-tier-check", daemon=True).start()
