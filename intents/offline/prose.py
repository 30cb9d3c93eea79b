"""What the previous assistant turn's *text* offered, when no metadata says so.

History from the classify endpoint, an import or a dataset is only text. A careful reader of
that text still knows what "yes", "2" or "Jira" answer: the numbered list or the options it
showed, the action it proposed, the question it asked while setting something up, the agent
it ran or described. This reads those from the prose, in any of the languages the lexicon
knows, and judges what a listed option or a proposal would do with the classifier's own model
(``judge``), so no phrasing list has to name every action.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from intents.offline.prose_common import (
    _ACCESS_LOST,
    _ASKS_FOR_AGENT,
    _ASPECT,
    _CHANGED,
    _CREATE_OR_READY,
    _CREATED,
    _FROM_NOW_ON,
    _GO_ON,
    _HELD_SETUP,
    _LIST_ASKS,
    _OFFER,
    _PLATFORM_OBJECT,
    _RAN,
    _SAY_THE_WORD,
    _SET_IT_UP,
    _SETTING_UP,
    _SETTINGS,
    _SETUP,
    _SETUP_SETTING,
    _SKILL,
    _VERB_RULES,
    _WHICH_DO_YOU_PREFER,
    Judge,
    Prose,
    _agent_names,
    _by_verb,
    _creates_it,
    _which,
    names_an_action,
)
from intents.offline.prose_common import said as _says
from intents.offline.prose_lists import _OR_RE, _alternatives, _listed_items, _numbered
from intents.reading.cues import ANY_WORD, cues
from intents.types import ActionType, HistoryTurn

__all__ = ["Judge", "Prose", "names_an_action", "read_prose"]

_BULLET_RE = re.compile(r"^[ \t]*[-•*][ \t]+(\S.*)$", re.MULTILINE)
# A dot inside a word ("lena@brightlane.co", "2024.xlsx") does not end a sentence.
_SENTENCE_RE = re.compile(r"(?:[^.!?\n]|\.(?=[\w/]))+[.!?]*")
_QUESTION_END_RE = re.compile(r"\?\s*$")
# How a proposal opens ("Want me to …?", "¿Quieres que…?"); what follows is the action.
_PROPOSAL_LEADS = (
    r"shall i|should i|want me to|would you like me to|do you want me to|like me to|"
    r"quieres que|deseas que|soll ich|quer que|vuoi che|volete che|desideri che"
)
# A proposal waits for a yes; what comes after its lead is the action proposed: "invite
# lena@…", "retry", "add it to…".
_PROPOSED_RE = re.compile(
    rf"\b(?:{_PROPOSAL_LEADS}|can i|may i|voulez-vous que je|veux-tu que je|tu veux que je|"
    r"quer que eu|do you want to|would you like to)\s+(.+)$",
    re.IGNORECASE,
)
# "Which one would you like me to run?" after the agents were named.
_WHICH_OF_THEM_RE = re.compile(r"^(?:so,? |and )?(?:which|what) (?:one|agent)\b[^?]{0,40}\?$", re.I)
# "I can build a watcher that …": what is offered, after its lead.
_OFFERED_RE = re.compile(r"^.*?\b(?:i can|i could|i'?d be happy to|happy to)\s+", re.I)
_WH_RE = re.compile(
    r"^(?:[\w ]{0,20}[:,\u2014-] )?(?:which|what|where|when|how|who|why|whose|cual|que|quel|quelle|"
    r"ou|quand|comment|welche[rsmn]?|was|wo|wann|wie)\b",
    re.I,
)
# What a setup question asks for, by its cue words.
_ASKS = (
    ("source", cues("""
    =come|read =from
    =live|lives|lived
    =which =tool|source|app|system
    =what =source
    =data =is|are =in|kept
    =keep =those|the|it
    """)),
    ("schedule", cues("""
    =how =often
    =when =should
    =what =time
    =time zone*
    timezone*|schedule*
    =which day*
    =frequency
    =cada =cuanto
    =a =quelle =heure
    =wie =oft
    """)),
    ("destination", cues(f"""
    channel*|recipient*
    =where =should =i|it =send|post|go
    =where =should =the {ANY_WORD} =send|post|go
    =where =should …5 =go
    =send =it|them =to
    =send =the {ANY_WORD} =to
    =who =should =get|receive
    =email address*
    """)),
    ("trigger", cues("""
    =watch =for|out
    =what =counts
    =what =should =count
    =what =should =it =watch|look|track|check
    =what =specific? data*
    include*|track*|threshold*
    =which project*|board*|database*|sheet*|repo*|folder*|table*|inbox*|mailbox*
    =which calendar*|list*|pipeline*
    =should =it watch*|monitor*
    """)),
    ("action", cues("""
    =what =should happen*
    =what =should =it do*
    =summary|report =or
    """)),
    ("name", cues("=name|called\n=call =it|this")),
    ("inputs", cues("=input|inputs\n=take =as")),
    ("outputs", cues("=output|outputs\nreturn*|produce*\n=give =back")),
)  # fmt: skip


_DESCRIBES_RE = re.compile(r"\b(?:runs|checks|reads|posts|sends|watches|is (?:currently|active|"
                           r"paused))\b|\n- \w+:", re.I)  # fmt: skip


def _question(text: str) -> str:
    """The last question the text asks ("" when it asks none)."""
    questions = [s.strip() for s in _SENTENCE_RE.findall(text) if _QUESTION_END_RE.search(s)]
    return questions[-1] if questions else ""


def _flow(
    text: str, users: Sequence[str], judge: Judge, named: Sequence[str], *, setup_question: bool
) -> ActionType | None:
    """Whether the conversation is setting up an agent or a skill (a wizard is open).

    ``setup_question``: the question asks for a setting (a source, a channel, a name), which
    only a setup asks; any other question is a setup's only when the user asked for one.
    """
    if setup_question and _says(text, _SKILL):
        return ActionType.CREATE_SKILL
    if not setup_question and (setting_up := _which(text, _SETTING_UP)):
        skill = setting_up == "skill"
        return ActionType.CREATE_SKILL if skill else ActionType.CREATE_AGENT
    for said in users[:3]:
        if setup_question and _says(said, _ASKS_FOR_AGENT):
            return ActionType.CREATE_AGENT
        action, confidence = judge(said)
        if action in (ActionType.CREATE_AGENT, ActionType.CREATE_SKILL) and confidence >= 0.5:
            return ActionType.CREATE_SKILL if _says(said, _SKILL) else action
        if confidence >= 0.75 and action != ActionType.UNKNOWN:
            return None  # the user was doing something else
    if setup_question and (_says(text, _SETUP) or not named):
        return ActionType.CREATE_AGENT
    return None


# Each side of an either/or question, with the action it would be.
_Sides = tuple[tuple[ActionType, str], ...]


@dataclass(frozen=True)
class _Turn:
    """The latest assistant turn as the readers below see it: its text, its last question and
    the text before that question, the user's messages before it (newest first), the agents it
    names, the tenant's agents, and the model that judges a sentence on its own."""

    text: str
    question: str
    before: str
    users: list[str]
    named: list[str]
    known: Sequence[str]
    judge: Judge


