"""What the conversation so far says about a short follow-up.

Follow-ups are resolved against the previous assistant turn's metadata (``TurnMeta``), never
against its prose: an ``offer`` answered with yes or no, numbered ``options`` or
``listed_agents`` picked by ordinal, an open ``wizard`` being answered, an ``agent_run`` to
repeat. "it" and "that agent" resolve to the last agent any assistant turn referenced.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from intents.offline.lexicon import ORDINALS, words
from intents.offline.text import Parsed
from intents.types import ActionType, HistoryTurn


def as_action(value: object) -> ActionType | None:
    """An ActionType from metadata, tolerating junk."""
    try:
        return ActionType(str(value))
    except ValueError:
        return None


def _str_list(value: object) -> list[str]:
    if not isinstance(value, (list, tuple)):
        return []
    return [str(v) for v in value if isinstance(v, (str, int)) and str(v).strip()]


@dataclass(frozen=True)
class Context:
    """The previous assistant turn's metadata, digested."""

    prev_intent: ActionType | None = None
    offer: ActionType | None = None
    offer_entities: Mapping[str, str] = field(default_factory=dict)
    options: tuple[tuple[int, ActionType, str], ...] = ()
    # "Should I add MOBILE to it, or create a separate agent?": each side and what it does.
    alternatives: tuple[tuple[ActionType, str], ...] = ()
    listed_agents: tuple[str, ...] = ()
    wizard: ActionType | None = None
    wizard_asking: tuple[str, ...] = ()
    last_agent: str | None = None
    last_run: str | None = None
    has_history: bool = False
    informed: bool = False  # the previous assistant turn carried metadata to read
    # The text asked an open question ("Which provider should it call?") while the user was
    # asking for this: a plain answer goes on with it.
    answering: ActionType | None = None
    # The text was about a workspace setting, no agent ("The workspace time zone is UTC"):
    # "change it to America/Chicago" changes that setting.
    about_platform: bool = False
    # The text said a run failed on an expired or revoked access ("the Jira API token
    # expired"): "fix it" reconnects.
    needs_access: bool = False


def _meta(turn: Mapping[str, Any]) -> Mapping[str, Any]:
    meta = turn.get("metadata")
    return meta if isinstance(meta, Mapping) else {}


def _agent_of(meta: Mapping[str, Any]) -> str | None:
    run = meta.get("agent_run")
    if isinstance(run, str) and run.strip():
        return run
    referenced = _str_list(meta.get("agents_referenced"))
    if referenced:
        return referenced[0]
    for key in ("intent", "offer"):
        block = meta.get(key)
        if isinstance(block, Mapping):
            ents = block.get("entities")
            if isinstance(ents, Mapping) and isinstance(ents.get("agent"), str):
                return str(ents["agent"])
    return None


def read_context(
    history: Sequence[HistoryTurn], *, wizard: Mapping[str, Any] | None = None
) -> Context:
    """Digest the history: only assistant metadata counts, the latest turn first.

    ``wizard``, when given, is the open wizard as the caller keeps it (``{}``: none open) and
    takes the place of any wizard the history's metadata mentions.
    """
    turns = [t for t in history if isinstance(t, Mapping)]
    if not turns:
        return Context()
    last_agent: str | None = None
    last_run: str | None = None
    for turn in reversed(turns):
        if turn.get("role") != "assistant":
            continue
        meta = _meta(turn)
        if last_agent is None:
            last_agent = _agent_of(meta)
        run = meta.get("agent_run")
        if last_run is None and isinstance(run, str) and run.strip():
            last_run = run
        if last_agent and last_run:
            break
    prev = next((t for t in reversed(turns) if t.get("role") == "assistant"), None)
    if prev is None:
        return Context(last_agent=last_agent, last_run=last_run, has_history=True)
    meta = _meta(prev)
    intent = meta.get("intent")
    prev_intent = as_action(intent.get("action_type")) if isinstance(intent, Mapping) else None
    offer = meta.get("offer")
    offer_action = None
    offer_entities: dict[str, str] = {}
    if isinstance(offer, Mapping):
        offer_action = as_action(offer.get("action_type"))
        ents = offer.get("entities")
        if isinstance(ents, Mapping):
            offer_entities = {
                str(k)[:40]: str(v)[:80] for k, v in ents.items() if isinstance(v, (str, int))
            }
    options: list[tuple[int, ActionType, str]] = []
    raw_options = meta.get("options")
    if isinstance(raw_options, (list, tuple)):
        for pos, opt in enumerate(raw_options, start=1):
            if not isinstance(opt, Mapping):
                continue
            action = as_action(opt.get("action_type"))
            if action is None:
                continue
            n = opt.get("n")
            number = n if isinstance(n, int) and not isinstance(n, bool) else pos
            options.append((number, action, str(opt.get("label", ""))))
    open_wizard = meta.get("wizard") if wizard is None else wizard
    wizard_action = None
    asking: tuple[str, ...] = ()
    if isinstance(open_wizard, Mapping) and open_wizard:
        wizard_action = as_action(open_wizard.get("kind")) or ActionType.CREATE_AGENT
        asking = tuple(_str_list(open_wizard.get("asking")))
    return Context(
        informed=bool(meta),
        prev_intent=prev_intent,
        offer=offer_action,
        offer_entities=offer_entities,
        options=tuple(options),
        listed_agents=tuple(_str_list(meta.get("listed_agents"))),
        wizard=wizard_action,
        wizard_asking=asking,
        last_agent=last_agent,
        last_run=last_run,
        has_history=True,
    )


