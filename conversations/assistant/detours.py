"""What counts as a detour from an open flow: a confident request for something else in the
middle of the wizard or of a skill session (answered, and the flow kept for later), as against
an answer to it or more details for a proposal; and the note that says the flow is still open.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from conversations.assistant.describe import describe
from conversations.assistant.outcome import Outcome, Turn
from conversations.assistant.skills import asks_for_skills
from conversations.assistant.state import AssistantState, Wizard
from intents.reading.acts import Act
from intents.reading.reading import Reading
from intents.types import ActionType, IntentResult

_SWITCH_AWAY = frozenset(
    {
        ActionType.EXECUTE_TASK,
        ActionType.QUERY_INFO,
        ActionType.UPDATE_AGENT,
        ActionType.MANAGE_PLATFORM,
        ActionType.CREATE_SKILL,
    }
)


def adds_to_proposal(turn: Turn, state: AssistantState, wizard: Wizard) -> bool:
    """Whether a reply to a proposal gives more of its details rather than asking for
    something else."""
    if turn.reading.question or detour_from_wizard(turn, state) is not None:
        return False
    return gives_details_for(turn.reading, wizard)


def gives_details_for(follow: Reading, wizard: Wizard) -> bool:
    slots = follow.details(wizard.gathered)
    return bool(slots.keys() & {"destination", "frequency", "zone", "name", "source", "trigger"})


def _puts_the_source_right(turn: Turn, state: AssistantState) -> bool:
    """ "sorry, we moved off Trello. It's Asana now: …": the wizard's source taken back and
    another named, whatever else the words could be read as."""
    wizard = state.wizard
    said = str(wizard.gathered.get("source") or "") if wizard else ""
    if not wizard or not said or not turn.reading.takes_back(said):
        return False
    slots = turn.reading.details(wizard.gathered)
    return bool(slots.get("source")) and slots["source"] != said


def detour_from_wizard(turn: Turn, state: AssistantState) -> IntentResult | None:
    """A confident request for something else in the middle of the wizard (answered, and the
    wizard kept for later); None when the message answers the wizard."""
    follow = turn.reading
    if follow.acknowledgement or _puts_the_source_right(turn, state):
        return None
    if follow.shows(Act.RESTRICTS) and not follow.question:
        return None  # "only the ones in the BILLING project": which of them, for this setup
    if turn.intent.action_type in _SWITCH_AWAY:
        return turn.intent  # the classifier, wizard and all, read it as something else
    alone = turn.understanding.alone  # the message on its own, apart from the open flow
    # A how/what question of its own ("btw how do I get an API token?") is no wizard answer,
    # even when the classifier is unsure which other thing it asks about.
    floor = 0.7
    if follow.question:
        floor = 0.3 if follow.shows(Act.ASKS_HOW) else 0.5
    if alone.action_type not in _SWITCH_AWAY or alone.confidence < floor:
        return None
    wizard = state.wizard
    assert wizard is not None
    slots = follow.details(wizard.gathered, asking=wizard.asking)
    # Only what a request cannot be mistaken for: "run the notion reporter once" names a tool
    # and reads as free text, and answers nothing.
    answers = {k for k in slots if k in ("destination", "frequency", "zone", "name")}
    # What the wizard asked for, given ("pull the closed issues from Linear" when it asked
    # where the data comes from), unless the message names one of the tenant's agents.
    answers |= {k for k in slots if k in wizard.asking and k in ("source", "trigger")}
    if "agent" in alone.entities or follow.question or not answers:
        return alone
    return None


def detour_from_skill(turn: Turn) -> IntentResult | None:
    """A confident request for something else while a skill is being built (answered, the
    session kept); None when the message answers the skill builder."""
    follow = turn.reading
    if follow.acknowledgement or follow.shows(Act.STOPS):
        return None
    alone = turn.understanding.alone  # the message on its own, apart from the open flow
    other = _SWITCH_AWAY - {ActionType.CREATE_SKILL}
    if alone.action_type not in other | {ActionType.CREATE_AGENT} or alone.confidence < 0.75:
        return None
    if "agent" in alone.entities or follow.question or asks_for_skills(follow):
        return alone
    return None


def keep_wizard_open(outcome: Outcome, state: AssistantState, turn: Turn) -> Outcome:
    wizard = state.wizard
    assert wizard is not None
    known = describe(wizard.gathered)
    if known:
        note = _(
            "\n\n(We're still setting up an agent that %(what)s. Answer my last question when "
            'you\'re ready, say "where were we?", or "cancel" to drop it.)'
        ) % {"what": known}
    else:
        note = _(
            "\n\n(We're still setting up your new agent. Answer my last question when you're "
            'ready, say "where were we?", or "cancel" to drop it.)'
        )
    reply = outcome.reply
    reply.content += note
    return Outcome(reply, outcome.state.replace(wizard=wizard), outcome.effects)