def _previous_turn(
    history: Sequence[HistoryTurn], known: Sequence[str], judge: Judge
) -> _Turn | None:
    """The latest assistant turn of ``history`` (oldest first) and what the user said before
    it, or None when the assistant has not spoken yet."""
    prev_index = next(
        (i for i in range(len(history) - 1, -1, -1) if history[i].get("role") == "assistant"),
        None,
    )
    if prev_index is None:
        return None
    text = str(history[prev_index].get("content") or "")
    users = [
        str(t.get("content") or "")
        for t in reversed(history[:prev_index])
        if t.get("role") == "user"
    ]
    named = _agent_names(text, known)
    question = _question(text)
    before = text[: text.rfind(question)] if question else text
    return _Turn(text, question, before, users, named, known, judge)


def _agents_in_question(turn: _Turn) -> list[str]:
    """The agents the question names, or all the text named when the question asks which of
    them: two or more mean the question asks to pick one."""
    question, named = turn.question, turn.named
    in_question = _agent_names(question, turn.known) if question else []
    if len(in_question) < 2 and len(named) >= 2 and question and _WHICH_OF_THEM_RE.match(question):
        # "All three are available: notion-reporter, … Which one should I run?"
        in_question = named
    return in_question


def _proposed_action(turn: _Turn, yes_no: bool) -> ActionType | None:
    """What a yes/no question proposes, read from the verb after its lead; administration when
    what it proposes is the workspace's and the text names no agent."""
    proposed = _PROPOSED_RE.search(turn.question) if yes_no else None
    # "Want me to run it again with PLATFORM included?" proposes a run, whatever it mentions.
    proposed_action = (
        _by_verb(proposed.group(1), _VERB_RULES)
        if proposed and not _says(proposed.group(1), _ASPECT)
        else None
    )
    if proposed and not turn.named and _says(proposed.group(1), _PLATFORM_OBJECT):
        # "Want me to turn on Google SSO …?", "Should I start the connection …?"
        proposed_action = ActionType.MANAGE_PLATFORM
    return proposed_action