# --- what kind of follow-up a message is -------------------------------------------------

_FILLER = words(
    "please pls plz just then now ok okay so well thanks thank you one that this it do go "
    "ahead and the a lets let us for me sure yes really great perfect cool right away "
    "por favor s il te plait vous bitte favor entonces alors dann entao "
    "oh ah thatd that would be sounds good idea nice awesome excellent love wonderful"
)
# "please" alone answers an offer as "yes" does.
_PLEASE = words("please pls plz por favor bitte plait")
_NUMBER_RE = re.compile(
    r"^(?:#|no\.? ?|nr\.? ?|n\.? ?|option ?|opcion ?|opcao ?|number ?|"
    r"numero ?|nummer ?)?([1-9])\b"
)
_RECAP_RE = re.compile(
    r"\b(?:where (?:were|was|are|did) (?:we|i)|where did we (?:leave|stop)|what was i doing|"
    r"remind me (?:where|what)|(?<!un )(?<!a )(?<!le )(?<!the )(?<!weekly )(?<!daily )recap|"
    r"what(?:s| is| do you)? (?:left|still need|missing)|"
    r"what do you need from me|where was i|pick up where|continue where|"
    # "resume" goes on; "un résumé par e-mail" is a summary.
    r"(?<!un )(?<!le )(?<!du )(?<!ce )(?<!mon )(?<!son )(?<!en )(?<!a )(?<!the )"
    r"resume(?!\s+(?:it|that|this|them|the|my|our|all|par|de|des|du|en|hebdo\w*|quotidien\w*|"
    r"\w+[-_]\w+))|"
    r"donde (?:estabamos|quedamos|nos quedamos)|en que (?:estabamos|quedamos|ibamos)|"
    r"por donde (?:ibamos|iba)|"
    r"ou en etions|ou on en etait|ou en sommes|on en etait ou|wo waren wir|wo war ich|"
    r"wo sind wir stehen|onde (?:paramos|estavamos|ficamos)|em que ponto)\b"
)
_CANCEL_RE = re.compile(
    r"\b(?:cancel|stop|abort|never ?mind|forget (?:it|about it)|scrap (?:it|that)|"
    r"quit|exit|leave it|drop it|not anymore|(?:lets )?(?:drop|scrap|ditch|abandon|shelve) "
    r"(?:this|that|the whole)(?: \w+)? (?:idea|thing|plan|setup)|cancela|cancelar|olvidalo|"
    r"annule[rz]?|laisse tomber|abbrechen|vergiss es|cancelar|esquece|annulla|annullalo|"
    r"lascia perdere|lascia stare)\b"
)


def is_recap(parsed: Parsed) -> bool:
    """ "Where were we?": short, or a question ("... un résumé chaque vendredi" is not one)."""
    short = len(parsed.units) <= 10 or (
        parsed.norm.rstrip().endswith("?") and len(parsed.units) <= 16
    )
    return short and bool(_RECAP_RE.search(parsed.norm))


# "forget it, cancel the setup. recruiting froze hiring anyway", "stop, I changed my mind":
# a cancel that opens the message, whatever reason follows it.
_CANCEL_LEAD_RE = re.compile(
    r"^(?:(?:ok|okay|hmm|lol|ugh|actually|wait|no|nah|sorry|oh)\W+)*"
    r"(?:cancel|stop|abort|never ?mind|forget (?:it|about it)|scrap (?:it|that)|drop it|"
    r"leave it)(?: (?:it|that|this|the setup|the whole thing|everything))?(?: then)?\s*"
    r"(?:[,.;!]|$)"
)
_NEVER_MIND_RE = re.compile(r"\b(?:never ?mind|forget (?:it|about it)|changed my mind)\b")
_CHANGED_MIND_RE = re.compile(
    r"\b(?:changed my mind|change of plans?|not doing this|not going ahead|cambie de opinion|"
    r"change d avis|mes plans ont change|es uberlegt|mudei de ideia)\b"
)


