"""Run the classifier over a JSONL dataset and score it (what ``eval_intents`` prints)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from intents.offline.classifier import classify_offline
from intents.offline.rules import ENTRIES, Entry, Nudge
from intents.services import classify_message
from intents.types import ActionType, AgentRef, HistoryTurn, IntentResult

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_DATASET = DATA_DIR / "eval.jsonl"
# Every evaluation set in intents/data: the own set, the two frozen blind sets (never tuned on)
# and the dev sets written blind and tuned on. `make bench` scores them all; a test keeps the
# training rows out of every one.
DATASETS = (
    "eval.jsonl",
    "eval_blind.jsonl",
    "eval_blind2.jsonl",
    "dev_followups.jsonl",
    "dev_phrasing.jsonl",
    "dev_hard.jsonl",
    "dev_mixed.jsonl",
    "dev_r6.jsonl",
    "dev_r7.jsonl",
    "dev_r8.jsonl",
    "dev_r9.jsonl",
    "dev_r10.jsonl",
    "dev_r11.jsonl",
    "dev_r12.jsonl",
    "dev_r13.jsonl",
    "dev_r14.jsonl",
    "dev_r15.jsonl",
)
# The frozen blind sets: only ever scored as a whole (make bench, the floors in
# tests/intents/offline/test_blind.py), never case by case or rule by rule, so that nothing is
# tuned on them. Any set named eval_blind* is taken to be one.
FROZEN = ("eval_blind.jsonl", "eval_blind2.jsonl")


def is_frozen(path: Path) -> bool:
    return path.name in FROZEN or path.name.startswith("eval_blind")


def open_datasets() -> list[Path]:
    """The evaluation sets that may be looked at case by case: all but the frozen ones."""
    return [DATA_DIR / name for name in DATASETS if not is_frozen(Path(name))]


# The agents the evaluation runs against: the demo tenant's (see seed_demo).
EVAL_AGENTS = (
    AgentRef("notion-reporter", "Weekly Notion project summaries"),
    AgentRef("jira-overdue-monitor", "Daily overdue ticket alerts"),
    AgentRef("financial-analyzer", "Monthly financial analysis"),
)
LABELS = [a.value for a in ActionType]


class DatasetError(ValueError):
    """A line of the dataset is not a valid case."""


@dataclass(frozen=True)
class Case:
    id: str
    message: str
    expected: str
    history: list[HistoryTurn] = field(default_factory=list)
    also_ok: tuple[str, ...] = ()
    category: str = ""


def load_dataset(path: Path) -> list[Case]:
    cases = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
                case = Case(
                    id=str(raw.get("id") or f"line-{number}"),
                    message=str(raw["message"]),
                    expected=str(raw["expected"]),
                    history=[_turn(turn) for turn in raw.get("history") or []],
                    also_ok=tuple(str(a) for a in raw.get("also_ok") or ()),
                    category=str(raw.get("category") or ""),
                )
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise DatasetError(f"{path}:{number}: not a valid case ({exc})") from exc
            if case.expected not in LABELS:
                raise DatasetError(f"{path}:{number}: unknown expected action {case.expected!r}")
            cases.append(case)
    return cases


def _turn(raw: dict[str, Any]) -> HistoryTurn:
    role = raw["role"]
    if role not in ("user", "assistant", "system"):
        raise ValueError(f"unknown role {role!r}")
    turn = HistoryTurn(role=role, content=str(raw["content"]))
    if isinstance(raw.get("metadata"), dict):
        turn["metadata"] = raw["metadata"]
    return turn


@dataclass(frozen=True)
class Scored:
    case: Case
    result: IntentResult

    @property
    def predicted(self) -> str:
        return self.result.action_type.value

    @property
    def correct(self) -> bool:
        return self.predicted == self.case.expected or self.predicted in self.case.also_ok


def run_cases(
    cases: list[Case], *, offline_only: bool, progress: Callable[[int], None] | None = None
) -> Iterator[Scored]:
    for done, case in enumerate(cases, start=1):
        result = classify_message(
            case.message, history=case.history, agents=EVAL_AGENTS, offline_only=offline_only
        )
        if progress:
            progress(done)
        yield Scored(case=case, result=result)


def _percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def report(scored: list[Scored]) -> dict[str, Any]:
    """The contract's ``eval_intents --json`` object, plus per-category accuracy and cost."""
    n = len(scored)
    # A prediction in also_ok counts as the expected label, so the matrix agrees with accuracy.
    pairs = [(s.case.expected, s.case.expected if s.correct else s.predicted) for s in scored]
    confusion = {gold: dict.fromkeys(LABELS, 0) for gold in LABELS}
    for gold, predicted in pairs:
        confusion[gold][predicted] += 1
    per_class = {}
    for label in LABELS:
        tp = confusion[label][label]
        fp = sum(confusion[gold][label] for gold in LABELS if gold != label)
        fn = sum(confusion[label][p] for p in LABELS if p != label)
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_class[label] = {
            "precision": round(precision, 4),
            "recall": round(recall, 4),
            "f1": round(f1, 4),
            "support": tp + fn,
        }
    categories: dict[str, list[bool]] = {}
    for s in scored:
        categories.setdefault(s.case.category or "uncategorized", []).append(s.correct)
    latencies = [s.result.latency_ms for s in scored]
    costs = [
        float(s.result.usage["cost_usd"])
        for s in scored
        if s.result.usage and s.result.usage.get("cost_usd") is not None
    ]
    return {
        "accuracy": round(sum(s.correct for s in scored) / n, 4) if n else 0.0,
        "n": n,
        "per_class": per_class,
        "confusion": confusion,
        "latency_ms": {
            "p50": round(_percentile(latencies, 50), 3),
            "p95": round(_percentile(latencies, 95), 3),
        },
        "method_counts": dict(Counter(s.result.method.value for s in scored)),
        "per_category": {
            name: {"accuracy": round(sum(oks) / len(oks), 4), "n": len(oks)}
            for name, oks in sorted(categories.items())
        },
        "total_cost_usd": round(sum(costs), 6) if costs else None,
        "cases": [
            {
                "id": s.case.id,
                "expected": s.case.expected,
                "predicted": s.predicted,
                "correct": s.correct,
                "method": s.result.method.value,
            }
            for s in scored
        ],
    }


