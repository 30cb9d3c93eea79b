"""The offline intent classifier: no network, no model download, deterministic.

A synonym lexicon (five languages) maps words to canonical words and concepts; a logistic
regression trained from ``intents/data/training.jsonl`` on first use scores the seven actions;
the previous assistant turn's metadata resolves follow-ups ("yes", "the second one", "again").
See docs/intents-offline.md.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import math
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from intents.clarify import clarifying_question_for
from intents.offline.context import (
    ANSWER_KEYS,
    CHANGE_CUES,
    INFO_CUES,
    RUN_CUES,
    Context,
    concepts_of,
    denial_rest_is_empty,
    is_affirmation,
    is_cancel,
    is_denial,
    is_recap,
    read_context,
    selection,
)
from intents.offline.entities import entities_from
from intents.offline.guard import drop_retracted, strip_meta
from intents.offline.lexicon import AGENT_WORD, STOPWORDS, words
from intents.offline.model import LABELS, Engine, engine, features
from intents.offline.prose import names_an_action, read_prose
from intents.offline.text import AgentKeys, Parsed, agent_keys, normalize, parse
from intents.types import (
    CLARIFY_BELOW,
    ActionType,
    AgentRef,
    HistoryTurn,
    IntentResult,
    Method,
)

logger = logging.getLogger(__name__)

# Below this gap between the two best probabilities the result is flagged ambiguous.
AMBIGUITY_MARGIN = 0.25
# Logistic regression trained to separate its training set is over-sure on new phrasings;
# dividing the logits spreads the probabilities (chosen on docs/intents-offline.md's table).
TEMPERATURE = 1.5
_INDEX = {label: i for i, label in enumerate(LABELS)}
_AGENT_ACTIONS = (ActionType.EXECUTE_TASK, ActionType.UPDATE_AGENT, ActionType.QUERY_INFO)


@dataclass
class _Decision:
    action: ActionType
    confidence: float
    reasoning: str
    alternative: ActionType | None = None
    entities: dict[str, str] = field(default_factory=dict)
    ambiguous: bool = False


def classify_offline(
    message: str,
    *,
    history: Sequence[HistoryTurn] = (),
    agents: Sequence[AgentRef] = (),
    wizard: Mapping[str, Any] | None = None,
) -> IntentResult:
    """Classify one user message with the offline tier; never raises.

    ``wizard`` is the caller's open wizard (``{}`` when none is open); when it is not given,
    one is read from the history's metadata (datasets that carry it).
    """
    start = time.perf_counter()
    try:
        return _classify(message, history, agents, wizard, start)
    except Exception:
        # A chat turn must get an answer even if a bug lurks here; the log says where.
        logger.exception("offline intent classifier failed")
        return IntentResult(
            action_type=ActionType.UNKNOWN,
            confidence=0.0,
            reasoning="offline classifier error",
            clarifying_question=clarifying_question_for(ActionType.UNKNOWN),
            method=Method.OFFLINE,
            latency_ms=round((time.perf_counter() - start) * 1000.0, 4),
        )


@functools.lru_cache(maxsize=256)
def _agent_keys(names: tuple[str, ...]) -> AgentKeys:
    return agent_keys(names)


def _names(agents: Sequence[AgentRef], ctx: Context) -> tuple[str, ...]:
    names: list[str] = []
    for agent in agents:
        name = getattr(agent, "name", None)
        if isinstance(name, str) and name.strip() and name not in names:
            names.append(name)
    for name in (*ctx.listed_agents, ctx.last_agent, ctx.last_run):
        if name and name not in names:
            names.append(name)
    return tuple(names)


def _softmax(logits: Sequence[float]) -> list[float]:
    top = max(logits)
    exps = [math.exp(v - top) for v in logits]
    total = sum(exps)
    return [e / total for e in exps]


def _classify(
    message: str,
    history: Sequence[HistoryTurn],
    agents: Sequence[AgentRef],
    wizard: Mapping[str, Any] | None,
    start: float,
) -> IntentResult:
    text = message if isinstance(message, str) else ""
    cleaned, injected = strip_meta(normalize(text))
    cleaned = drop_retracted(cleaned)
    eng = engine()
    if not isinstance(history, (list, tuple)):
        history = (
            list(history) if isinstance(history, Sequence) and not isinstance(history, str) else []
        )
    ctx = read_context(history, wizard=wizard)
    if ctx.has_history and not ctx.informed:
        ctx = _with_prose(ctx, history, _names(agents, ctx), wizard)
    names = _names(agents, ctx)
    parsed = parse(cleaned, eng.analyzer, _agent_keys(names), normalized=True)
    entities = entities_from(parsed)
    if not parsed.units or (injected and not parsed.concepts):
        if injected:
            meta_only = _Decision(
                ActionType.UNKNOWN, 0.85, "only instructions aimed at the classifier"
            )
            return _finish(meta_only, entities, start)
        return _finish(_Decision(ActionType.UNKNOWN, 0.4, "nothing to classify"), entities, start)
    feats = features(parsed)
    if injected:
        feats.append("x:injection")
    logits = eng.model.logits(feats)
    if len(parsed.units) >= _LONG_UNITS:
        if _JUST_SHARING_RE.search(cleaned) and not _ASKS_FOR_SOMETHING_RE.search(cleaned):
            # "Just venting a bit: this week has been chaos. …", "Fun update from our side: …":
            # a long message that shares and asks for nothing.
            return _finish(
                _Decision(ActionType.UNKNOWN, 0.7, "shares news and asks for nothing"),
                entities,
                start,
            )
        _weigh_the_request(cleaned, eng, names, logits)
        create, update = _INDEX[ActionType.CREATE_AGENT], _INDEX[ActionType.UPDATE_AGENT]
        if (
            "AGENT" in parsed.concepts
            and logits[create] == max(logits)
            and parsed.concepts.isdisjoint({"ADJ_NEW", "N_SKILL"})
            and not _ANOTHER_ONE_RE.search(cleaned)
        ):
            # A long account of what one of the user's agents does wrong ("I set up the notion
            # reporter a while back … it lumps everything together"): a change to it.
            logits[update] = logits[create] + 0.5
    # "the notion reporter for last week": a run for that period, not a new setting.
    run_for_period = _a_run_for_a_period(parsed, entities)
    if run_for_period:
        logits[_INDEX[ActionType.EXECUTE_TASK]] += 2.5
    if _names_what_an_agent_makes(parsed, entities, names):
        # "Stop the daily Jira emails", "the weekly Notion thing": what an existing agent
        # sends, named by its tool; a change to it, not a new agent.
        create, update = _INDEX[ActionType.CREATE_AGENT], _INDEX[ActionType.UPDATE_AGENT]
        if logits[create] == max(logits):
            logits[update] = logits[create] + 0.5
    decision = _follow_up(parsed, ctx, logits, entities)
    if (
        decision is None
        and run_for_period
        and "AGENT" in parsed.concepts
        and not parsed.concepts & _A_NEW_ONE
    ):
        decision = _Decision(ActionType.EXECUTE_TASK, 0.8, "runs the agent named for that period")
    if decision is None and ctx.last_agent and _RUN_IT_RE.search(parsed.norm):
        # "ah right, forgot about that one. just run it now then": the agent just named, run.
        logits[_INDEX[ActionType.EXECUTE_TASK]] += 1.5
    if decision is None and _CONNECT_RE.match(parsed.norm):
        # "connect Airtable so the finance bot can read from it", "disconect zendesk": the
        # workspace's connected accounts, whatever they are for.
        logits[_INDEX[ActionType.MANAGE_PLATFORM]] += 3.0
    if (
        decision is None
        and _SET_UP_A_TOOL_RE.match(parsed.norm)
        and {"SRC", "CHAT"} & parsed.concepts
    ):
        # "Set up Slack for us.", "set up Zendesk": connect the tool.
        decision = _Decision(
            ActionType.MANAGE_PLATFORM,
            0.65,
            "sets up a tool and nothing more",
            alternative=ActionType.CREATE_SKILL,
            ambiguous=True,
        )
    if (
        decision is None
        and _ALSO_RE.search(parsed.norm)
        and _SCOPE_RE.search(parsed.norm)
        and ("AGENT" in parsed.concepts or _agent_by_source(entities, names))
        and not parsed.concepts & ({"ADJ_NEW", "N_SKILL"} | _QUESTION_WORDS)
        and len(parsed.units) <= 14
    ):
        # "Can you do the jira check for the MOBILE project too?": the agent covers more.
        decision = _Decision(
            ActionType.UPDATE_AGENT,
            0.7,
            "extends an existing agent to more",
            alternative=ActionType.CREATE_AGENT,
            ambiguous=True,
        )
    if (
        decision is None
        and _DID_NOT_RE.search(parsed.norm)
        and ("AGENT" in parsed.concepts or _agent_by_source(entities, names))
        and not parsed.concepts & CHANGE_CUES
    ):
        # "notion reporter didnt run??", "the jira monitor hasn't sent anything since Tuesday"
        decision = _Decision(
            ActionType.QUERY_INFO,
            0.7,
            "asks why an agent did not do its job",
            alternative=ActionType.EXECUTE_TASK,
        )
    if (
        decision is None
        and parsed.concepts.isdisjoint({"RECUR", "V_RUN"})
        and _CONFUSED_RE.search(parsed.norm)
        and not _ASKS_FOR_SOMETHING_RE.search(parsed.norm.replace("?", ""))
    ):
        # "Not sure how I'm supposed to hand a file to an agent.": a question, said as one's
        # confusion.
        decision = _a_question(logits, 0.7, "says what they do not understand")
    if decision is None and _IS_IT_POSSIBLE_RE.match(parsed.norm):
        # "Is it possible for an agent to reply inside Slack threads …?": what agents can do.
        decision = _a_question(logits, 0.7, "asks what agents can do")
    if (
        decision is None
        and not _QUESTION_WORDS.isdisjoint(parsed.units[0].concepts)
        and "AGENT" in parsed.concepts
        and not parsed.concepts & (CHANGE_CUES | {"V_CREATE", "ADJ_NEW", "V_ADD"})
        and len(parsed.units) <= 8
    ):
        # "who gets CSAT Pulse", "where does escalation-relay post": a question about an
        # agent, asked by its first word.
        decision = _a_question(logits, 0.75, "asks a question about an agent")
    if (
        decision is None
        and _LET_SOMEONE_RE.match(parsed.norm)
        and not parsed.concepts & {"V_RUN", "V_CREATE"}
        # "let the financial analyzer use it": an agent given something is a change to it.
        and not _lets_an_agent(parsed)
    ):
        # "Let Priya see the financial-analyzer results", "allow the marketing team to use my
        # agents": who may do what, administration.
        decision = _Decision(
            ActionType.MANAGE_PLATFORM,
            0.7,
            "lets someone see or use something",
            alternative=ActionType.UPDATE_AGENT if "AGENT" in parsed.concepts else None,
        )
    if (
        decision is None
        and "Q_WHY" in parsed.units[0].concepts
        and not _WHY_NOT_RE.match(parsed.norm)
        and len(parsed.units) <= 15
        and parsed.concepts.isdisjoint({"V_CREATE", "N_SKILL"})
    ):
        # "y is the jira alert emtpy today", "why did it take so long?": asks why.
        decision = _a_question(logits, 0.75, "asks why")
    if decision is None and "agent" in parsed.norm and _EXPLAIN_AGAIN_RE.search(parsed.norm):
        # "Every time I build an agent I have to re-explain how to talk to our inventory
        # API": something every agent should know, a skill.
        decision = _Decision(
            ActionType.CREATE_SKILL, 0.75, "what every agent must be told again is a skill"
        )
    if (
        decision is None
        and "before" in parsed.norm
        and "AGENT" not in parsed.concepts
        and _SITS_UNSEEN_RE.search(parsed.norm)
    ):
        # "Linear issues tagged customer-blocker sit for a week before engineering sees them":
        # a recurring miss, for an agent to watch.
        decision = _Decision(ActionType.CREATE_AGENT, 0.7, "things wait unseen, again and again")
    if (
        decision is None
        and ("AGENT" in parsed.concepts or "N_REPORT" in parsed.concepts)
        and parsed.concepts.isdisjoint({"RECUR", "V_CHANGE", "N_SKILL"})
        and _NOT_YET_RE.search(parsed.norm)
        and _NEEDED_SOON_RE.search(parsed.norm)
    ):
        # "The board meeting is in an hour and I still don't have the financial analysis":
        # needed now, so run it.
        decision = _Decision(ActionType.EXECUTE_TASK, 0.7, "needs a result now that is not there")
    if (
        decision is None
        and len(parsed.units) <= 10
        and parsed.concepts.isdisjoint({"AGENT", "N_AGENT", "N_REPORT", "V_RUN", "V_CHANGE"})
        and _JUST_A_GRUMBLE_RE.match(parsed.norm)
    ):
        # "Ugh, Jira itself is so slow today", "this meeting could have been an email": a
        # grumble, nothing to act on.
        decision = _Decision(ActionType.UNKNOWN, 0.6, "a complaint with nothing to act on")
    if (
        decision is None
        and _REMIND_ME_ONCE_RE.match(parsed.norm)
        and not parsed.concepts & {"SRC", "AGENT", "RECUR"}
    ):
        # "Can you remind me to call my mom tonight?": a personal errand, once.
        decision = _Decision(
            ActionType.UNKNOWN,
            0.6,
            "a personal reminder, once",
            alternative=ActionType.CREATE_AGENT,
        )
    if (
        decision is None
        and _PAUSE_RESUME_RE.search(parsed.norm)
        and parsed.concepts.isdisjoint(_PLATFORM_CUES)
    ):
        # "pausa el primero", "resume the third one again": only agents pause and resume
        # (a subscription paused names billing).
        logits[_INDEX[ActionType.UPDATE_AGENT]] += 2.0
    if decision is None and _HOW_DO_I_RE.match(parsed.norm):
        # "how do I get the notion one to post on Fridays": asks how, whatever it is about.
        logits[_INDEX[ActionType.QUERY_INFO]] += 3.0
    if decision is None and (
        _only_an_agent(parsed) or _only_an_agent(parsed, by_tool=_agent_by_source(entities, names))
    ):
        # "jira monitor", "the money one": an agent named and nothing asked of it. Show it, and
        # say a run is the other reading ("again" makes it a run).
        if {"T_AGAIN", "ADJ_SAME"} & parsed.concepts:
            decision = _Decision(ActionType.EXECUTE_TASK, 0.75, "names an agent to run again")
        else:
            decision = _Decision(
                ActionType.QUERY_INFO,
                0.6,
                "names an agent and nothing to do with it",
                alternative=ActionType.EXECUTE_TASK,
                ambiguous=True,
            )
    if decision is None:
        decision = _from_model(eng, parsed.concepts, logits, injected)
    if decision.action in _AGENT_ACTIONS and "agent" not in entities:
        agent = _context_agent(parsed, ctx) or _agent_by_source(entities, names)
        if agent:
            entities["agent"] = agent
    return _finish(decision, entities, start)


@functools.lru_cache(maxsize=1024)
def _judge(text: str) -> tuple[ActionType, float]:
    """The model's action for a sentence on its own (a listed option, a proposal)."""
    eng = engine()
    cleaned, _ = strip_meta(normalize(text))
    parsed = parse(cleaned, eng.analyzer, normalized=True)
    if not parsed.units:
        return ActionType.UNKNOWN, 0.0
    probs = _softmax([v / TEMPERATURE for v in eng.model.logits(features(parsed))])
    top = max(range(len(probs)), key=probs.__getitem__)
    return LABELS[top], probs[top]


