"""The name a message gives an agent, as written and as a slug."""

from __future__ import annotations

import re

from conversations.agents.selectors import agent_name

_NAME_RE = re.compile(
    r"(?:\bnamed|\bcalled|\bcall it|\bname it|\bnommé|\bnommée|\bappel(?:é|ée|le-le|lez-le)|"
    r"\bllamado|\bllamada|\bllámalo|\bllamalo|\bnamens|\bnenne? (?:es|ihn|sie)|\bchamado|"
    r"\bchama-o|\bcham[ae] (?:ele|ela|o|a)? ?de|\b(?:name|nombre|nom|nome)(?=\s*[:=])|"
    r"\bchiamal[oa]|\bchiamat[oa]|\bsi chiama|\bil nome (?:è|e|sarà|sara)|"
    r"\bnoem (?:hem|het|haar)|\bgenaamd|\bname(?= (?-i:[A-Z]))|"
    r"\bthe name (?:is|should be|will be)|"
    r"\bel nombre (?:es|será|sera|puede ser)|\ble nom (?:est|sera)|\bder name (?:ist|soll)|"
    r"\bo nome (?:pode ser|é|e|será|sera))\s*[:=]?\s*[\"'“«]?([^\W_][\w-]{1,60})",
    re.IGNORECASE,
)
# A name in quotes may have spaces: «Cobros de Facturación», "Deal Watch".
_QUOTED_NAME_RE = re.compile(
    r"(?:\bnamed|\bcalled|\bcall it|\bname it|\bnommé|\bnommée|\bllamado|\bllamada|"
    r"\bnamens|\bchamado|\bchiamato|\bagent|\bagente|\bagenten|\bbot)\s*[:=]?\s*[\"“«']"
    r"([^\"”»'\n]{2,60})[\"”»']",
    re.IGNORECASE,
)


def name_in(text: str) -> str | None:
    """The agent name a request gives, as a slug ("«Relances Échues»" -> relances-echues)."""
    written = name_as_written(text)
    return (agent_name(written) or None) if written else None


# A written name runs on over capitalized words, and the small words between them: "chama de
# Relatório de Faltas", "Crash Morning Brief".
_NAME_GOES_ON_RE = re.compile(
    r"(?:\s+(?:(?:de|da|do|dos|das|des|du|di|del|della|von|van|der|of|the|for|and|und|e|y|et)"
    r"\s+){0,2}[A-ZÀ-Þ][\w-]*){1,4}"
)


def name_as_written(text: str) -> str | None:
    """The name as the user wrote it: quoted («Relances Échues»), or after "called"/"chamado",
    running on while words are capitalized ("chamado Pedidos Atrasados que …")."""
    quoted = _QUOTED_NAME_RE.search(text)
    if quoted:
        return quoted.group(1).strip()
    # "Name it jira-overdue-monitor. Actually no, call it Platform Overdue Radar": the last.
    match = next(reversed(list(_NAME_RE.finditer(text))), None)
    if match is None:
        return None
    return _runs_on(text, match.group(1), match.end())


def _runs_on(text: str, name: str, end: int) -> str:
    """``name`` (found in ``text`` up to ``end``) with the capitalized words after it, when
    it is capitalized itself."""
    more = _NAME_GOES_ON_RE.match(text, end) if name[:1].isupper() else None
    return name + more.group(0) if more else name


def renamed_as_written(text: str, first: str) -> str:
    """The new name of a rename as the user wrote it: ``first`` (what the entity reader found,
    lowercased) with its case, and the capitalized words after it ("rename sentry-digest to
    Crash Morning Brief")."""
    found = list(re.finditer(rf"(?<![\w-]){re.escape(first)}(?![\w-])", text, re.IGNORECASE))
    if not found:
        return first
    return _runs_on(text, found[-1].group(0), found[-1].end())


def without_name(text: str) -> str:
    return _NAME_RE.sub("", text)