def _said_the_word(turn: _Turn) -> tuple[ActionType | None, str]:
    """A proposal made without a question: the action of the last sentence, which makes it,
    and that sentence (none when the model cannot place it)."""
    # No question mark, still a proposal: the sentence that makes it says what.
    said = [s.strip() for s in _SENTENCE_RE.findall(turn.text) if s.strip()]
    offer_text = said[-1] if said else turn.text
    offer = _by_verb(_OFFERED_RE.sub("", offer_text), _VERB_RULES) or turn.judge(offer_text)[0]
    if offer == ActionType.UNKNOWN:
        return None, ""
    return offer, offer_text


def _asked_offer(turn: _Turn, proposed_action: ActionType | None) -> tuple[ActionType | None, str]:
    """What a proposing question offers, and the words that say it: the question with the
    sentence before it, which says what "it" is."""
    question, named = turn.question, turn.named
    # What is proposed: the question with the sentence that says what "it" is.
    sentences = [s.strip() for s in _SENTENCE_RE.findall(turn.before) if s.strip()]
    offer_text = " ".join([*sentences[-1:], question])
    # "I could change jira-overdue-monitor so … Should I make that change?": the verb of
    # the sentence that offers says what, when the question itself does not.
    offered = (
        _by_verb(_OFFERED_RE.sub("", sentences[-1]), _VERB_RULES)
        if sentences
        and _OFFERED_RE.match(sentences[-1])
        and _agent_names(sentences[-1], turn.known)
        else None
    )
    offer: ActionType | None = proposed_action or offered or turn.judge(offer_text)[0]
    targets = "|".join(["it", "them", *(re.escape(name) for name in named)])
    if named and re.search(rf"\b(?:run|rerun|re-run) (?:{targets})\b", question, re.I):
        offer = ActionType.EXECUTE_TASK
    bullets = _BULLET_RE.search(turn.text) and _says(question, _CREATE_OR_READY)
    if bullets or _creates_it(question):
        # "Shall I go ahead and create it?" after a plan: the thing planned.
        offer = ActionType.CREATE_SKILL if _says(turn.text, _SKILL) else ActionType.CREATE_AGENT
    if offer == ActionType.UNKNOWN:
        offer = None
    return offer, offer_text


