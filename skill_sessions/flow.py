"""The skill-creation agent: a state machine over ``SkillContext``, answered with templates.

gathering_purpose -> gathering_details (inputs, outputs, an example) -> confirming -> generating
-> completed; "cancel" from any state; ``error`` keeps everything gathered. What the opening
message already says (the purpose, the output format, the input) is not asked again, answers
are read as clean phrases (an acknowledgement is never one), and a summary is confirmed before
anything is created. Pure: the caller stores the new context with the reply.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conversations.assistant.slots import name_in, strip_acknowledgement, without_name
from conversations.assistant.text import generated_name, name_objects
from intents.offline.entities import extract_entities
from intents.offline.lexicon import SKILL_ROLES
from skill_sessions.context import SkillContext

_PURPOSE_RE = re.compile(
    r"\b(?:skill|capability|habilidad|comp[ée]tence|f[äa]higkeit)\s+"
    r"(?:(?:named|called)\s+\S+\s+)?(?:that|which|to|for|que|qui|die|der|das|para|pour)\s+"
    r"(?P<what>[^.!?\n]{3,300})",
    re.IGNORECASE,
)
_TEACH_RE = re.compile(
    r"\b(?:teach|train)\w*\s+(?:\w+\s+)?(?:how\s+)?to\s+(?P<what>[^.!?\n]{3,300})", re.I
)
_INTO_RE = re.compile(
    r"\b(?:into|to|as)\s+(?P<out>[A-Z0-9][\w .+/-]{1,60}|json\b[^.,;]*|csv\b[^.,;]*)"
)
_FROM_RE = re.compile(r"\bfrom\s+(?P<in>[^.,;!?]{3,80})", re.IGNORECASE)
_IO_RE = re.compile(
    r"(?:input|in)\s*[:=]\s*(?P<i>.+?)\s*(?:->|→|=>|output\s*[:=])\s*(?:output\s*[:=]\s*)?(?P<o>.+)",
    re.IGNORECASE,
)
_YES_RE = re.compile(
    r"^\s*(?:yes|yeah|yep|yup|sure|ok(?:ay)?|go ahead|do it|create it|looks good|lgtm|correct|"
    r"perfect|s[ií]|claro|vale|oui|d'accord|ja|genau|passt|sim)\b",
    re.IGNORECASE,
)
_NO_RE = re.compile(r"^\s*(?:no|nope|not yet|wait|change|nein|non)\b", re.IGNORECASE)
CANCEL_RE = re.compile(
    r"^\s*(?:cancel|stop|abort|never ?mind|forget (?:it|about it)|scrap (?:it|that)|"
    r"cancela|annule|abbrechen)\b",
    re.IGNORECASE,
)
QUESTIONS = {
    "purpose": "What should the skill do? Describe it in a sentence.",
    "inputs": "What does the skill take as input (for example a PDF invoice, a date string, a "
    "URL)?",
    "outputs": "What should it give back (for example JSON with named fields, an ISO 8601 "
    "date, a category)?",
    "examples": "Could you give me one example: an input and the output you'd expect?",
}


@dataclass(frozen=True)
class Step:
    reply: str
    context: SkillContext
    completed: bool = False  # the skill is to be created now (``context.draft`` is its definition)


def _clean(text: str) -> str:
    return strip_acknowledgement(text).strip(" .!")


def _generated_name(purpose: str) -> str:
    """A name made of the product's words ("totals-invoices-extractor"): the tool and the
    objects the purpose speaks of, and the role of its verb; never any other word of it."""
    tool = extract_entities(purpose).get("source", "").split(",")[0]
    words = re.findall(r"[^\W\d_]+", purpose.lower())
    role = next((r for w in words for stem, r in SKILL_ROLES if w.startswith(stem)), "")
    return generated_name(tool=tool, objects=name_objects(purpose), role=role, fallback="new-skill")


def _missing(context: SkillContext) -> list[str]:
    wanted = []
    if not context.purpose:
        wanted.append("purpose")
    if not context.inputs:
        wanted.append("inputs")
    if not context.outputs:
        wanted.append("outputs")
    if not context.examples:
        wanted.append("examples")
    return wanted


def summary_lines(context: SkillContext) -> list[str]:
    lines = [f"- Name: {context.name}"] if context.name else []
    if context.purpose:
        lines.append(f"- Does: {context.purpose}")
    if context.inputs:
        lines.append(f"- Takes: {context.inputs}")
    if context.outputs:
        lines.append(f"- Gives back: {context.outputs}")
    lines += [f"- Example: {e}" for e in context.examples]
    return lines


def _read_opening(context: SkillContext, message: str) -> None:
    purpose = _PURPOSE_RE.search(message) or _TEACH_RE.search(message)
    if purpose:
        context.purpose = purpose.group("what").strip(" .")
        into = _INTO_RE.search(context.purpose)
        if into:
            context.outputs = into.group("out").strip(" .")
        source = _FROM_RE.search(context.purpose)
        if source:
            context.inputs = source.group("in").strip(" .")
    context.name = name_in(message) or context.name
    if context.purpose and not context.name:
        context.name = _generated_name(context.purpose)


def _read_answer(context: SkillContext, message: str) -> None:
    name = name_in(message)
    if name:
        context.name = name
    pair = _IO_RE.search(message)
    if pair:
        context.examples.append(f"{pair.group('i').strip()} → {pair.group('o').strip()}")
        return
    answer = _clean(message)
    if not answer or (name and without_name(message).strip(" ,.") == ""):
        return
    field = context.asking or (_missing(context) or [""])[0]
    if field == "purpose":
        context.purpose = answer[:300]
        context.name = context.name or _generated_name(answer)
    elif field == "inputs":
        context.inputs = answer[:200]
    elif field == "outputs":
        context.outputs = answer[:200]
    elif field == "examples":
        context.examples.append(answer[:300])


def _ask_or_confirm(context: SkillContext, lead: str) -> Step:
    missing = _missing(context)
    known = "\n".join(summary_lines(context))
    if missing:
        context.state = "gathering_purpose" if missing[0] == "purpose" else "gathering_details"
        context.asking = missing[0]
        body = f"{lead}\n{known}\n\n" if known else f"{lead} "
        return Step(body + QUESTIONS[missing[0]], context)
    context.state, context.asking = "confirming", ""
    return Step(
        f"Here's the skill I'll create:\n{known}\n\nShall I create it? You can also change any "
        'of it ("call it …", "the input is …").',
        context,
    )


def definition(context: SkillContext) -> dict[str, Any]:
    """The skill's definition: a deterministic template of what was agreed."""
    return {
        "name": context.name,
        "description": context.purpose,
        "inputs": [{"name": "input", "description": context.inputs}],
        "outputs": [{"name": "output", "description": context.outputs}],
        "examples": list(context.examples),
        "instructions": (f"Given {context.inputs}, {context.purpose}. Return {context.outputs}."),
    }


