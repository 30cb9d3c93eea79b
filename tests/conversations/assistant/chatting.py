"""Talking to the assistant the way a client does: messages through POST chat/, one
conversation, the replies as the user reads them."""

from __future__ import annotations

from typing import Any

from tests.conftest import World

URL = "/api/v1/chat/"


def replies(world: World, *messages: str, user: Any = None) -> list[str]:
    """The replies to ``messages``, said in one conversation by ``user`` (the owner)."""
    client = world.client(user or world.owner)
    body: dict[str, str] = {}
    said = []
    for message in messages:
        response = client.post(URL, {**body, "message": message}, format="json")
        assert response.status_code == 200, response.content
        body["conversation_id"] = response.json()["conversation_id"]
        said.append(str(response.json()["assistant_message"]["content"]))
    return said
