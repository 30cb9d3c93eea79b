from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from config.logs import quiet_unless_verbose
from conversations.chat.scenarios import (
    ScenarioFileError,
    ScenarioResult,
    report,
    scenarios_load,
    scenarios_run,
)
from intents.llm.client import llm_status


class Command(BaseCommand):
    help = (
        "Run a scenario file through the chat turn, each scenario as the admin of a fresh "
        "tenant; print each failed check and passed/total."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dataset",
            type=Path,
            required=True,
            help="a JSON list of scenarios (.jsonl: the older format, one scenario a line)",
        )
        parser.add_argument("--offline", action="store_true", help="the offline engine only")
        parser.add_argument("--json", action="store_true", help="one JSON object on stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["dataset"]
        if not path.is_file():
            raise CommandError(f"no dataset at {path}")
        try:
            scenarios = scenarios_load(path)
        except ScenarioFileError as exc:
            raise CommandError(str(exc)) from exc
        offline = options["offline"]
        engine = "offline" if offline or not llm_status()[0] else "llm, offline fallback"
        if sys.stderr.isatty():
            self.stderr.write(f"{len(scenarios)} scenarios from {path}, engine: {engine}")
        with quiet_unless_verbose(options["verbosity"]):
            results = list(scenarios_run(scenarios, offline=offline, progress=self._progress()))
        summary = report(results)
        if options["json"]:
            self.stdout.write(json.dumps(summary, ensure_ascii=False))
            return
        for result in results:
            self._failures(result)
        self.stdout.write(f"{summary['passed']}/{summary['total']}")

    def _progress(self) -> Any:
        def show(done: int) -> None:
            if sys.stderr.isatty():
                sys.stderr.write(f"\r{done} scenarios run")
                sys.stderr.flush()

        return show

    def _failures(self, result: ScenarioResult) -> None:
        for check in result.checks:
            if check.ok:
                continue
            if check.check == "action_type":
                got = check.actual or "no action (the turn was refused)"
                what = f"action {check.expected}, got {got}"
            elif check.check == "reply_mentions":
                what = f"reply to mention {check.expected!r}; it said: {_short(check.actual)}"
            else:
                what = (
                    f"{check.check} {check.expected!r} ({check.detail}); "
                    f"it said: {_short(check.reply)}"
                )
            self.stdout.write(f"FAIL {result.id} turn {check.turn}: expected {what}")


def _short(reply: str, limit: int = 160) -> str:
    one_line = " ".join(reply.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"
