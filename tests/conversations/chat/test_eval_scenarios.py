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


# -- the optional checks beyond the contract's ---------------------------------------------

EXTRA = {
    "id": "every-extra-check",
    "about": "each optional check once passing and, where it can, once failing",
    "role": "member",
    "setup": {
        "agents": [
            {
                "name": "lead-digest",
                "description": "Weekly digest of new HubSpot leads",
                "config": {"source": "hubspot"},
            },
            {
                "name": "refund-alert",
                "description": "Alerts on Stripe refunds over $500",
                "config": {"source": "stripe"},
            },
            {"name": "old-report", "description": "Monthly Zendesk report", "paused": True},
        ]
    },
    "turns": [
        {
            "user": "list my agents",
            "expect": {
                "action_type": "query_info",
                "reply_mentions": ["lead-digest"],
                "reply_mentions_any": [["nothing-here", "OLD-REPORT"], ["no-such-a", "no-such-b"]],
                "reply_excludes": ["no-such-word", "refund-alert"],
                "reply_names_latest_agent": True,
                "agents_after": 3,
                "runs_after": 0,
                "agent": {
                    "name": "old-report",
                    "mentions": ["(paused)", "Zendesk"],
                    "mentions_any": [["hubspot", "monthly"]],
                    "excludes": ["stripe"],
                },
            },
        },
        {
            "user": "list my agents",
            "resend": True,
            "expect": {
                "reply_repeats_previous": True,
                "agent": {"name": "no-such-agent", "mentions": ["x"]},
            },
        },
        {
            "user": "run the second one",
            "expect": {
                "action_type": "execute_task",
                "picks_option": 2,
                "reply_names_listed_item": 2,
                "runs_after": 1,
                "agents_after": [2, 4],
                "agent": {"mentions": ["zendesk"], "config": {"source": "jira"}},
            },
        },
        {
            "user": "add my colleague ann@acme.com to the workspace",
            "expect": {"reply_mentions": ["your role is member"], "picks_option": 1},
        },
    ],
}


def test_each_optional_check_counts_once_and_is_applied(tmp_path: Path) -> None:
    path = tmp_path / "extra.json"
    path.write_text(json.dumps([EXTRA]))
    result = json.loads(run(path, "--json"))
    # Turn 1: 14 checks (the agent's: exists, 2 mentions, 1 group, 1 exclusion), turn 2: 3,
    # turn 3: 7, turn 4: 2.
    assert (result["passed"], result["total"]) == (19, 26)
    failed = [(f["turn"], f["check"], f["expected"]) for f in result["scenarios"][0]["failures"]]
    assert failed == [
        (1, "reply_mentions_any", ["no-such-a", "no-such-b"]),
        (1, "reply_excludes", "refund-alert"),
        (2, "agent.exists", "no-such-agent"),
        (2, "agent.mentions", "x"),
        (3, "agents_after", [2, 4]),
        (3, "agent.config", {"source": "jira"}),
        (4, "picks_option", 1),
    ]
    details = [f["detail"] for f in result["scenarios"][0]["failures"]]
    assert details[4].startswith("found 3 agents")
    assert details[6] == "the previous reply has no option 1"
    assert not Tenant.objects.exists()


def test_an_optional_check_fails_in_its_own_words(tmp_path: Path) -> None:
    path = tmp_path / "extra.json"
    path.write_text(json.dumps([EXTRA]))
    lines = run(path).splitlines()
    assert lines[-1] == "19/26"
    assert lines[0].startswith(
        "FAIL every-extra-check turn 1: expected reply_mentions_any ['no-such-a', 'no-such-b'] "
        "(none of ['no-such-a', 'no-such-b'] is in the reply); it said: Here are your agents:"
    )


def test_a_refused_turn_passes_none_of_the_optional_checks(tmp_path: Path) -> None:
    # A re-send of another text under the previous turn's client_message_id is refused.
    scenario = {
        "id": "refused",
        "turns": [
            {"user": "list my agents", "expect": {"agents_after": 0}},
            {
                "user": "hello",
                "resend": True,
                "expect": {"agents_after": 0, "reply_excludes": ["no-such-word"]},
            },
        ],
    }
    path = tmp_path / "refused.json"
    path.write_text(json.dumps([scenario]))
    result = json.loads(run(path, "--json"))
    assert (result["passed"], result["total"]) == (1, 3)
    failures = result["scenarios"][0]["failures"]
    assert [f["check"] for f in failures] == ["reply_excludes", "agents_after"]
    assert all(f["detail"].startswith("the turn was refused") for f in failures)


