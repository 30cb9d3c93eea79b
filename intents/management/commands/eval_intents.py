from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from intents.evaluation import (
    DEFAULT_DATASET,
    LABELS,
    DatasetError,
    load_dataset,
    report,
    run_cases,
)
from intents.llm.client import llm_status

SHORT = {
    "create_agent": "c_agent",
    "create_skill": "c_skill",
    "execute_task": "execute",
    "update_agent": "update",
    "query_info": "query",
    "manage_platform": "manage",
    "unknown": "unknown",
}


class Command(BaseCommand):
    help = "Evaluate intent classification on a JSONL dataset (accuracy, per class, confusion)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
        parser.add_argument("--offline", action="store_true", help="the offline tier only")
        parser.add_argument("--json", action="store_true", help="one JSON object on stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["dataset"]
        if not path.is_file():
            raise CommandError(f"no dataset at {path}")
        try:
            cases = load_dataset(path)
        except DatasetError as exc:
            raise CommandError(str(exc)) from exc
        if not cases:
            raise CommandError(f"{path} holds no cases")
        offline_only = options["offline"]
        tier = "offline" if offline_only or not llm_status()[0] else "llm, offline fallback"
        self.stderr.write(f"{len(cases)} cases from {path}, tier: {tier}")
        scored = list(
            run_cases(cases, offline_only=offline_only, progress=self._progress(len(cases)))
        )
        sys.stderr.write("\n")
        result = report(scored)
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False))
            return
        self._print(result)

    def _progress(self, total: int) -> Any:
        width = 30

        def show(done: int) -> None:
            filled = width * done // total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
            sys.stderr.flush()

        return show

    def _print(self, result: dict[str, Any]) -> None:
        out = self.stdout.write
        out(f"accuracy: {result['accuracy']:.3f} on {result['n']} cases")
        latency = result["latency_ms"]
        out(f"latency: p50 {latency['p50']:.2f} ms, p95 {latency['p95']:.2f} ms")
        out("methods: " + ", ".join(f"{k} {v}" for k, v in sorted(result["method_counts"].items())))
        if result["total_cost_usd"] is not None:
            out(f"total cost: ${result['total_cost_usd']:.6f}")
        out("\nper class:")
        out(f"  {'action':<16} {'precision':>9} {'recall':>7} {'f1':>6} {'n':>4}")
        for label, row in result["per_class"].items():
            out(
                f"  {label:<16} {row['precision']:>9.3f} {row['recall']:>7.3f} "
                f"{row['f1']:>6.3f} {row['support']:>4}"
            )
        out("\nper category:")
        for name, row in result["per_category"].items():
            out(f"  {name:<16} {row['accuracy']:>6.3f} ({row['n']})")
        out("\nconfusion (rows: expected, columns: predicted):")
        out("  " + " " * 16 + "".join(f"{SHORT[p]:>9}" for p in LABELS))
        for gold in LABELS:
            row = result["confusion"][gold]
            out(f"  {gold:<16}" + "".join(f"{row[p] or '.':>9}" for p in LABELS))
        wrong = [c for c in result["cases"] if not c["correct"]]
        if wrong:
            out(f"\nmisclassified ({len(wrong)}):")
            for case in wrong:
                out(f"  {case['id']}: expected {case['expected']}, got {case['predicted']}")
