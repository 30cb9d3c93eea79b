"""Normalization, tokenization and lexicon lookup for the offline classifier.

The analyzer turns a message into "units": a single word or a known phrase, with its
canonical word, its concepts and, for tools and agents, which one it is. Unknown words
go through a light stemmer, a typo corrector (symmetric deletes, edit distance 1, or 2
for long words) and a splitter for words run together ("listmyagents").
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from intents.offline.analyzer import TIME_TOKEN_RE, Analyzer, Entry, Lexicon
from intents.offline.lexicon import (
    AGENT_WORD,
    words,
)

# Enough for any real request; a multi-megabyte paste is cut so the cost stays bounded.
MAX_HEAD = 1500
MAX_TAIL = 500

_EMOJI_WORDS = {
    "\U0001f44d": " yes ",  # thumbs up
    "\u2705": " yes ",
    "\U0001f44c": " yes ",
    "\U0001f64c": " yes ",
    "\u2714": " yes ",
    "\U0001f44e": " no ",
    "\u274c": " no ",
    "\U0001f6ab": " no ",
}
_EMOJI_RE = re.compile("|".join(map(re.escape, _EMOJI_WORDS)))
# Apostrophes: English contractions join ("don't" -> "dont"); French elisions split
# ("l'agent" -> "l agent") so the noun stays recognisable.
_CONTRACTION_RE = re.compile(r"(?<=[a-z])['\u2019`](s|t|d|ll|re|ve|m)\b")
_APOSTROPHE_RE = re.compile(r"['\u2019`]")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufeff]")
_SPACE_RE = re.compile(r"\s+")
_COMBINING_RE = re.compile("[\u0300-\u036f]")
TOKEN_RE = re.compile(
    r"#[a-z0-9][a-z0-9_\-]*"
    r"|[a-z0-9._%+\-]+@[a-z0-9\-]+(?:\.[a-z0-9\-]+)+"
    r"|\d{1,2}:\d{2}(?:am|pm)?"
    r"|[a-z0-9]+(?:[-_.][a-z0-9]+)*"
)


def clip(message: str) -> str:
    """Keep the head and the tail of an over-long message."""
    if len(message) <= MAX_HEAD + MAX_TAIL:
        return message
    return message[:MAX_HEAD] + " \n " + message[-MAX_TAIL:]


def normalize(message: str) -> str:
    """Lower-case, accent-free, contraction-joined text with control characters removed."""
    text = clip(message)
    if text.isascii():
        text = _CONTROL_RE.sub(" ", text).lower()
    else:
        text = _CONTROL_RE.sub(" ", text)
        text = _EMOJI_RE.sub(lambda m: _EMOJI_WORDS[m.group(0)], text)
        text = unicodedata.normalize("NFKD", text)
        text = _COMBINING_RE.sub("", text).casefold()
        if not text.isascii():
            text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _CONTRACTION_RE.sub(r"\1", text)
    text = _APOSTROPHE_RE.sub(" ", text)
    return _SPACE_RE.sub(" ", text).strip()


class Unit(NamedTuple):
    """One word or phrase of a message, as the lexicon understands it."""

    # A NamedTuple, not a dataclass: a message makes dozens and creation cost shows.
    canon: str
    concepts: tuple[str, ...]
    start: int  # index of the first token
    end: int  # one past the last token
    tag: str = ""  # which tool or agent, for SRC / CHAT / agent units


@dataclass(frozen=True, slots=True)
class Parsed:
    norm: str
    tokens: tuple[str, ...]
    units: tuple[Unit, ...]
    flags: frozenset[str] = field(default_factory=frozenset)
    concepts: frozenset[str] = field(default_factory=frozenset)


# Words after which a slug is the name the user gives something.
_NAMING = words("named called call name nombre llamado llamalo nomme appele heisst namens chamado")
_RENAME = ("renam", "renomm", "renombr", "umbenenn", "renomear", "rinomin")
_RENAME_TO = words("to as en in zu a para")
# What a name written as a slug is the name of: "the billing-service repo".
_CONTAINERS = words(
    "repo repos repository project board channel sheet spreadsheet base space folder workspace "
    "table queue pipeline list page database"
)
NAME_WORD = "__name__"
_PARTICLES = frozenset({"bei", "aus", "ein", "um", "an", "zusammen", "ab", "off", "on", "up"})
# Verbs whose particle may come after the object: "Bring den Agenten bei", "kick the notion
# reporter off", "turn the jira alerts off", "hook our Snowflake warehouse up".
_SEPARABLE_FIRST = words(
    "bring bringe bringt fuhr fuhre fuhrt fuehr fuehre lade ladet richte richtet stell stelle "
    "stellt leg lege legt fass fasse fasst pass passe passt lass kick fire turn shut switch flip "
    "hook"
)


def _similar(a: str, b: str) -> bool:
    return a == b or (len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5])


AgentKeys = tuple[tuple[tuple[str, ...], str], ...]
_AgentIndex = dict[str, list[tuple[tuple[str, ...], str]]]


@functools.lru_cache(maxsize=256)
def _agent_index(agents: AgentKeys) -> tuple[_AgentIndex, _AgentIndex]:
    """Agent names by first word (exact) and by the first five letters of it (loose)."""
    exact: _AgentIndex = {}
    loose: _AgentIndex = {}
    for parts, name in agents:
        exact.setdefault(parts[0], []).append((parts, name))
        if len(parts) >= 2:
            loose.setdefault(parts[0][:5] if len(parts[0]) >= 5 else parts[0], []).append(
                (parts, name)
            )
    return exact, loose


def _agent_at(tokens: Sequence[str], i: int, agents: AgentKeys) -> tuple[int, str] | None:
    """An agent name starting at token ``i``: exact, or its first and last words close by.

    "the jira monitor" and "the finance analysis" name jira-overdue-monitor and
    financial-analyzer; single-word names must match exactly.
    """
    exact, loose = _agent_index(agents)
    tok = tokens[i]
    for parts, name in exact.get(tok, ()):
        k = len(parts)
        if tuple(tokens[i : i + k]) == parts:
            return i + k, name
    for parts, name in loose.get(tok[:5] if len(tok) >= 5 else tok, ()):
        if not _similar(tok, parts[0]):
            continue
        for j in range(i + 1, min(len(tokens), i + len(parts) + 1)):
            if _similar(tokens[j], parts[-1]):
                return j + 1, name
    return None


_SLUG_SPLIT_RE = re.compile(r"[-_.]+")


def _separable_particle(
    tokens: Sequence[str], i: int, phrases: Mapping[tuple[str, ...], Entry]
) -> int | None:
    """Separable verbs: "Bring den Agenten bei" is "beibringen" (teach), "kick the notion
    reporter off" is "kick off" (run)."""
    tok = tokens[i]
    for j in range(i + 2, min(len(tokens), i + 9)):
        if tokens[j] in _PARTICLES and (tok, tokens[j]) in phrases:
            return j
    return None