LEGACY = {
    "id": "legacy-one",
    "about": "the older format",
    "user": "admin",
    "agents": [
        {"name": "Invoice Chaser", "description": "Chases invoices", "config": {"source": "xero"}}
    ],
    "turns": [
        {
            "say": "list my agents",
            "intent": "query_info",
            "reply_contains": ["invoice-chaser"],
            "reply_contains_any": [["xero", "chases"]],
            "reply_not_contains": ["no-such-word"],
            "reply_names_agent": True,
            "agents_after": 1,
            "runs_after": 0,
            "agent": {"name": "Invoice Chaser", "not_mentions": ["stripe"]},
        },
        {"resend": True, "reply_same_as_previous": True, "reply_contains_listed_item": 1},
        {"say": "run it", "picks_option": 1, "agent": {"config": {"source": "xero"}}},
    ],
}


def test_a_legacy_scenario_converts_check_for_check() -> None:
    from conversations.chat.scenarios import legacy_scenario

    assert legacy_scenario(LEGACY) == {
        "id": "legacy-one",
        "about": "the older format",
        "role": "admin",
        "setup": {
            "agents": [
                {
                    "name": "Invoice Chaser",
                    "description": "Chases invoices",
                    "config": {"source": "xero", "details": "Called \u201cInvoice Chaser\u201d"},
                }
            ]
        },
        "turns": [
            {
                "user": "list my agents",
                "expect": {
                    "action_type": "query_info",
                    "reply_mentions": ["invoice-chaser"],
                    "reply_mentions_any": [["xero", "chases"]],
                    "reply_excludes": ["no-such-word"],
                    "reply_names_latest_agent": True,
                    "agents_after": 1,
                    "runs_after": 0,
                    "agent": {"name": "Invoice Chaser", "excludes": ["stripe"]},
                },
            },
            {
                "user": "list my agents",
                "resend": True,
                "expect": {"reply_repeats_previous": True, "reply_names_listed_item": 1},
            },
            {
                "user": "run it",
                "expect": {"picks_option": 1, "agent": {"config": {"source": "xero"}}},
            },
        ],
    }


def test_a_jsonl_file_is_read_in_the_older_format_and_scores_as_its_conversion(
    tmp_path: Path,
) -> None:
    from conversations.chat.scenarios import legacy_scenario

    legacy = tmp_path / "legacy.jsonl"
    legacy.write_text(json.dumps(LEGACY) + "\n\n")
    converted = tmp_path / "converted.json"
    converted.write_text(json.dumps([legacy_scenario(LEGACY)]))
    first, second = json.loads(run(legacy, "--json")), json.loads(run(converted, "--json"))
    assert first["total"] == second["total"] == 13
    assert first["passed"] == second["passed"]
    # The agent kept its name as written, so the check on "Invoice Chaser" finds it.
    checks = [f["check"] for f in first["scenarios"][0]["failures"]]
    assert "agent.exists" not in checks


@pytest.mark.parametrize(
    ("expect", "reason"),
    [
        ({}, "action_type"),
        ({"also_ok": ["query_info"], "agents_after": 1}, "also_ok"),
        ({"agents_after": "two"}, "agents_after"),
        ({"agents_after": []}, "agents_after"),
        ({"reply_mentions_any": ["not", "groups"]}, "reply_mentions_any"),
        ({"picks_option": 0}, "picks_option"),
        ({"agent": {"config": {"source": ["jira"]}}, "action_type": "query_info"}, "agent"),
    ],
)
def test_a_bad_optional_check_is_refused_in_one_line(
    tmp_path: Path, expect: dict[str, object], reason: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([{"id": "x", "turns": [{"user": "hi", "expect": expect}]}]))
    with pytest.raises(CommandError, match=f"scenario 1 is invalid: .*{reason}") as refused:
        run(path)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("scenario", "reason"),
    [
        ({"role": "boss"}, "role"),
        ({"turns": [{"user": "hi", "resend": True, "expect": {"agents_after": 0}}]}, "re-send"),
        ({"setup": {"agents": [{"name": "A b"}, {"name": "a-b"}]}}, "Two agents named"),
        ({"setup": {"agents": [{"name": "!!!"}]}}, "letters, digits or dashes"),
    ],
)
def test_a_bad_scenario_key_is_refused_in_one_line(
    tmp_path: Path, scenario: dict[str, object], reason: str
) -> None:
    whole = {"id": "x", "turns": [{"user": "hi", "expect": {"action_type": "query_info"}}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([whole | scenario]))
    with pytest.raises(CommandError, match=reason):
        run(path)
