"""A skill the builder names is named in the product's words, never in what a user typed:
names are stored plain, so with encryption keys set a word of the request is in no column."""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.fernet import Fernet

from intents.reading.reading import read
from skill_sessions.flow import skill_start
from skill_sessions.models import Skill
from tests.conftest import World, columns_holding

pytestmark = pytest.mark.django_db
URL = "/api/v1/skill-sessions/"
WORD = "zqxvplorf"  # made up: in no vocabulary


def test_a_skill_the_builder_names_keeps_no_typed_word_in_any_column(
    world: World, settings: Any
) -> None:
    settings.OMNIFORGE_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    client = world.client(world.owner)
    started = client.post(
        URL, {"message": f"Create a skill that extracts {WORD} totals from invoices"}, format="json"
    )
    assert started.status_code == 201, started.content
    sid = started.json()["session_id"]
    for message in (
        "a PDF invoice",
        "JSON with total and currency",
        'input: invoice-123.pdf -> output: {"total": 10, "currency": "EUR"}',
        "yes",
    ):
        turn = client.post(f"{URL}{sid}/messages/", {"message": message}, format="json")
        assert turn.status_code == 200, turn.content
    assert turn.json()["status"] == "completed"
    assert columns_holding(WORD) == []
    skill = Skill.objects.for_tenant(world.tenant_a).get()
    assert WORD in skill.description  # taken in, and kept encrypted
    assert skill.name == turn.json()["skill_name"] == "totals-invoices-extractor"


@pytest.mark.parametrize(
    ("opening", "name"),
    [
        ("Create a skill that turns messy dates into ISO 8601", "dates-converter"),
        ("Create a skill that sorts Zendesk tickets by urgency", "zendesk-tickets-classifier"),
        (f"Create a skill that {WORD}s the {WORD}", "new-skill"),
        (f"Create a skill named {WORD}-reader that reads receipts", f"{WORD}-reader"),
    ],
)
def test_a_name_is_the_users_or_made_of_the_products_words(opening: str, name: str) -> None:
    assert skill_start(read(opening)).context.name == name