def _longest_phrase(tokens: Sequence[str], i: int, lex: Lexicon) -> int:
    """Length of the longest lexicon phrase starting at token ``i`` (0 when none)."""
    for k in range(min(lex.phrase_len[tokens[i]], len(tokens) - i), 1, -1):
        if tuple(tokens[i : i + k]) in lex.phrases:
            return k
    return 0


def agent_keys(agents: Iterable[str]) -> AgentKeys:
    """Token tuples of agent names ("Notion-Reporter" -> ("notion", "reporter")), longest first."""
    keys: list[tuple[tuple[str, ...], str]] = []
    for name in agents:
        parts = tuple(p for p in re.split(r"[\s\-_.]+", normalize(name)) if p)
        if parts:
            keys.append((parts, name))
    keys.sort(key=lambda item: -len(item[0]))
    return tuple(keys)


# "every"/"each" is a schedule before a time ("every Monday", "each 2 hours") and a quantifier
# before anything else ("every overdue ticket", "cada cliente", "tous les tickets").
_QUANTIFIERS = frozenset(
    ["every", "each", "cada", "chaque", "jeden", "jede", "jeder", "jedes", "toda", "todo"]
)
_QUANTIFIER_PAIRS = frozenset(["todos", "todas", "tous", "toutes"])  # "todos los", "tous les"
_TIMELY = frozenset({"TIMEUNIT", "TIME", "RECUR", "NUM"})


def _quantifiers_are_not_schedules(units: list[Unit], tokens: list[str]) -> None:
    for index, unit in enumerate(units):
        if "RECUR" not in unit.concepts:
            continue
        width = unit.end - unit.start
        first = tokens[unit.start]
        if not (width == 1 and first in _QUANTIFIERS) and not (
            width == 2 and first in _QUANTIFIER_PAIRS
        ):
            continue  # "daily", "every morning", "each time": schedules on their own
        ahead = units[index + 1 : index + (4 if width == 1 else 2)]
        if ahead and "ADJ_NEW" in ahead[0].concepts:
            continue  # "each new ticket": a trigger
        if not any(_TIMELY.intersection(u.concepts) for u in ahead):
            units[index] = Unit("all", (), unit.start, unit.end)


def _names_a_thing(tokens: Sequence[str], raw: Sequence[str], at: int, tok: str) -> bool:
    """Whether the slug ``raw[at]`` is a name the user gives something, read from the word
    before it (naming, renaming) or after it (a container), so it is kept whole."""
    return bool(
        tokens
        and (
            tokens[-1] in _NAMING
            or (tokens[-1] in _RENAME_TO and any(t.startswith(_RENAME) for t in tokens[-4:]))
        )
    ) or ("." not in tok and at + 1 < len(raw) and raw[at + 1] in _CONTAINERS)


