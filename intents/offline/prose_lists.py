"""The lists and the either/or questions of the previous assistant turn's text.

A numbered list shows the tenant's agents (pick one for the action asked) or options (each
judged for what it would do); an either/or question offers two courses of action. The prose
reader (``intents.offline.prose``) hands these here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from intents.offline.prose_common import (
    _LAST_VERB_RULES,
    _LIST_ASKS,
    _PLATFORM_OBJECT,
    _VERB_RULES,
    Judge,
    Prose,
    _by_verb,
    _leading_agent,
    said,
)
from intents.reading.cues import cues
from intents.types import ActionType

_ITEM_RE = re.compile(r"^[ \t]*(\d{1,2})[ \t]*[.)][ \t]+(\S.*)$", re.MULTILINE)
# "Two options: 1) an agent that …, or 2) a one-time report …" on one line.
_INLINE_ITEM_RE = re.compile(r"(?<![\w$.,])\(?([1-9])[.)][ \t]+(?=\S)")
_ORDINAL_WORDS = ("first", "second", "third", "fourth")
_ORDINAL_ITEM_RE = re.compile(
    r"(?:^|(?<=[:;.,] ))(first|second|third|fourth)(?:ly)?[,:][ \t]+", re.I
)
_ITEM_TAIL_RE = re.compile(r"[\s,;]*(?:\b(?:or|and|o|ou|oder|y|et|und)\b)?[\s,;]*$", re.I)
_EMAIL_RE = re.compile(r"^[\w.+-]+@[\w-]+\.[\w.]+")
# A numbered list of the workspace's things (keys, members, integrations), not agents.
_SETTINGS_LIST_RE = re.compile(
    r"\b(?:api keys?|keys|tokens|members|users|people|integrations|webhooks|invoices|seats)\b"
    r"[^\n]{0,40}$",
    re.IGNORECASE,
)
_WHICH_ONE_RE = re.compile(
    r"^(?:[\w ]{0,20}[:,\u2014-] )?(?:which|what) (?:one|agent)\b[^?]{0,20}\?$", re.I
)
_ADMINISTERS = cues("""
    =connect|disconnect|reconnect|invite|upgrade|downgrade
    =switch =to|plan|plans
    =which =plan|role|account|integration|workspace
""")
# Not Spanish "o": in Portuguese it is the article ("Quer que eu rode o relatório?").
_OR_RE = re.compile(r",?\s+(?:or|ou|oder)\s+", re.I)
# What leads up to the first side of an either/or question: "Got it. Should I …", "… be".
_ASKING_LEAD_RE = re.compile(
    r"^.*?\b(?:should|shall|would|do|does|is|are|can|could|want|soll|sollen|quieres|prefieres|"
    r"debo|voulez|veux|preferez|dois|quer|prefere|devo)\b(?:\s+(?:i|we|you|that|this|it|they|"
    r"me|to|like|prefer|rather|be|have|ich|wir|que|je|eu))*\s+",
    re.I,
)
# Leads of the words, as the option opens: "nothing" and "none of these", "other" and "others".
_SOMETHING_ELSE = cues("""
    ^ =something else*
    ^ none*|nothing*|cancel*|other*|neither*
    ^ =otra cosa*
    ^ =autre chose*
    ^ =etwas anderes*