def _offer(turn: _Turn, asking: tuple[str, ...]) -> tuple[ActionType | None, str]:
    """What the text proposes, waiting for a yes, and the words that propose it: a sentence
    that proposes without a question, or a yes/no question that is not a setup's."""
    question = turn.question
    yes_no = bool(question) and not _WH_RE.match(question) and not _OR_RE.search(question)
    proposed_action = _proposed_action(turn, yes_no)
    offer: ActionType | None = None
    offer_text = ""
    if not question and _says(turn.text, _SAY_THE_WORD):
        offer, offer_text = _said_the_word(turn)
    if (
        yes_no
        and (_says(question, _OFFER) or _says(question, _SET_IT_UP))
        and (not asking or proposed_action)
    ):
        offer, offer_text = _asked_offer(turn, proposed_action)
    return offer, offer_text


def _either_or(turn: _Turn, asking: tuple[str, ...], offer: ActionType | None) -> _Sides:
    """The two courses of action a question that neither proposes nor asks for a setting
    offers: its own two sides, or those of the sentence before a bare which-one question."""
    question = turn.question
    if not question or asking or offer is not None:
        return ()
    alternatives = _alternatives(question, turn.judge)
    if not alternatives and _says(question, _WHICH_DO_YOU_PREFER):
        # "I can add ANDROID to it, or create a separate agent. Which would you like?"
        said = [s.strip() for s in _SENTENCE_RE.findall(turn.before) if _OR_RE.search(s)]
        alternatives = _alternatives(said[-1], turn.judge) if said else ()
    return alternatives


def _wizard(
    turn: _Turn, asking: tuple[str, ...], offer: ActionType | None, alternatives: _Sides
) -> ActionType | None:
    """The setup a question belongs to, if any: a recap's, a setting's, or the one the user
    asked for."""
    if not turn.question:
        return None
    recap = offer in (ActionType.CREATE_AGENT, ActionType.CREATE_SKILL) and bool(
        _BULLET_RE.search(turn.text)
    )
    if recap:
        return offer
    if asking and offer is None:
        return _flow(turn.text, turn.users, turn.judge, turn.named, setup_question=True)
    if offer is None and not alternatives and turn.users:
        # "Should the skill cache results?", "Any rate limits I should respect?": a
        # question on the way through a setup the user asked for.
        return _flow(turn.text, turn.users, turn.judge, turn.named, setup_question=False)
    return None


def _setting_or_held_setup(
    turn: _Turn, wizard: ActionType | None, alternatives: _Sides
) -> tuple[ActionType | None, _Sides]:
    """The setup, when no question belonged to one: a question on a setting of the one being
    set up, or a setup left on hold; with the sides of an either/or as that setup reads them."""
    question = turn.question
    setting = _which(question, _SETUP_SETTING) if question and wizard is None else None
    if setting and not any(name in turn.known for name in turn.named):
        # "Should the skill keep them as linked files or drop them?": a setting of the one
        # being set up, whose sides are answers, not requests.
        skill = setting == "skill"
        wizard = ActionType.CREATE_SKILL if skill else ActionType.CREATE_AGENT
        alternatives = ()
    held = _which(turn.text, _HELD_SETUP) if wizard is None else None
    if held:
        # "I've put the agent setup on hold", "Earlier we started setting up an agent …": a
        # setup left open, which "let's finish that one" picks back up.
        skill = held == "skill"
        wizard = ActionType.CREATE_SKILL if skill else ActionType.CREATE_AGENT
        # "continue with it, or start something else?": going on is the setup's action.
        alternatives = tuple(
            (wizard if _says(side, _GO_ON) else action, side) for action, side in alternatives
        )
    return wizard, alternatives


