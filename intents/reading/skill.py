"""What a message says of a skill being built (purpose, input, output, an example, a name), as
written: the skill flow (``skill_sessions/flow.py``) reads it once a message, beside the reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from intents.offline.entities import extract_entities
from intents.offline.lexicon import SKILL_ROLES
from intents.reading.acts import Act
from intents.reading.details import name_in, strip_acknowledgement, without_name
from intents.reading.names import generated_name, name_objects
from intents.reading.reading import Reading, read

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


@dataclass(frozen=True)
class SkillDetails:
    name: str  # the name the message gives, as a slug ("" when it gives none)
    names_only: bool  # the message gives a name and says nothing else
    purpose: str  # what "a skill that …" says it does ("" when the message says no such thing)
    inputs: str  # what that purpose says it reads from ("… from a PDF invoice")
    outputs: str  # what that purpose says it gives back ("… into ISO 8601")
    example: str  # an input paired with its output ("3rd of March → 2024-03-03")
    answer: str  # the message as an answer: without a leading "ok", "yes please", "sí"…

    @property
    def purpose_name(self) -> str:
        """A name for the skill made of the product's words for ``purpose``."""
        return _generated_name(self.purpose)

    @property
    def answer_name(self) -> str:
        """A name for the skill made of the product's words for ``answer`` as its purpose."""
        return _generated_name(self.answer)


def read_skill_details(message: str) -> SkillDetails:
    """The details of a skill ``message`` gives, each as written."""
    reading = read(message)
    found = _PURPOSE_RE.search(message) or _TEACH_RE.search(message)
    purpose = found.group("what").strip(" .") if found else ""
    into, source = _INTO_RE.search(purpose), _FROM_RE.search(purpose)
    pair = _IO_RE.search(message)
    name = name_in(message) or ""
    return SkillDetails(
        name=name,
        names_only=bool(name) and without_name(message).strip(" ,.") == "",
        purpose=purpose,
        inputs=source.group("in").strip(" .") if source else "",
        outputs=into.group("out").strip(" .") if into else "",
        example=f"{pair.group('i').strip()} → {pair.group('o').strip()}" if pair else "",
        # "that's all for now" answers nothing that was asked.
        answer="" if reading.shows(Act.NOTHING_MORE) else _answer(message, reading).strip(" .!"),
    )


def _answer(message: str, reading: Reading) -> str:
    """The message as an answer: what follows the question's frame ("it takes …") when it
    repeats it, else the message without a leading acknowledgement."""
    if reading.shows(Act.IN_THE_FRAME):
        return reading.rest_after(Act.IN_THE_FRAME)
    return strip_acknowledgement(message)


def _generated_name(purpose: str) -> str:
    """A name made of the product's words ("totals-invoices-extractor"): the tool and the
    objects the purpose speaks of, and the role of its verb; never any other word of it."""
    tool = extract_entities(purpose).get("source", "").split(",")[0]
    # The reading's words, split where letters stop ("re-formats": re, formats; "3rd": rd).
    words = "".join(c if c.isalpha() else " " for c in " ".join(read(purpose).words)).split()
    role = next((r for w in words for stem, r in SKILL_ROLES if w.startswith(stem)), "")
    return generated_name(tool=tool, objects=name_objects(purpose), role=role, fallback="new-skill")
