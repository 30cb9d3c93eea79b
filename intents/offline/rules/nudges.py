"""Nudges: named adjustments of the model's scores, where a pattern tips the balance but the
model may still outweigh it."""

from __future__ import annotations

import re

from intents.offline.context import CHANGE_CUES
from intents.offline.model import features
from intents.offline.rules.engine import nudge
from intents.offline.rules.guards import LONG_UNITS
from intents.offline.rules.messages import CONNECT, a_run_for_a_period
from intents.offline.rules.reading import (
    A_NEW_ONE,
    ANY_WORD,
    INDEX,
    PLATFORM_CUES,
    Reading,
    agent_keys_for,
    cues,
)
from intents.offline.text import parse
from intents.types import ActionType

_CREATE = INDEX[ActionType.CREATE_AGENT]
_UPDATE = INDEX[ActionType.UPDATE_AGENT]
_EXECUTE = INDEX[ActionType.EXECUTE_TASK]
_QUERY = INDEX[ActionType.QUERY_INFO]
_MANAGE = INDEX[ActionType.MANAGE_PLATFORM]

# How much a long message's asking sentences count again, on top of the whole message (picked
# on the dev sets with the 30 units that make a message long).
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
# Another agent asked for, beside the one the message tells about.
_ANOTHER_ONE = cues(
    """
    =another
    a =second|separate|similar
    one more
    something like
    like the
    """
)
# What an agent sends, named with an article (the noun as typed: a report's synonyms are not
# what it sends).
_WHAT_IT_MAKES = cues(
    "the|my|our|o|a|la|le|l|el|die|der|das|den|os|as …2 =alert|alerts|email|emails|ping|pings|"
    "notification|notifications|thing|one|resumo|resumen|alerte|alertes|warnungen|mails|summary|"
    "digest|report|recap"
)
# Pausing or resuming, in the lexicon's languages (as typed: "stop" is not a pause).
_PAUSE_RESUME = cues(
    f"""
    =pause|paused|pausing|unpause|resume|pausa|pausar|pausiere|pausieren|reanuda|reanudar|reprends|reprendre|retoma|retomar|fortsetzen|suspend|suspende
    setz {ANY_WORD} fort
    """
)
_HOW_DO_I = cues("^ how do|can|would|should|could i|we")


@nudge(
    "In a long message, the sentences that ask for something count once more than the account "
    "around them.",
    examples=(
        "… Our Jira has been a mess since the reorg. Before tomorrow, please gather every "
        "overdue ticket …",
    ),
)
def the_request_counts_twice(r: Reading) -> bool:
    if r.n_units < LONG_UNITS:
        return False
    sentences = _SENTENCE_SPLIT_RE.split(r.norm)
    asking = [s for s in sentences if _ASKING_RE.search(s)]
    if not asking or len(asking) == len(sentences):
        return False
    asking = asking[-2:]  # the request is usually last; two sentences keep it cheap
    parsed = parse(" ".join(asking), r.engine.analyzer, agent_keys_for(r.names), normalized=True)
    if not parsed.units:
        return False
    for index, value in enumerate(r.engine.model.logits(features(parsed))):
        r.logits[index] += REQUEST_WEIGHT * value
    return True


@nudge(
    "A long account of what one of the user's agents does wrong is a change to it, not a new "
    "agent, unless it asks for another.",
    examples=("I set up the notion reporter a while back … it lumps everything together",),
)
def a_long_account_of_an_agent(r: Reading) -> bool:
    if (
        r.n_units >= LONG_UNITS
        and "AGENT" in r.concepts
        and r.logits[_CREATE] == max(r.logits)
        and r.concepts.isdisjoint({"ADJ_NEW", "N_SKILL"})
        and not r.says(_ANOTHER_ONE)
    ):
        r.logits[_UPDATE] = r.logits[_CREATE] + 0.5
        return True
    return False


@nudge(
    "An agent or a report named with a period and nothing else leans to a run for that period.",
    examples=("the notion reporter for last week",),
)
def a_period_leans_to_a_run(r: Reading) -> bool:
    if a_run_for_a_period(r):
        r.logits[_EXECUTE] += 2.5
        return True
    return False


@nudge(
    "What an existing agent sends, named by its tool, is that agent: a change, not a new one.",
    examples=("Stop the daily Jira emails", "the weekly Notion thing"),
)
def what_an_agent_sends(r: Reading) -> bool:
    if (
        not r.concepts & (A_NEW_ONE | {"T_AGAIN"})  # "again" asks for a run
        and "agent" not in r.entities
        and r.agent_by_source is not None
        and r.says(_WHAT_IT_MAKES)
        and r.logits[_CREATE] == max(r.logits)
    ):
        r.logits[_UPDATE] = r.logits[_CREATE] + 0.5
        return True
    return False


@nudge(
    "Connecting or disconnecting a tool is about the workspace's accounts, whatever for.",
    examples=("connect Airtable so the finance bot can read from it", "disconect zendesk"),
)
def connects_an_account(r: Reading) -> bool:
    if r.says(CONNECT):
        r.logits[_MANAGE] += 3.0
        return True
    return False


@nudge(
    "Only agents pause and resume, unless the message names billing, users or keys.",
    examples=("pausa el primero", "resume the third one again", "mets-le en pause"),
    unlike=("pause our subscription",),
)
def pausing_is_a_change(r: Reading) -> bool:
    if r.says(_PAUSE_RESUME) and r.concepts.isdisjoint(PLATFORM_CUES):
        r.logits[_UPDATE] += 2.0
        return True
    return False


@nudge(
    "'How do I …' asks how, whatever it is about.",
    examples=("how do I get the notion one to post on Fridays",),
)
def how_do_i_asks_how(r: Reading) -> bool:
    if r.says(_HOW_DO_I):
        r.logits[_QUERY] += 3.0
        return True
    return False


# --- leaning on the conversation ---------------------------------------------------------


@nudge(
    "A change while an offer is pending, naming no agent, reshapes the offer itself.",
    examples=("make it weekly instead",),
)
def a_change_reshapes_the_offer(r: Reading) -> bool:
    if (
        r.ctx.offer is not None
        and not r.denies
        and r.concepts & (CHANGE_CUES | {"SRC", "CHAT", "TIMEUNIT", "TIME"})
        and not r.has_agent
    ):
        r.logits[INDEX[r.ctx.offer]] += 2.5
        return True
    return False


@nudge(
    "A short reply to numbered options leans to the actions they offer.",
    examples=("make chloe an editor", "what can viewers do?"),
)
def the_options_on_offer(r: Reading) -> bool:
    if r.ctx.options and r.n_units <= 10:
        for _, action, _ in r.ctx.options:
            r.logits[INDEX[action]] += 1.0
        return True
    return False


def _went_before(r: Reading) -> ActionType | None:
    prev = r.ctx.prev_intent
    return prev if prev is not None and prev != ActionType.UNKNOWN else None


@nudge(
    "A short reply leans a little to what was being done.",
    examples=("Cool, run it", "thanks!", "wait, first list my agents"),
)
def a_short_reply_goes_on(r: Reading) -> bool:
    prev = _went_before(r)
    # A yes with no offer pending is left alone: a larger lean for it changed no prediction.
    if prev is not None and not (r.affirms and r.ctx.offer is None) and r.n_units <= 6:
        r.logits[INDEX[prev]] += 0.3
        return True
    return False