# --- the offline tier's rules, one by one ---------------------------------------------------


def run_offline(cases: list[Case]) -> Iterator[Scored]:
    """The offline tier alone (no ``@name`` fast path): the tier the rules belong to."""
    for case in cases:
        result = classify_offline(case.message, history=case.history, agents=EVAL_AGENTS)
        yield Scored(case=case, result=result)


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.casefold()).strip(" .!?¿¡")


_CUT_RE = re.compile(r"…|\.\.\.")


def holds_an_example(message: str, examples: Sequence[str]) -> bool:
    """Whether the message is one of the examples; an example cut with "…" matches a message
    that holds each of its pieces."""
    plain = _plain(message)
    for example in examples:
        pieces = [piece for piece in map(_plain, _CUT_RE.split(example)) if piece]
        if not pieces:
            continue
        if _CUT_RE.search(example):
            if all(piece in plain for piece in pieces):
                return True
        elif plain == pieces[0]:
            return True
    return False


def _entry_row(entry: Entry, scored: list[Scored]) -> dict[str, Any]:
    nudge = isinstance(entry, Nudge)
    moved = [s for s in scored if entry.name in _nudges(s)] if nudge else []
    if nudge:
        # A nudge's hits: the cases it moved and the model then decided.
        hits = [s for s in moved if _rule(s) is None]
    else:
        hits = [s for s in scored if _rule(s) == entry.name]
    correct = sum(s.correct for s in hits)
    return {
        "name": entry.name,
        "kind": "nudge" if nudge else "rule",
        "moved": len(moved) if nudge else None,
        "hits": len(hits),
        "correct": correct,
        "precision": round(correct / len(hits), 4) if hits else None,
        "examples_here": any(holds_an_example(s.case.message, entry.examples) for s in scored),
    }


def _rule(scored: Scored) -> str | None:
    usage = scored.result.usage or {}
    rule = usage.get("rule")
    return rule if isinstance(rule, str) else None


def _nudges(scored: Scored) -> list[str]:
    usage = scored.result.usage or {}
    nudges = usage.get("nudges")
    return list(nudges) if isinstance(nudges, list) else []


def rules_report(name: str, scored: list[Scored]) -> dict[str, Any]:
    """Every rule of the offline table on one dataset: how often it decided and how well,
    beside the model's accuracy on the cases no rule decided."""
    by_model = [s for s in scored if _rule(s) is None]
    model_correct = sum(s.correct for s in by_model)
    return {
        "dataset": name,
        "n": len(scored),
        "decided_by_rules": len(scored) - len(by_model),
        "model": {
            "n": len(by_model),
            "correct": model_correct,
            "accuracy": round(model_correct / len(by_model), 4) if by_model else None,
        },
        "rules": [_entry_row(entry, scored) for entry in ENTRIES],
    }
