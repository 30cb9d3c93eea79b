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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from intents.offline.lexicon import words
from intents.types import ActionType, HistoryTurn

# What the offline model makes of a sentence on its own: its action and probability.
Judge = Callable[[str], tuple[ActionType, float]]

_ITEM_RE = re.compile(r"^[ \t]*(\d{1,2})[ \t]*[.)][ \t]+(\S.*)$", re.MULTILINE)
# "Two options: 1) an agent that …, or 2) a one-time report …" on one line.
_INLINE_ITEM_RE = re.compile(r"(?<![\w$.,])\(?([1-9])[.)][ \t]+(?=\S)")
_ORDINAL_WORDS = ("first", "second", "third", "fourth")
_ORDINAL_ITEM_RE = re.compile(
    r"(?:^|(?<=[:;.,] ))(first|second|third|fourth)(?:ly)?[,:][ \t]+", re.I
)
_ITEM_TAIL_RE = re.compile(r"[\s,;]*(?:\b(?:or|and|o|ou|oder|y|et|und)\b)?[\s,;]*$", re.I)
_BULLET_RE = re.compile(r"^[ \t]*[-•*][ \t]+(\S.*)$", re.MULTILINE)
_SLUG_RE = re.compile(r"(?<![\w@./-])([a-z][a-z0-9]*(?:[-_][a-z0-9]+){1,5})(?![\w@-])")
# "dois-je", "doit-elle", "est-ce", "peut-on": French inversions, not agent names.
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
_INVERSION_RE = re.compile(
    r"(?:-t)?-(?:je|tu|il|elle|on|nous|vous|ils|elles|ce|moi|toi|le|la|les)$"
)
_EMAIL_RE = re.compile(r"^[\w.+-]+@[\w-]+\.[\w.]+")
# A dot inside a word ("lena@brightlane.co", "2024.xlsx") does not end a sentence.
_SENTENCE_RE = re.compile(r"(?:[^.!?\n]|\.(?=[\w/]))+[.!?]*")
_QUESTION_END_RE = re.compile(r"\?\s*$")
# How a proposal opens ("Want me to …?", "¿Quieres que…?"); what follows is the action.
_PROPOSAL_LEADS = (
    r"shall i|should i|want me to|would you like me to|do you want me to|like me to|"
    r"quieres que|deseas que|soll ich|quer que|vuoi che|volete che|desideri che"
)
# "I can build a watcher that … — just say the word." proposes without a question.
_SAY_THE_WORD_RE = re.compile(
    r"\b(?:just say the word|say the word|just say (?:yes|go)|let me know if you(?:'d like| want)"
    r"(?: me to)?(?: it)?|if you(?:'d like| want),? i can)\b",
    re.IGNORECASE,
)
_OFFER_RE = re.compile(
    rf"\b(?:{_PROPOSAL_LEADS}|"
    r"would that help|would it help|want (?:to|that)|would you like to|do you want to|"
    r"ready (?:to|for me to)|ok(?:ay)? to|sound(?:s)? good|go ahead|create it|set it up|"
    r"^do it|^shall we|"
    r"te parece|voulez-vous|veux-tu|tu veux|souhaitez-vous|"
    r"moechtest du|mochtest du|willst du|posso)\b",
    re.IGNORECASE,
)
# "¿Lo configuro?", "Je le configure ?", "Richte ich ihn ein?": shall I set it up.
_SET_IT_UP_RE = re.compile(
    r"^[¿¡ ]*(?:(?:lo|la|los|te lo|se lo) (?:configuro|creo|hago|activo|preparo|programo)|"
    r"je (?:le|la|les) (?:configure|cr[ée]e|mets en place|lance)|"
    r"(?:richte|erstelle|lege) ich (?:ihn|es|sie|das))\b",
    re.IGNORECASE,
)
# A proposal waits for a yes; what comes after its lead is the action proposed: "invite
# lena@…", "retry", "add it to…".
_PROPOSED_RE = re.compile(
    rf"\b(?:{_PROPOSAL_LEADS}|can i|may i|voulez-vous que je|veux-tu que je|tu veux que je|"
    r"quer que eu|do you want to|would you like to)\s+(.+)$",
    re.IGNORECASE,
)
# What a proposal does to the workspace rather than to an agent.
_PLATFORM_OBJECT_RE = re.compile(
    r"^(?:\w+ ){0,3}(?:the |a |your |google |saml )?(?:sso|single sign-on|2fa|two-factor|"
    r"connection|integration|oauth|plan|billing|invoices?|api keys?|seats?|roles?|"
    r"permissions?|workspace|member|invite|payment (?:method|details)|subscription)\b",
    re.IGNORECASE,
)
_ACCESS_LOST_RE = re.compile(
    r"\b(?:token|credentials?|api key|access|authori[sz]ation|connection|oauth)\b[^.]{0,40}\b"
    r"(?:expired|revoked|invalid|was removed|no longer valid|disconnected|lost)\b|"
    r"\b(?:expired|revoked|invalid)\s+(?:\w+\s+){0,2}(?:token|credentials?|api key|access)\b",
    re.IGNORECASE,
)
# What the workspace has, as the assistant talks about it.
_SETTINGS_RE = re.compile(
    r"\b(?:workspace|(?:starter|pro|team|business|enterprise|free) plan|your plan|billing|"
    r"invoices?|integration|scope|api keys?|notifications?|members?|seats?|sso|2fa|"
    r"two-factor|payment method)\b",
    re.IGNORECASE,
)
# A numbered list of the workspace's things (keys, members, integrations), not agents.
_SETTINGS_LIST_RE = re.compile(
    r"\b(?:api keys?|keys|tokens|members|users|people|integrations|webhooks|invoices|seats)\b"
    r"[^\n]{0,40}$",
    re.IGNORECASE,
)
_WHICH_ONE_RE = re.compile(
    r"^(?:[\w ]{0,20}[:,\u2014-] )?(?:which|what) (?:one|agent)\b[^?]{0,20}\?$", re.I
)
_FROM_NOW_ON_RE = re.compile(
    r"\b(?:from now on|going forward|instead|a partir de ahora|d[ée]sormais|ab jetzt|k[üu]nftig|"
    r"de agora em diante)\b",
    re.I,
)
# "Which one would you like me to run?" after the agents were named.
_WHICH_OF_THEM_RE = re.compile(r"^(?:so,? |and )?(?:which|what) (?:one|agent)\b[^?]{0,40}\?$", re.I)
_WHICH_DO_YOU_PREFER_RE = re.compile(
    r"^(?:so,? )?(?:which (?:one )?(?:would you (?:like|prefer)|do you (?:prefer|want)|"
    r"works (?:better|best)|sounds better)|what (?:would|do) you prefer)\b",
    re.IGNORECASE,
)
_CREATE_IT_RE = re.compile(
    r"\b(?:create|build|set up|make) (?:it|this|that|them)\b(?! change)", re.I
)
# "I can build a watcher that …": what is offered, after its lead.
_OFFERED_RE = re.compile(r"^.*?\b(?:i can|i could|i'?d be happy to|happy to)\s+", re.I)
# "start building it", "start the Slack setup": what starts is in the rest, for the model.
_ASPECT_RE = re.compile(r"(?:start|begin|go ahead)\b", re.I)
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
_ADMINISTERS_RE = re.compile(
    r"\b(?:connect|disconnect|reconnect|invite|upgrade|downgrade|switch (?:to|plans?)|"
    r"which (?:plan|role|account|integration|workspace))\b",
    re.I,
)
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
# Not Spanish "o": in Portuguese it is the article ("Quer que eu rode o relatório?").
_OR_RE = re.compile(r",?\s+(?:or|ou|oder)\s+", re.I)
# What leads up to the first side of an either/or question: "Got it. Should I …", "… be".
_ASKING_LEAD_RE = re.compile(
    r"^.*?\b(?:should|shall|would|do|does|is|are|can|could|want|soll|sollen|quieres|prefieres|"
    r"debo|voulez|veux|preferez|dois|quer|prefere|devo)\b(?:\s+(?:i|we|you|that|this|it|they|"
    r"me|to|like|prefer|rather|be|have|ich|wir|que|je|eu))*\s+",
    re.I,
)
_WH_RE = re.compile(
    r"^(?:[\w ]{0,20}[:,\u2014-] )?(?:which|what|where|when|how|who|why|whose|cual|que|quel|quelle|"
    r"ou|quand|comment|welche[rsmn]?|was|wo|wann|wie)\b",
    re.I,
)
_SOMETHING_ELSE_RE = re.compile(
    r"^(?:something else|none|nothing|cancel|other|neither|otra cosa|autre chose|etwas anderes)",
    re.IGNORECASE,
)
# What a setup question asks for, by its cue words.
_ASKS = (
    ("source", re.compile(r"come from|live[sd]?\b|read from|which (?:tool|source|app|system)|"
                          r"what source|data (?:is|are) (?:in|kept)|keep (?:those|the|it)", re.I)),
    ("schedule", re.compile(r"how often|when should|what time|time ?zone|which day|schedule|"
                            r"frequency|cada cuanto|a quelle heure|wie oft", re.I)),
    ("destination", re.compile(r"channel|where should (?:i|it|the \w+) (?:send|post|go)|"
                               r"where should .{0,30}go|send (?:it|them|the \w+) to|"
                               r"who should (?:get|receive)|email address|recipient", re.I)),
    ("trigger", re.compile(r"watch (?:for|out)|what (?:counts|should count|"
                           r"should it (?:watch|look|track|check))|what (?:specific )?data|"
                           r"include|track|threshold|"
                           r"which (?:project|board|database|sheet|repo|repository|folder|table|"
                           r"inbox|mailbox|calendar|list|pipeline)s?|should it (?:watch|monitor)",
                           re.I)),
    ("action", re.compile(r"what should (?:happen|it do)|alert,|summary or|report or", re.I)),
    ("name", re.compile(r"\bname\b|\bcall (?:it|this)\b|\bcalled\b", re.I)),
    ("inputs", re.compile(r"inputs?\b|take as|example input", re.I)),
    ("outputs", re.compile(r"outputs?\b|return|give back|produce", re.I)),
)  # fmt: skip
_SETUP_RE = re.compile(
    r"\b(?:set (?:that|it|this|one) up|set up|let'?s (?:create|build|set)|create one|"
    r"build (?:a|the|your)|new agent|the agent\b|recap|so far|almost done|last thing|"
    r"i'?ll help you|"
    r"happy to set|sounds useful|got it|noted)\b",
    re.IGNORECASE,
)
_ASKS_FOR_AGENT_RE = re.compile(
    r"\b(?:make|create|build|set up|setup|spin up|need|want|add)\b.{0,30}"
    r"\b(?:agent|bot|monitor|automation|watcher|alert)s?\b",
    re.IGNORECASE,
)
# "Sure, I'll create an agent for that.": the assistant says what it is setting up.
_SETTING_UP_RE = re.compile(
    r"\b(?:i'?ll|i will|let'?s|i'?m (?:setting up|creating|building)) (?:create|build|set up|"
    r"make)?\s*(?:a|an|the|this|your)?\s*(?:new )?(agent|skill)\b",
    re.IGNORECASE,
)
_SETUP_SETTING_RE = re.compile(
    r"\b(?:should|shall|will|do you want) (?:the|this|your) (?:new )?(skill|agent)\b", re.I
)
_GO_ON_RE = re.compile(
    r"\b(?:continue|finish|resume|pick (?:it|that|this) (?:back )?up|"
    r"carry on|keep going|go on)\b",
    re.I,
)
_HELD_SETUP_RE = re.compile(
    r"\b(?:(?:agent|skill) (?:setup|set-up) (?:on hold|aside|for later)|"
    r"(?:started|were|was) setting up (?:an? |the |your )?(?:new )?(?:agent|skill)|"
    r"(?:continue|pick up|finish) (?:setting up |with )?(?:the |that |your )(?:agent|skill)|"
    r"(?:agent|skill) we (?:were|started) setting up|unfinished (?:agent|skill))",
    re.IGNORECASE,
)
_SKILL_RE = re.compile(r"\b(?:skill|skills|habilidad|competence|fahigkeit|faehigkeit)\b", re.I)
_RAN_RE = re.compile(
    r"\b(?:running|ran|re-?ran|started|queued|triggered|kicked off|finished|completed|"
    r"found|posted|generated|produced|sent)\b",
    re.IGNORECASE,
)
_CHANGED_RE = re.compile(
    r"\b(?:now (?:runs|posts|sends|checks|reads)|updated|changed|moved|paused|resumed|renamed|"
    r"switched|ge[aä]ndert|aktualisiert|cambiad[oa]|actualizad[oa]|modifi[eé]|mis [aà] jour|"
    r"alterad[oa]|atualizad[oa])\b",
    re.IGNORECASE,
)
_CREATED_RE = re.compile(
    r"\b(?:created|i'?ve (?:set up|made|built)|is (?:live|ready)|fertig|erstellt|angelegt|"
    r"eingerichtet|creado|cr[eé]{2}|cri(?:ei|ado)|est[aá] (?:listo|activo|pronto|ativo))\b",
    re.I,
)
_DESCRIBES_RE = re.compile(r"\b(?:runs|checks|reads|posts|sends|watches|is (?:currently|active|"
                           r"paused))\b|\n- \w+:", re.I)  # fmt: skip


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


