"""Follow-up rules while a setup (a wizard) is open: an answer to it, or something of its own."""

from __future__ import annotations

import re
from dataclasses import dataclass

from intents.offline.context import ANSWER_KEYS
from intents.offline.rules.engine import rule
from intents.offline.rules.reading import QUESTION_WORDS, Decision, Reading, cues
from intents.types import ActionType

# Values listed, no request: an answer whatever its nouns look like.
_A_LIST_RE = re.compile(r"^[\w' -]{1,30}(?:, [\w' -]{1,30})+,? (?:and|or|y|o|et|ou|und|oder|e) ")
# What the assistant would recommend, or usually does.
_YOUR_CALL = cues(
    """
    what would|do you recommend|suggest|do
    what would|do you normally|usually do
    whats usual|normal|common|recommended|best
    what is usual|normal|common|recommended|best
    any suggestion|suggestions|idea|ideas
    que recomiendas|sugieres|recommandes|conseilles|proposes
    was empfiehlst|schlaegst du
    """
)
_ASIDE = cues(
    """
    ^ btw|question|hmm|oh|wait|also
    ^ by the way
    ^ quick question
    """
)
# The writer says it is not an answer.
_UNRELATED = cues(
    """
    ^ unrelated
    ^ different question|topic
    ^ side note|question
    ^ off topic
    ^ changing the? subject|topic
    ^ before i|we forget
    ^ sin relacion
    ^ autre chose
    """
)


@dataclass(frozen=True)
class _MidWizard:
    kind: ActionType  # what the open wizard sets up
    top: ActionType
    answered: bool  # a schedule, source, destination or time the wizard asks for
    naming: bool  # the wizard asks for a name and the message is short enough to be one
    asks: bool  # a question of its own, not an answer
    switching: bool  # a clear request of another kind
    opens_with_question: bool


def _mid_wizard(r: Reading) -> _MidWizard | None:
    wizard = r.ctx.wizard
    if wizard is None:
        return None
    top, sure = r.model_sure()
    answered = bool(ANSWER_KEYS & r.entities.keys())
    naming = "name" in r.ctx.wizard_asking and len(r.parsed.tokens) <= 4
    asks = bool(r.concepts & QUESTION_WORDS) and r.asks
    # Without a verb, a phrase is an answer; so is a list, whatever its nouns look like.
    acts = any(c.startswith("V_") for c in r.concepts) and not _A_LIST_RE.match(r.norm)
    # Telling an agent wizard what to watch answers it.
    watches = wizard == ActionType.CREATE_AGENT and "V_WATCH" in r.concepts and not asks
    aside = r.says(_UNRELATED)
    switching = (
        not naming
        and not watches
        and (asks or acts)
        and top not in (wizard, ActionType.UNKNOWN)
        # A wizard only proposed (an offer waiting for a yes) asked nothing to answer.
        and sure >= (0.5 if asks or aside or r.ctx.offer is not None else 0.85)
        and not answered
        and r.n_units >= 2
    )
    opens_with_question = r.opens_with_a_question_word or r.says(_ASIDE)
    return _MidWizard(wizard, top, answered, naming, asks, switching, opens_with_question)


@rule(
    "Small talk in the middle of a setup is not an answer to it.",
    examples=("What's the weather in Berlin tomorrow?",),
)
def small_talk_mid_wizard(r: Reading) -> Decision | None:
    turn = _mid_wizard(r)
    if (
        turn is not None
        and "OOS" in r.concepts
        and turn.top == ActionType.UNKNOWN
        and not turn.answered
        and not turn.naming
    ):
        return Decision(ActionType.UNKNOWN, 0.7, "small talk in the middle of a wizard")
    return None


@rule(
    "Asking what the assistant recommends hands the setup's question back to it.",
    examples=("what would you recommend?",),
)
def asks_for_a_suggestion(r: Reading) -> Decision | None:
    turn = _mid_wizard(r)
    if turn is not None and turn.asks and r.says(_YOUR_CALL):
        return Decision(turn.kind, 0.75, f"asks for a suggestion in the {turn.kind} wizard")
    return None


@rule(
    "A question of its own, asked on the way through a setup, is answered as a question.",
    examples=(
        "btw how do I get an API token?",
        "what time zone do you use by default?",
        "quick question: how do tokens work?",
    ),
)
def asks_its_own_question_mid_wizard(r: Reading) -> Decision | None:
    turn = _mid_wizard(r)
    if (
        turn is not None
        and turn.asks
        and turn.opens_with_question
        and not turn.answered
        and not turn.naming
        and r.n_units >= 3
    ):
        return Decision(ActionType.QUERY_INFO, 0.7, "asks how something works mid-wizard")
    return None


@rule(
    "Anything but a clear other request, while a setup is open, answers its question.",
    examples=(
        "every morning at 9am",
        "Slack",
        "revenue by region and the top 5 deals",
        "Account name, ARR and renewal date",
        "watch the 'Q3 Launch' project for …",
    ),
    unlike=("actually, list my agents first", "Unrelated, but show me …"),
)
def answers_the_wizard(r: Reading) -> Decision | None:
    turn = _mid_wizard(r)
    if turn is not None and not turn.switching:
        confidence = 0.9 if turn.answered else 0.78
        return Decision(turn.kind, confidence, f"answers the open {turn.kind} wizard")
    return None