def _tokens(
    norm: str, analyzer: Analyzer, flags: set[str]
) -> tuple[list[str], set[int], dict[int, str]]:
    """The tokens of normalized text, with where a slug was split and where one is a name.

    Slugs ("notion-reporter", "google_sheets") are looked at whole, then as their parts; a
    channel or an address sets its flag in ``flags``.
    """
    tokens: list[str] = []
    whole: set[int] = set()
    names: dict[int, str] = {}
    raw = TOKEN_RE.findall(norm)
    for at, tok in enumerate(raw):
        if tok.isalnum():
            tokens.append(tok)
        elif tok[0] == "#":
            flags.add("channel")
            tokens.append(tok)
        elif "@" in tok:
            flags.add("email")
            tokens.append(tok)
        elif TIME_TOKEN_RE.fullmatch(tok) or tok in analyzer.lexicon.exact:
            tokens.append(tok)
        else:
            pieces = [p for p in _SLUG_SPLIT_RE.split(tok) if p]
            if len(pieces) < 2:
                tokens.append(tok)
            elif _names_a_thing(tokens, raw, at, tok):
                # "named standup-digest", "rename it to payment-failures", "the
                # billing-service repo" (not "the monday.com board", a tool): a name says
                # nothing of what is wanted.
                names[len(tokens)] = tok
                tokens.append(tok)
            else:
                whole.add(len(tokens))
                tokens.extend(pieces)
    return tokens, whole, names


def _phrase_unit(tokens: Sequence[str], i: int, lex: Lexicon) -> Unit | None:
    """The lexicon phrase (the longest one) or one-word phrase at token ``i``, if any."""
    tok = tokens[i]
    phrases = lex.phrases
    if i + 1 < len(tokens) and (tok, tokens[i + 1]) in lex.phrase_pairs:
        k = _longest_phrase(tokens, i, lex)
        if k:
            key = tuple(tokens[i : i + k])
            entry = phrases[key]
            return Unit(entry[0], entry[1], i, i + k, lex.phrase_tags.get(key, ""))
    entry1 = phrases.get((tok,))
    if entry1 is not None:
        return Unit(entry1[0], entry1[1], i, i + 1, lex.phrase_tags.get((tok,), ""))
    return None


def _units(
    tokens: Sequence[str],
    whole: set[int],
    names: Mapping[int, str],
    analyzer: Analyzer,
    agents: AgentKeys,
    flags: set[str],
) -> list[Unit]:
    """The lexicon units of the tokens, in order: an agent's name, a name the user gives, a
    separable verb, a phrase, then the word on its own; a split slug sets "slug" in ``flags``."""
    units: list[Unit] = []
    add = units.append
    lex = analyzer.lexicon
    phrases, phrase_first = lex.phrases, lex.phrase_first
    analyze = analyzer.analyze
    exact_index, loose_index = _agent_index(agents)
    agent_first = exact_index.keys() | loose_index.keys()
    skip: set[int] = set()
    i = 0
    n = len(tokens)
    while i < n:
        if i in skip:
            i += 1
            continue
        tok = tokens[i]
        if agent_first and (tok in agent_first or tok[:5] in agent_first):
            span = _agent_at(tokens, i, agents)
            if span is not None:
                end, name = span
                add(Unit(AGENT_WORD, ("AGENT",), i, end, name))
                i = end
                continue
        if i in names:
            add(Unit(NAME_WORD, ("NAME",), i, i + 1, tok))
            i += 1
            continue
        if tok in _SEPARABLE_FIRST:
            particle = _separable_particle(tokens, i, phrases)
            if particle is not None:
                entry = phrases[(tok, tokens[particle])]
                add(Unit(entry[0], entry[1], i, i + 1))
                skip.add(particle)
                i += 1
                continue
        if i in whole:
            flags.add("slug")
        if tok in phrase_first:
            unit = _phrase_unit(tokens, i, lex)
            if unit is not None:
                add(unit)
                i = unit.end
                continue
        if tok[0] == "#":
            add(Unit("__channel__", ("CHAT",), i, i + 1, tok))
        elif "@" in tok:
            add(Unit("__email__", ("EMAIL",), i, i + 1, tok))
        else:
            for canon, concepts in analyze(tok):
                add(Unit(canon, concepts, i, i + 1))
        i += 1
    return units


def parse(
    message: str,
    analyzer: Analyzer,
    agents: AgentKeys = (),
    *,
    normalized: bool = False,
) -> Parsed:
    """Normalize and tokenize a message, then map it to lexicon units."""
    norm = message if normalized else normalize(message)
    flags: set[str] = set()
    tokens, whole, names = _tokens(norm, analyzer, flags)
    units = _units(tokens, whole, names, analyzer, agents, flags)
    _quantifiers_are_not_schedules(units, tokens)
    return Parsed(
        norm=norm,
        tokens=tuple(tokens),
        units=tuple(units),
        flags=frozenset(flags),
        concepts=frozenset(c for u in units for c in u.concepts),
    )