def _with_prose(
    ctx: Context,
    history: Sequence[HistoryTurn],
    names: Sequence[str],
    wizard: Mapping[str, Any] | None,
) -> Context:
    """The context a history of text alone gives (no metadata on the last assistant turn)."""
    turns = [t for t in history if isinstance(t, Mapping)]
    prose = read_prose(turns, names, _judge)
    offer_entities: dict[str, str] = {}
    if prose.offer is not None and prose.offer_text:
        offer_entities = entities_from(parse(prose.offer_text, engine().analyzer))
    return dataclasses.replace(
        ctx,
        prev_intent=ctx.prev_intent or prose.prev_intent,
        offer=prose.offer,
        offer_entities=offer_entities,
        options=prose.options,
        alternatives=prose.alternatives,
        listed_agents=prose.listed_agents,
        # The caller's own word on the wizard ({} is "none open") outranks the text.
        wizard=ctx.wizard if wizard is not None else prose.wizard,
        wizard_asking=ctx.wizard_asking if wizard is not None else prose.asking,
        last_agent=prose.last_agent or ctx.last_agent,
        last_run=prose.last_run or ctx.last_run,
        answering=prose.answering,
        about_skills=prose.about_skills,
        about_platform=prose.about_platform,
        needs_access=prose.needs_access,
    )