def is_cancel(parsed: Parsed) -> bool:
    norm = parsed.norm
    if _CANCEL_RE.search(norm) and len(parsed.units) <= 6:
        return True
    return bool(_CANCEL_LEAD_RE.match(norm)) or (
        bool(_CHANGED_MIND_RE.search(norm)) and len(parsed.units) <= 12
    )


def _content(parsed: Parsed) -> list[str]:
    return [u.canon for u in parsed.units if u.canon not in _FILLER and "YES" not in u.concepts]


def is_affirmation(parsed: Parsed) -> bool:
    """ "yes", "sure, go ahead", "do it", "👍": agreement with nothing else of weight."""
    units = parsed.units
    if not units or len(units) > 8:
        return False
    if not any("YES" in u.concepts for u in units[:3]):
        return len(units) <= 2 and all(u.canon in _PLEASE for u in units)
    if any("NO" in u.concepts for u in units[:2]) or _NEVER_MIND_RE.search(parsed.norm):
        return False  # "lol ok never mind then"
    return len(_content(parsed)) <= 1


def is_denial(parsed: Parsed) -> bool:
    """ "no", "nope, not now", "no thanks": refusal, maybe followed by something else."""
    units = parsed.units
    return bool(units) and units[0].canon in ("no", "cancel")


def denial_rest_is_empty(parsed: Parsed) -> bool:
    return (
        len(
            [
                u
                for u in parsed.units[1:]
                if u.canon not in _FILLER and u.concepts != ("NO",) and "THANKS" not in u.concepts
            ]
        )
        == 0
    )


def selection(parsed: Parsed, size: int) -> int | None:
    """A 0-based pick among ``size`` numbered items ("2", "the second one", "el primero")."""
    if size <= 0 or len(parsed.units) > 10:
        return None
    norm = parsed.norm
    match = _NUMBER_RE.match(norm)
    picked: int | None = int(match.group(1)) if match else None
    if picked is None:
        tokens = parsed.tokens
        for i, tok in enumerate(tokens):
            if tok in _PRONOUN_ONES and i > 0 and tokens[i - 1] not in _NUMBER_NOUNS:
                continue  # "a new one", "the separate one": a pronoun, not a number
            if tok in ORDINALS and (tok not in _WEAK_ORDINALS or len(tokens) <= 3):
                # "the last run", "last week", "le mois dernier" are about time, not the list.
                if i + 1 < len(tokens) and tokens[i + 1] in _TIME_AFTER_ORDINAL:
                    continue
                if i > 0 and tokens[i - 1] in _TIME_BEFORE_ORDINAL:
                    continue
                picked = ORDINALS[tok]
                break
            if tok.isdigit() and len(tok) == 1 and len(parsed.tokens) <= 6:
                picked = int(tok)
                break
    if picked is None:
        return None
    index = size - 1 if picked == -1 else picked - 1
    return index if 0 <= index < size else None


_PRONOUN_ONES = words("one un uno um")
_NUMBER_NOUNS = words("number option no nr numero nummer opcion opcao choice")
_TIME_BEFORE_ORDINAL = words("mois semaine annee mes semana ano monat woche jahr trimestre")
_TIME_AFTER_ORDINAL = words("run runs time week month night year quarter day friday monday")
# Words that are ordinals only when the message is little else ("one", "un", "dos"…).
_WEAK_ORDINALS = words(
    "one two three four five un uno um dos deux zwei dois tres trois drei vier quatre "
    "quatro cinco cinq six seven former segunda quinta quarta"
)


RUN_CUES = frozenset({"V_RUN", "T_AGAIN", "T_NOW", "V_START", "V_GENERATE", "T_TODAY"})
CHANGE_CUES = frozenset({"V_CHANGE", "ADV_INSTEAD", "V_DELETE", "V_STOP", "RECUR", "V_MAKE"})
INFO_CUES = frozenset(
    {
        "V_SHOW",
        "N_DETAIL",
        "Q_WHAT",
        "N_STATUS",
        "N_HISTORY",
        "Q_WHEN",
        "V_CHECK",
        "Q_HOW",
        "Q_WHY",
        "Q_HOWMANY",
        "Q_WHERE",
        "Q_WHO",
    }
)
ANSWER_KEYS = frozenset({"schedule", "frequency", "source", "destination", "time"})
