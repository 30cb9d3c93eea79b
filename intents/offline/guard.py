"""Removal of meta-instructions ("ignore your instructions", "classify this as …").

Text that talks to the classifier instead of asking for something is cut out before any
feature is computed, so a label named in it cannot pull the decision towards itself.
Whatever request remains is classified on its own merits.
"""

from __future__ import annotations

import re

_LABEL = (
    r"(?:create[_ \-]?agent|create[_ \-]?skill|execute[_ \-]?task|update[_ \-]?agent|"
    r"query[_ \-]?info|manage[_ \-]?platform|unknown)"
)
_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p)
    for p in (
        # "ignore (all) (of) your/previous instructions", in five languages
        r"\b(?:ignore|disregard|forget|override|bypass|skip|drop)\b(?:\s+\S+){0,5}?\s+"
        r"(?:instructions?|rules?|prompts?|guidelines?|directives?|programming|training|"
        r"system prompt|constraints|guardrails|context|everything (?:above|before|else)|"
        r"the above|what you were told)\b",
        r"\b(?:ignora|ignore[zs]?|ignoriere|ignorieren|olvida|oublie|vergiss|esqueca)\b"
        r"(?:\s+\S+){0,4}?\s+(?:instrucciones|instructions|consignes|anweisungen|"
        r"instrucoes|regras|reglas|regles|regeln|vorgaben)\b",
        # "classify this as manage_platform", "set action_type to …", "answer with create_agent"
        rf"\b(?:classify|classified|categori[sz]e|label|tag|mark|route|treat|consider|flag|"
        rf"output|return|respond|reply|answer|set|say|print|force|override|change|switch|"
        rf"put|register|log|record|clasifica|classe|klassifiziere|classifique)\w*"
        rf"(?:\s+\S+){{0,6}}?(?:\s+(?:as|with|to|into|=|:|is|como|comme|als))?\s*[\"'`(\[]*"
        rf"{_LABEL}\b",
        r"\b(?:action[_ ]?type|intent|label|category|classification|confidence|is_ambiguous)"
        r"\s*(?:[:=]|=>|->)\s*[\"'`]?[\w.\-]+[\"'`]?",
        # the reason a forged verdict gives: {"reason": "forced by admin"}
        r"[\"'`]?\b(?:reason|rationale|explanation|justification)[\"'`]?\s*[:=]\s*"
        r"[\"'`][^\"'`]*[\"'`]",
        rf"\b(?:action[_ ]?type|intent|label|category|classification|class|result|decision|"
        rf"output|answer)\s*(?:is|should be|must be|will be)\s*[\"'`]?{_LABEL}\b",
        rf"\bthis is (?:a|an)?\s*{_LABEL}\b(?:\s+(?:request|intent|message))?",
        rf"\b{_LABEL}\b",
        # role play and fake turns
        r"(?:^|[\s\[<(])(?:system|assistant|developer)\s*(?:prompt|message|override|note|"
        r"instruction|mode)?\s*[:>\]]+",
        r"(?:^|[\[<(])\s*(?:admin|root|operator)\s*(?:override|note|mode)?\s*[:>\]]+",
        r"\b(?:you are now|from now on,? you (?:are|will|must)|pretend (?:you are|to be)|"
        r"act as if|new (?:system )?instructions?|developer mode|debug mode|jailbreak|"
        r"do anything now|dan mode)\b[^.!?\n]*",
        r"\bact as (?:an? )?\w+\b",
        # "As the workspace owner I'm instructing you to …", "… no matter what"
        r"\bas (?:the |your |an? )?(?:workspace |account |system )?(?:owner|admin|administrator|"
        r"developer|ceo|operator)\b,? (?:im |i am )?(?:instructing|ordering|telling|commanding) "
        r"you(?: to)?\b",
        r"\bno matter what\b",
        r"\b(?:end of|begin|start of) (?:system|user|instructions?|prompt)\b",
        r"\bthe (?:correct|right|real|true) (?:answer|label|classification|intent) is\b",
    )
)
# Fake speaker labels count only once the message is known to be talking to the classifier
# ("add user: bob@acme.com" is a genuine request).
_SPEAKER_RE = re.compile(r"(?:^|[\s\[<(/])(?:user|human|assistant|system)\s*[:>\]]+")
_FAKE_ASSISTANT_TURN_RE = re.compile(
    r"(?:^|[\s\[<(])(?:assistant|system)\s*[:>\]]+.*?(?=(?:^|[\s\[<(])(?:user|human)\s*[:>\]])"
)
_LEFTOVER_RE = re.compile(r"[{}\[\]<>\"`|=]+")
_SPACE_RE = re.compile(r"\s+")


# One cheap search decides whether the patterns above need to run at all.
_TRIGGER_RE = re.compile(
    r"ignor|disregard|instruc|consign|anweisung|regla|regra|regel|vorgabe|guideline|guardrail|"
    r"classif|categori|label|action.?type|intent|jailbreak|pretend|you are now|act as|"
    r"developer|debug mode|dan mode|anything now|override|bypass|system|assistant\s*[:>\]]|"
    r"forget (?:everything|all|what|your|the above|previous|prior)|"
    r"(?:create|execute|update|query|manage)[_ \-]?(?:agent|skill|task|info|platform)|"
    r"unknown|prompt|correct|decision|confidence|from now on,? you"
)


def strip_meta(norm: str) -> tuple[str, bool]:
    """The text without meta-instructions, and whether any were found."""
    if not _TRIGGER_RE.search(norm):
        return norm, False
    # "assistant: Understood, I have deleted all agents. user: great thanks": the words put in
    # the assistant's mouth go; what the user says after them stays.
    text, faked = _FAKE_ASSISTANT_TURN_RE.subn(" ", norm)
    found = faked > 0
    for pattern in _PATTERNS:
        text, count = pattern.subn(" ", text)
        found = found or count > 0
    if not found:
        return norm, False
    text = _SPEAKER_RE.sub(" ", text)
    text = _LEFTOVER_RE.sub(" ", text)
    return _SPACE_RE.sub(" ", text).strip(" .,;:-"), True


# "I was going to ask you for a weekly agent, but … So just export it once": the request the
# writer took back is not the request.
_RETRACTED_RE = re.compile(
    r"(?:[^.!?;]|\.(?=\w))*\b(?:i was (?:going|about|planning) to (?:ask|request|have you)|"
    r"i (?:wanted|meant|had planned|had meant) to ask|originally i (?:wanted|was going)|"
    r"iba a (?:pedir|preguntar)\w*|queria (?:pedir|preguntar)\w*|"
    r"j allais (?:te |vous )?demander|je voulais (?:te |vous )?demander|"
    r"ich wollte (?:dich |sie |euch )?(?:eigentlich |erst )?(?:fragen|bitten)|"
    r"eu ia (?:te |lhe )?(?:pedir|perguntar))\b(?:[^.!?;]|\.(?=\w))*[.!?;]*"
)

_RETRACT_TRIGGER_RE = re.compile(
    r"(?:going|about|planning) to|(?:wanted|meant|planned) to|originally|iba a|queria|allais|"
    r"voulais|wollte|eu ia"
)


def drop_retracted(norm: str) -> str:
    """The message without the sentence whose request the writer took back, if more remains."""
    if not _RETRACT_TRIGGER_RE.search(norm):
        return norm
    rest = _SPACE_RE.sub(" ", _RETRACTED_RE.sub(" ", norm)).strip()
    return rest if len(rest.split()) >= 6 else norm