def _agent_by_source(entities: Mapping[str, str], names: Sequence[str]) -> str | None:
    """The one agent whose name contains the named source ("the notion summary")."""
    source = entities.get("source", "").split(",")[0]
    if not source:
        return None
    key = source.replace("_", "")
    hits = [n for n in names if key in n.casefold().replace("-", "").replace("_", "")]
    return hits[0] if len(hits) == 1 else None


def _context_agent(parsed: Parsed, ctx: Context) -> str | None:
    concepts = concepts_of(parsed)
    if "ORD" in concepts and selection(parsed, 9) is not None:
        return None  # "resume the third one again": a list position, not the agent just named
    if {"T_AGAIN", "ADJ_SAME"} & concepts and (ctx.last_run or ctx.last_agent):
        return ctx.last_run or ctx.last_agent
    if "PRON_IT" in concepts and ctx.last_agent:
        return ctx.last_agent
    return None


def _follow_up(
    parsed: Parsed, ctx: Context, logits: list[float], entities: dict[str, str]
) -> _Decision | None:
    """Decide from the previous assistant turn's metadata, or bias ``logits`` in place."""
    if not ctx.has_history:
        return None
    concepts = concepts_of(parsed)
    n_units = len(parsed.units)
    has_agent = any(u.canon == AGENT_WORD for u in parsed.units)
    # "does it also catch tickets with no due date?": a question without a question word.
    yes_no = bool(_YES_NO_QUESTION_RE.match(parsed.norm))

    if ctx.wizard is not None:
        if is_cancel(parsed) and not concepts & _PLATFORM_CUES:
            return _Decision(ActionType.UNKNOWN, 0.8, "cancels the open wizard")
        if is_recap(parsed):
            # The wizard's own recap answers this; query_info would drop the open wizard.
            return _Decision(ctx.wizard, 0.8, "asks where the open wizard stands")
    elif is_recap(parsed):
        # "ok i'm back, where were we?" once the setup's question scrolled out of view.
        return _Decision(ActionType.QUERY_INFO, 0.7, "asks where the conversation stands")

    if ctx.offer is not None:
        offer = ctx.offer
        if offer != ActionType.EXECUTE_TASK and "V_RUN" in concepts and is_affirmation(parsed):
            # "Want me to adjust anything?" — "ok run it": a run instead of what was offered.
            return _Decision(ActionType.EXECUTE_TASK, 0.8, "asks for a run instead of the offer")
        if is_affirmation(parsed):
            return _Decision(
                offer, 0.92, f"agrees to the offer to {offer}", entities=dict(ctx.offer_entities)
            )
        if is_denial(parsed):
            if denial_rest_is_empty(parsed):
                return _Decision(ActionType.UNKNOWN, 0.85, f"declines the offer to {offer}")
            logits[_INDEX[offer]] -= 3.0
        elif is_cancel(parsed) and not concepts & _PLATFORM_CUES:
            # "lol ok never mind then": the offer, turned down.
            return _Decision(ActionType.UNKNOWN, 0.8, f"declines the offer to {offer}")
        elif (
            parsed.units[0].concepts and "YES" in parsed.units[0].concepts and not has_agent
        ) or _THEN_DO_IT_RE.search(parsed.norm):
            # "yes but make it daily": the offer, with a change to what was offered.
            return _Decision(
                offer,
                0.85,
                f"agrees to the offer to {offer} with changes",
                entities=dict(ctx.offer_entities),
            )
        elif (concepts & (CHANGE_CUES | {"SRC", "CHAT", "TIMEUNIT", "TIME"})) and not has_agent:
            # "make it weekly instead" while an offer is pending reshapes the offer itself.
            logits[_INDEX[offer]] += 2.5

    if (ctx.options or ctx.alternatives) and _NONE_OF_THEM_RE.match(parsed.norm):
        rest = _NONE_OF_THEM_RE.sub("", parsed.norm).strip(" ,.;!-")
        if not rest or _LEAVE_THEM_RE.fullmatch(rest):
            return _Decision(ActionType.UNKNOWN, 0.8, "none of the options offered")
        # "neither, just tell me when it last ran": the rest is the request.
        return None

    if ctx.options:
        picked = selection(parsed, len(ctx.options))
        if picked is None and is_affirmation(parsed) and len(ctx.options) == 1:
            picked = 0
        if picked is not None:
            wanted = picked + 1
            chosen = next((o for o in ctx.options if o[0] == wanted), ctx.options[picked])
            own = _own_verb(concepts)
            if own is not None and _an_item(chosen):
                # "Re-run the failed one" over a list of runs: the item, and the message's verb.
                return _Decision(own, 0.8, f"{own} for option {chosen[0]} ({chosen[2]})")
            if chosen[1] != ActionType.UNKNOWN or n_units <= 3:
                return _Decision(
                    chosen[1], 0.9, f"picks option {chosen[0]} ({chosen[2] or chosen[1]})"
                )
            # "3 — I'd actually just like to know what you can do": the rest says what.
        by_label = _option_by_label(parsed, ctx) if n_units <= 10 else None
        if by_label is None and n_units <= 4 and entities.get("source"):
            # "dropbox" for "2. Dropbox": the one option that names the tool.
            tools = [t.replace("_", " ") for t in entities["source"].split(",")]
            with_tool = [
                option
                for option in ctx.options
                if any(re.search(rf"\b{re.escape(t)}\b", normalize(option[2])) for t in tools)
            ]
            by_label = with_tool[0] if len(with_tool) == 1 else None
        if by_label is None and n_units <= 6:
            # "a new one" when only one option says "new".
            side = _side_named(parsed, [(action, label) for _, action, label in ctx.options])
            by_label = next((o for o in ctx.options if side and o[2] == side[1]), None)
        if by_label is not None:
            own = _own_verb(concepts)
            if own is not None and _an_item(by_label):
                return _Decision(own, 0.8, f"{own} for option {by_label[0]} ({by_label[2]})")
            return _Decision(by_label[1], 0.8, f"names option {by_label[0]} ({by_label[2]})")
        if n_units <= 10:
            for _, action, _ in ctx.options:
                logits[_INDEX[action]] += 1.0

    if ctx.alternatives and not ctx.options and n_units <= 8:
        side = _side_named(parsed, ctx.alternatives)
        picked = selection(parsed, len(ctx.alternatives)) if side is None else None
        side = ctx.alternatives[picked] if picked is not None else side
        if side is not None:
            return _Decision(side[0], 0.8, f"takes one side of the question ({side[1]})")
        if _WHATEVER_RE.match(parsed.norm):
            # "whatever works", "up to you": the first way the assistant put forward.
            first = ctx.alternatives[0]
            return _Decision(
                first[0], 0.7, f"leaves the choice to the assistant ({first[1]})", ambiguous=True
            )
        shared = {action for action, _ in ctx.alternatives}
        if len(shared) == 1 and n_units <= 3 and not is_denial(parsed) and not is_cancel(parsed):
            # "both", "all of them", "whichever": both sides are the same action.
            action = shared.pop()
            return _Decision(action, 0.75, f"answers a question between two ways to {action}")

    if ctx.listed_agents:
        picked = selection(parsed, len(ctx.listed_agents))
        if picked is None and n_units <= 6:
            picked = _listed_by_word(parsed, ctx.listed_agents)
        if picked is not None:
            name = ctx.listed_agents[picked]
            entities["agent"] = name
            if concepts & CHANGE_CUES or "schedule" in entities:
                return _Decision(ActionType.UPDATE_AGENT, 0.88, f"changes listed agent {name}")
            if concepts & RUN_CUES:
                return _Decision(ActionType.EXECUTE_TASK, 0.9, f"runs listed agent {name}")
            if concepts & INFO_CUES:
                return _Decision(ActionType.QUERY_INFO, 0.85, f"asks about listed agent {name}")
            if ctx.prev_intent in (ActionType.EXECUTE_TASK, ActionType.UPDATE_AGENT):
                return _Decision(ctx.prev_intent, 0.8, f"picks {name} for the pending action")
            probs = _softmax(logits)
            top = max(range(len(probs)), key=probs.__getitem__)
            if n_units >= 4 and probs[top] >= 0.45 and LABELS[top] in _AGENT_ACTIONS:
                # "the last one should go to the CFO as well": the rest says what to do.
                return _Decision(LABELS[top], 0.7, f"{LABELS[top]} for listed agent {name}")
            if ctx.prev_intent == ActionType.QUERY_INFO and not ctx.informed:
                # A list the text offered for details ("Which one would you like to see?").
                return _Decision(
                    ActionType.QUERY_INFO,
                    0.6,
                    f"picks listed agent {name} from a list shown for information",
                    alternative=ActionType.EXECUTE_TASK,
                    ambiguous=True,
                )
            return _Decision(
                ActionType.EXECUTE_TASK,
                0.6,
                f"picks listed agent {name}, verb unclear",
                alternative=ActionType.QUERY_INFO,
                ambiguous=True,
            )

    if ctx.wizard is not None:
        probs = _softmax(logits)
        top = max(range(len(probs)), key=probs.__getitem__)
        answered = ANSWER_KEYS & entities.keys()
        naming = "name" in ctx.wizard_asking and len(parsed.tokens) <= 4
        # A question of its own ("quick question: how do tokens work?") is not an answer.
        asks = bool(concepts & _QUESTION_WORDS) and "?" in parsed.norm
        # Without a verb, a phrase ("revenue by region and the top 5 deals") is an answer; so
        # is a list ("Account name, ARR and renewal date"), whatever its nouns look like.
        acts = any(c.startswith("V_") for c in concepts) and not _A_LIST_RE.match(parsed.norm)
        # "watch the 'Q3 Launch' project for …" tells an agent wizard what to watch.
        watches = ctx.wizard == ActionType.CREATE_AGENT and "V_WATCH" in concepts and not asks
        # "Unrelated, but show me …": the writer says it is not an answer.
        aside = _UNRELATED_RE.match(parsed.norm) is not None
        switching = (
            not naming
            and not watches
            and (asks or acts)
            and LABELS[top] not in (ctx.wizard, ActionType.UNKNOWN)
            # A wizard only proposed (an offer waiting for a yes) asked nothing to answer.
            and probs[top] >= (0.5 if asks or aside or ctx.offer is not None else 0.85)
            and not answered
            and n_units >= 2
        )
        opens_with_question = bool(_QUESTION_WORDS.intersection(parsed.units[0].concepts)) or (
            _ASIDE_RE.match(parsed.norm) is not None
        )
        if "OOS" in concepts and LABELS[top] == ActionType.UNKNOWN and not answered and not naming:
            # "What's the weather in Berlin tomorrow?" on the way: small talk, not an answer.
            return _Decision(ActionType.UNKNOWN, 0.7, "small talk in the middle of a wizard")
        if asks and _YOUR_CALL_RE.search(parsed.norm):
            # "what would you recommend?": the wizard's question, handed back.
            return _Decision(ctx.wizard, 0.75, f"asks for a suggestion in the {ctx.wizard} wizard")
        if asks and opens_with_question and not answered and not naming and n_units >= 3:
            # "btw how do I get an API token?", "what time zone do you use by default?": a
            # question of its own, asked on the way.
            return _Decision(ActionType.QUERY_INFO, 0.7, "asks how something works mid-wizard")
        if not switching:
            confidence = 0.9 if answered else 0.78
            return _Decision(ctx.wizard, confidence, f"answers the open {ctx.wizard} wizard")

    if ctx.wizard is None and (ctx.last_agent or ctx.last_run):
        more = _MORE_OF_THE_SAME_RE.match(parsed.norm) or _NOW_THE_OTHER_RE.match(parsed.norm)
        # "und wann würde der laufen?": a question of its own after "and", not the same again.
        own_question = (
            more is not None
            and more.group(0).strip() in ("and", "y", "et", "und", "e")
            and bool(concepts & _QUESTION_WORDS)
            and "?" in parsed.norm
        )
        # "and cc me on its emails" after a description: a verb of its own, not the same again.
        # "Et lance-le maintenant." after a rename: a run, whatever came before.
        own_verb = (
            bool(concepts & {"V_RUN", "V_START"}) and ctx.prev_intent != ActionType.EXECUTE_TASK
        ) or (
            ctx.prev_intent == ActionType.QUERY_INFO and bool(concepts & (CHANGE_CUES | {"V_ADD"}))
        )
        if (
            more
            and not own_question
            and not own_verb
            and n_units <= 8
            and ctx.prev_intent
            in (
                ActionType.EXECUTE_TASK,
                ActionType.UPDATE_AGENT,
                ActionType.QUERY_INFO,
            )
        ):
            # "and the other one?", "what about the notion one?": the same again, elsewhere.
            return _Decision(ctx.prev_intent, 0.75, f"the same ({ctx.prev_intent}) for another")
        questions = concepts & _QUESTION_WORDS or yes_no
        # Spanish and Portuguese drop the pronoun: "¿y a qué hora se ejecuta?"
        # "what does the third one do?" points into a list instead.
        # "what time", "who gets it": a bare question word asks about it too.
        bare_question = n_units <= 2 and bool(concepts & _QUESTION_WORDS)
        about_it = (
            "PRON_IT" in concepts or "it" in parsed.tokens or "?" in parsed.norm or bare_question
        ) and not (concepts & (_SMALL_TALK | {"ORD"}))
        # "what's its schedule now?": a schedule asked about, not set.
        asked_first = (
            not _QUESTION_WORDS.isdisjoint(parsed.units[0].concepts) and "?" in parsed.norm
        )
        changes = concepts & CHANGE_CUES - ({"RECUR"} if asked_first else set())
        if (
            about_it
            and not _CAN_YOU_DO_RE.match(parsed.norm)
            and (concepts & _ASKS_ABOUT or yes_no)
            and not changes
            and (questions or not concepts & RUN_CUES)
            and not has_agent
        ):
            # "what does it do?", "how often does it run?" about the agent just talked about.
            entities.setdefault("agent", ctx.last_agent or ctx.last_run or "")
            return _Decision(ActionType.QUERY_INFO, 0.8, "asks about the agent just named")
        if (
            ANSWER_KEYS & entities.keys()
            and n_units <= 4
            and not concepts & (RUN_CUES | INFO_CUES | {"V_CREATE"})
            # "reconnect notion then": the workspace's connection, not a new source.
            and not _CONNECT_RE.match(parsed.norm)
        ):
            # A bare "weekly" right after an agent was talked about changes that agent.
            entities.setdefault("agent", ctx.last_agent or ctx.last_run or "")
            return _Decision(
                ActionType.UPDATE_AGENT, 0.72, "a new setting for the agent just named"
            )

    if (
        ctx.wizard is None
        and ctx.prev_intent is not None
        and "?" in parsed.norm
        and _MORE_OF_THE_SAME_RE.match(parsed.norm)
        and n_units <= 6
        and not any(c.startswith("V_") for c in concepts)
    ):
        if ctx.prev_intent == ActionType.CREATE_AGENT and "source" in entities:
            # "cool. what about Intercom?" right after a Zendesk watcher was created.
            return _Decision(
                ActionType.CREATE_AGENT, 0.7, "asks for the same agent on another tool"
            )
        # "and the enterprise one?" right after the Team plan's price: the same question.
        return _Decision(ActionType.QUERY_INFO, 0.7, "asks the same about another")

    if (
        ctx.last_agent
        and ctx.wizard is None
        and ctx.prev_intent in (ActionType.CREATE_AGENT, ActionType.UPDATE_AGENT)
        and n_units <= 10
        and _CORRECTION_RE.search(parsed.norm)
    ):
        # "moment, nicht freitag sondern donnerstag bitte" right after the agent was made.
        entities.setdefault("agent", ctx.last_agent)
        return _Decision(ActionType.UPDATE_AGENT, 0.75, "corrects the agent just made or changed")

    if (
        "PRON_IT" in concepts
        and ctx.last_agent
        and ctx.wizard is None
        and not has_agent
        and n_units <= 8
        and _COMPARATIVE_RE.search(parsed.norm)
    ):
        # "could we get it earlier?", "can you make it less technical?" about the agent named.
        entities.setdefault("agent", ctx.last_agent)
        return _Decision(ActionType.UPDATE_AGENT, 0.7, "asks for the agent just named to change")

    if _UNDO_RE.search(parsed.norm) and n_units <= 6:
        # "actually undo that" right after a change or a creation changes that agent back;
        # right after an administration step, it is one more.
        if ctx.prev_intent in (ActionType.UPDATE_AGENT, ActionType.CREATE_AGENT):
            return _Decision(ActionType.UPDATE_AGENT, 0.75, "undoes what was just done to an agent")
        if ctx.prev_intent == ActionType.MANAGE_PLATFORM:
            return _Decision(ActionType.MANAGE_PLATFORM, 0.75, "undoes an administration step")

    if (
        ctx.prev_intent is not None
        and ctx.prev_intent != ActionType.UNKNOWN
        and _SAME_FOR_RE.match(parsed.norm)
        and n_units <= 6
        and "RECUR" not in concepts
    ):
        # "same for Lucía" right after Priya got editor access: the same, for her.
        return _Decision(ctx.prev_intent, 0.72, f"the same ({ctx.prev_intent}) for another")

    if _SAME_KIND_RE.search(parsed.norm) and "source" in entities and ctx.wizard is None:
        # "can I get the same kind of thing for Linear?": a new agent like the one discussed.
        return _Decision(ActionType.CREATE_AGENT, 0.75, "asks for a new agent like the last one")

    if (
        ctx.about_platform
        and not has_agent
        and "?" not in parsed.norm
        and n_units <= 8
        and (
            concepts & (CHANGE_CUES | {"V_SEND", "N_BILLING"})
            or _SETTING_VERBS & set(parsed.tokens)
        )
        and LABELS[max(range(len(logits)), key=logits.__getitem__)] != ActionType.MANAGE_PLATFORM
    ):
        # "change it to America/Chicago" right after the workspace's time zone was named.
        return _Decision(ActionType.MANAGE_PLATFORM, 0.72, "changes the setting just talked about")

    if ctx.about_skills and _BUILD_ONE_RE.search(parsed.norm) and n_units <= 6:
        return _Decision(ActionType.CREATE_SKILL, 0.75, "asks to build the skill just talked about")

    if _EXAMPLES_RE.match(parsed.norm):
        return _Decision(ActionType.QUERY_INFO, 0.75, "asks for examples of what was just said")

    if (
        ("?" in parsed.norm or _QUESTION_WORDS.intersection(parsed.units[0].concepts))
        and (concepts & (_QUESTION_WORDS | {"Q_PAST"}) or yes_no)
        and not concepts & ({"OOS", "GREET", "THANKS"} | CHANGE_CUES | RUN_CUES)
        and n_units <= 8
        and (ctx.last_agent or ctx.prev_intent in (ActionType.QUERY_INFO, ActionType.EXECUTE_TASK))
        and _unsure_or_unknown(logits)
    ):
        # "why is opex up?" right after a run's result or an answer asks about that answer;
        # "who gets CSAT Pulse" names the agent it asks about.
        return _Decision(
            ActionType.QUERY_INFO, 0.75 if has_agent else 0.65, "a question about the answer"
        )

    again = {"T_AGAIN", "ADJ_SAME"} & concepts
    target = ctx.last_run or ctx.last_agent
    repeats = bool(concepts & {"V_RUN", "V_DO", "V_GENERATE"}) or n_units <= 5
    if (
        again
        and target
        and repeats
        and not concepts & {"V_CHANGE", "ADV_INSTEAD", "V_CREATE", "RECUR"}
    ):
        entities.setdefault("agent", target)
        return _Decision(ActionType.EXECUTE_TASK, 0.88, f"repeats the last run ({target})")

    if (
        ctx.answering is not None
        and "?" not in parsed.norm
        and not is_denial(parsed)
        and not is_cancel(parsed)
        and n_units <= 14
    ):
        # A plain answer to the open question the text asked goes on with what was asked for,
        # unless it is confidently a request of its own.
        probs = _softmax(logits)
        top = max(range(len(probs)), key=probs.__getitem__)
        if LABELS[top] in (ctx.answering, ActionType.UNKNOWN) or probs[top] < 0.9:
            return _Decision(ctx.answering, 0.7, f"answers the question asked for {ctx.answering}")
    if ctx.prev_intent is not None and ctx.prev_intent != ActionType.UNKNOWN:
        if is_affirmation(parsed) and ctx.offer is None:
            logits[_INDEX[ctx.prev_intent]] += 2.0
        elif n_units <= 6:
            logits[_INDEX[ctx.prev_intent]] += 0.3
    if ctx.needs_access and _FIX_IT_RE.match(parsed.norm):
        # "fix it" right after a run failed on an expired token: reconnect the account.
        return _Decision(
            ActionType.MANAGE_PLATFORM,
            0.7,
            "fixes the connection a run failed on",
            alternative=ActionType.EXECUTE_TASK,
        )

    if ctx.last_run and _TELL_THEM_RE.match(parsed.norm) and n_units <= 10 and not has_agent:
        # "ping the owners" right after a run's result: once now, or from now on.
        every = "RECUR" in concepts or _AUTOMATICALLY_RE.search(parsed.norm)
        return _Decision(
            ActionType.UPDATE_AGENT if every else ActionType.EXECUTE_TASK,
            0.7,
            "tells people about the result just given",
            alternative=ActionType.CREATE_AGENT if every else ActionType.UPDATE_AGENT,
        )

    if _KEEP_IT_CURRENT_RE.search(parsed.norm) and n_units <= 12 and ctx.wizard is None:
        # "can you keep that sheet up to date?" right after a one-off export: from now on.
        keeps = ActionType.UPDATE_AGENT if ctx.last_agent and not ctx.last_run else None
        return _Decision(
            keeps or ActionType.CREATE_AGENT,
            0.7,
            "wants what was just done kept current",
            alternative=ActionType.EXECUTE_TASK,
        )

    if (
        ctx.last_agent
        and ctx.wizard is None
        and not has_agent
        and n_units <= 10
        and (
            _ADD_TO_IT_RE.search(parsed.norm)
            or ("PRON_IT" in concepts and _ALSO_RE.search(parsed.norm) and "source" in entities)
        )
    ):
        # "Add the QA project to that.", "Can it also check Intercom?" about the agent named.
        entities.setdefault("agent", ctx.last_agent)
        return _Decision(
            ActionType.UPDATE_AGENT,
            0.72,
            "adds to what the agent just named covers",
            alternative=ActionType.CREATE_AGENT,
        )
    if "PRON_IT" in concepts and ctx.last_agent and not has_agent:
        if concepts & CHANGE_CUES:
            logits[_INDEX[ActionType.UPDATE_AGENT]] += 0.8
        elif concepts & RUN_CUES:
            logits[_INDEX[ActionType.EXECUTE_TASK]] += 0.8
    return None


