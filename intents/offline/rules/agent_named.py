"""Follow-up rules about the agent the conversation just named, made, changed or ran: "it",
"the same for …", a correction, an undo."""

from __future__ import annotations

import re

from intents.offline.context import ANSWER_KEYS, CHANGE_CUES, INFO_CUES, RUN_CUES
from intents.offline.rules.engine import rule
from intents.offline.rules.messages import ALSO, CONNECT
from intents.offline.rules.reading import (
    ASKS_ABOUT,
    QUESTION_WORDS,
    SMALL_TALK,
    Decision,
    Reading,
)
from intents.types import ActionType

_MORE_OF_THE_SAME_RE = re.compile(
    r"^(?:(?:cool|nice|great|ok|okay|thanks|perfect|awesome)[.,!]? )?"
    r"(?:and|also|plus|what about|how about|same for|and what about|y|et|und|e|"
    r"y que hay de|et pour|und was ist mit)\b|\b(?:too|as well|also)\s*\??$"
)
_NOW_THE_OTHER_RE = re.compile(r"^(?:now|next|then)\s+(?:the|that)\s+(?:\w+\s+)?one\b")
_CAN_YOU_DO_RE = re.compile(
    r"^(?:ok |okay |so |and )?(?:can|could|would|will) you (?:please )?(?:run|rerun|re-run|"
    r"trigger|start|kick off|execute|test|try|change|update|pause|resume|rename|move|make|add)\b"
)
# A time, a day or a channel put right: "not A but B", "B not A", in five languages.
_VALUE = (
    r"(?:\d{1,2}(?::\d{2})?(?:am|pm|h|uhr)?|#[\w-]+|(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|"
    r"sat(?:ur)?|sun)(?:day)?s?|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|"
    r"miercoles|jueves|viernes|sabado|domingo|segunda|terca|quarta|quinta|sexta|montag|dienstag|"
    r"mittwoch|donnerstag|freitag|samstag|sonntag)"
)
_CORRECTION_RE = re.compile(
    rf"\b(?:not|nicht|pas|no|nao|ni)\s+(?:on |at |am |um |le |el |a las |as |a )?{_VALUE}\s*,?\s+"
    rf"(?:but|sondern|mais|sino|mas|rather)\b|"
    rf"\b{_VALUE} (?:not|instead of|rather than|statt|au lieu de|en vez de|em vez de) "
    rf"(?:on |at |le |el )?{_VALUE}\W*$"
)
_COMPARATIVE_RE = re.compile(
    r"\b(?:earlier|later|sooner|shorter|longer|faster|less \w+|more (?:often|detailed|concise|"
    r"readable|frequent\w*|technical|visual)|simpler|clearer|briefer)\b"
)
_UNDO_RE = re.compile(
    r"\b(?:undo|revert|roll (?:it |that )?back|put it back|change it back|set it back|"
    r"deshaz|deshacer|revierte|annule[rz]?|retabli[sr]|ruckgangig|rueckgaengig|desfaz|desfazer|"
    r"reverte)\b"
)
_SAME_FOR_RE = re.compile(
    r"^(?:and |also |now |ok |okay )?(?:(?:can|could|would) you )?(?:please )?"
    r"(?:(?:do |just )?the same|same|ditto|idem|lo mismo|do (?:this|that|it)(?: again)?|"
    r"pareil|la meme chose|das gleiche|dasselbe|o mesmo|a mesma coisa)\s+"
    r"(?:for|with|para|con|pour|avec|fur|fuer|mit|com)\b"
)
_SAME_KIND_RE = re.compile(
    r"\b(?:same (?:kind of |sort of )?(?:thing|setup|agent|one|alert|monitor|report|digest)s?|"
    r"(?:one|another|an agent|something) (?:just |exactly )?like (?:that|this|it))\s+"
    r"(?:but )?(?:for|on|with|from)\b"
)
_ADD_TO_IT_RE = re.compile(
    r"^(?:ok |okay |and |also |please )?(?:add|include) .{1,40} (?:to|in) (?:it|that|this|them)\b"
    r"|^(?:ok |okay |and |also |please )?(?:remove|exclude|drop) .{1,40} from (?:it|that|this)\b"
)
_ASKED_AGAIN = (ActionType.EXECUTE_TASK, ActionType.UPDATE_AGENT, ActionType.QUERY_INFO)