""")


def _inline_items(text: str) -> list[tuple[str, str]]:
    """Options numbered 1, 2, … inside a sentence, each up to the next number or the end."""
    marks = list(_INLINE_ITEM_RE.finditer(text))
    numbers = [m.group(1) for m in marks]
    if len(marks) < 2:
        # "two ways: first, a skill that …; second, a one-time export …"
        marks = list(_ORDINAL_ITEM_RE.finditer(text))
        numbers = [str(_ORDINAL_WORDS.index(m.group(1).lower()) + 1) for m in marks]
    if len(marks) < 2 or [int(n) for n in numbers] != list(range(1, len(marks) + 1)):
        return []
    items = []
    for number, mark, after in zip(numbers, marks, [*marks[1:], None], strict=True):
        label = text[mark.end() : after.start() if after else len(text)]
        if after is None:
            label = re.split(r"[?!]|\.(?:\s|$)", label, maxsplit=1)[0]
        items.append((number, _ITEM_TAIL_RE.sub("", label).strip()))
    return items


def _listed_items(text: str) -> list[tuple[str, str]]:
    """The numbered options of the text: one a line, or else numbered inside a sentence."""
    return _ITEM_RE.findall(text) or _inline_items(text)


# "… pause jira-overdue-monitor, notion-reporter, or both?": a side of its own.
_BOTH = frozenset({"both", "all", "ambos", "ambas", "les deux", "beide", "todos"})
# How sure the model must be that a verbless side of an either/or is an action of its own.
_SURE = 0.5
# A side that names a thing of its own ("or a separate agent that …") is judged on its own.
_THING = cues(
    "=agent|agents|skill|skills|bot|bots|monitor|monitors|automation|automations|workspace\n"
    "=workspaces|account|accounts"
)


def _alternatives(question: str, judge: Judge) -> tuple[tuple[ActionType, str], ...]:
    """The two sides of an either/or question, each with the action it would be."""
    sides = _OR_RE.split(question.rstrip(" ?"))
    if len(sides) != 2 or sides[0].count(",") >= 2:
        return ()  # "failed payments, disputes, refunds, or something else?": values
    sides[0] = _ASKING_LEAD_RE.sub("", sides[0])
    out: list[tuple[ActionType, str]] = []
    for side in sides:
        side = side.strip(" ,;:-\u2014")
        if len(side.split()) < 2 and not (out and side.lower() in _BOTH):
            return ()  # "daily or weekly?" is a setting, not two courses of action
        action = _by_verb(side, _VERB_RULES)
        if action is None:
            action, confidence = judge(side)
            names_a_thing = said(side, _THING)
            if out and (action == ActionType.UNKNOWN or (confidence < _SURE and not names_a_thing)):
                # "posted in Slack, or just shown here?": the second side shares the verb.
                action = out[0][0]
        out.append((action, side))
    return tuple(out)


def _judged_item(label: str, judge: Judge) -> ActionType:
    """What an option without a leading verb would do; an item the model cannot place
    ("June 1 - failed (timeout)") is something to look at."""
    action, confidence = judge(label)
    return action if confidence >= 0.6 else ActionType.QUERY_INFO


def _numbered(
    items: Sequence[tuple[str, str]],
    text: str,
    question: str,
    known: Sequence[str],
    judge: Judge,
    last_agent: str | None,
    users: Sequence[str],
) -> Prose:
    """A numbered list: the tenant's agents (pick one for the asked action) or options."""
    agents = [_leading_agent(label, known) for _, label in items]
    first = _ITEM_RE.search(text)
    header = text[: first.start()] if first else ""
    if _SETTINGS_LIST_RE.search(header) and not any(a in known for a in agents):
        # "Your API keys: 1. ci-pipeline …": whatever is done to one is administration.
        return Prose(
            options=tuple(
                (int(n), ActionType.MANAGE_PLATFORM, label.strip()) for n, label in items
            ),
            prev_intent=ActionType.MANAGE_PLATFORM,
        )
    if all(agents):
        asked = _by_verb(question, _LIST_ASKS) if question else ActionType.QUERY_INFO
        if asked is None and users and _WHICH_ONE_RE.match(question):
            # "I want to change one of my agents" → "Sure, which one?": for that request.
            asked = _by_verb(users[0], _LIST_ASKS) or judge(users[0])[0]
        if asked is None:
            asked = judge(question)[0]
        if asked not in (ActionType.EXECUTE_TASK, ActionType.UPDATE_AGENT):
            asked = ActionType.QUERY_INFO
        return Prose(
            listed_agents=tuple(a for a in agents if a),
            prev_intent=asked,
            last_agent=last_agent,
        )
    if all(_EMAIL_RE.match(label.strip()) for _, label in items):
        # A list of people: whatever is done to one of them is workspace administration.
        return Prose(
            options=tuple(
                (int(n), ActionType.MANAGE_PLATFORM, label.strip()) for n, label in items
            ),
            prev_intent=ActionType.MANAGE_PLATFORM,
        )
    # "What would you like to change about jira-overdue-monitor? 1. Its schedule …": each
    # verbless option is a change.
    changes = bool(question) and _by_verb(question, _LIST_ASKS) == ActionType.UPDATE_AGENT
    # "Which account would you like to connect? 1. Google Drive 2. Dropbox": administration.
    administers = bool(question) and said(question, _ADMINISTERS)
    options = []
    for n, label in items:
        label = label.strip()
        if said(label, _SOMETHING_ELSE):
            action = ActionType.UNKNOWN
        elif said(label, _PLATFORM_OBJECT) and not _leading_agent(label, known):
            action = ActionType.MANAGE_PLATFORM
        else:
            action = (
                _by_verb(label, _VERB_RULES)
                or _by_verb(label, _LAST_VERB_RULES)
                or (ActionType.UPDATE_AGENT if changes else None)
                or (ActionType.MANAGE_PLATFORM if administers else None)
                or _judged_item(label, judge)
            )
        options.append((int(n), action, label))
    return Prose(options=tuple(options), last_agent=last_agent)
