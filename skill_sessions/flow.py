"""The skill-creation agent: a state machine over ``SkillContext``, answered with templates.

gathering_purpose -> gathering_details (inputs, outputs, an example) -> confirming -> generating
-> completed; "cancel" from any state; ``error`` keeps everything gathered. What the opening
message already says (the purpose, the output format, the input) is not asked again, answers
are read as clean phrases (an acknowledgement is never one), and a summary is confirmed before
anything is created. Pure: the caller stores the new context with the reply.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from intents.reading.acts import Act
from intents.reading.reading import Reading
from intents.reading.skill import SkillDetails
from skill_sessions.context import SkillContext

# Marked for translation here, translated where they are asked (``question``).
QUESTIONS = {
    "purpose": gettext_noop("What should the skill do? Describe it in a sentence."),
    "inputs": gettext_noop(
        "What does the skill take as input (for example a PDF invoice, a date string, a URL)?"
    ),
    "outputs": gettext_noop(
        "What should it give back (for example JSON with named fields, an ISO 8601 date, a "
        "category)?"
    ),
    "examples": gettext_noop(
        "Could you give me one example: an input and the output you'd expect?"
    ),
}
# One line of the summary per detail gathered.
_LINES = (
    ("name", gettext_lazy("- Name: %(value)s")),
    ("purpose", gettext_lazy("- Does: %(value)s")),
    ("inputs", gettext_lazy("- Takes: %(value)s")),
    ("outputs", gettext_lazy("- Gives back: %(value)s")),
)


@dataclass(frozen=True)
class Step:
    reply: str
    context: SkillContext
    completed: bool = False  # the skill is to be created now (``context.draft`` is its definition)


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


def question(field: str) -> str:
    """The question that asks for ``field``, in the reply's language."""
    return _(QUESTIONS[field])


def summary_lines(context: SkillContext) -> list[str]:
    lines = [
        template % {"value": getattr(context, field)}
        for field, template in _LINES
        if getattr(context, field)
    ]
    lines += [_("- Example: %(value)s") % {"value": e} for e in context.examples]
    return lines


def _read_opening(context: SkillContext, details: SkillDetails) -> None:
    context.purpose = details.purpose
    context.inputs, context.outputs = details.inputs, details.outputs
    context.name = details.name or context.name
    if context.purpose and not context.name:
        context.name = details.purpose_name


def _read_answer(context: SkillContext, details: SkillDetails) -> None:
    if details.name:
        context.name = details.name
    if details.example:
        context.examples.append(details.example)
        return
    answer = details.answer
    if not answer or details.names_only:
        return
    field = context.asking or (_missing(context) or [""])[0]
    if field == "purpose":
        context.purpose = answer[:300]
        context.name = context.name or details.answer_name
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
        values = {"lead": lead, "known": known, "question": question(missing[0])}
        if known:
            return Step(_("%(lead)s\n%(known)s\n\n%(question)s") % values, context)
        return Step(_("%(lead)s %(question)s") % values, context)
    context.state, context.asking = "confirming", ""
    return Step(
        _(
            "Here's the skill I'll create:\n%(known)s\n\nShall I create it? You can also "
            'change any of it ("call it …", "the input is …").'
        )
        % {"known": known},
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
        # A document for the agents that use the skill, not a reply: never translated.
        "instructions": "".join(
            ("Given ", context.inputs, ", ", context.purpose, ". Return ", context.outputs, ".")
        ),
    }


def skill_start(said: Reading) -> Step:
    """The opening request (read once, by the turn): what it already says is not asked."""
    context = SkillContext()
    _read_opening(context, said.skill_details)
    context.history.append({"role": "user", "content": said.source})
    step = _ask_or_confirm(context, _("Let's build that skill."))
    step.context.history.append({"role": "assistant", "content": step.reply})
    return step


Generator = Callable[[SkillContext], dict[str, Any]]


def skill_step(context: SkillContext, said: Reading, *, generate: Generator | None = None) -> Step:
    """One exchange: the next state, the reply, and whether the skill is to be created.

    ``generate`` writes the definition (``generate.generate_definition``: the LLM when one is
    configured); by default the template. It is the only part that may do I/O or fail.
    """
    context = dataclasses.replace(
        context, examples=list(context.examples), history=list(context.history)
    )
    context.history.append({"role": "user", "content": said.source})  # stored, not read
    step = _transition(context, said, generate or definition)
    step.context.history.append({"role": "assistant", "content": step.reply})
    return step


def _transition(context: SkillContext, reading: Reading, generate: Generator) -> Step:
    if reading.shows(Act.STOPS):
        context.state, context.asking = "cancelled", ""
        return Step(_("Okay, I've stopped building that skill. Nothing was created."), context)
    if context.state in ("completed", "cancelled"):
        return Step(_("That skill session is finished. Start a new one any time."), context)
    if context.state == "confirming":
        # "no, call it receipt-reader": the change is what follows the no.
        details = reading.after(Act.OPENS_WITH_NO).skill_details
        if reading.opens_with_yes and not details.name:
            return _generate(context, generate)
        _read_answer(context, details)
        return _ask_or_confirm(context, _("Got it."))
    if context.state == "error":
        # A retry of what failed, with everything gathered; a second failure in a row is
        # not made the user's problem: the template is used.
        return _generate(context, generate, fallback=definition)
    _read_answer(context, reading.skill_details)
    return _ask_or_confirm(context, _("Got it."))


def _generate(
    context: SkillContext, generate: Generator, fallback: Generator | None = None
) -> Step:
    context.state = "generating"
    try:
        context.draft = generate(context)
    except Exception as exc:  # the document is kept with what was gathered
        if fallback is None:
            context.state, context.last_error = (
                "error",
                (type(exc).__name__ + ": " + str(exc))[:300],
            )
            return Step(
                _(
                    "I couldn't write the skill's definition just now. Everything you told me "
                    "is kept: say anything (\u201ctry again\u201d) and I'll try once more."
                ),
                context,
            )
        context.draft = fallback(context)
    context.last_error = ""
    context.state = "completed"
    return Step(
        _(
            "Done! I've created the skill %(name)s.\n%(known)s\n\nYour agents can use it now; "
            "it is listed under your skills."
        )
        % {"name": context.name, "known": "\n".join(summary_lines(context))},
        context,
        completed=True,
    )
