"""Rules that read a message on its own: what it asks, whatever came before it."""

from __future__ import annotations

import re

from intents.offline.context import CHANGE_CUES
from intents.offline.lexicon import STOPWORDS, words
from intents.offline.rules.engine import rule
from intents.offline.rules.guards import ASKS_FOR_SOMETHING_RE
from intents.offline.rules.reading import (
    A_NEW_ONE,
    AGENTISH,
    QUESTION_WORDS,
    Decision,
    Reading,
    a_question,
    once_per_reading,
)
from intents.types import ActionType

DID_NOT_RE = re.compile(
    r"\b(?:didnt|did not|hasnt|has not|havent|have not|never|wasnt|was not|isnt|is not)\s+"
    r"(?:even )?(?:run|ran|send|sent|post|posted|arrive|arrived|fire|fired|show(?:n|ed)? up|"
    r"come|came|work|worked|go out|gone out|trigger|triggered)\b|"
    # Something looks wrong with what it did: silent, a number that cannot be right.
    r"\b(?:was|went|been|is) (?:weirdly |strangely |completely |totally )?(?:silent|quiet)\b|"
    r"\b(?:cant|can not|cannot|couldnt) be right\b|\bnobody got (?:an? |the )?\w+|"
    r"\bdoesnt (?:look|seem) right\b"
)
# Confusion, said as a statement rather than asked.
_CONFUSED_RE = re.compile(
    r"\b(?:(?:dont|do not) (?:really |quite |fully )?(?:get|understand) (?:the|how|why|what|"
    r"where|which)|no (?:clue|idea) (?:where|how|what|why) to|not sure how (?:i|im|we|to)|"
    r"no entiendo (?:por que|como|que)|je ne (?:sais jamais|comprends pas) (?:si|pourquoi|"
    r"comment)|ich verstehe nicht,? (?:warum|wie)|nao entendo (?:por que|como))\b"
)
_IS_IT_POSSIBLE_RE = re.compile(
    r"^(?:(?:is it possible|is there a way|es posible|est-ce possible|ist es moglich|"
    r"e possivel)\b.{0,20}\b(?:an agent|agents|un agente|los agentes|un agent|les agents|"
    r"ein agent|agenten|um agente|os agentes)|(?:can|do|are) (?:an agent|agents))\b"
)
# A suggestion that opens with "why not" is no question.
_WHY_NOT_RE = re.compile(r"^(?:why|y|por que|pourquoi|warum) (?:not|dont|don t|no|pas|nicht)\b")
_LET_SOMEONE_RE = re.compile(
    r"^(?:please |pls |can you |could you )?(?:let|allow)\s+(?!me\b|us\b|it\b|them\b|the agent)"
    r"[\w.@' -]{2,40}?\s+(?:to\s+)?(?:see|view|use|access|edit|manage|read|look at)\b"
)
_EXPLAIN_AGAIN_RE = re.compile(
    r"\b(?:every time|each time|whenever)\b.{0,30}\b(?:build|create|set up|make)\b.{0,20}"
    r"\bagents?\b.{0,40}\b(?:re-?explain|explain (?:it )?(?:all over )?again|teach (?:it|them)|"
    r"tell (?:it|them) again|explain all over again)"
)
_SITS_UNSEEN_RE = re.compile(
    r"\b(?:sit|sits|sitting|pile up|piles up|piling up|languish\w*|stay|stays|linger\w*)\b"
    r".{0,40}\bfor (?:days|weeks|hours|a week|a day|ages|a while)\b.{0,25}\bbefore "
    r"(?:anyone|anybody|someone|somebody|engineering|we|the team|it)\b"
)
_NEEDED_SOON_RE = re.compile(
    r"\b(?:in (?:an|one|two|half an) hours?|in \d+ (?:minutes|mins|hours)|in ten minutes|"
    r"(?:this|tomorrow) (?:morning|afternoon)|today|tonight|tomorrow|at \d{1,2}(?::\d\d)?|"
    r"before (?:the|my) (?:meeting|call|standup)|asap|right now|end of day|eod)\b"
)
_NOT_YET_RE = re.compile(
    r"\b(?:still (?:don'?t|do not|haven'?t|have not) (?:have|got|seen|received)|(?:don'?t|do not|"
    r"haven'?t|have not) (?:got|gotten|seen|received) (?:it|the|this|that)|no sign of|"
    r"(?:hasn'?t|has not|didn'?t|did not) (?:come|arrive|show up)|missing|no clue what)\b"
)
CONNECT_RE = re.compile(
    r"^(?:please |pls |can you |could you |(?:i )?need to )?(?:connect|disconnect|disconect|"
    r"reconnect|hook up|unhook|link|unlink|integrate)\b"
)
_SET_UP_A_TOOL_RE = re.compile(
    r"^(?:please |pls |can you |could you )?(?:set ?up|setup|install|enable|add) (?:our |the |my )?"
    r"\w+(?: \w+)?(?: account| integration| workspace)?(?: for (?:us|me|the team))?\W*$"
)
ALSO_RE = re.compile(r"\b(?:too|also|as well)\b")
_SCOPE_RE = re.compile(
    r"\b(?:project|workspace|board|team|repo|repository|channel|database|space|folder|"
    r"department|region)s?\b"
)
_NOTHING_ASKED = frozenset({"AGENT", "N_AGENT", "N_REPORT", "T_AGAIN", "ADJ_SAME", "ORD", "POSS"})
_FILLER_WORDS = words(
    "the my our that this thing one stuff pls please el la le les der die das den o a os as "
    "lo un una"
)
_NOT_A_RUN = frozenset({"V_ADD", "V_CONFIGURE", "Q_PAST", "Q_UNSURE"})
_SETTING_KEYS = frozenset({"schedule", "frequency", "destination", "time", "new_name"})


