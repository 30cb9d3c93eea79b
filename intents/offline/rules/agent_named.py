"""Follow-up rules about the agent the conversation just named, made, changed or ran: "it",
"the same for …", a correction, an undo."""

from __future__ import annotations

from intents.offline.context import ANSWER_KEYS, CHANGE_CUES, INFO_CUES, RUN_CUES
from intents.offline.rules.engine import rule
from intents.offline.rules.messages import ALSO, CONNECT
from intents.offline.rules.reading import (
    ANY_WORD,
    ASKS_ABOUT,
    QUESTION_WORDS,
    SMALL_TALK,
    Decision,
    Reading,
    cues,
)
from intents.types import ActionType

# "And …?", "what about …", "same for …", or a bare "too": more of the same.
_MORE_OF_THE_SAME = cues(
    """
    ^ cool|nice|great|thanks|perfect|awesome? and|y|et|und|e
    ^ cool|nice|great|thanks|perfect|awesome? =also|plus
    ^ cool|nice|great|thanks|perfect|awesome? and? what|how about
    ^ cool|nice|great|thanks|perfect|awesome? same for
    ^ cool|nice|great|thanks|perfect|awesome? y que hay de
    ^ cool|nice|great|thanks|perfect|awesome? et pour
    ^ cool|nice|great|thanks|perfect|awesome? und was ist mit
    ^ =too|also $
    ^ as well $
    """
)
# The message opens with a bare "and" (its own question may follow).
_AND_FIRST = cues("^ =and|y|et|und|e")
_NOW_THE_OTHER = cues("^ now|next|then the|that …1 one")
_TO_DO = "run|rerun|trigger|start|execute|test|try|change|update|pause|resume|rename|move|make|add"
_CAN_YOU_DO = cues(
    f"""
    ^ can|could|would|will you please? {_TO_DO}
    ^ can|could|would|will you please? re run
    ^ can|could|would|will you please? kick off
    """
)
# A time, a day or a channel put right: "not A but B", "B not A", in five languages.
_DAYS = (
    "monday|mondays|mon|tuesday|tuesdays|tue|tues|wednesday|wednesdays|wed|weds|thursday|"
    "thursdays|thu|thur|thurs|friday|fridays|fri|saturday|saturdays|sat|sunday|sundays|sun|"
    "lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|miercoles|jueves|viernes|"
    "sabado|domingo|segunda|terca|quarta|quinta|sexta|montag|dienstag|mittwoch|donnerstag|"
    "freitag|samstag|sonntag"
)
_VALUE = f"@NUM|@TIME|#*|{_DAYS} uhr|h?"
_CORRECTION = cues(
    f"""
    not|nicht|pas|no|nao|ni on|at|am|um|le|el|a|as? las? {_VALUE} but|sondern|mais|sino|mas|rather
    {_VALUE} not|statt on|at|le|el? {_VALUE} $
    {_VALUE} instead|rather of|than on|at|le|el? {_VALUE} $
    {_VALUE} au lieu de on|at|le|el? {_VALUE} $
    {_VALUE} en|em vez de on|at|le|el? {_VALUE} $
    """
)
_COMPARATIVE = cues(
    f"""
    =earlier|later|sooner|shorter|longer|faster|simpler|clearer|briefer
    less {ANY_WORD}
    more often|detailed|concise|readable|frequent*|technical|visual
    """
)
_UNDO = cues(
    """
    =undo|revert|deshaz|deshacer|revierte|annule|annuler|annulez|retablir|retablis|ruckgangig|rueckgaengig|desfaz|desfazer|reverte
    roll it|that? back
    =put|change|set it back
    """
)
_SAME = (
    "do|just? the same",
    "same|ditto|idem|pareil|dasselbe",
    "lo mismo",
    "do this|that|it again?",
    "la meme chose",
    "das gleiche",
    "o mesmo",
    "a mesma coisa",
)
_SAME_FOR = cues(
    "\n".join(
        f"{lead} please? {same} for|with|para|con|pour|avec|fur|fuer|mit|com"
        for lead in ("^ also|now?", "^ also|now? can|could|would you")
        for same in _SAME
    )
)
_KIND = (
    "thing|things|setup|setups|agent|agents|one|ones|alert|alerts|monitor|monitors|report|"
    "reports|digest|digests"
)
_SAME_KIND = cues(
    f"""
    same kind|sort? of? {_KIND} but? for|on|with|from
    one|another|something just|exactly? like that|this|it but? for|on|with|from
    an agent just|exactly? like that|this|it but? for|on|with|from
    """
)
_ADD_TO_IT = cues(
    f"""
    ^ also|please? add|include {ANY_WORD} …7 to|in it|that|this|them
    ^ also|please? remove|exclude|drop {ANY_WORD} …7 from it|that|this
    """
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
    if prev is None or not (r.says(_MORE_OF_THE_SAME) or r.says(_NOW_THE_OTHER)):
        return None
    # A question of its own after "and" is not the same again.
    own_question = r.says(_AND_FIRST) and bool(r.concepts & QUESTION_WORDS) and r.asks
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
    if agent is None or r.has_agent or r.says(_CAN_YOU_DO):
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
        and r.says(_MORE_OF_THE_SAME)
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
        and r.says(_CORRECTION)
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
        and r.says(_COMPARATIVE)
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
        and r.says(_UNDO)
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
        and r.says(_SAME_FOR)
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
    if r.says(_SAME_KIND) and "source" in r.entities and r.ctx.wizard is None:
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
            r.says(_ADD_TO_IT)
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
