"""Whether the LLM tier is on, and what deciding that costs a process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from intents.llm.client import (
    llm_status,
)
from tests.intents.llm_server import Reply, ScriptedLLMServer

REPO = Path(__file__).resolve().parents[3]


def test_llm_status_is_off_without_a_key_or_api_base(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    settings.OMNIFORGE_INTENT_API_BASE = ""
    settings.OMNIFORGE_INTENT_MODEL = "gpt-4o-mini"

    enabled, why = llm_status()

    assert enabled is False
    assert "no provider credentials" in why or "OPENAI_API_KEY" in why


def test_llm_status_names_the_missing_key_when_another_providers_key_is_set(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-real")
    settings.OMNIFORGE_INTENT_API_BASE = ""
    settings.OMNIFORGE_INTENT_MODEL = "gpt-4o-mini"

    enabled, why = llm_status()

    assert enabled is False
    assert "OPENAI_API_KEY" in why


def test_llm_status_is_on_with_the_providers_key(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-real")
    settings.OMNIFORGE_INTENT_API_BASE = ""
    settings.OMNIFORGE_INTENT_MODEL = "anthropic/claude-3-5-haiku-latest"

    assert llm_status()[0] is True


def test_llm_status_is_off_for_a_model_litellm_cannot_route(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.OMNIFORGE_INTENT_API_BASE = ""
    settings.OMNIFORGE_INTENT_MODEL = "llama3.1"

    assert llm_status()[0] is False


def test_a_process_without_a_provider_never_imports_litellm() -> None:
    code = (
        "import os, sys, django; django.setup()\n"
        "from intents.services import intent_classify\n"
        "result = intent_classify(message='list my agents')\n"
        "assert result.method == 'offline', result\n"
        "assert 'litellm' not in sys.modules\n"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith(("_API_KEY", "_TOKEN")) and k != "OMNIFORGE_INTENT_API_BASE"
    }
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]


def test_the_first_call_in_a_fresh_process_loads_litellm_outside_its_deadline(
    llm_server: ScriptedLLMServer, settings: Any
) -> None:
    # A deadline far shorter than importing litellm and the SDK's chat resources takes.
    settings.OMNIFORGE_INTENT_TIMEOUT_S = 0.3
    llm_server.script(Reply.intent("query_info", 0.9))
    code = (
        "import asyncio, sys, django; django.setup()\n"
        "assert 'litellm' not in sys.modules\n"
        "from intents.llm.client import classify_llm\n"
        "result = asyncio.run(classify_llm('list my agents'))\n"
        "print(result.method, result.usage['attempts'])\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "OMNIFORGE_INTENT_API_BASE": llm_server.base_url,
        "OMNIFORGE_INTENT_MODEL": "openai/test-model",
        "OMNIFORGE_INTENT_TIMEOUT_S": "0.3",
        "OMNIFORGE_INTENT_MAX_RETRIES": "0",
    }
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, timeout=90
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert done.stdout.decode().split() == ["llm", "1"]


def test_llm_status_with_an_api_base_does_not_import_litellm() -> None:
    code = (
        "import sys, django; django.setup()\n"
        "from intents.llm.client import llm_status\n"
        "assert llm_status()[0] is True, llm_status()\n"
        "assert 'litellm' not in sys.modules\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "OMNIFORGE_INTENT_API_BASE": "http://127.0.0.1:9/v1",
    }
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
