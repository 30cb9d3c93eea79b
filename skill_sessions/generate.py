"""A skill's definition: written by the LLM when a provider is configured, else a template.

The model gets what the user agreed (purpose, inputs, outputs, examples) and returns a JSON
object; only its ``instructions`` and the descriptions of inputs and outputs are taken, checked,
and laid over the template, so the name and examples stay the user's. Any failure is
``LLMFallback`` (the builder keeps everything and goes to its error state).
"""

from __future__ import annotations

import json
from typing import Any

from intents.llm.client import LLMFallback, complete_json_sync, llm_status
from skill_sessions.context import SkillContext
from skill_sessions.flow import definition

SYSTEM = (
    "You write the definition of a reusable skill for an automation platform. Answer with one "
    'JSON object: {"instructions": "<how the skill does its job, 1-8 sentences>", '
    '"inputs": [{"name": "<snake_case>", "description": "<text>"}], '
    '"outputs": [{"name": "<snake_case>", "description": "<text>"}]}. No other text.'
)


def _io(value: Any, fallback: list[dict[str, str]]) -> list[dict[str, str]]:
    if not isinstance(value, list) or not value:
        return fallback
    items = []
    for item in value[:10]:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            items.append(
                {"name": item["name"][:60], "description": str(item.get("description", ""))[:500]}
            )
    return items or fallback


def generate_definition(context: SkillContext) -> dict[str, Any]:
    """The definition for what was agreed; the template when no LLM is configured."""
    template = definition(context)
    if not llm_status()[0]:
        return template
    agreed = {k: template[k] for k in ("name", "description", "examples")}
    agreed["inputs"], agreed["outputs"] = context.inputs, context.outputs
    data = complete_json_sync(
        [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": json.dumps(agreed, ensure_ascii=False)},
        ]
    )
    instructions = data.get("instructions")
    if not isinstance(instructions, str) or not instructions.strip():
        raise LLMFallback("unparseable", "no instructions in the definition")
    return {
        **template,
        "instructions": instructions.strip()[:4000],
        "inputs": _io(data.get("inputs"), template["inputs"]),
        "outputs": _io(data.get("outputs"), template["outputs"]),
        "generated_by": "llm",
    }
