"""Rules that read a message on its own: what it asks, whatever came before it."""

from __future__ import annotations

from itertools import product

from intents.offline.context import CHANGE_CUES
from intents.offline.lexicon import STOPWORDS, words
from intents.offline.rules.engine import rule
from intents.offline.rules.guards import ASKS_FOR_SOMETHING
from intents.offline.rules.reading import (
    A_NEW_ONE,
    AGENTISH,
    ANY_WORD,
    QUESTION_WORDS,
    Decision,
    Reading,
    a_question,
    cues,
    once_per_reading,
)
from intents.types import ActionType


def _each(*parts: tuple[str, ...]) -> str:
    """One cue a line for each way of taking one of every part's alternatives, in order."""
    return "\n".join(" ".join(p) for p in product(*parts))


# Something it should have done that it did not: run, send, post, arrive, fire, show up, work.
_NOT = ("didnt|hasnt|havent|wasnt|isnt|never even?", "did|has|have|was|is not even?")
_DONE = (
    "run|ran|send|post|posted|arrive|arrived|fire|fired|come|came|work|worked|trigger|triggered",
    "=sent",
    "show|shown|showed up",
    "go|gone out",
)
DID_NOT = cues(
    _each(_NOT, _DONE)
    # Something looks wrong with what it did: silent, a number that cannot be right.
    + f"""
    was|went|been|is weirdly|strangely|completely|totally? silent
    was|went|been|is weirdly|strangely|completely|totally? =quiet
    cant|cannot|couldnt be right
    can not be right
    nobody got {ANY_WORD}
    doesnt look|seem right
    """
)
_WHAT_OF_IT = "the|how|why|what|where|which"
_CONFUSED = cues(
    f"""
    dont really|quite|fully? get|understand {_WHAT_OF_IT}
    do not really|quite|fully? get|understand {_WHAT_OF_IT}
    no clue|idea where|how|what|why to
    not sure how i|im|we|to
    no entiendo como|que
    no entiendo por que
    je ne sais jamais si|pourquoi|comment
    je ne comprends pas si|pourquoi|comment
    ich verstehe nicht warum|wie
    nao entendo como
    nao entendo por que
    """
)
# Whether agents in general (not one of them) can do something.
_IS_IT_POSSIBLE = cues(
    _each(
        (
            "^ is it possible",
            "^ is there a way",
            "^ es posible",
            "^ est ce possible",
            "^ ist es moglich",
            "^ e possivel",
        ),
        ("…4 an|un|ein|um agent", "…4 agents|agentes|agenten"),
    )
    + """
    ^ can|do|are an agent
    ^ can|do|are agents
    """
)
_WHY_NOT = cues(
    """
    ^ why|y|pourquoi|warum not|dont|no|pas|nicht
    ^ why|y|pourquoi|warum don t
    ^ por que not|dont|no|pas|nicht
    """
)
# Someone let see, use or edit something; the asker ("let me"), the agent or "it" is not.
_WHO_MAY = "see|view|use|access|edit|manage|read"
_LET_SOMEONE = cues(
    _each(
        ("^ please|pls? let|allow", "^ can|could you let|allow"),
        (f"{ANY_WORD} …6 {_WHO_MAY}", f"{ANY_WORD} …6 look at"),
    )
)
_LET_OURSELVES = cues(
    """
    ^ please|pls? let|allow me|us|it|them
    ^ please|pls? let|allow the agent
    ^ can|could you let|allow me|us|it|them
    ^ can|could you let|allow the agent
    """
)
# Each time an agent is built, the same thing has to be explained to it again.
_EXPLAIN_AGAIN = cues(
    _each(
        ("every|each time", "whenever"),
        ("…6 build|create|make", "…6 set up"),
        ("…4 agent|agents …8",),
        (
            "re explain",
            "reexplain",
            "explain it? all? over? again",
            "teach it|them",
            "tell it|them again",
        ),
    )
)
# Things that sit for days before anyone sees them.
_SITS_UNSEEN = cues(
    _each(
        ("sit|sits|sitting|stay|stays|languish*|linger*", "pile|piles|piling up"),
        ("…8 for days|weeks|hours|ages", "…8 for a week|day|while"),
        (
            "…5 before anyone|anybody|someone|somebody|engineering|we|it",
            "…5 before the team",
        ),
    )
)
# Needed within the day: in an hour, this afternoon, before the meeting, asap.
_A_NUMBER = "0*|1*|2*|3*|4*|5*|6*|7*|8*|9*"  # a word written with digits
_NEEDED_SOON = cues(
    f"""
    in an|one|two|ten|{_A_NUMBER} hour|hours|minutes|mins
    in half an hour
    =this|tomorrow morning|afternoon
    =today|tonight|tomorrow
    at @NUM|@TIME
    before the|my meeting|call|standup
    =asap|eod
    right now
    end of day
    """
)
# Still not there: not received, no sign of it, missing.
_NOT_YET = cues(
    """
    still dont|havent have|got|seen|received
    still do|have not have|got|seen|received
    dont|havent got|gotten|seen|received it|the|this|that
    do|have not got|gotten|seen|received it|the|this|that
    no sign of
    hasnt|didnt come|arrive
    has|did not come|arrive
    hasnt|didnt show up
    has|did not show up
    missing
    no clue what
    """
)
# A tool connected or disconnected, asked for first.
_CONNECT_VERB = ("connect|disconnect|reconnect|unhook|link|unlink|integrate", "hook up")
CONNECT = cues(_each(("^ please|pls?", "^ can|could you", "^ i? need to"), _CONNECT_VERB))
# A tool set up and nothing more: "set up <tool> (account) (for us)".
_SET_UP_A_TOOL = cues(
    _each(
        ("^ please|pls?", "^ can|could you"),
        ("set up", "setup|install|enable|add"),
        ("our|the|my? …2 account|integration|workspace?",),
        ("$", "for us|me $", "for the team $"),
    )
)
ALSO = cues(
    """
    =too|also
    as well
    """
)
_SCOPE = cues(
    "=project|projects|workspace|workspaces|board|boards|team|teams|repo|repos|repository|"
    "repositories|channel|channels|database|databases|space|spaces|folder|folders|"
    "department|departments|region|regions"
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
        and not r.says(DID_NOT)
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
    if r.says(_SET_UP_A_TOOL) and {"SRC", "CHAT"} & r.concepts:
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
        r.says(ALSO)
        and r.says(_SCOPE)
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
        r.says(DID_NOT)
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
        and r.says(_CONFUSED)
        and not r.says(ASKS_FOR_SOMETHING)
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
    if r.says(_IS_IT_POSSIBLE):
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
        r.says(_LET_SOMEONE)
        and not r.says(_LET_OURSELVES)
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
        and not r.says(_WHY_NOT)
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
    if "agent" in r.norm and r.says(_EXPLAIN_AGAIN):
        return Decision(
            ActionType.CREATE_SKILL, 0.75, "what every agent must be told again is a skill"
        )
    return None


@rule(
    "Things that wait unseen for days, again and again, are a miss for an agent to watch.",
    examples=("Linear issues tagged customer-blocker sit for a week before engineering sees them",),
)
def things_wait_unseen(r: Reading) -> Decision | None:
    if "before" in r.norm and "AGENT" not in r.concepts and r.says(_SITS_UNSEEN):
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
        and r.says(_NOT_YET)
        and r.says(_NEEDED_SOON)
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