# "… pause jira-overdue-monitor, notion-reporter, or both?": a side of its own.
_BOTH = frozenset({"both", "all", "ambos", "ambas", "les deux", "beide", "todos"})
# How sure the model must be that a verbless side of an either/or is an action of its own.
_SURE = 0.5
# A side that names a thing of its own ("or a separate agent that …") is judged on its own.
_THING_RE = re.compile(r"\b(?:agent|skill|bot|monitor|automation|workspace|account)s?\b", re.I)


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
            names_a_thing = _THING_RE.search(side)
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


def names_an_action(label: str) -> bool:
    """Whether a listed option says what it would do ("Run it now") rather than being an item
    of information ("June 1 - failed")."""
    return _by_verb(label, _VERB_RULES) is not None


def _by_verb(text: str, rules: Sequence[tuple[ActionType, re.Pattern[str]]]) -> ActionType | None:
    text = text.strip()
    return next((action for action, rule in rules if rule.search(text)), None)


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
    if setup_question and _SKILL_RE.search(text):
        return ActionType.CREATE_SKILL
    if not setup_question and (setting_up := _SETTING_UP_RE.search(text)):
        skill = setting_up.group(1).lower() == "skill"
        return ActionType.CREATE_SKILL if skill else ActionType.CREATE_AGENT
    for said in users[:3]:
        if setup_question and _ASKS_FOR_AGENT_RE.search(said):
            return ActionType.CREATE_AGENT
        action, confidence = judge(said)
        if action in (ActionType.CREATE_AGENT, ActionType.CREATE_SKILL) and confidence >= 0.5:
            return ActionType.CREATE_SKILL if _SKILL_RE.search(said) else action
        if confidence >= 0.75 and action != ActionType.UNKNOWN:
            return None  # the user was doing something else
    if setup_question and (_SETUP_RE.search(text) or not named):
        return ActionType.CREATE_AGENT
    return None