def a_run_for_a_period(r: Reading) -> bool:
    """An agent or a report named with a period and nothing to change, ask or add."""
    return (
        "period" in r.entities
        and not r.entities.keys() & _SETTING_KEYS
        and bool(r.concepts & AGENTISH)
        and not r.concepts & (CHANGE_CUES | QUESTION_WORDS | _NOT_A_RUN)
        and not DID_NOT_RE.search(r.norm)
    )


@rule(
    "An agent named with a period and nothing new is a run of it for that period.",
    examples=("the jira monitor for last week", "financial analyzer, but for March"),
)
def runs_an_agent_for_a_period(r: Reading) -> Decision | None:
    if a_run_for_a_period(r) and "AGENT" in r.concepts and not r.concepts & A_NEW_ONE:
        return Decision(ActionType.EXECUTE_TASK, 0.8, "runs the agent named for that period")
    return None


@rule(
    "Setting up a tool and nothing more connects it to the workspace.",
    examples=("Set up Slack for us.", "set up Zendesk"),
)
def sets_up_a_tool(r: Reading) -> Decision | None:
    if _SET_UP_A_TOOL_RE.match(r.norm) and {"SRC", "CHAT"} & r.concepts:
        return Decision(
            ActionType.MANAGE_PLATFORM,
            0.65,
            "sets up a tool and nothing more",
            alternative=ActionType.CREATE_SKILL,
            ambiguous=True,
        )
    return None


@rule(
    "An existing agent asked to cover one more project, team or channel too is changed.",
    examples=("Can you do the jira check for the MOBILE project too?",),
)
def extends_an_agent_to_more(r: Reading) -> Decision | None:
    if (
        ALSO_RE.search(r.norm)
        and _SCOPE_RE.search(r.norm)
        and ("AGENT" in r.concepts or r.agent_by_source)
        and not r.concepts & ({"ADJ_NEW", "N_SKILL"} | QUESTION_WORDS)
        and r.n_units <= 14
    ):
        return Decision(
            ActionType.UPDATE_AGENT,
            0.7,
            "extends an existing agent to more",
            alternative=ActionType.CREATE_AGENT,
            ambiguous=True,
        )
    return None


@rule(
    "An agent that did not run, stayed silent or reported something wrong is asked about.",
    examples=(
        "notion reporter didnt run??",
        "the jira monitor hasn't sent anything since Tuesday",
        "weird that the jira monitor was silent yesterday",
        "said zero overdue tickets today, which can't be right",
        "nobody got an alert",
    ),
)
def asks_why_an_agent_did_not_work(r: Reading) -> Decision | None:
    if (
        DID_NOT_RE.search(r.norm)
        and ("AGENT" in r.concepts or r.agent_by_source)
        and not r.concepts & CHANGE_CUES
    ):
        return Decision(
            ActionType.QUERY_INFO,
            0.7,
            "asks why an agent did not do its job",
            alternative=ActionType.EXECUTE_TASK,
        )
    return None


@rule(
    "Saying what one does not understand is a question, unless it also asks for something.",
    examples=(
        "Not sure how I'm supposed to hand a file to an agent.",
        "I don't really get the difference between agents and skills",
        "no clue where to start",
        "No entiendo por qué …",
    ),
)
def says_what_they_do_not_understand(r: Reading) -> Decision | None:
    if (
        r.concepts.isdisjoint({"RECUR", "V_RUN"})
        and _CONFUSED_RE.search(r.norm)
        and not ASKS_FOR_SOMETHING_RE.search(r.norm.replace("?", ""))
    ):
        return a_question(r, 0.7, "says what they do not understand")
    return None


@rule(
    "Asking whether agents can do something asks what the product does.",
    examples=(
        "Is it possible for an agent to reply inside Slack threads …?",
        "is it possible for agents to read PDFs attached in Gmail?",
    ),
)
def asks_what_agents_can_do(r: Reading) -> Decision | None:
    if _IS_IT_POSSIBLE_RE.match(r.norm):
        return a_question(r, 0.7, "asks what agents can do")
    return None


@rule(
    "A short question that opens with a question word and names an agent asks about it.",
    examples=("who gets CSAT Pulse", "where does escalation-relay post"),
)
def asks_about_an_agent(r: Reading) -> Decision | None:
    if (
        r.opens_with_a_question_word
        and "AGENT" in r.concepts
        and not r.concepts & (CHANGE_CUES | {"V_CREATE", "ADJ_NEW", "V_ADD"})
        and r.n_units <= 8
    ):
        return a_question(r, 0.75, "asks a question about an agent")
    return None


