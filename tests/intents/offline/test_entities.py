"""Entities the offline tier extracts: schedules, sources, destinations, agent names."""

from __future__ import annotations

import pytest

from intents.offline.classifier import classify_offline
from intents.offline.entities import extract_entities, find_schedule
from intents.offline.text import normalize
from intents.types import ActionType, AgentRef, IntentResult

DEMO_AGENTS = (
    AgentRef("notion-reporter", "Weekly Notion project summaries"),
    AgentRef("jira-overdue-monitor", "Daily overdue ticket alerts"),
    AgentRef("financial-analyzer", "Monthly financial analysis"),
)


def _classify(message: str) -> IntentResult:
    return classify_offline(message, agents=DEMO_AGENTS)


# --- entities ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "schedule", "frequency"),
    [
        ("every morning at 9am", "daily 09:00", "daily"),
        ("weekly on Mondays", "weekly monday", "weekly"),
        ("each day", "daily", "daily"),
        ("every 2 hours", "every 2 hours", "hourly"),
        ("hourly", "hourly", "hourly"),
        ("every Friday at 5pm", "weekly friday 17:00", "weekly"),
        ("every weekday at 8:30", "weekdays 08:30", "weekdays"),
        ("once a month", "monthly", "monthly"),
        ("todos los lunes", "weekly monday", "weekly"),
        ("chaque jour à 18h", "daily 18:00", "daily"),
        ("jeden Montag um 8 Uhr", "weekly monday 08:00", "weekly"),
        ("todos os dias", "daily", "daily"),
        # Several times a day, each kept; a number that is no time is not one.
        ("twice a day at 9:00 and 15:00", "daily 09:00 15:00", "daily"),
        ("every weekday at 8 and 4pm", "weekdays 08:00 16:00", "weekdays"),
        ("jeden Tag um 8 und 16 Uhr", "daily 08:00 16:00", "daily"),
        ("every day at 9:00, 3 tickets at most", "daily 09:00", "daily"),
        # Several times follow the one-time rule: "by 5" alone is a deadline, not a time.
        ("every day twice, at 9:00 and by 5", "daily 09:00", "daily"),
        # Italian; "alle" before a number of units is German "every", not a clock time.
        ("ogni giorno alle 17:30", "daily 17:30", "daily"),
        ("ogni lunedì alle 9", "weekly monday 09:00", "weekly"),
        ("dal lunedì al venerdì alle 8:15", "weekdays 08:15", "weekdays"),
        ("ogni 2 ore", "every 2 hours", "hourly"),
        ("alle 2 Stunden", "every 2 hours", "hourly"),
        ("tous les lundis à 14 heures", "weekly monday 14:00", "weekly"),
    ],
)
def test_schedules_are_normalized(text: str, schedule: str, frequency: str) -> None:
    assert find_schedule(normalize(text)) == (schedule, frequency)


def test_no_schedule_in_a_plain_request() -> None:
    assert find_schedule(normalize("run the notion reporter")) is None


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("summarize Google Sheets and Jira", {"source": "google_sheets,jira"}),
        ("watch our Postgres db", {"source": "postgresql"}),
        ("post it in #sales", {"destination": "slack:#sales"}),
        ("email me the results", {"destination": "email"}),
        ("send it to ana@acme.com", {"destination": "email:ana@acme.com"}),
        ("dm me", {"destination": "slack:dm"}),
        ("invite ana@acme.com as an admin", {"user": "ana@acme.com", "role": "admin"}),
        ("rename it to finance-weekly", {"new_name": "finance-weekly"}),
        ("the numbers for Q3", {"period": "q3"}),
        # A tool written as its domain stays the tool before "board"; a slug there is a name.
        ("check our monday.com board", {"source": "monday"}),
    ],
)
def test_entities_are_extracted(message: str, expected: dict[str, str]) -> None:
    found = extract_entities(message)
    for key, value in expected.items():
        assert found.get(key) == value, found


@pytest.mark.parametrize(
    "mention", ["notion-reporter", "Notion_Reporter", "the notion reporter", "NOTION REPORTER"]
)
def test_agent_names_match_across_case_and_separators(mention: str) -> None:
    agents = ["notion-reporter", "jira-overdue-monitor"]
    assert extract_entities(f"run {mention}", agents=agents)["agent"] == "notion-reporter"


def test_a_loose_agent_mention_matches_its_name() -> None:
    assert extract_entities("pause the jira monitor", agents=["jira-overdue-monitor"]) == {
        "agent": "jira-overdue-monitor"
    }


def test_a_journey_one_request_yields_its_entities() -> None:
    result = _classify(
        "Our team wastes hours every Monday compiling project updates from Notion. "
        "Can the platform help with that?"
    )
    assert result.action_type == ActionType.CREATE_AGENT
    assert result.entities["source"] == "notion"
    assert result.entities["frequency"] == "weekly"


def test_entity_values_stay_short() -> None:
    message = "create an agent that " + "checks every single thing in the world " * 20
    assert all(len(v) <= 80 for v in extract_entities(message).values())


@pytest.mark.parametrize(
    ("message", "new_name"),
    [
        ("rename the first one to morning-pulse", "morning-pulse"),
        ("rename notion-reporter to project-digest", "project-digest"),
        ("call it as kpi-bot", "kpi-bot"),
        ("call me at 5 to discuss", None),
    ],
)
def test_a_rename_names_the_new_name(message: str, new_name: str | None) -> None:
    assert extract_entities(message).get("new_name") == new_name