# "change the time to 9 and then create it": the offer, with a change first.
_RUN_IT_RE = re.compile(
    r"(?:^|[.,;!] |\b(?:just|then|so|ok|okay) )(?:run|rerun|re-run|trigger|kick off) "
    r"(?:it|that one|that|this one)(?: now| again| once)?(?: then| instead| please)?\W*$"
)
_THEN_DO_IT_RE = re.compile(
    r"\b(?:and|then)\s+(?:then\s+)?(?:create|build|set up|make|run|send|do|start)\s+"
    r"(?:it|that|this|them)\b|\b(?:and|then)\s+go ahead\b"
)
# "none of those actually, leave them": nothing but the refusal.
_LEAVE_THEM_RE = re.compile(
    r"(?:(?:actually|thanks|thank you|for now|then|right now|all good|i'?m good|"
    r"(?:just )?(?:leave|keep) (?:them|it|those|everything)(?: as (?:they are|is))?)[\s,.!]*)+"
)
# "why not just run it?", "why don't you set one up": suggestions, not questions.
_WHY_NOT_RE = re.compile(r"^(?:why|y|por que|pourquoi|warum) (?:not|dont|don t|no|pas|nicht)\b")
# Long messages that only share: venting, news, thanks.
_JUST_SHARING_RE = re.compile(
    r"\b(?:just (?:need(?:ed)? to |wanted to )?vent\w*|venting|(?:i )?just wanted to (?:say|share)|"
    r"fun update|what a (?:week|day)|long day|get (?:that|this|it) off my chest|"
    r"rien de particulier [àa] demander|je voulais juste (?:dire|partager)|"
    r"solo quer[ií]a (?:decir|contar)|wollte (?:nur|blo[ßs]) (?:sagen|erz[äa]hlen)|"
    r"s[oó] queria (?:dizer|contar)|nothing to ask|no request)\b"
)
# What a request says, whatever it asks: a question, a polite ask, an imperative of ours.
_ASKS_FOR_SOMETHING_RE = re.compile(
    r"\?|\b(?:can|could|would|will) you\b|\bplease\b|\bpls\b|\bi'?d (?:like|love)\b|"
    r"\b(?:i|we) (?:want|need) (?:you|an?|the|to)\b|\bhelp me\b|\bset up\b|\bcreate\b|"
    r"\bbuild\b|\brun\b|\bpause\b|\binvite\b|\bremind me\b|\blet'?s\b|"
    r"\bpuedes\b|\bpodr[ií]as\b|\bpouvez-vous\b|\bpeux-tu\b|\bkannst du\b|"
    r"\bk[öo]nnten sie\b|\bpode\b|\bpor favor\b|\bs'?il (?:te|vous) pla[iî]t\b|\bbitte\b"
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
# "Ugh, Jira itself is so slow today", "Our Jira is a mess, honestly.", "this meeting could
# have been an email".
_JUST_A_GRUMBLE_RE = re.compile(
    r"^(?:ugh+|argh+|honestly|man|sigh|wow|god)?[,.!]? *(?:another |our |the |this |my )?"
    r"(?:[\w.-]+ ){0,3}?(?:(?:itself )?(?:is|are|was|feels?) (?:just |so |really |such |honestly |"
    r"always |super |incredibly )*(?:slow|a mess|terrible|awful|the worst|a nightmare|broken|"
    r"laggy|unusable|a terrible tool|a joke|garbage)|could have been an email|could'?ve been an "
    r"email|couldve been an email)\b(?!.*\b(?:because|since|so|but|without|and (?:we|i))\b)"
)
_ANOTHER_ONE_RE = re.compile(
    r"\b(?:another|a second|a separate|one more|a similar|something like|like the)\b"
)
_PAUSE_RESUME_RE = re.compile(
    r"\b(?:pause|paused|pausing|unpause|resume|pausa|pausar|pausiere|pausieren|reanuda|reanudar|"
    r"reprends|reprendre|retoma|retomar|fortsetzen|setz \w+ fort|suspend|suspende)\b"
)
_LET_SOMEONE_RE = re.compile(
    r"^(?:please |pls |can you |could you )?(?:let|allow)\s+(?!me\b|us\b|it\b|them\b|the agent)"
    r"[\w.@' -]{2,40}?\s+(?:to\s+)?(?:see|view|use|access|edit|manage|read|look at)\b"
)
_REMIND_ME_ONCE_RE = re.compile(
    r"^(?:hey |hi |please |pls |can you |could you |would you )*remind me to\s+"
    r"(?:call|phone|text|email|buy|pick up|book|pay|water|walk|feed|take|bring|send|get)\b"
    r"(?!.*\b(?:every|each|daily|weekly|whenever)\b)"
)
_NONE_OF_THEM_RE = re.compile(
    r"^(?:none(?: of (?:those|them|these|the above))?|neither(?: of (?:those|them|these))?|"
    r"ninguna?(?: de (?:esas|esos|ellas|ellos))?|aucune?(?: d entre elles)?|keine[rs]?(?: davon)?)"
    r"\b"
)
# "not Friday but Thursday", "9 not 8", "nicht freitag sondern donnerstag", "pas lundi mais mardi":
# a time, a day or a channel put right.
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
_MORE_OF_THE_SAME_RE = re.compile(
    r"^(?:(?:cool|nice|great|ok|okay|thanks|perfect|awesome)[.,!]? )?"
    r"(?:and|also|plus|what about|how about|same for|and what about|y|et|und|e|"
    r"y que hay de|et pour|und was ist mit)\b|\b(?:too|as well|also)\s*\??$"
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
_BUILD_ONE_RE = re.compile(r"\b(?:build|create|make|set up|write) (?:one|it|that)\b")
_UNDO_RE = re.compile(
    r"\b(?:undo|revert|roll (?:it |that )?back|put it back|change it back|set it back|"
    r"deshaz|deshacer|revierte|annule[rz]?|retabli[sr]|ruckgangig|rueckgaengig|desfaz|desfazer|"
    r"reverte)\b"
)
# "Account name, ARR and renewal date": values listed, no request.
_A_LIST_RE = re.compile(r"^[\w' -]{1,30}(?:, [\w' -]{1,30})+,? (?:and|or|y|o|et|ou|und|oder|e) ")
_YOUR_CALL_RE = re.compile(
    r"\b(?:what (?:would|do) you (?:recommend|suggest|normally do|usually do|do)|"
    r"what(?:s| is) (?:usual|normal|common|recommended|best)|any (?:suggestions?|ideas?)|"
    r"que (?:recomiendas|sugieres)|que (?:recommandes|conseilles|proposes)|"
    r"was (?:empfiehlst|schlaegst) du)\b"
)
_SETTING_VERBS = words("move upgrade downgrade enable disable turn switch set")
_ASIDE_RE = re.compile(r"^(?:btw|by the way|quick question|question|hmm|oh|wait|also)\b")
_YES_NO_QUESTION_RE = re.compile(
    r"^(?:and |but |so |ok |okay |hmm+,? |um+,? |uh+,? |oh,? |wait,? )?"
    r"(?:does|did|is|was|will|has|have|are|were|do)\s+"
    r"(?:it|that|this|they|those|these|the \w+)\b[^?]*\?\s*$"
)
_EXAMPLES_RE = re.compile(
    r"^(?:like what|such as|for (?:example|instance)|what else|e\.?g|examples?|"
    r"what kind of (?:things|stuff)|como que|como cuales|por ejemplo|par exemple|comme quoi|"
    r"zum beispiel|wie zum beispiel|was denn|por exemplo|tipo o que)\b[\s?.!]*$"
)
# "now the third one please" right after a run from the list: the same for that one.
_NOW_THE_OTHER_RE = re.compile(r"^(?:now|next|then)\s+(?:the|that)\s+(?:\w+\s+)?one\b")
_CONNECT_RE = re.compile(
    r"^(?:please |pls |can you |could you |(?:i )?need to )?(?:connect|disconnect|disconect|"
    r"reconnect|hook up|unhook|link|unlink|integrate)\b"
)
_SET_UP_A_TOOL_RE = re.compile(
    r"^(?:please |pls |can you |could you )?(?:set ?up|setup|install|enable|add) (?:our |the |my )?"
    r"\w+(?: \w+)?(?: account| integration| workspace)?(?: for (?:us|me|the team))?\W*$"
)
_ALSO_RE = re.compile(r"\b(?:too|also|as well)\b")
_SCOPE_RE = re.compile(
    r"\b(?:project|workspace|board|team|repo|repository|channel|database|space|folder|"
    r"department|region)s?\b"
)
_LONG_UNITS = 30
REQUEST_WEIGHT = 1.0
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?])\s+|\s*\n+\s*")
_ASKING_RE = re.compile(
    r"\b(?:can|could|would|will) you\b|\bplease\b|\bi(?:d| would) (?:like|love|want)\b|"
    r"\bi (?:want|need)\b|\bwhat i (?:really )?(?:want|need)\b|\bhow (?:do|does|can|is|are)\b|"
    r"^(?:so |just |instead,? )?(?:set up|create|build|run|pull|add|change|make|send|pause|stop|"
    r"give|show|tell|explain|export|gather|delete|remove|invite|skip|move)\b|\?$|"
    r"\b(?:pourriez|pouvez|peux|podrias|puedes|podes|pode|kannst|konnen|koennen|bitte|por favor|"
    r"s il vous plait|queria|quisiera|je voudrais|ich mochte|gostaria)\b"
)
_WHATEVER_RE = re.compile(
    r"^(?:ok |okay |hmm |erm )?(?:whatever(?:s| is)? (?:works|simplest|easiest|is best|you think)|"
    r"whichever|up to you|your call|you decide|you choose|either (?:is|one is|way is) fine|"
    r"either|dealers choice|lo que sea|como prefieras|comme tu veux|peu importe|egal|wie du willst|"
    r"tanto faz|como preferir)\b"
)
_FIX_IT_RE = re.compile(
    r"^(?:ok |okay |please |pls |can you |could you )?(?:fix|repair|sort out|reconnect|renew|"
    r"refresh|arregla|repara|corrige|r[ée]pare|behebe|reparier|conserta)\b.{0,20}$"
)
_TELL_THEM_RE = re.compile(
    r"^(?:ok |okay |great |thanks,? |now |and |then )?(?:please |can you |could you )?"
    r"(?:ping|remind|notify|nudge|message|email|dm|tell|alert|chase)\s+"
    r"(?:the |their |all |each |those |these )?(?:owners?|assignees?|people|team|folks|reps?|"
    r"authors?|them|everyone)\b"
)
_AUTOMATICALLY_RE = re.compile(r"\b(?:automatically|from now on|each time|every time|always)\b")
_KEEP_IT_CURRENT_RE = re.compile(
    r"\bkeep (?:it|that|this|them|the \w+|that \w+|this \w+) (?:up to date|updated|current|"
    r"in sync|synced|fresh|refreshed)\b"
)
_UNRELATED_RE = re.compile(
    r"^(?:unrelated|different (?:question|topic)|side (?:note|question)|off topic|"
    r"changing (?:the )?(?:subject|topic)|before (?:i|we) forget|sin relacion|autre chose)\b"
)
_CAN_YOU_DO_RE = re.compile(
    r"^(?:ok |okay |so |and )?(?:can|could|would|will) you (?:please )?(?:run|rerun|re-run|"
    r"trigger|start|kick off|execute|test|try|change|update|pause|resume|rename|move|make|add)\b"
)
_ADD_TO_IT_RE = re.compile(
    r"^(?:ok |okay |and |also |please )?(?:add|include) .{1,40} (?:to|in) (?:it|that|this|them)\b"
    r"|^(?:ok |okay |and |also |please )?(?:remove|exclude|drop) .{1,40} from (?:it|that|this)\b"
)
_DID_NOT_RE = re.compile(
    r"\b(?:didnt|did not|hasnt|has not|havent|have not|never|wasnt|was not|isnt|is not)\s+"
    r"(?:even )?(?:run|ran|send|sent|post|posted|arrive|arrived|fire|fired|show(?:n|ed)? up|"
    r"come|came|work|worked|go out|gone out|trigger|triggered)\b|"
    # "weird that the jira monitor was silent yesterday", "said zero overdue tickets today,
    # which can't be right", "nobody got an alert": something looks wrong with what it did.
    r"\b(?:was|went|been|is) (?:weirdly |strangely |completely |totally )?(?:silent|quiet)\b|"
    r"\b(?:cant|can not|cannot|couldnt) be right\b|\bnobody got (?:an? |the )?\w+|"
    r"\bdoesnt (?:look|seem) right\b"
)
# "I don't really get the difference between agents and skills", "no clue where to start",
# "No entiendo por qué …": confusion, asked as a statement.
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
_HOW_DO_I_RE = re.compile(r"^(?:so |and |ok |hmm )?how (?:do|can|would|should|could) (?:i|we)\b")
_NOTHING_ASKED = frozenset({"AGENT", "N_AGENT", "N_REPORT", "T_AGAIN", "ADJ_SAME", "ORD", "POSS"})