def _lets_an_agent(r: Reading) -> bool:
    """An agent is the one let do something: that changes the agent."""
    who = next((u for u in r.parsed.units[1:3] if u.canon not in STOPWORDS), None)
    return who is not None and not {"AGENT", "N_AGENT"}.isdisjoint(who.concepts)


@rule(
    "Letting a person see or use something is who may do what: administration.",
    examples=(
        "Let Priya see the financial-analyzer results",
        "allow the marketing team to use my agents",
    ),
    unlike=("let the financial analyzer use it",),
)
def lets_someone_see_or_use(r: Reading) -> Decision | None:
    if (
        _LET_SOMEONE_RE.match(r.norm)
        and not r.concepts & {"V_RUN", "V_CREATE"}
        and not _lets_an_agent(r)
    ):
        return Decision(
            ActionType.MANAGE_PLATFORM,
            0.7,
            "lets someone see or use something",
            alternative=ActionType.UPDATE_AGENT if "AGENT" in r.concepts else None,
        )
    return None


@rule(
    "A message that opens with 'why' asks why, unless it suggests something ('why not').",
    examples=("y is the jira alert emtpy today", "why did it take so long?"),
    unlike=("why not just run it?", "why don't you set one up"),
)
def asks_why(r: Reading) -> Decision | None:
    if (
        "Q_WHY" in r.first_concepts
        and not _WHY_NOT_RE.match(r.norm)
        and r.n_units <= 15
        and r.concepts.isdisjoint({"V_CREATE", "N_SKILL"})
    ):
        return a_question(r, 0.75, "asks why")
    return None


@rule(
    "What every new agent has to be told again belongs in a skill.",
    examples=("Every time I build an agent I have to re-explain how to talk to our inventory API",),
)
def what_every_agent_must_be_told(r: Reading) -> Decision | None:
    if "agent" in r.norm and _EXPLAIN_AGAIN_RE.search(r.norm):
        return Decision(
            ActionType.CREATE_SKILL, 0.75, "what every agent must be told again is a skill"
        )
    return None


@rule(
    "Things that wait unseen for days, again and again, are a miss for an agent to watch.",
    examples=("Linear issues tagged customer-blocker sit for a week before engineering sees them",),
)
def things_wait_unseen(r: Reading) -> Decision | None:
    if "before" in r.norm and "AGENT" not in r.concepts and _SITS_UNSEEN_RE.search(r.norm):
        return Decision(ActionType.CREATE_AGENT, 0.7, "things wait unseen, again and again")
    return None


@rule(
    "A result needed soon that is not there yet asks for a run now.",
    examples=("The board meeting is in an hour and I still don't have the financial analysis",),
)
def needs_a_result_now(r: Reading) -> Decision | None:
    if (
        ("AGENT" in r.concepts or "N_REPORT" in r.concepts)
        and r.concepts.isdisjoint({"RECUR", "V_CHANGE", "N_SKILL"})
        and _NOT_YET_RE.search(r.norm)
        and _NEEDED_SOON_RE.search(r.norm)
    ):
        return Decision(ActionType.EXECUTE_TASK, 0.7, "needs a result now that is not there")
    return None


def _only_an_agent(r: Reading, *, by_tool: str | None = None) -> bool:
    """Nothing but an agent's name or nickname, or (``by_tool``: the one agent its tool
    names) the tool's report."""
    concepts = r.concepts
    if by_tool is not None:
        concepts = concepts - {"SRC"} | {"AGENT"}
    return (
        "AGENT" in concepts
        and concepts <= _NOTHING_ASKED
        and r.n_units <= 5
        and not r.asks
        # A word the lexicon does not know may be the verb.
        and all(u.concepts or u.canon in _FILLER_WORDS for u in r.parsed.units)
    )


@once_per_reading
def _names_only_an_agent(r: Reading) -> bool:
    return _only_an_agent(r) or _only_an_agent(r, by_tool=r.agent_by_source)


@rule(
    "An agent named alone with 'again' or 'same' is a run of it.",
    examples=("the notion thing again", "the jira monitor again"),
)
def names_an_agent_to_run_again(r: Reading) -> Decision | None:
    if {"T_AGAIN", "ADJ_SAME"} & r.concepts and _names_only_an_agent(r):
        return Decision(ActionType.EXECUTE_TASK, 0.75, "names an agent to run again")
    return None


@rule(
    "An agent named and nothing asked of it is shown, with a run as the other reading.",
    examples=("jira monitor", "the money one", "the jira report"),
    unlike=("duplicate the notion reporter",),
)
def names_only_an_agent(r: Reading) -> Decision | None:
    if _names_only_an_agent(r):
        return Decision(
            ActionType.QUERY_INFO,
            0.6,
            "names an agent and nothing to do with it",
            alternative=ActionType.EXECUTE_TASK,
            ambiguous=True,
        )
    return None