def _after_an_agent(r: Reading) -> str | None:
    """The agent the conversation just named or ran, when no setup is open."""
    if r.ctx.wizard is not None:
        return None
    return r.ctx.last_agent or r.ctx.last_run


@rule(
    "'And the other one?' right after something was done to an agent does the same again.",
    examples=("and the other one?", "what about the notion one?", "now the third one please"),
    unlike=("und wann würde der laufen?", "and cc me on its emails", "Et lance-le maintenant."),
)
def the_same_for_another(r: Reading) -> Decision | None:
    prev = r.ctx.prev_intent
    if _after_an_agent(r) is None or prev not in _ASKED_AGAIN or r.n_units > 8:
        return None
    more = _MORE_OF_THE_SAME_RE.match(r.norm) or _NOW_THE_OTHER_RE.match(r.norm)
    if more is None or prev is None:
        return None
    # A question of its own after "and" is not the same again.
    own_question = (
        more.group(0).strip() in ("and", "y", "et", "und", "e")
        and bool(r.concepts & QUESTION_WORDS)
        and r.asks
    )
    # A verb of its own (a run after a rename, a change after a description) is not either.
    own_verb = (bool(r.concepts & {"V_RUN", "V_START"}) and prev != ActionType.EXECUTE_TASK) or (
        prev == ActionType.QUERY_INFO and bool(r.concepts & (CHANGE_CUES | {"V_ADD"}))
    )
    if not own_question and not own_verb:
        return Decision(prev, 0.75, f"the same ({prev}) for another")
    return None


@rule(
    "A question about 'it' right after an agent was named asks about that agent.",
    examples=(
        "what does it do?",
        "how often does it run?",
        "what's its schedule now?",
        "¿y a qué hora se ejecuta?",
        "does it also catch tickets with no due date?",
        "what time",
        "who gets it",
    ),
    unlike=("what does the third one do?",),
)
def asks_about_the_agent_just_named(r: Reading) -> Decision | None:
    agent = _after_an_agent(r)
    if agent is None or r.has_agent or _CAN_YOU_DO_RE.match(r.norm):
        return None
    # A bare question word asks about it too; Spanish and Portuguese drop the pronoun.
    bare_question = r.n_units <= 2 and bool(r.concepts & QUESTION_WORDS)
    about_it = (
        "PRON_IT" in r.concepts or "it" in r.parsed.tokens or r.asks or bare_question
    ) and not (r.concepts & (SMALL_TALK | {"ORD"}))
    # A schedule asked about is not a schedule set.
    asked_first = r.opens_with_a_question_word and r.asks
    changes = r.concepts & CHANGE_CUES - ({"RECUR"} if asked_first else set())
    questions = r.concepts & QUESTION_WORDS or r.asks_yes_no
    if (
        about_it
        and (r.concepts & ASKS_ABOUT or r.asks_yes_no)
        and not changes
        and (questions or not r.concepts & RUN_CUES)
    ):
        r.entities.setdefault("agent", agent)
        return Decision(ActionType.QUERY_INFO, 0.8, "asks about the agent just named")
    return None


@rule(
    "A bare new setting right after an agent was named changes that agent.",
    examples=("weekly",),
    unlike=("reconnect notion then",),
)
def a_new_setting_for_the_agent_just_named(r: Reading) -> Decision | None:
    agent = _after_an_agent(r)
    if (
        agent is not None
        and ANSWER_KEYS & r.entities.keys()
        and r.n_units <= 4
        and not r.concepts & (RUN_CUES | INFO_CUES | {"V_CREATE"})
        # The workspace's connection, not a new source.
        and not r.says(CONNECT)
    ):
        r.entities.setdefault("agent", agent)
        return Decision(ActionType.UPDATE_AGENT, 0.72, "a new setting for the agent just named")
    return None


def _asks_about_another(r: Reading) -> bool:
    return (
        r.ctx.wizard is None
        and r.ctx.prev_intent is not None
        and r.asks
        and bool(_MORE_OF_THE_SAME_RE.match(r.norm))
        and r.n_units <= 6
        and not any(c.startswith("V_") for c in r.concepts)
    )