def _weigh_the_request(text: str, eng: Engine, names: tuple[str, ...], logits: list[float]) -> None:
    """In a long message, the sentences that ask for something count once more ("… Our Jira
    has been a mess since the reorg. Before tomorrow, please gather every overdue ticket …")."""
    sentences = _SENTENCE_SPLIT_RE.split(text)
    asking = [s for s in sentences if _ASKING_RE.search(s)]
    if not asking or len(asking) == len(sentences):
        return
    asking = asking[-2:]  # the request is usually last; two sentences keep it cheap
    parsed = parse(" ".join(asking), eng.analyzer, _agent_keys(names), normalized=True)
    if not parsed.units:
        return
    for index, value in enumerate(eng.model.logits(features(parsed))):
        logits[index] += REQUEST_WEIGHT * value


def _a_question(logits: Sequence[float], confidence: float, reason: str) -> _Decision:
    """`query_info`, with what the model read otherwise as the alternative."""
    top = LABELS[max(range(len(logits)), key=logits.__getitem__)]
    return _Decision(
        ActionType.QUERY_INFO,
        confidence,
        reason,
        alternative=top if top != ActionType.QUERY_INFO else None,
    )


def _lets_an_agent(parsed: Parsed) -> bool:
    who = next((u for u in parsed.units[1:3] if u.canon not in STOPWORDS), None)
    return who is not None and not {"AGENT", "N_AGENT"}.isdisjoint(who.concepts)


