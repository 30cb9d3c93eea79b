"""Replies come from templates marked for translation, with named placeholders: the policy
(``conversations/assistant/`` and ``skill_sessions/flow.py``) builds no reply with an f-string
or ``str.format``. A ratchet while the modules are converted: each file's count may only go
down; a converted file is at 0 and stays there.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# f-strings and .format() calls per policy file. Lower a figure when a file is converted; never
# raise one. Target: 0 everywhere (gettext with %(name)s placeholders, ngettext for plurals).
CEILINGS = {
    "conversations/assistant/actions.py": 0,
    "conversations/assistant/agent_commands.py": 0,
    "conversations/assistant/agent_replies.py": 0,
    "conversations/assistant/agents.py": 0,
    "conversations/assistant/clarify.py": 0,
    "conversations/assistant/deleting.py": 0,
    "conversations/assistant/describe.py": 0,
    "conversations/assistant/detours.py": 0,
    "conversations/assistant/duplicates.py": 0,
    "conversations/assistant/effects.py": 0,
    "conversations/assistant/outcome.py": 0,
    "conversations/assistant/platform.py": 0,
    "conversations/assistant/respond.py": 0,
    "conversations/assistant/skills.py": 0,
    # The wizard's detail reader: the values it reads are still worded in code (19 in all).
    "intents/reading/details/names.py": 1,
    "intents/reading/details/places.py": 5,
    "intents/reading/details/schedule.py": 10,
    "intents/reading/details/slots.py": 1,
    "intents/reading/details/task.py": 2,
    "conversations/assistant/state.py": 0,
    "conversations/assistant/text.py": 0,
    "conversations/assistant/wizard.py": 0,
    "conversations/assistant/wizard_replies.py": 0,
    "skill_sessions/flow.py": 0,
}


def built_without_a_template(source: str) -> int:
    """How many f-strings and ``.format(...)`` calls a module holds."""
    count = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr) or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
        ):
            count += 1
    return count


def _policy_files() -> list[str]:
    files = sorted(
        p.relative_to(ROOT).as_posix() for p in ROOT.glob("conversations/assistant/*.py")
    )
    return [f for f in files if not f.endswith("__init__.py")] + ["skill_sessions/flow.py"]


def test_the_counter_counts_f_strings_and_format_calls() -> None:
    source = 'a = f"x{y}"\nb = "{}".format(c)\nd = _("%(n)s") % {"n": 1}\n'
    assert built_without_a_template(source) == 2


def test_every_policy_file_has_a_ceiling() -> None:
    missing = [f for f in _policy_files() if f not in CEILINGS]
    assert not missing, f"give these policy files a ceiling in CEILINGS: {missing}"


def test_no_policy_file_builds_more_replies_without_a_template() -> None:
    over, under = [], []
    for file, ceiling in CEILINGS.items():
        path = ROOT / file
        assert path.exists(), f"{file} is gone: move its ceiling to where its code went"
        count = built_without_a_template(path.read_text())
        if count > ceiling:
            over.append(f"{file}: {count} > {ceiling}")
        elif count < ceiling:
            under.append(f"{file}: {count} (ceiling {ceiling})")
    assert not over, "replies built without a translatable template:\n" + "\n".join(over)
    assert not under, "fewer now: lower these ceilings in CEILINGS:\n" + "\n".join(under)
