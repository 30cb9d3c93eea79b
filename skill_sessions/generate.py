"""A skill's definition: written by the LLM when a provider is configured, else a template.

The model gets what the user agreed (purpose, inputs, outputs, examples) and returns a JSON
object; only its ``instructions`` and the descriptions of inputs and outputs are taken, checked,
and laid over the template, so the name and examples stay the user's. Any failure is
``LLMFallback`` (the builder keeps everything and goes to its error state).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from intents.llm.client import LLMFallback, complete_json, complete_json_sync, llm_status
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


def _request(context: SkillContext, template: dict[str, Any]) -> list[dict[str, str]]:
    agreed = {k: template[k] for k in ("name", "description", "examples")}
    agreed["inputs"], agreed["outputs"] = context.inputs, context.outputs
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": json.dumps(agreed, ensure_ascii=False, sort_keys=True)},
    ]


def _laid_over(template: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
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


def generate_definition(context: SkillContext) -> dict[str, Any]:
    """The definition for what was agreed; the template when no LLM is configured. It waits
    for the model in the calling thread: for a request's own thread (the skill-sessions API),
    not for the chat turn, which uses ``DefinitionWriter``."""
    template = definition(context)
    if not llm_status()[0]:
        return template
    return _laid_over(template, complete_json_sync(_request(context, template)))


@dataclass
class DefinitionWriter:
    """A chat turn's skill definition, written by the LLM outside the turn's synchronous step.

    The assistant's step runs on a worker thread that every socket of the process shares for
    its database work, so it must not wait seconds for a model. The step calls the writer as
    its generator: the first time (no definition written yet for what was agreed) it gets the
    template and the writer keeps the request; the turn then awaits ``write()`` on the event
    loop and runs the step again, which gets the model's definition (or its failure, which the
    skill flow handles as before). Without an LLM provider the template is the definition.
    """

    wanted: list[dict[str, str]] | None = None
    written: dict[str, Any] | LLMFallback | None = None

    def __call__(self, context: SkillContext) -> dict[str, Any]:
        template = definition(context)
        if not llm_status()[0]:
            return template
        request = _request(context, template)
        if self.written is None or request != self.wanted:
            self.wanted, self.written = request, None
            return template  # a first pass: the turn writes the definition and asks again
        if isinstance(self.written, LLMFallback):
            raise self.written
        return _laid_over(template, self.written)

    @property
    def waiting(self) -> bool:
        return self.wanted is not None and self.written is None

    async def write(self) -> None:
        """The model's answer to the request kept by the first pass (or why it failed)."""
        assert self.wanted is not None
        try:
            self.written = await complete_json(self.wanted)
        except LLMFallback as exc:
            self.written = exc