def _an_item(option: tuple[int, ActionType, str]) -> bool:
    """An option that is an item of information ("June 1 - failed"), not an action to take or
    one of the workspace's things (a member, a key)."""
    return option[1] != ActionType.MANAGE_PLATFORM and not names_an_action(option[2])


def _own_verb(concepts: frozenset[str]) -> ActionType | None:
    """What the message's own verb asks for: a run or a change, if it says one."""
    if concepts & RUN_CUES and not concepts & CHANGE_CUES:
        return ActionType.EXECUTE_TASK
    if concepts & CHANGE_CUES and not concepts & RUN_CUES:
        return ActionType.UPDATE_AGENT
    return None


def _only_an_agent(parsed: Parsed, *, by_tool: str | None = None) -> bool:
    """Nothing but an agent's name or nickname ("jira monitor", "the notion thing again"), or
    (``by_tool``: the one agent its tool names) "the jira report"."""
    concepts = parsed.concepts
    if by_tool is not None:
        concepts = concepts - {"SRC"} | {"AGENT"}
    return (
        "AGENT" in concepts
        and concepts <= _NOTHING_ASKED
        and len(parsed.units) <= 5
        and "?" not in parsed.norm
        # "duplicate the notion reporter": a word the lexicon does not know may be the verb.
        and all(u.concepts or u.canon in _FILLER_WORDS for u in parsed.units)
    )


