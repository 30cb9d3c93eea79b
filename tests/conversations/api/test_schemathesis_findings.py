"""What schemathesis found the API and its OpenAPI document disagreeing on, replayed as it sent it.

Each test names the run that found it (``st run --seed``, the phase) and drives the endpoint with
the request schemathesis made, through the DRF client, asserting what a user sees.
"""

from __future__ import annotations

import pytest

from tests.conftest import World

pytestmark = pytest.mark.django_db
SESSIONS = "/api/v1/skill-sessions/"
DATES = "Create a skill that turns messy dates into ISO 8601"


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
