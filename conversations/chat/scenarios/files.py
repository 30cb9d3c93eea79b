"""Reading a scenario file: a JSON list in the contract's format, or (``.jsonl``) the older
format one scenario a line, converted in memory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conversations.chat.scenarios.legacy import legacy_scenario
from conversations.chat.serializers import ScenarioSerializer


class ScenarioFileError(ValueError):
    """The file is not a scenario file; the message says where and why, in one line."""


def scenarios_load(path: Path) -> list[dict[str, Any]]:
    """The file's scenarios, validated; ``ScenarioFileError`` naming the first problem."""
    data = _legacy_lines(path) if path.suffix == ".jsonl" else _json_list(path)
    if not isinstance(data, list) or not data:
        raise ScenarioFileError(f"{path} must hold a non-empty JSON list of scenarios")
    return [scenario_validate(raw, where=f"{path}: scenario {n}") for n, raw in enumerate(data, 1)]


def scenario_validate(raw: Any, *, where: str = "scenario") -> dict[str, Any]:
    scenario = ScenarioSerializer(data=raw)
    if not scenario.is_valid():
        raise ScenarioFileError(f"{where} is invalid: {json.dumps(scenario.errors)}")
    return dict(scenario.validated_data)


def _json_list(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ScenarioFileError(f"{path} is not a JSON file: {exc}") from exc


def _legacy_lines(path: Path) -> list[Any]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioFileError(f"{path} cannot be read: {exc}") from exc
    scenarios = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            scenarios.append(legacy_scenario(json.loads(line)))
        except ValueError as exc:
            raise ScenarioFileError(f"{path}: line {number} is not JSON: {exc}") from exc
    return scenarios
