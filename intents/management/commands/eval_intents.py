from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from config.logs import quiet_unless_verbose
from intents.evaluation import (
    DEFAULT_DATASET,
    LABELS,
    Case,
    DatasetError,
    is_frozen,
    load_dataset,
    open_datasets,
    report,
    rules_report,
    run_cases,
    run_offline,
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
    help = (
        "Evaluate intent classification on a JSONL dataset (accuracy, per class, confusion); "
        "with --rules, score every rule of the offline tier on each non-frozen dataset."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dataset",
            type=Path,
            action="append",
            help=f"a JSONL dataset (default {DEFAULT_DATASET.name}; with --rules, repeatable, "
            "default every non-frozen set in intents/data)",
        )
        parser.add_argument("--offline", action="store_true", help="the offline tier only")
        parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
        parser.add_argument(
            "--rules",
            action="store_true",
            help="each offline rule's hits, correct and precision per dataset",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        paths: list[Path] = options["dataset"] or []
        if options["rules"]:
            self._rules(paths or open_datasets(), as_json=options["json"])
            return
        if len(paths) > 1:
            raise CommandError("give one --dataset (several only with --rules)")
        path = paths[0] if paths else DEFAULT_DATASET
        cases = self._load(path)
        offline_only = options["offline"]
        tier = "offline" if offline_only or not llm_status()[0] else "llm, offline fallback"
        self.stderr.write(f"{len(cases)} cases from {path}, tier: {tier}")
        with quiet_unless_verbose(options["verbosity"]):
            progress = self._progress(len(cases))
            scored = list(run_cases(cases, offline_only=offline_only, progress=progress))
        result = report(scored)
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False))
            return
        self._print(result)

    def _load(self, path: Path) -> list[Case]:
        if not path.is_file():
            raise CommandError(f"no dataset at {path}")
        try:
            cases = load_dataset(path)
        except DatasetError as exc:
            raise CommandError(str(exc)) from exc
        if not cases:
            raise CommandError(f"{path} holds no cases")
        return cases

    def _rules(self, paths: list[Path], *, as_json: bool) -> None:
        for path in paths:
            if is_frozen(path):
                raise CommandError(
                    f"{path.name} is a frozen set: it is scored as a whole only, never rule by rule"
                )
        loaded = [(path, self._load(path)) for path in paths]
        results = [rules_report(path.name, list(run_offline(cases))) for path, cases in loaded]
        if as_json:
            self.stdout.write(json.dumps({"datasets": results}, ensure_ascii=False))
            return
        for result in results:
            self._print_rules(result)

    def _print_rules(self, result: dict[str, Any]) -> None:
        out = self.stdout.write
        model = result["model"]
        accuracy = "-" if model["accuracy"] is None else f"{model['accuracy']:.3f}"
        out(
            f"{result['dataset']}: {result['n']} cases, {result['decided_by_rules']} decided by "
            f"a rule; the model alone: {accuracy} on the other {model['n']}"
        )
        # A nudge decides nothing: its hits are the cases it moved and the model then decided.
        out(
            f"  {'rule':<42} {'kind':<5} {'moved':>5} {'hits':>5} {'correct':>7} "
            f"{'precision':>9}  examples"
        )
        for row in result["rules"]:
            moved = "-" if row["moved"] is None else str(row["moved"])
            precision = "-" if row["precision"] is None else f"{row['precision']:.3f}"
            here = "here" if row["examples_here"] else ""
            out(
                f"  {row['name']:<42} {row['kind']:<5} {moved:>5} {row['hits']:>5} "
                f"{row['correct']:>7} {precision:>9}  {here}".rstrip()
            )
        out("")

    def _progress(self, total: int) -> Any:
        def show(done: int) -> None:  # on a terminal only, like eval_scenarios
            if sys.stderr.isatty():
                sys.stderr.write(f"\r{done} cases run" + ("\n" if done == total else ""))
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