def skill_start(message: str) -> Step:
    context = SkillContext()
    _read_opening(context, message)
    context.history.append({"role": "user", "content": message})
    step = _ask_or_confirm(context, "Let's build that skill.")
    step.context.history.append({"role": "assistant", "content": step.reply})
    return step


Generator = Callable[[SkillContext], dict[str, Any]]


def skill_step(context: SkillContext, message: str, *, generate: Generator | None = None) -> Step:
    """One exchange: the next state, the reply, and whether the skill is to be created.

    ``generate`` writes the definition (``generate.generate_definition``: the LLM when one is
    configured); by default the template. It is the only part that may do I/O or fail.
    """
    context = dataclasses.replace(
        context, examples=list(context.examples), history=list(context.history)
    )
    context.history.append({"role": "user", "content": message})
    step = _transition(context, message, generate or definition)
    step.context.history.append({"role": "assistant", "content": step.reply})
    return step


def _transition(context: SkillContext, message: str, generate: Generator) -> Step:
    if CANCEL_RE.match(message):
        context.state, context.asking = "cancelled", ""
        return Step("Okay, I've stopped building that skill. Nothing was created.", context)
    if context.state in ("completed", "cancelled"):
        return Step("That skill session is finished. Start a new one any time.", context)
    if context.state == "confirming":
        if _YES_RE.match(message) and not name_in(message):
            return _generate(context, generate)
        _read_answer(context, _NO_RE.sub("", message, count=1))
        return _ask_or_confirm(context, "Got it.")
    if context.state == "error":
        # A retry of what failed, with everything gathered; a second failure in a row is
        # not made the user's problem: the template is used.
        return _generate(context, generate, fallback=definition)
    _read_answer(context, message)
    return _ask_or_confirm(context, "Got it.")


def _generate(
    context: SkillContext, generate: Generator, fallback: Generator | None = None
) -> Step:
    context.state = "generating"
    try:
        context.draft = generate(context)
    except Exception as exc:  # the document is kept with what was gathered
        if fallback is None:
            context.state, context.last_error = "error", f"{type(exc).__name__}: {exc}"[:300]
            return Step(
                "I couldn't write the skill's definition just now. Everything you told me is "
                "kept: say anything (\u201ctry again\u201d) and I'll try once more.",
                context,
            )
        context.draft = fallback(context)
    context.last_error = ""
    context.state = "completed"
    return Step(
        f"Done! I've created the skill {context.name}.\n"
        + "\n".join(summary_lines(context))
        + "\n\nYour agents can use it now; it is listed under your skills.",
        context,
        completed=True,
    )
