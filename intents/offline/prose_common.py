"""What the parts of the prose reader share: the ``Prose`` it returns, the ``Judge`` it asks,
and how it reads agent names and the verb an option or a question leads with.

``intents.offline.prose`` reads the previous assistant turn; ``intents.offline.prose_lists``
reads its numbered lists and either/or questions. Both read agent names and verbs the same way,
from here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from intents.offline.lexicon import words
from intents.types import ActionType

# What the offline model makes of a sentence on its own: its action and probability.
Judge = Callable[[str], tuple[ActionType, float]]
_SLUG_RE = re.compile(r"(?<![\w@./-])([a-z][a-z0-9]*(?:[-_][a-z0-9]+){1,5})(?![\w@-])")
# Hyphenated words of everyday English, not agent names.
_COMMON_SLUGS = words(
    "two-factor read-only follow-up real-time one-off sign-in log-in check-in opt-in add-on "
    "built-in e-mail re-run on-call end-to-end day-to-day up-to-date month-end year-end "
    "self-serve time-zone high-priority low-priority single-sign-on"
)
# "the Shopify low-stock alert", "past-due invoices": a compound word, not an agent's name.
_COMPOUND_RE = re.compile(
    r"^(?:low|high|out-of|past|over|under|non|pre|post|multi|self|cross|full|part|long|short|"
    r"same|next|last|first|third|top|month-over|week-over|year-over)-[a-z]+$"
)
# "dois-je", "doit-elle", "est-ce", "peut-on": French inversions, not agent names.
_INVERSION_RE = re.compile(
    r"(?:-t)?-(?:je|tu|il|elle|on|nous|vous|ils|elles|ce|moi|toi|le|la|les)$"
)
# What a proposal does to the workspace rather than to an agent.
_PLATFORM_OBJECT_RE = re.compile(
    r"^(?:\w+ ){0,3}(?:the |a |your |google |saml )?(?:sso|single sign-on|2fa|two-factor|"
    r"connection|integration|oauth|plan|billing|invoices?|api keys?|seats?|roles?|"
    r"permissions?|workspace|member|invite|payment (?:method|details)|subscription)\b",
    re.IGNORECASE,
)
# What a listed option or a list's question asks for, by its leading verb; the model judges
# the rest. Checked in order: "add X to the workspace" is administration, "add X to an agent"
# a change.
_VERB_RULES = (
    (ActionType.MANAGE_PLATFORM, re.compile(
        r"^(?:invite|connect|disconnect|reconnect|re-?authori[sz]e|revoke|rotate|buy|purchase|"
        r"add \S+ to the (?:workspace|team)|"
        r"remove \S+ from the (?:workspace|team)|upgrade|downgrade|open (?:billing|settings))\b",
        re.I)),
    (ActionType.CREATE_SKILL, re.compile(
        r"^(?:create|build|make|teach|write)\b.{0,40}\bskill\b", re.I)),
    (ActionType.CREATE_AGENT, re.compile(
        r"^(?:create|set up|build|make|add|start) (?:a |an )?(?:new|separate|another|second)?"
        r"\s*(?:agent|monitor|automation|bot)\b|"
        r"^(?:a |an )?(?:new|separate|another|second|different) (?:agent|monitor|automation|bot)\b",
        re.I)),
    (ActionType.QUERY_INFO, re.compile(
        r"^(?:show|list|explain|tell|see|view|display|check (?:when|what|how|the status)|"
        r"look at|describe|what|how|give me (?:the )?details|details? (?:on|about|of)|"
        r"more about|info(?:rmation)? (?:on|about))\b", re.I)),
    (ActionType.EXECUTE_TASK, re.compile(
        r"^(?:run|re-?run|re-?try|try (?:it )?again|generate|start|trigger|kick off|produce|"
        r"pull|send (?:the|a|this) (?:report|summary|digest) now)\b", re.I)),
    (ActionType.UPDATE_AGENT, re.compile(
        r"^(?:change|edit|update|modify|pause|resume|turn (?:back )?(?:on|off)|rename|delete|"
        r"remove|move|switch|add|attach|disable|enable|stop)\b", re.I)),
)  # fmt: skip
# German options end on their verb: "Zeitplan oder Empfänger ändern", "Jetzt ausführen".
_LAST_VERB_RULES = (
    (ActionType.EXECUTE_TASK, re.compile(r"^.*\b(?:ausf[üu]hren|starten|laufen lassen)$", re.I)),
    (ActionType.QUERY_INFO, re.compile(r"^.*\b(?:anzeigen|zeigen|ansehen|erkl[äa]ren)$", re.I)),
    (ActionType.UPDATE_AGENT, re.compile(
        r"^.*\b(?:[äa]ndern|aendern|bearbeiten|anpassen|pausieren|fortsetzen|l[öo]schen|"
        r"umbenennen|verschieben)$", re.I)),
)  # fmt: skip
_LIST_ASKS = (
    (ActionType.UPDATE_AGENT, re.compile(
        r"\b(?:edit|change|update|modify|turn (?:back )?(?:on|off)|pause|resume|rename|delete|"
        r"remove|reschedule|adjust|tweak|start using|use (?:it|this|that))\b", re.I)),
    (ActionType.QUERY_INFO, re.compile(
        r"\b(?:details?|more about|know more|see|look at|tell you|info|information|explain|"
        r"history|status)\b", re.I)),
    (ActionType.EXECUTE_TASK, re.compile(
        r"\b(?:run|start|trigger|kick off|execute|retry|re-?run)\b", re.I)),
)  # fmt: skip


@dataclass(frozen=True)
class Prose:
    """What the previous assistant text offered, in the shape the follow-up rules read."""

    options: tuple[tuple[int, ActionType, str], ...] = ()
    alternatives: tuple[tuple[ActionType, str], ...] = ()
    listed_agents: tuple[str, ...] = ()
    offer: ActionType | None = None
    offer_text: str = ""
    wizard: ActionType | None = None
    asking: tuple[str, ...] = ()
    prev_intent: ActionType | None = None
    last_agent: str | None = None
    last_run: str | None = None
    named: tuple[str, ...] = field(default_factory=tuple)
    answering: ActionType | None = None
    about_platform: bool = False
    needs_access: bool = False


def _agent_names(text: str, known: Sequence[str]) -> list[str]:
    """Agent names in the order the text mentions them: the tenant's, or anything slug-like."""
    lowered = text.lower()
    found: list[tuple[int, str]] = []
    for name in known:
        at = lowered.find(name.lower())
        if at >= 0:
            found.append((at, name))
    for match in _SLUG_RE.finditer(lowered):
        slug = match.group(1)
        if (
            len(slug) >= 6
            and not _INVERSION_RE.search(slug)
            and slug not in _COMMON_SLUGS
            and not _COMPOUND_RE.match(slug)
            and not any(slug == n.lower() for _, n in found)
        ):
            found.append((match.start(), slug))
    return [name for _, name in sorted(found)]


def _leading_agent(item: str, known: Sequence[str]) -> str | None:
    """The agent a list item is about when the item *is* that agent ("notion-reporter - …")."""
    head = item.strip().strip("*`'\"").lower()
    for name in known:
        if head.startswith(name.lower()):
            return name
    match = _SLUG_RE.match(head)
    if match and re.match(r"\s*(?:$|[-\u2013\u2014:(,]|\s)", head[match.end() :]):
        return match.group(1)
    return None


def names_an_action(label: str) -> bool:
    """Whether a listed option says what it would do ("Run it now") rather than being an item
    of information ("June 1 - failed")."""
    return _by_verb(label, _VERB_RULES) is not None


def _by_verb(text: str, rules: Sequence[tuple[ActionType, re.Pattern[str]]]) -> ActionType | None:
    """The action of the first rule whose pattern the (stripped) text matches, if any."""
    text = text.strip()
    return next((action for action, rule in rules if rule.search(text)), None)