_FILLER_WORDS = words(
    "the my our that this thing one stuff pls please el la le les der die das den o a os as "
    "lo un una"
)


_WHAT_IT_MAKES_RE = re.compile(
    r"\b(?:the|my|our|o|a|la|le|l|el|die|der|das|den|os|as)\s+(?:\w+\s+){0,2}?"
    r"(?:alerts?|emails?|pings?|notifications?|thing|one|resumo|resumen|alerte|alertes|"
    r"warnungen|mails|summary|digest|report|recap)\b"
)


def _names_what_an_agent_makes(
    parsed: Parsed, entities: Mapping[str, str], names: Sequence[str]
) -> bool:
    return (
        not parsed.concepts & (_A_NEW_ONE | {"T_AGAIN"})  # "again" asks for a run
        and "agent" not in entities
        and _agent_by_source(entities, names) is not None
        and _WHAT_IT_MAKES_RE.search(parsed.norm) is not None
    )


_A_NEW_ONE = frozenset({"V_CREATE", "ADJ_NEW", "V_WATCH", "N_SKILL"})
_AGENTISH = frozenset({"AGENT", "N_AGENT", "N_REPORT"})
_NOT_A_RUN = frozenset({"V_ADD", "V_CONFIGURE", "Q_PAST", "Q_UNSURE"})
_SETTING_KEYS = frozenset({"schedule", "frequency", "destination", "time", "new_name"})
_SMALL_TALK = frozenset({"OOS", "GREET", "THANKS"})
_QUESTION_WORDS = frozenset({"Q_WHAT", "Q_HOW", "Q_WHEN", "Q_WHY", "Q_HOWMANY", "Q_WHERE", "Q_WHO"})
_ASKS_ABOUT = _QUESTION_WORDS | {"N_DETAIL", "N_STATUS"}
_PLATFORM_CUES = frozenset({"N_BILLING", "N_USER", "N_KEY", "N_ROLE", "N_INTEG", "N_TENANT"})
# Words that name what an option does; sharing one with a label counts double.
_ACTION_WORDS = frozenset({"create", "run", "show", "change", "skill", "agent", "list"})


