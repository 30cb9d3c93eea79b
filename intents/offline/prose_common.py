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
from intents.reading.cues import ANY_WORD, Cues, cues
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


@dataclass(frozen=True)
class Unaccented:
    """A word the text must hold as typed, without accents: the reading strips accents, and
    "resume" is not French "résumé" (a summary). ``first``: the text opens with it."""

    word: str
    first: bool = False

    def said_in(self, text: str) -> bool:
        typed = [w.strip(_EDGES) for w in text.lower().split()]
        typed = [w for w in typed if w]
        return (typed[:1] == [self.word]) if self.first else self.word in typed


_EDGES = ".,;:!?()[]\"'*`\u201c\u201d\u00bf\u00a1"
_ARTICLE = "=the|a|your|google|saml"
_NEW = "=new|separate|another|second"
_THING = "=agent|monitor|automation|bot"
# What a proposal does to the workspace rather than to an agent, named in its first words.
_PLATFORM_OBJECT = cues(
    f"""
    ^ …3 {_ARTICLE}? =sso|connection|integration|oauth|plan|billing|invoice|invoices
    ^ …3 {_ARTICLE}? =seat|seats|role|roles|permission|permissions|workspace|member|invite
    ^ …3 {_ARTICLE}? =subscription|2fa
    ^ …3 {_ARTICLE}? =two =factor
    ^ …3 {_ARTICLE}? =single =sign =on
    ^ …3 {_ARTICLE}? =api =key|keys
    ^ …3 {_ARTICLE}? =payment =method|details
    """
)
# What a listed option or a list's question asks for, by its leading verb; the model judges
# the rest. Checked in order: "add X to the workspace" is administration, "add X to an agent"
# a change. Verbs are read as typed: a synonym or a slip of one is another verb.
_VERB_RULES = (
    (ActionType.MANAGE_PLATFORM, cues(f"""
    ^ =invite|connect|disconnect|reconnect|reauthorize|reauthorise|revoke|rotate|buy|purchase
    ^ =re =authorize|authorise
    ^ =upgrade|downgrade
    ^ =add {ANY_WORD} =to =the =workspace|team
    ^ =remove {ANY_WORD} =from =the =workspace|team
    ^ =open =billing|settings
    """)),
    (ActionType.CREATE_SKILL, cues("^ =create|build|make|teach|write …6 =skill")),
    (ActionType.CREATE_AGENT, cues(f"""
    ^ =create|build|make|add|start =a|an? {_NEW}? {_THING}
    ^ =set =up =a|an? {_NEW}? {_THING}
    ^ =a|an? {_NEW}|different {_THING}
    """)),
    (ActionType.QUERY_INFO, cues("""
    ^ =show|list|explain|tell|see|view|display|describe|what|whats|how|hows
    ^ =check =when|what|how|whats|hows
    ^ =check =the =status
    ^ =look =at
    ^ =give =me =the? =details
    ^ =details|detail =on|about|of
    ^ =more =about
    ^ =info|information =on|about
    """)),
    (ActionType.EXECUTE_TASK, cues("""
    ^ =run|rerun|retry|generate|start|trigger|produce|pull
    ^ =re =run|try
    ^ =try =it? =again
    ^ =kick =off
    ^ =send =the|a|this =report|summary|digest =now
    """)),
    (ActionType.UPDATE_AGENT, cues("""
    ^ =change|edit|update|modify|pause|rename|delete|remove|move|switch|add|attach
    ^ =disable|enable|stop
    ^ =turn =back? =on|off
    """)),
    (ActionType.UPDATE_AGENT, Unaccented("resume", first=True)),
)  # fmt: skip
# German options end on their verb: "Zeitplan oder Empfänger ändern", "Jetzt ausführen".
_LAST_VERB_RULES = (
    (ActionType.EXECUTE_TASK, cues("=ausfuhren|starten $\n=laufen =lassen $")),
    (ActionType.QUERY_INFO, cues("=anzeigen|zeigen|ansehen|erklaren $")),
    (ActionType.UPDATE_AGENT, cues(
        "=andern|aendern|bearbeiten|anpassen|pausieren|fortsetzen|loschen|umbenennen $\n"
        "=verschieben $")),
)  # fmt: skip
_LIST_ASKS = (
    (ActionType.UPDATE_AGENT, cues("""
    =edit|change|update|modify|pause|rename|delete|remove|reschedule|adjust|tweak
    =turn =back? =on|off
    =start =using
    =use =it|this|that
    """)),
    (ActionType.UPDATE_AGENT, Unaccented("resume")),
    (ActionType.QUERY_INFO, cues("""
    =details|detail|see|info|information|explain|history|status
    =more =about
    =know =more
    =look =at
    =tell =you
    """)),
    (ActionType.EXECUTE_TASK, cues("""
    =run|start|trigger|execute|retry|rerun
    =kick =off
    """)),
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


def said(text: str, cue_set: Cues | Unaccented) -> bool:
    """Whether the text says what the cue set says (the text's reading, made once)."""
    if isinstance(cue_set, Unaccented):
        return cue_set.said_in(text)
    # The reading imports the offline modules: it is imported here, not at the top.
    from intents.reading.reading import read

    return read(text).matches(cue_set)


def _by_verb(text: str, rules: Sequence[tuple[ActionType, Cues | Unaccented]]) -> ActionType | None:
    """The action of the first rule whose cues the text says, if any."""
    return next((action for action, rule in rules if said(text, rule)), None)


# What the previous assistant turn's prose says, as cues (``intents.offline.prose`` reads them).
# "I can build a watcher that … — just say the word." proposes without a question.
_SAY_THE_WORD = cues("""
    =say =the =word
    =just =say =yes|go
    =let =me =know =if =youd =like
    =let =me =know =if =you =want
    =if =youd =like =i =can
    =if =you =want =i =can
""")
# How a proposal opens ("Want me to …?", "¿Quieres que…?"); what follows is the action.
_PROPOSES = """
    =shall|should =i
    =want|like =me =to
    =quieres|deseas|quer =que
    =soll =ich
    =vuoi|volete|desideri =che
"""
_OFFER = cues(
    _PROPOSES
    + """
    =would =that|it =help
    =want =to|that
    =would =you =like =to
    =ready =to
    =ready =for =me =to
    =ok|okay =to
    =sound|sounds =good
    =go =ahead
    =create =it
    =set =it =up
    ^ =do =it
    ^ =shall =we
    =te =parece
    =voulez|souhaitez =vous
    =veux =tu
    =tu =veux
    =moechtest|mochtest|willst =du
    =posso
    """
)
# "¿Lo configuro?", "Je le configure ?", "Richte ich ihn ein?": shall I set it up.
_SET_IT_UP = cues("""
    ^ =lo|la|los =configuro|creo|hago|activo|preparo|programo
    ^ =te|se =lo =configuro|creo|hago|activo|preparo|programo
    ^ =je =le|la|les =configure|cree|lance
    ^ =je =le|la|les =mets =en =place
    ^ =richte|erstelle|lege =ich =ihn|es|sie|das
""")
# Access that was lost: what gave it, then (a few words on) what became of it, or the other
# way round.
_GRANT = "=token|credential|credentials|access|authorization|authorisation|connection|oauth"
_LOST = "=expired|revoked|invalid|disconnected|lost"
_ACCESS_LOST = cues(f"""
    {_GRANT} …6 {_LOST}
    {_GRANT} …6 =was =removed
    {_GRANT} …6 =no =longer =valid
    =api =key …6 {_LOST}
    =api =key …6 =was =removed
    =api =key …6 =no =longer =valid
    =expired|revoked|invalid …2 =token|credential|credentials|access
    =expired|revoked|invalid …2 =api =key
""")
_FROM_NOW_ON = cues("""
    =from =now =on
    =going =forward
    =instead|desormais|kunftig
    =a =partir =de =ahora
    =ab =jetzt
    =de =agora =em =diante
""")
_WHICH_DO_YOU_PREFER = cues("""
    ^ =which =one? =would =you =like|prefer
    ^ =which =one? =do =you =prefer|want
    ^ =which =one? =works =better|best
    ^ =which =one? =sounds =better
    ^ =what =would|do =you =prefer
""")
_IT = "=it|this|that|them"
_CREATE_IT = cues(f"=create|build|make {_IT}\n=set =up {_IT}")
# "start building it", "start the Slack setup": what starts is in the rest, for the model.
_ASPECT = cues("^ =start|begin\n^ =go =ahead")


def _setting_up(kind: str) -> Cues:
    """ "I'll create an agent", "I'm setting up the skill": the assistant sets one up."""
    leads = ("=ill|lets", "=i =will", "=im =setting =up", "=im =creating|building")
    verbs = ("=create|build|make?", "=set =up")
    return cues(
        "\n".join(
            f"{lead} {verb} =a|an|the|this|your? =new? ={kind}" for lead in leads for verb in verbs
        )
    )


def _setup_setting(kind: str) -> Cues:
    """ "Should the skill …?": a question on a setting of the one being set up."""
    tail = f"=the|this|your =new? ={kind}"
    return cues(f"=should|shall|will {tail}\n=do =you =want {tail}")


def _held_setup(kind: str) -> Cues:
    """A setup of that kind left on hold, or one to pick back up."""
    k = f"={kind}"
    lines = [f"{k} {s} {w}" for s in ("=setup", "=set =up") for w in ("=on =hold", "=aside")]
    lines += [f"{k} =setup =for =later", f"{k} =set =up =for =later"]
    lines.append(f"=started|were|was =setting =up =a|an|the|your? =new? {k}")
    lines += [
        f"{lead} {mid} =the|that|your {k}"
        for lead in ("=continue|finish", "=pick =up")
        for mid in ("=setting =up", "=with", "")
    ]
    lines += [f"{k} =we =were|started =setting =up", f"=unfinished {k}"]
    return cues("\n".join(lines))


_SETTING_UP = {"agent": _setting_up("agent"), "skill": _setting_up("skill")}
_SETUP_SETTING = {"agent": _setup_setting("agent"), "skill": _setup_setting("skill")}
_HELD_SETUP = {"agent": _held_setup("agent"), "skill": _held_setup("skill")}
_SKILL = cues("=skill|skills|habilidad|competence|fahigkeit|faehigkeit")
_RAN = cues("""
    =running|ran|reran|started|queued|triggered|finished|completed|found|posted|generated
    =produced|sent
    =re =ran
    =kicked =off
""")
_CHANGED = cues("""
    =now =runs|posts|sends|checks|reads
    =updated|changed|moved|paused|resumed|renamed|switched|geandert|aktualisiert
    =cambiado|cambiada|actualizado|actualizada|modifie|alterado|alterada|atualizado|atualizada
    =mis =a =jour
""")
_CREATED = cues("""
    =created|fertig|erstellt|angelegt|eingerichtet|creado|cree|criei|criado
    =ive =set =up
    =ive =made|built
    =is =live|ready
    =esta =listo|activo|pronto|ativo
""")
_CREATE_OR_READY = cues("=create|ready")


def _which(text: str, kinds: dict[str, Cues]) -> str | None:
    """The kind ("agent", "skill") whose cues the text says first, if any."""
    from intents.reading.reading import read  # the reading imports the offline modules

    reading = read(text)
    spans = [(span, kind) for kind, c in kinds.items() if (span := reading.span_of(c))]
    return min(spans)[1] if spans else None


def _creates_it(question: str) -> bool:
    """ "create it", "set that up", unless a change is what is created ("make this change")."""
    from intents.reading.reading import read  # the reading imports the offline modules

    reading = read(question)
    at = 0
    while (span := reading.span_of(_CREATE_IT, after=at)) is not None:
        end = span[1]
        if end >= len(reading.positions) or reading.positions[end].word != "change":
            return True
        at = span[0] + 1
    return False


# What the workspace has, as the assistant talks about it.
_SETTINGS = cues("""
    =workspace|billing|invoice|invoices|integration|scope|notification|notifications
    =member|members|seat|seats|sso|2fa
    =starter|pro|team|business|enterprise|free|your =plan
    =api =key|keys
    =two =factor
    =payment =method
""")
_SETUP = cues("""
    =set =that|it|this|one? =up
    =lets =create|build|set
    =create =one
    =build =a|the|your
    =new|the =agent
    =recap|noted
    =so =far
    =almost =done
    =last =thing
    =ill =help =you
    =happy =to =set
    =sounds =useful
    =got =it
""")
_AGENTISH = "=agent|agents|bot|bots|monitor|monitors|automation|automations|watcher|watchers"
_ASKS_FOR_AGENT = cues(f"""
    =make|create|build|setup|need|want|add …6 {_AGENTISH}|alert|alerts
    =set|spin =up …6 {_AGENTISH}|alert|alerts
""")
_GO_ON = cues("""
    =continue|finish|resume
    =pick =it|that|this =back? =up
    =carry =on
    =keep =going
    =go =on
""")
