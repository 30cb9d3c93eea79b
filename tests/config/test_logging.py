"""LOG_LEVEL=DEBUG on a live server: the project's steps are logged, never a prompt."""

from __future__ import annotations

import re

import pytest
from django.db import connections

from conversations.tenancy.services import token_issue
from tests.conftest import World
from tests.intents.llm_server import ScriptedLLMServer
from tests.live import Server

# In the user's message, so in the prompt: it must reach the model and nothing else.
MARKER = "quokka-ledger-7d41"


@pytest.mark.django_db(transaction=True)
def test_debug_logging_never_writes_what_the_user_sent_the_model(
    world: World, servers: list[Server], llm_server: ScriptedLLMServer
) -> None:
    token = token_issue(user=world.owner)
    connections.close_all()  # the server process reads the rows written here
    server = Server(
        env={
            "LOG_LEVEL": "DEBUG",
            "OMNIFORGE_INTENT_MODEL": "openai/test-model",
            "OMNIFORGE_INTENT_API_BASE": llm_server.base_url,
            "OPENAI_API_KEY": "sk-test-not-a-real-key",
            # Roomy: a first call on a loaded machine must reach the model, not fall back.
            "OMNIFORGE_INTENT_TIMEOUT_S": "10",
        }
    )
    servers.append(server)

    turn = server.chat(token, f"Summarize the {MARKER} pages in Notion every Monday", None)

    assert turn["intent"]["method"] == "llm"
    assert MARKER in llm_server.chat_requests[-1].prompt_text  # the model was sent it
    server.stop()  # every line written
    log = server.log()
    # DEBUG is on, for the project's own loggers too: the test cannot pass by logging nothing.
    assert re.search(r" DEBUG intents\.llm\.client intent LLM attempt 1: openai/test-model", log)
    assert MARKER not in log
