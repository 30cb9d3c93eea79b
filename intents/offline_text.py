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

from intents.offline_lexicon import (
    AGENT_WORD,
    CHAT_TOOLS,
    CHAT_WORD,
    COMMON_WORDS,
    GROUPS,
    SOURCE_WORD,
    SOURCES,
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
_REPEAT_RE = re.compile(r"(.)\1{2,}")
TOKEN_RE = re.compile(
    r"#[a-z0-9][a-z0-9_\-]*"
    r"|[a-z0-9._%+\-]+@[a-z0-9\-]+(?:\.[a-z0-9\-]+)+"
    r"|\d{1,2}:\d{2}(?:am|pm)?"
    r"|[a-z0-9]+(?:[-_.][a-z0-9]+)*"
)
_TIME_TOKEN_RE = re.compile(r"\d{1,2}(?::\d{2})?(?:am|pm|h|uhr)?")


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


_Entry = tuple[str, tuple[str, ...]]


def _merge(table: dict[str, _Entry], key: str, canon: str, concepts: tuple[str, ...]) -> None:
    """First group keeps the canonical word; concepts of later groups are added."""
    if key in table:
        old_canon, old_concepts = table[key]
        merged = old_concepts + tuple(c for c in concepts if c not in old_concepts)
        table[key] = (old_canon, merged)
    else:
        table[key] = (canon, concepts)


class Lexicon:
    """Exact forms, prefixes and phrases of the synonym lexicon, compiled once."""

    def __init__(self) -> None:
        self.exact: dict[str, _Entry] = {}
        self.prefix: dict[str, _Entry] = {}
        self.phrases: dict[tuple[str, ...], _Entry] = {}
        self.phrase_tags: dict[tuple[str, ...], str] = {}
        for canon, concept_text, forms in GROUPS:
            concepts = tuple(concept_text.split())
            for raw_form in forms.split("|"):
                form = raw_form.strip()
                if not form:
                    continue
                if " " in form:
                    _merge_phrase(self.phrases, tuple(form.split()), canon, concepts)
                elif form.endswith("*"):
                    _merge(self.prefix, form[:-1], canon, concepts)
                else:
                    _merge(self.exact, form, canon, concepts)
        for table, token, concept in (
            (SOURCES, SOURCE_WORD, "SRC"),
            (CHAT_TOOLS, CHAT_WORD, "CHAT"),
        ):
            for name, aliases in table.items():
                for alias in aliases:
                    key = tuple(alias.split())
                    self.phrases[key] = (token, (concept,))
                    self.phrase_tags[key] = name
        self.phrase_first = frozenset(key[0] for key in self.phrases)
        # Most tokens that start some phrase ("the", "in") start none here: checking the
        # first two words first skips building slices for them.
        self.phrase_pairs = frozenset(key[:2] for key in self.phrases if len(key) > 1)
        self.phrase_len: dict[str, int] = {}
        for key in self.phrases:
            self.phrase_len[key[0]] = max(self.phrase_len.get(key[0], 1), len(key))
        self.prefix_lengths = sorted({len(p) for p in self.prefix}, reverse=True)
        self.words = frozenset(self.exact) | frozenset(
            w for key in self.phrases for w in key if len(w) > 2
        )


def _merge_phrase(
    table: dict[tuple[str, ...], _Entry],
    key: tuple[str, ...],
    canon: str,
    concepts: tuple[str, ...],
) -> None:
    if key in table:
        old_canon, old_concepts = table[key]
        table[key] = (old_canon, old_concepts + tuple(c for c in concepts if c not in old_concepts))
    else:
        table[key] = (canon, concepts)


def _osa(a: str, b: str) -> int:
    """Edit distance counting a swap of neighbours as one edit (optimal string alignment)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


class Analyzer:
    """Maps tokens to canonical words and concepts; remembers every token it has seen."""

    # Plenty for a process's lifetime of chat messages; cleared rather than grown forever.
    _CACHE_LIMIT = 200_000

    def __init__(self, lexicon: Lexicon, vocabulary: Mapping[str, int]) -> None:
        self.lexicon = lexicon
        # Training words seen at least twice are trusted as spelling targets and split parts.
        self.vocab = {w: n for w, n in vocabulary.items() if w.isalpha()}
        trusted = {w for w, n in self.vocab.items() if n >= 2 and len(w) >= 3}
        self.known = frozenset(lexicon.words | trusted | COMMON_WORDS)
        # Spelling targets: lexicon forms and trusted training words (rare phrase words such
        # as "inves" would otherwise attract typos of common ones).
        self.targets = frozenset(lexicon.exact) | trusted
        self._index: dict[str, set[str]] = {}
        for word in self.targets:
            if len(word) < 4 or not word.isalpha():
                continue
            self._index.setdefault(word, set()).add(word)
            first = _deletes(word)
            for d in first:
                self._index.setdefault(d, set()).add(word)
            if len(word) >= 8:
                for d1 in first:
                    for d2 in _deletes(d1):
                        self._index.setdefault(d2, set()).add(word)
        self._cache: dict[str, tuple[_Entry, ...]] = {}

    def lookup(self, token: str, *, allow_split: bool = False) -> _Entry | None:
        """Exact form, then prefix, then a plural/verb ending stripped."""
        lex = self.lexicon
        hit = lex.exact.get(token)
        if hit is not None:
            return hit
        n = len(token)
        for length in lex.prefix_lengths:
            if length <= n:
                hit = lex.prefix.get(token[:length])
                if hit is not None:
                    if allow_split and n - length >= 4 and self.split(token):
                        # "buildanagent" is "build an agent", not a form of "build".
                        return None
                    return hit
        for suffix, repl in (
            ("ies", "y"),
            ("es", ""),
            ("s", ""),
            ("ing", ""),
            ("ing", "e"),
            ("ed", ""),
            ("ed", "e"),
        ):
            if n > len(suffix) + 2 and token.endswith(suffix):
                hit = lex.exact.get(token[: n - len(suffix)] + repl)
                if hit is not None:
                    return hit
        return None

    def analyze(self, token: str) -> tuple[_Entry, ...]:
        """One or more (canonical, concepts) entries for a token; cached per token."""
        cached = self._cache.get(token)
        if cached is not None:
            return cached
        result = self._analyze(token)
        if len(self._cache) > self._CACHE_LIMIT:
            self._cache.clear()
        self._cache[token] = result
        return result

    def _analyze(self, token: str) -> tuple[_Entry, ...]:
        unknown = token not in self.vocab and token not in COMMON_WORDS
        hit = self.lookup(token, allow_split=unknown)
        if hit is not None:
            return (hit,)
        if _TIME_TOKEN_RE.fullmatch(token) and not token.isdigit():
            return (("__time__", ("TIME",)),)
        if token.isdigit():
            return (("__num__", ("NUM",)),)
        if token in self.vocab or token in COMMON_WORDS:
            return ((token, ()),)
        if not token.isalpha() or len(token) > 24:
            return ((token, ()),)
        squeezed = _REPEAT_RE.sub(r"\1", token)
        if squeezed != token:
            return self.analyze(squeezed)
        fixed = self.correct(token)
        if fixed is not None:
            return (self._known(fixed),)
        parts = self.split(token)
        if parts:
            return tuple(self._known(part) for part in parts)
        return ((token, ()),)

    def _known(self, word: str) -> _Entry:
        """A word the corrector or splitter produced: it is known, so no further repair."""
        hit = self.lookup(word)
        return hit if hit is not None else (word, ())

    def correct(self, token: str) -> str | None:
        """The closest known word within edit distance 1 (2 for words of 8+ letters)."""
        if len(token) < 4:
            return None
        index = self._index
        best: tuple[int, int, int, str] | None = None
        variants: list[tuple[str, int]] = [(token, 0)]
        first = _deletes(token)
        variants.extend((d, 1) for d in first)
        if len(token) >= 8:
            variants.extend((d2, 2) for d1 in first for d2 in _deletes(d1))
        short = len(token) < 5
        for variant, cost in variants:
            for word in index.get(variant, ()):
                distance = max(cost, len(word) - len(variant))
                limit = 2 if len(token) >= 8 and len(word) >= 7 else 1
                if distance > limit:
                    continue
                # Short words take only a swap ("shwo" -> "show") or a missing letter ("evry"):
                # other edits too easily turn one real word into another ("play" -> "pay").
                swapped = len(word) == len(token) and sorted(word) == sorted(token)
                if short and not (swapped or len(word) == len(token) + 1):
                    continue
                if _osa(token, word) > limit:
                    continue
                tier = 0 if self.lookup(word) is not None else 1
                key = (distance, tier, -self.vocab.get(word, 0), word)
                if best is None or key < best:
                    best = key
        return best[3] if best else None

    def split(self, token: str, depth: int = 0) -> list[str] | None:
        """Words run together, e.g. "runthe" -> ["run", "the"], when every part is known."""
        if len(token) < 5 or depth > 2:
            return None
        known = self.known
        for i in range(len(token) - 2, 1, -1):
            left, right = token[:i], token[i:]
            if left not in known and left not in _SHORT_WORDS:
                continue
            if right in known or right in _SHORT_WORDS:
                return [left, right]
            rest = self.split(right, depth + 1)
            if rest:
                return [left, *rest]
        return None


_SHORT_WORDS = words(
    "a an my me it to of in on at by we us i the our your and or is be do go up so no ok "
    "all new now run"
)


_PARTICLES = frozenset({"bei", "aus", "ein", "um", "an", "zusammen", "ab"})
_SEPARABLE_FIRST = words(
    "bring bringe bringt fuhr fuhre fuhrt fuehr fuehre lade ladet richte richtet stell stelle "
    "stellt leg lege legt fass fasse fasst pass passe passt lass"
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
    tokens: Sequence[str], i: int, phrases: Mapping[tuple[str, ...], _Entry]
) -> int | None:
    """German separable verbs: "Bring den Agenten bei" is "beibringen" (teach)."""
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
    # Slugs ("notion-reporter", "google_sheets") are looked at whole, then as their parts.
    tokens: list[str] = []
    whole: set[int] = set()
    for tok in TOKEN_RE.findall(norm):
        if tok.isalnum():
            tokens.append(tok)
        elif tok[0] == "#":
            flags.add("channel")
            tokens.append(tok)
        elif "@" in tok:
            flags.add("email")
            tokens.append(tok)
        elif _TIME_TOKEN_RE.fullmatch(tok) or tok in analyzer.lexicon.exact:
            tokens.append(tok)
        else:
            pieces = [p for p in _SLUG_SPLIT_RE.split(tok) if p]
            if len(pieces) < 2:
                tokens.append(tok)
            else:
                whole.add(len(tokens))
                tokens.extend(pieces)
    units: list[Unit] = []
    add = units.append
    lex = analyzer.lexicon
    phrases, phrase_first, phrase_pairs = lex.phrases, lex.phrase_first, lex.phrase_pairs
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
            if i + 1 < n and (tok, tokens[i + 1]) in phrase_pairs:
                k = _longest_phrase(tokens, i, lex)
                if k:
                    key = tuple(tokens[i : i + k])
                    entry = phrases[key]
                    add(Unit(entry[0], entry[1], i, i + k, lex.phrase_tags.get(key, "")))
                    i += k
                    continue
            entry1 = phrases.get((tok,))
            if entry1 is not None:
                add(Unit(entry1[0], entry1[1], i, i + 1, lex.phrase_tags.get((tok,), "")))
                i += 1
                continue
        if tok[0] == "#":
            add(Unit("__channel__", ("CHAT",), i, i + 1, tok))
        elif "@" in tok:
            add(Unit("__email__", ("EMAIL",), i, i + 1, tok))
        else:
            for canon, concepts in analyze(tok):
                add(Unit(canon, concepts, i, i + 1))
        i += 1
    return Parsed(
        norm=norm,
        tokens=tuple(tokens),
        units=tuple(units),
        flags=frozenset(flags),
        concepts=frozenset(c for u in units for c in u.concepts),
    )
