"""The offline tier's rule table and ``eval_intents --rules``, which scores it rule by rule."""

from __future__ import annotations

import json
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from intents.evaluation import DATA_DIR, DATASETS, FROZEN, holds_an_example, is_frozen
from intents.offline.classifier import classify_offline
from intents.offline.rules import ENTRIES, TABLE, Nudge, Rule

OFFER: list[dict[str, Any]] = [
    {"role": "user", "content": "our Monday updates take forever"},
    {
        "role": "assistant",
        "content": "Want me to set that up?",
        "metadata": {"offer": {"action_type": "create_agent", "entities": {"source": "notion"}}},
    },
]
CASES = [
    {"id": "named", "message": "jira monitor", "expected": "query_info"},
    {
        "id": "errand",
        "message": "Can you remind me to call my mom tonight?",
        "expected": "unknown",
    },
    {"id": "yes", "message": "yes, do that", "expected": "create_agent", "history": OFFER},
    # Written to be wrong: the offer was an agent, so the rule's answer misses this one.
    {"id": "sure", "message": "sure", "expected": "execute_task", "history": OFFER},
    {
        "id": "new",
        "message": "create an agent that emails me the jira alerts every morning",
        "expected": "create_agent",
    },
    {"id": "invite", "message": "invite ana@acme.com as an admin", "expected": "query_info"},
]


def _dataset(tmp_path: Path, name: str = "dev_tiny.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(case) for case in CASES) + "\n", encoding="utf-8")
    return path


def _report(*args: str) -> dict[str, Any]:
    out = StringIO()
    call_command("eval_intents", "--rules", "--json", *args, stdout=out)
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


def test_the_report_counts_each_rules_hits_and_precision(tmp_path: Path) -> None:
    report = _report("--dataset", str(_dataset(tmp_path)))
    [dataset] = report["datasets"]
    assert (dataset["dataset"], dataset["n"], dataset["decided_by_rules"]) == (
        "dev_tiny.jsonl",
        6,
        4,
    )
    rows = {row["name"]: row for row in dataset["rules"]}
    assert [row["name"] for row in dataset["rules"]] == [entry.name for entry in ENTRIES]
    assert {k: rows["agrees_to_the_offer"][k] for k in ("hits", "correct", "precision")} == {
        "hits": 2,
        "correct": 1,
        "precision": 0.5,
    }
    assert (rows["names_only_an_agent"]["hits"], rows["names_only_an_agent"]["correct"]) == (1, 1)
    assert rows["personal_reminder_once"]["precision"] == 1.0
    assert rows["runs_an_agent_for_a_period"] == {
        "name": "runs_an_agent_for_a_period",
        "kind": "rule",
        "moved": None,
        "hits": 0,
        "correct": 0,
        "precision": None,
        "examples_here": False,
    }
    # The two cases no rule decided: one right, one written to be wrong.
    assert dataset["model"] == {"n": 2, "correct": 1, "accuracy": 0.5}
    # "yes, do that" is one of the rule's own examples; nothing here is a reminder's.
    assert rows["agrees_to_the_offer"]["examples_here"] is True
    assert rows["asks_why"]["examples_here"] is False


def test_the_report_prints_one_line_per_rule_in_table_order(tmp_path: Path) -> None:
    out = StringIO()
    call_command("eval_intents", "--rules", "--dataset", str(_dataset(tmp_path)), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "dev_tiny.jsonl: 6 cases, 4 decided by a rule; the model alone: 0.500 on the other 2"
    )
    named = [line.split()[0] for line in lines[2:] if line.strip()]
    assert named == [entry.name for entry in ENTRIES]
    agrees = next(line for line in lines if line.split()[:1] == ["agrees_to_the_offer"])
    assert agrees.split()[1:6] == ["rule", "-", "2", "1", "0.500"]


def test_a_nudge_counts_the_cases_it_moved_and_the_model_then_decided(tmp_path: Path) -> None:
    path = tmp_path / "dev_how.jsonl"
    case = {
        "id": "how",
        "message": "how do I get the notion one to post on Fridays",
        "expected": "query_info",
    }
    path.write_text(json.dumps(case) + "\n", encoding="utf-8")
    rows = {row["name"]: row for row in _report("--dataset", str(path))["datasets"][0]["rules"]}
    assert {k: rows["how_do_i_asks_how"][k] for k in ("kind", "moved", "hits", "correct")} == {
        "kind": "nudge",
        "moved": 1,
        "hits": 1,
        "correct": 1,
    }


@pytest.mark.parametrize("name", [*FROZEN, "eval_blind3.jsonl"])
def test_a_frozen_set_is_refused_with_its_reason(tmp_path: Path, name: str) -> None:
    path = DATA_DIR / name if name in FROZEN else _dataset(tmp_path, name)
    out = StringIO()
    with pytest.raises(CommandError, match="frozen set: it is scored as a whole only"):
        call_command("eval_intents", "--rules", "--dataset", str(path), stdout=out)
    assert out.getvalue() == ""


def test_a_frozen_set_among_others_is_refused_before_anything_is_scored(tmp_path: Path) -> None:
    out = StringIO()
    with pytest.raises(CommandError, match=r"eval_blind2\.jsonl is a frozen set"):
        call_command(
            "eval_intents",
            "--rules",
            "--dataset",
            str(_dataset(tmp_path)),
            "--dataset",
            str(DATA_DIR / "eval_blind2.jsonl"),
            stdout=out,
        )
    assert out.getvalue() == ""


def test_the_default_datasets_are_every_evaluation_set_but_the_frozen_ones() -> None:
    from intents.evaluation import open_datasets

    names = [path.name for path in open_datasets()]
    assert names == [name for name in DATASETS if name not in FROZEN]
    assert not any(is_frozen(path) for path in open_datasets())
    assert all(path.is_file() for path in open_datasets())


def test_several_datasets_need_rules(tmp_path: Path) -> None:
    path = str(_dataset(tmp_path))
    with pytest.raises(CommandError, match="give one --dataset"):
        call_command("eval_intents", "--offline", "--dataset", path, "--dataset", path)


# --- the table itself ------------------------------------------------------------------------


def test_every_rule_has_a_name_a_one_line_reason_and_an_example() -> None:
    assert ENTRIES
    for entry in ENTRIES:
        assert isinstance(entry, (Rule, Nudge))
        assert re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", entry.name), entry.name
        assert entry.reason.strip() and "\n" not in entry.reason, entry.name
        assert entry.reason.endswith("."), entry.name
        assert entry.examples and all(e.strip() for e in entry.examples), entry.name


def test_rule_names_are_unique() -> None:
    names = [entry.name for entry in ENTRIES]
    assert len(names) == len(set(names))
    assert len({section.name for section in TABLE}) == len(TABLE)


def test_the_classifier_says_which_rule_decided() -> None:
    result = classify_offline("Can you remind me to call my mom tonight?")
    assert result.usage == {"rule": "personal_reminder_once"}
    assert "rule" not in result.to_dict() and "usage" not in result.to_dict()
    model = classify_offline("create an agent that emails me the jira alerts every morning")
    assert model.usage is None or "rule" not in model.usage


def test_an_example_cut_short_matches_by_its_pieces() -> None:
    assert holds_an_example("Yes, do that!", ["yes, do that"])
    assert not holds_an_example("yes, do that and more", ["yes, do that"])
    assert holds_an_example(
        "Fun update from our side: we shipped the thing", ["Fun update from our side: …"]
    )