def _prev_intent(turn: _Turn, ran: bool) -> ActionType | None:
    """What the exchange was about: the user's last request when the model is sure of it,
    else what a statement about a named agent says was done to it."""
    prev_intent: ActionType | None = None
    sure = False
    if turn.users:
        action, confidence = turn.judge(turn.users[0])
        if confidence >= 0.6 and action != ActionType.UNKNOWN:
            prev_intent = action
            sure = confidence >= 0.75
    if turn.named and not turn.question and not sure:
        if _says(turn.text, _CHANGED):
            prev_intent = ActionType.UPDATE_AGENT
        elif ran:
            prev_intent = ActionType.EXECUTE_TASK
        elif _says(turn.text, _CREATED):
            prev_intent = ActionType.CREATE_AGENT
        elif _DESCRIBES_RE.search(turn.text):
            prev_intent = ActionType.QUERY_INFO
    return prev_intent


def _answering(
    turn: _Turn,
    wizard: ActionType | None,
    asking: tuple[str, ...],
    offer: ActionType | None,
    alternatives: _Sides,
    in_question: Sequence[str],
) -> tuple[ActionType | None, ActionType | None]:
    """The setup (none when the question is a change's) and the request an open question's
    answer serves: a change to an existing agent, or the user's last request."""
    question = turn.question
    answering: ActionType | None = None
    if wizard == ActionType.CREATE_AGENT and asking and _says(question, _FROM_NOW_ON):
        # "Which Slack channel should it post to from now on?": a change being made to an
        # agent that exists, not a setup.
        wizard, answering = None, ActionType.UPDATE_AGENT
    open_question = bool(question) and _WH_RE.match(question) is not None and len(in_question) < 2
    if open_question and wizard is None and offer is None and not alternatives and turn.users:
        # "Which exchange-rate provider should it call?" while the user was building a skill.
        action, confidence = turn.judge(turn.users[0])
        if action != ActionType.UNKNOWN and confidence >= 0.6:
            answering = action
    return wizard, answering


def read_prose(history: Sequence[HistoryTurn], known: Sequence[str], judge: Judge) -> Prose:
    """Read the latest assistant text of ``history`` (oldest first) as a follow-up sees it.

    In order: a numbered list, the agents a question names, a proposal, an either/or, the
    setup under way, what the exchange was about, and what an open question's answer serves.
    """
    turn = _previous_turn(history, known, judge)
    if turn is None:
        return Prose()
    text, question, named = turn.text, turn.question, turn.named
    last_agent = named[0] if named else None
    ran = bool(named) and _says(turn.before or text, _RAN)

    items = _listed_items(text)
    if len(items) >= 2:
        return _numbered(items, text, question, known, judge, last_agent, turn.users)

    in_question = _agents_in_question(turn)
    if len(in_question) >= 2 and _WH_RE.match(question):
        # "Which agent should I run: notion-reporter, jira-overdue-monitor or …?"
        asked = _by_verb(question, _LIST_ASKS) or ActionType.QUERY_INFO
        return Prose(listed_agents=tuple(in_question), prev_intent=asked, last_agent=last_agent)

    asking = tuple(key for key, cue in _ASKS if _says(question, cue)) if question else ()
    if "alert," in question.lower() and "action" not in asking:
        # An alert, a summary or a report to choose from: the comma is the cue (a plain check).
        asking = tuple(key for key, _ in _ASKS if key in asking or key == "action")
    offer, offer_text = _offer(turn, asking)
    alternatives = _either_or(turn, asking, offer)
    wizard = _wizard(turn, asking, offer, alternatives)
    wizard, alternatives = _setting_or_held_setup(turn, wizard, alternatives)
    prev_intent = _prev_intent(turn, ran)
    wizard, answering = _answering(turn, wizard, asking, offer, alternatives, in_question)
    return Prose(
        answering=answering,
        needs_access=_says(text, _ACCESS_LOST),
        about_platform=(not named and offer is None and wizard is None and _says(text, _SETTINGS)),
        offer=offer,
        offer_text=offer_text,
        wizard=wizard,
        asking=asking if wizard else (),
        prev_intent=prev_intent,
        alternatives=alternatives,
        last_agent=last_agent,
        last_run=last_agent if ran else None,
        named=tuple(named),
    )