@functools.lru_cache(maxsize=512)
def _label_words(label: str) -> frozenset[str]:
    units = parse(label, engine().analyzer).units
    return frozenset(
        u.canon for u in units if u.concepts or (len(u.canon) > 3 and u.canon not in STOPWORDS)
    )


def _a_run_for_a_period(parsed: Parsed, entities: Mapping[str, str]) -> bool:
    concepts = parsed.concepts
    return (
        "period" in entities
        and not entities.keys() & _SETTING_KEYS
        and bool(concepts & _AGENTISH)
        and not concepts & (CHANGE_CUES | _QUESTION_WORDS | _NOT_A_RUN)
        and not _DID_NOT_RE.search(parsed.norm)
    )


def _unsure_or_unknown(logits: Sequence[float]) -> bool:
    """Whether the model alone reads the message as nothing to do, or barely reads it at all."""
    probs = _softmax([v / TEMPERATURE for v in logits])
    top = max(range(len(probs)), key=probs.__getitem__)
    return top == _INDEX[ActionType.UNKNOWN] or probs[top] < 0.75


def _listed_by_word(parsed: Parsed, listed: Sequence[str]) -> int | None:
    """The one listed agent the message names by a word of its name ("the jira one")."""
    named = {u.tag for u in parsed.units if u.canon == AGENT_WORD}
    hits = [i for i, name in enumerate(listed) if name in named]
    if not hits:
        stems = {t[:5] for t in parsed.tokens if len(t) > 3}  # "finance" names financial-…
        hits = [
            i
            for i, name in enumerate(listed)
            if stems & {part[:5] for part in re.split(r"[-_]", name.lower()) if len(part) > 3}
        ]
    return hits[0] if len(hits) == 1 else None


def _side_named(
    parsed: Parsed, sides: Sequence[tuple[ActionType, str]]
) -> tuple[ActionType, str] | None:
    """The one side of an either/or question the message names by a word only it has."""
    words = {u.canon for u in parsed.units if u.concepts or len(u.canon) > 3} - {AGENT_WORD}
    own = [_label_words(side) - {AGENT_WORD} for _, side in sides]
    hits = [
        side
        for side, mine in zip(sides, own, strict=True)
        if words & (mine - frozenset().union(*(o for o in own if o is not mine)))
    ]
    return hits[0] if len(hits) == 1 else None


def _option_by_label(parsed: Parsed, ctx: Context) -> tuple[int, ActionType, str] | None:
    """The one option whose label shares the most content words with the message."""
    words = {
        u.canon
        for u in parsed.units
        if u.concepts or (len(u.canon) > 3 and u.canon not in STOPWORDS)
    } - {"__agent__"}
    if not words:
        return None
    scored: list[tuple[int, tuple[int, ActionType, str]]] = []
    for option in ctx.options:
        label_words = _label_words(option[2])
        overlap = words & label_words
        score = len(overlap) + len(overlap & _ACTION_WORDS)
        scored.append((score, option))
    scored.sort(key=lambda item: -item[0])
    if scored[0][0] >= 2 and (len(scored) == 1 or scored[0][0] > scored[1][0]):
        return scored[0][1]
    return None


def _from_model(
    eng: Engine, concepts: frozenset[str], logits: list[float], injected: bool
) -> _Decision:
    probs = _softmax([v / TEMPERATURE for v in logits])
    order = sorted(range(len(probs)), key=probs.__getitem__, reverse=True)
    top, second = order[0], order[1]
    confidence = probs[top]
    ambiguous = confidence - probs[second] < AMBIGUITY_MARGIN
    alternative = LABELS[second] if ambiguous or confidence < CLARIFY_BELOW else None
    weights = eng.model.weights
    cues = sorted(
        [
            (w[top] - w[second], f)
            for c in concepts
            if (w := weights.get(f := "c:" + c)) is not None
        ],
        reverse=True,
    )[:3]
    cue_text = ", ".join(f for _, f in cues)
    reasoning = (
        f"{LABELS[top]} {confidence:.2f} over {LABELS[second]} {probs[second]:.2f}; "
        f"cues: {cue_text}"
    )
    if injected:
        reasoning = "ignored instructions aimed at the classifier; " + reasoning
    return _Decision(
        LABELS[top], confidence, reasoning, alternative=alternative, ambiguous=ambiguous
    )


def _finish(decision: _Decision, entities: Mapping[str, str], start: float) -> IntentResult:
    merged = {**entities, **decision.entities}
    clean = {
        str(k)[:40]: str(v)[:80] for k, v in merged.items() if isinstance(v, str) and v.strip()
    }
    confidence = min(1.0, max(0.0, round(decision.confidence, 3)))
    alternative = decision.alternative if decision.alternative != decision.action else None
    ambiguous = decision.ambiguous and alternative is not None
    question = None
    if confidence < CLARIFY_BELOW or ambiguous:
        question = clarifying_question_for(decision.action, alternative, clean)
    return IntentResult(
        action_type=decision.action,
        confidence=confidence,
        entities=clean,
        reasoning=decision.reasoning[:300],
        is_ambiguous=ambiguous,
        alternative_action=alternative,
        clarifying_question=question,
        method=Method.OFFLINE,
        model=None,
        latency_ms=round((time.perf_counter() - start) * 1000.0, 4),
    )
