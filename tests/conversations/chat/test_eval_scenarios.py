"""``manage.py eval_scenarios``: scenario files through the chat turn, each check counted."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from conversations.models import Agent, Conversation, Tenant

pytestmark = pytest.mark.django_db

SCENARIOS = [
    {
        "id": "list-then-run",
        "setup": {
            "agents": [
                {"name": "lead-digest", "description": "Weekly digest of new HubSpot leads"},
                {"name": "refund-alert", "description": "Alerts on Stripe refunds over $500"},
            ]
        },
        "turns": [
            {
                "user": "list my agents",
                "expect": {"action_type": "query_info", "reply_mentions": ["lead-digest"]},
            },
            {
                "user": "run the second one",
                "expect": {
                    "action_type": "execute_task",
                    "reply_mentions": ["refund-alert", "no-such-word-in-any-reply"],
                },
            },
        ],
    },
    {
        "id": "one-wrong-action",
        "turns": [{"user": "list my agents", "expect": {"action_type": "create_skill"}}],
    },
]


def run(path: Path, *args: str) -> str:
    out = StringIO()
    call_command("eval_scenarios", "--dataset", str(path), "--offline", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    path = tmp_path / "scenarios.json"
    path.write_text(json.dumps(SCENARIOS))
    return path


def test_it_counts_each_action_and_each_mention_and_leaves_no_workspace_behind(
    dataset: Path,
) -> None:
    result = json.loads(run(dataset, "--json"))
    assert (result["passed"], result["total"]) == (4, 6)
    first, second = result["scenarios"]
    assert (first["id"], first["passed"], first["total"]) == ("list-then-run", 4, 5)
    assert first["failures"] == [
        {
            "turn": 2,
            "check": "reply_mentions",
            "expected": "no-such-word-in-any-reply",
            "actual": first["failures"][0]["actual"],
        }
    ]
    assert "refund-alert" in first["failures"][0]["actual"]
    assert second["failures"][0]["expected"] == "create_skill"
    assert second["failures"][0]["actual"] == "query_info"
    # Each scenario ran in a workspace of its own, removed afterwards.
    assert not Tenant.objects.exists()
    assert not User.objects.exists()
    assert not Agent.objects.cross_tenant().exists()  # cross-tenant: nothing may remain
    assert not Conversation.objects.cross_tenant().exists()  # cross-tenant: nothing may remain


def test_it_prints_each_failed_check_then_passed_over_total(dataset: Path) -> None:
    lines = run(dataset).splitlines()
    assert lines[-1] == "4/6"
    assert lines[:-1] == [
        lines[0],
        "FAIL one-wrong-action turn 1: expected action create_skill, got query_info",
    ]
    assert lines[0].startswith(
        "FAIL list-then-run turn 2: expected reply to mention 'no-such-word-in-any-reply'"
    )


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("not json", "is not a JSON file"),
        ("[]", "non-empty JSON list"),
        ('[{"id": "x", "turns": []}]', "scenario 1 is invalid"),
        ('[{"id": "x", "turns": [{"user": "hi", "expect": {"action_type": "fly"}}]}]', "invalid"),
    ],
)
def test_a_file_that_is_no_scenario_file_is_refused_in_one_line(
    tmp_path: Path, content: str, reason: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CommandError, match=reason) as refused:
        run(path)
    assert "\n" not in str(refused.value)
    assert not Tenant.objects.exists()


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no dataset at"):
        run(tmp_path / "missing.json")
