"""A conversation's title is what a reader sees of its first message: words, not Markdown."""

from __future__ import annotations

import pytest

from tests.conftest import World
from tests.conversations.chat.test_chat_api import Chat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("```python\nprint(total)\n```\nwhy does this print None?", "why does this print None?"),
        ("```python\nimport csv\nrows = []\n```", "import csv"),
        ("# Weekly **sales** for [HubSpot](https://hubspot.com)", "Weekly sales for HubSpot"),
        ("- first thing\n- `second` thing", "first thing second thing"),
        ("> quoted *emphasis* here", "quoted emphasis here"),
        ("plain words, 3 * 4 = 12", "plain words, 3 * 4 = 12"),
    ],
)  # fmt: skip
def test_the_title_holds_the_words_without_markup(world: World, message: str, title: str) -> None:
    chat = Chat(world, world.owner)
    chat.say(message)
    listed = chat.client.get("/api/v1/conversations/").json()["results"]
    assert [conversation["title"] for conversation in listed] == [title]
