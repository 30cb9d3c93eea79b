"""What schemathesis found the API and its OpenAPI document disagreeing on, replayed as it sent it.

Each test names the run that found it (``st run --seed``, the phase) and drives the endpoint with
the request schemathesis made, through the DRF client, asserting what a user sees.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from skill_sessions.models import SkillCreationSession
from tests.conftest import World

pytestmark = pytest.mark.django_db
SESSIONS = "/api/v1/skill-sessions/"
DATES = "Create a skill that turns messy dates into ISO 8601"
# What ``\s`` means in a pattern of the OpenAPI document (JSON Schema: ECMA-262), which is not
# what it means to Python's ``re`` (Python counts \x1c-\x1f and \x85, ECMA-262 counts \ufeff).
ECMA_SPACE = r"\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def documented_pattern(world: World, component: str, field: str) -> str:
    schema = world.client(None).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    return str(schema["components"]["schemas"][component]["properties"][field]["pattern"])


def as_a_client_reads_it(pattern: str) -> re.Pattern[str]:
    """The document's pattern with ECMA-262's meaning, for Python's ``re``."""
    return re.compile(pattern.replace(r"\s", ECMA_SPACE))


def test_a_session_started_through_the_api_names_no_conversation(world: World) -> None:
    """Seeds 1 and 3, stateful phase: the detail said ``conversation_id: ""`` where the list
    and the document say null; followed as a link, "" made ``DELETE conversations//``: 405."""
    client = world.client(world.owner)
    sid = client.post(SESSIONS, {"message": DATES}, format="json").json()["session_id"]
    said = client.post(f"{SESSIONS}{sid}/messages/", {"message": "508H7if00"}, format="json")
    assert said.status_code == 200

    detail = client.get(f"{SESSIONS}{sid}/").json()

    assert detail["conversation_id"] is None
    assert client.get(SESSIONS).json()["results"][0]["conversation_id"] is None


def test_a_session_started_in_the_chat_names_its_conversation(world: World) -> None:
    client = world.client(world.owner)
    turn = client.post("/api/v1/chat/", {"message": DATES}, format="json").json()
    session = client.get(SESSIONS).json()["results"][0]

    detail = client.get(f"{SESSIONS}{session['session_id']}/").json()

    assert detail["conversation_id"] == session["conversation_id"] == turn["conversation_id"]
    followed = client.get(f"/api/v1/conversations/{detail['conversation_id']}/")
    assert followed.status_code == 200


@pytest.mark.parametrize(
    "message",
    # "\x1f" is seed 1's (fuzzing); the others differ between the two meanings of \s as well.
    ["\x1f", "\x1c", "\x85", "\ufeff", "\u3000", " \t", "hi\x1f"],
    ids=repr,
)
def test_a_message_is_refused_as_blank_exactly_when_the_document_says_so(
    world: World, message: str
) -> None:
    """Seed 1, fuzzing: ``{"message": "\\u001f"}`` matched the documented pattern (which said
    "one character that is not a space" with ``\\s``) and was refused as blank: a 400."""
    documented = as_a_client_reads_it(documented_pattern(world, "SkillMessageRequest", "message"))
    client = world.client(world.owner)

    response = client.post(SESSIONS, {"message": message}, format="json")

    body: Any = response.json()
    if documented.fullmatch(message):
        assert response.status_code == 201, body
    else:
        assert (response.status_code, body) == (400, {"message": ["This field may not be blank."]})
        assert not SkillCreationSession.objects.for_tenant(world.tenant_a).exists()


def test_a_classify_request_of_a_control_character_is_refused_as_the_document_says(
    world: World,
) -> None:
    """Seed 5 (a tenant admin's token), fuzzing: the same disagreement on ``intents/classify/``,
    with a conversation of the caller's named."""
    documented = as_a_client_reads_it(
        documented_pattern(world, "ClassifyMessageRequest", "message")
    )
    client = world.client(world.admin_a)
    conversation_id = client.post("/api/v1/conversations/", {}, format="json").json()["id"]

    response = client.post(
        "/api/v1/intents/classify/",
        {"message": "\u001e", "conversation_id": conversation_id},
        format="json",
    )

    assert documented.fullmatch("\u001e") is None
    assert (response.status_code, response.json()) == (
        400, {"message": ["This field may not be blank."]},
    )  # fmt: skip
