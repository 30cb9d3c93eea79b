"""What the wizard reads from a message: the details kept exactly as the user wrote them."""

from __future__ import annotations

import pytest

from conversations.assistant.slots import name_in, read_slots, scope_in


@pytest.mark.parametrize(
    ("message", "scope"),
    [
        ("checks the GitHub repo acme/web every day at 10:00", "acme/web"),
        ("watch gitlab infra/terraform merge requests", "infra/terraform"),
        ("Google Sheets - the 'Q3 Budget' spreadsheet", "Q3 Budget"),
        ("revise la hoja «Facturación Q3» de Google Sheets", "Facturación Q3"),
        ("alert me 24/7 and/or email me", None),
        ("it's our team's board, don't worry", None),
        ("9:15, Asia/Kolkata", None),
    ],
)
def test_the_sheet_board_or_repository_is_kept_as_written(message: str, scope: str | None) -> None:
    assert scope_in(message) == scope


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("Name it budget-digest", "budget-digest"),
        ("Crea un agente llamado «Cobros de Facturación» que revise", "cobros-de-facturacion"),
        ("call it 'deal-watch'", "deal-watch"),
    ],
)
def test_a_name_is_read_whatever_its_case_or_quotes(message: str, name: str) -> None:
    assert name_in(message) == name


def test_a_time_zone_answer_is_not_what_the_agent_watches() -> None:
    found = read_slots(
        "9:15, Asia/Kolkata",
        have={"frequency": "daily", "zone": "UTC"},
        asking=("trigger", "when"),
        zone="UTC",
        opening=False,
    )
    assert found.get("zone") == "Asia/Kolkata"
    assert "trigger" not in found and "details" not in found


def test_every_new_thing_is_what_it_reacts_to() -> None:
    found = read_slots(
        "I'd like an agent that emails me every new HubSpot lead",
        have={},
        asking=(),
        zone="UTC",
        opening=True,
    )
    assert found["trigger"] == "new HubSpot lead"
    assert found["source"] == "hubspot"


def test_a_destination_taken_back_is_not_the_destination() -> None:
    found = read_slots(
        "no sorry not #support-leads, it should go to #cx-escalations",
        have={"destination": "Slack #support-leads"},
        asking=(),
        zone="UTC",
        opening=False,
    )
    assert found["destination"] == "Slack #cx-escalations"


def test_every_address_results_go_to_is_kept() -> None:
    found = read_slots(
        "watch freshdesk for late tickets and email ravi@northwind.io and oksana@northwind.io",
        have={},
        asking=(),
        zone="UTC",
        opening=True,
    )
    assert found["destination"] == "ravi@northwind.io, oksana@northwind.io"


def test_a_time_taken_back_mid_sentence_is_replaced() -> None:
    found = read_slots(
        "every weekday at 10 -- no wait 11am -- post the open PRs in #backend",
        have={},
        asking=(),
        zone="UTC",
        opening=True,
    )
    assert "11:00" in found["frequency"] and "10:00" not in found["frequency"]


def test_a_new_day_replaces_the_day_and_keeps_the_time() -> None:
    found = read_slots(
        "actually make it tuesdays",
        have={"frequency": "weekly monday 08:00", "zone": "Europe/London"},
        asking=(),
        zone="UTC",
        opening=False,
    )
    assert found["frequency"] == "weekly tuesday 08:00"