@rule(
    "'And the other one?' with no verb, right after an answer, asks the same question again.",
    examples=("and the enterprise one?",),
)
def asks_the_same_about_another(r: Reading) -> Decision | None:
    if _asks_about_another(r):
        return Decision(ActionType.QUERY_INFO, 0.7, "asks the same about another")
    return None


@rule(
    "A day, time or channel put right just after an agent was made or changed changes it.",
    examples=(
        "moment, nicht freitag sondern donnerstag bitte",
        "not Friday but Thursday",
        "9 not 8",
        "mak it 8 not 9",
        "pas lundi mais mardi",
    ),
)
def corrects_the_agent_just_made(r: Reading) -> Decision | None:
    agent = r.ctx.last_agent
    if (
        agent
        and r.ctx.wizard is None
        and r.ctx.prev_intent in (ActionType.CREATE_AGENT, ActionType.UPDATE_AGENT)
        and r.n_units <= 10
        and _CORRECTION_RE.search(r.norm)
    ):
        r.entities.setdefault("agent", agent)
        return Decision(ActionType.UPDATE_AGENT, 0.75, "corrects the agent just made or changed")
    return None


@rule(
    "Asking for 'it' earlier, shorter or more detailed changes the agent just named.",
    examples=("could we get it earlier?", "can you make it less technical?"),
)
def asks_the_agent_to_change(r: Reading) -> Decision | None:
    agent = r.ctx.last_agent
    if (
        "PRON_IT" in r.concepts
        and agent
        and r.ctx.wizard is None
        and not r.has_agent
        and r.n_units <= 8
        and _COMPARATIVE_RE.search(r.norm)
    ):
        r.entities.setdefault("agent", agent)
        return Decision(ActionType.UPDATE_AGENT, 0.7, "asks for the agent just named to change")
    return None


@rule(
    "Undoing right after an agent was made or changed changes it back.",
    examples=("actually undo that",),
)
def undoes_a_change_to_an_agent(r: Reading) -> Decision | None:
    if (
        r.ctx.prev_intent in (ActionType.UPDATE_AGENT, ActionType.CREATE_AGENT)
        and r.n_units <= 6
        and _UNDO_RE.search(r.norm)
    ):
        return Decision(ActionType.UPDATE_AGENT, 0.75, "undoes what was just done to an agent")
    return None


@rule(
    "'The same for <someone>' repeats the step just taken, for them.",
    examples=("same for Lucía",),
)
def the_same_for_someone_else(r: Reading) -> Decision | None:
    prev = r.ctx.prev_intent
    if (
        prev is not None
        and prev != ActionType.UNKNOWN
        and _SAME_FOR_RE.match(r.norm)
        and r.n_units <= 6
        and "RECUR" not in r.concepts
    ):
        return Decision(prev, 0.72, f"the same ({prev}) for another")
    return None


@rule(
    "'The same kind of thing for <tool>' asks for a new agent like the one discussed.",
    examples=(
        "can I get the same kind of thing for Linear?",
        "one just like that but for Asana",
    ),
)
def a_new_agent_like_that_one(r: Reading) -> Decision | None:
    if _SAME_KIND_RE.search(r.norm) and "source" in r.entities and r.ctx.wizard is None:
        return Decision(ActionType.CREATE_AGENT, 0.75, "asks for a new agent like the last one")
    return None


@rule(
    "Adding to 'it' right after an agent was named extends what that agent covers.",
    examples=("Add the QA project to that.", "Can it also check Intercom?"),
)
def adds_to_the_agent_just_named(r: Reading) -> Decision | None:
    agent = r.ctx.last_agent
    if (
        agent
        and r.ctx.wizard is None
        and not r.has_agent
        and r.n_units <= 10
        and (
            _ADD_TO_IT_RE.search(r.norm)
            or ("PRON_IT" in r.concepts and r.says(ALSO) and "source" in r.entities)
        )
    ):
        r.entities.setdefault("agent", agent)
        return Decision(
            ActionType.UPDATE_AGENT,
            0.72,
            "adds to what the agent just named covers",
            alternative=ActionType.CREATE_AGENT,
        )
    return None
