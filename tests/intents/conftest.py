from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from intents.llm import reset_llm_status
from tests.intents.llm_server import ScriptedLLMServer, running_server


@pytest.fixture
def llm_server(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedLLMServer]:
    """A scripted OpenAI-compatible server on 127.0.0.1, with the LLM tier pointed at it.

    Backoff is small so failure paths take tenths of a second; the fake key makes
    any call that escaped to a real provider fail authentication instead of spending money.
    """
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    with running_server() as server:
        settings.OMNIFORGE_INTENT_API_BASE = server.base_url
        settings.OMNIFORGE_INTENT_MODEL = "openai/test-model"
        # Roomy by default so a loaded machine never turns a scripted answer into a timeout;
        # the timeout tests set their own small value.
        settings.OMNIFORGE_INTENT_TIMEOUT_S = 1.5
        settings.OMNIFORGE_INTENT_MAX_RETRIES = 2
        settings.OMNIFORGE_INTENT_BACKOFF_S = 0.01
        reset_llm_status()
        yield server
    reset_llm_status()