def read_prose(history: Sequence[HistoryTurn], known: Sequence[str], judge: Judge) -> Prose:
    """Read the latest assistant text of ``history`` (oldest first) as a follow-up sees it."""
    prev_index = next(
        (i for i in range(len(history) - 1, -1, -1) if history[i].get("role") == "assistant"),
        None,
    )
    if prev_index is None:
        return Prose()
    text = str(history[prev_index].get("content") or "")
    users = [
        str(t.get("content") or "")
        for t in reversed(history[:prev_index])
        if t.get("role") == "user"
    ]
    named = _agent_names(text, known)
    last_agent = named[0] if named else None
    question = _question(text)
    before = text[: text.rfind(question)] if question else text
    ran = bool(named) and bool(_RAN_RE.search(before or text))

    items = _ITEM_RE.findall(text) or _inline_items(text)
    if len(items) >= 2:
        return _numbered(items, text, question, known, judge, last_agent, users)

    in_question = _agent_names(question, known) if question else []
    if len(in_question) < 2 and len(named) >= 2 and question and _WHICH_OF_THEM_RE.match(question):
        # "All three are available: notion-reporter, … Which one should I run?"
        in_question = named
    if len(in_question) >= 2 and _WH_RE.match(question):
        # "Which agent should I run: notion-reporter, jira-overdue-monitor or …?"
        asked = _by_verb(question, _LIST_ASKS) or ActionType.QUERY_INFO
        return Prose(listed_agents=tuple(in_question), prev_intent=asked, last_agent=last_agent)

    offer: ActionType | None = None
    offer_text = ""
    asking = tuple(key for key, cue in _ASKS if cue.search(question)) if question else ()
    yes_no = bool(question) and not _WH_RE.match(question) and not _OR_RE.search(question)
    proposed = _PROPOSED_RE.search(question) if yes_no else None
    # "Want me to run it again with PLATFORM included?" proposes a run, whatever it mentions.
    proposed_action = (
        _by_verb(proposed.group(1), _VERB_RULES)
        if proposed and not _ASPECT_RE.match(proposed.group(1))
        else None
    )
    if proposed and not named and _PLATFORM_OBJECT_RE.search(proposed.group(1)):
        # "Want me to turn on Google SSO …?", "Should I start the connection …?"
        proposed_action = ActionType.MANAGE_PLATFORM
    if not question and _SAY_THE_WORD_RE.search(text):
        # No question mark, still a proposal: the sentence that makes it says what.
        said = [s.strip() for s in _SENTENCE_RE.findall(text) if s.strip()]
        offer_text = said[-1] if said else text
        offer = _by_verb(_OFFERED_RE.sub("", offer_text), _VERB_RULES) or judge(offer_text)[0]
        if offer == ActionType.UNKNOWN:
            offer, offer_text = None, ""
    if (
        yes_no
        and (_OFFER_RE.search(question) or _SET_IT_UP_RE.match(question))
        and (not asking or proposed_action)
    ):
        # What is proposed: the question with the sentence that says what "it" is.
        sentences = [s.strip() for s in _SENTENCE_RE.findall(before) if s.strip()]
        offer_text = " ".join([*sentences[-1:], question])
        # "I could change jira-overdue-monitor so … Should I make that change?": the verb of
        # the sentence that offers says what, when the question itself does not.
        offered = (
            _by_verb(_OFFERED_RE.sub("", sentences[-1]), _VERB_RULES)
            if sentences and _OFFERED_RE.match(sentences[-1]) and _agent_names(sentences[-1], known)
            else None
        )
        offer = proposed_action or offered or judge(offer_text)[0]
        targets = "|".join(["it", "them", *(re.escape(name) for name in named)])
        if named and re.search(rf"\b(?:run|rerun|re-run) (?:{targets})\b", question, re.I):
            offer = ActionType.EXECUTE_TASK
        bullets = _BULLET_RE.search(text) and re.search(r"\bcreate\b|\bready\b", question, re.I)
        if bullets or _CREATE_IT_RE.search(question):
            # "Shall I go ahead and create it?" after a plan: the thing planned.
            offer = ActionType.CREATE_SKILL if _SKILL_RE.search(text) else ActionType.CREATE_AGENT
        if offer == ActionType.UNKNOWN:
            offer = None

    alternatives: tuple[tuple[ActionType, str], ...] = ()
    if question and not asking and offer is None:
        alternatives = _alternatives(question, judge)
        if not alternatives and _WHICH_DO_YOU_PREFER_RE.match(question):
            # "I can add ANDROID to it, or create a separate agent. Which would you like?"
            said = [s.strip() for s in _SENTENCE_RE.findall(before) if _OR_RE.search(s)]
            alternatives = _alternatives(said[-1], judge) if said else ()

    wizard: ActionType | None = None
    if question:
        recap = offer in (ActionType.CREATE_AGENT, ActionType.CREATE_SKILL) and bool(
            _BULLET_RE.search(text)
        )
        if recap:
            wizard = offer
        elif asking and offer is None:
            wizard = _flow(text, users, judge, named, setup_question=True)
        elif offer is None and not alternatives and users:
            # "Should the skill cache results?", "Any rate limits I should respect?": a
            # question on the way through a setup the user asked for.
            wizard = _flow(text, users, judge, named, setup_question=False)

    setting = _SETUP_SETTING_RE.search(question) if question and wizard is None else None
    if setting and not any(name in known for name in named):
        # "Should the skill keep them as linked files or drop them?": a setting of the one
        # being set up, whose sides are answers, not requests.
        skill = setting.group(1).lower() == "skill"
        wizard = ActionType.CREATE_SKILL if skill else ActionType.CREATE_AGENT
        alternatives = ()
    held = _HELD_SETUP_RE.search(text) if wizard is None else None
    if held:
        # "I've put the agent setup on hold", "Earlier we started setting up an agent …": a
        # setup left open, which "let's finish that one" picks back up.
        skill = "skill" in held.group(0).lower()
        wizard = ActionType.CREATE_SKILL if skill else ActionType.CREATE_AGENT
        # "continue with it, or start something else?": going on is the setup's action.
        alternatives = tuple(
            (wizard if _GO_ON_RE.search(side) else action, side) for action, side in alternatives
        )

    prev_intent: ActionType | None = None
    sure = False
    if users:
        action, confidence = judge(users[0])
        if confidence >= 0.6 and action != ActionType.UNKNOWN:
            prev_intent = action
            sure = confidence >= 0.75
    if named and not question and not sure:
        if _CHANGED_RE.search(text):
            prev_intent = ActionType.UPDATE_AGENT
        elif ran:
            prev_intent = ActionType.EXECUTE_TASK
        elif _CREATED_RE.search(text):
            prev_intent = ActionType.CREATE_AGENT
        elif _DESCRIBES_RE.search(text):
            prev_intent = ActionType.QUERY_INFO
    answering: ActionType | None = None
    if wizard == ActionType.CREATE_AGENT and asking and _FROM_NOW_ON_RE.search(question or ""):
        # "Which Slack channel should it post to from now on?": a change being made to an
        # agent that exists, not a setup.
        wizard, answering = None, ActionType.UPDATE_AGENT
    open_question = bool(question) and _WH_RE.match(question) is not None and len(in_question) < 2
    if open_question and wizard is None and offer is None and not alternatives and users:
        # "Which exchange-rate provider should it call?" while the user was building a skill.
        action, confidence = judge(users[0])
        if action != ActionType.UNKNOWN and confidence >= 0.6:
            answering = action
    return Prose(
        answering=answering,
        needs_access=bool(_ACCESS_LOST_RE.search(text)),
        about_platform=(
            not named and offer is None and wizard is None and bool(_SETTINGS_RE.search(text))
        ),
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
    administers = bool(question) and bool(_ADMINISTERS_RE.search(question))
    options = []
    for n, label in items:
        label = label.strip()
        if _SOMETHING_ELSE_RE.match(label):
            action = ActionType.UNKNOWN
        elif _PLATFORM_OBJECT_RE.search(label) and not _leading_agent(label, known):
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
