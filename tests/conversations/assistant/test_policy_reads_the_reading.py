"""The policy decides from the turn's reading, never from the text.

The assistant (``conversations/assistant/``) and the skill flow (``skill_sessions/flow.py``)
import no ``re`` (``tests/test_language_budget.py``), and no helper that reads a text either:
a function they take from ``intents/`` reads the reading (its first parameter is a
``Reading`` or an ``Understanding``) or is one of the few writers of the product's own words
below. Their functions take readings, not texts; the one door through which a text gets read
is the turn's (``Turn.reading_of``, for a request kept from an earlier turn).
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path

from bench.regex_count import ROOT, policy_files

# Functions of intents/ the policy may call although they take no reading: each writes or
# compares the product's own values, and none reads a message.
WRITERS = {
    "words": "the product's word sets, built once at import from its own word lists",
    "stems_of": "an agent's stored name and description as stems, to compare with a message's",
    "schedule_words": "a schedule the wizard gathered (the reading's value), written as words",
    "agent_name_for": "a name made of the product's vocabulary for the details gathered",
    "spelled": "a tool's key as the product writes the tool (HubSpot, Google Sheets)",
}
READS_THE_READING = {"Reading", "Understanding"}
TEXT_PARAMETERS = {"text", "message", "rest"}
THE_DOOR = "conversations/assistant/outcome.py"  # Turn.reading_of


def _imported(path: Path) -> Iterator[tuple[str, str]]:
    """(module, name) of every name ``path`` imports from intents/."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "intents":
            for alias in node.names:
                yield node.module or "", alias.name


def readers_imported(paths: list[Path]) -> list[str]:
    """The functions of intents/ that ``paths`` import and that read something other than a
    reading ("module.name in file")."""
    found = []
    for path in paths:
        for module, name in _imported(path):
            value = getattr(importlib.import_module(module), name)
            if inspect.isclass(value) or not callable(value) or name in WRITERS:
                continue
            if path.as_posix().endswith(THE_DOOR) and name == "read":
                continue
            parameters = list(inspect.signature(value).parameters.values())
            first = str(parameters[0].annotation) if parameters else ""
            if first.rsplit(".", 1)[-1] not in READS_THE_READING:
                found.append(f"{module}.{name} in {path.name}")
    return found


def text_parameters(paths: list[Path]) -> list[str]:
    """Functions of ``paths`` that take a text to read ("function(parameter) in file")."""
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
                found += [
                    f"{node.name}({a.arg}) in {path.name}"
                    for a in arguments
                    if a.arg in TEXT_PARAMETERS
                ]
    return found


def _policy() -> list[Path]:
    return [ROOT / p for p in policy_files()]


def test_the_policy_imports_no_reader_of_text() -> None:
    assert readers_imported(_policy()) == []


def test_the_policy_functions_take_readings_not_texts() -> None:
    assert text_parameters(_policy()) == []


def test_the_check_catches_a_reader_and_a_text(tmp_path: Path) -> None:
    policy = tmp_path / "policy.py"
    policy.write_text(
        "from intents.reading.details import is_question\n"
        "from intents.reading.reading import Reading, read\n"
        "from intents.reading.referent import referent\n"
        "def decide(state, message: str) -> bool:\n"
        "    return is_question(message)\n",
        encoding="utf-8",
    )
    assert readers_imported([policy]) == [
        "intents.reading.details.is_question in policy.py",
        "intents.reading.reading.read in policy.py",
    ]
    assert text_parameters([policy]) == ["decide(message) in policy.py"]


def test_every_writer_is_still_imported_by_the_policy() -> None:
    """An entry of ``WRITERS`` no policy module imports any more leaves the list."""
    used = {name for path in _policy() for _, name in _imported(path)}
    assert set(WRITERS) <= used
