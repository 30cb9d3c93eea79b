"""The offline tier's word analyzer: lexicon lookup, stemming, typo correction, splitting.

A token maps to its canonical word and concepts: an exact lexicon form, a prefix form, a
plural or verb ending stripped; unknown words go through a symmetric-delete spelling corrector
(edit distance 1, or 2 for long words) and a splitter for words run together ("listmyagents").
Every token's analysis is cached.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from intents.offline.lexicon import (
    CHAT_TOOLS,
    CHAT_WORD,
    COMMON_WORDS,
    GROUPS,
    SOURCE_WORD,
    SOURCES,
    words,
)

# Letters repeated three times or more ("pleeease") are squeezed before lookup.
_REPEAT_RE = re.compile(r"(.)\1{2,}")
# "9", "9am", "17:30", "8uhr": a clock time, never a word to correct.
TIME_TOKEN_RE = re.compile(r"\d{1,2}(?::\d{2})?(?:am|pm|h|uhr)?")

Entry = tuple[str, tuple[str, ...]]  # a canonical word and its concepts


def _merge(table: dict[str, Entry], key: str, canon: str, concepts: tuple[str, ...]) -> None:
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
        self.exact: dict[str, Entry] = {}
        self.prefix: dict[str, Entry] = {}
        self.phrases: dict[tuple[str, ...], Entry] = {}
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
    table: dict[tuple[str, ...], Entry],
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
        self._cache: dict[str, tuple[Entry, ...]] = {}

    def lookup(self, token: str, *, allow_split: bool = False) -> Entry | None:
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
                stem = token[: n - len(suffix)]
                if suffix == "es" and stem + "e" in self.vocab:
                    continue  # "watches" is "watch", "canales" "canal", but "notes" is "note"
                hit = lex.exact.get(stem + repl)
                if hit is not None:
                    return hit
        return None

    def analyze(self, token: str) -> tuple[Entry, ...]:
        """One or more (canonical, concepts) entries for a token; cached per token."""
        cached = self._cache.get(token)
        if cached is not None:
            return cached
        result = self._analyze(token)
        if len(self._cache) > self._CACHE_LIMIT:
            self._cache.clear()
        self._cache[token] = result
        return result

    def _analyze(self, token: str) -> tuple[Entry, ...]:
        unknown = token not in self.vocab and token not in COMMON_WORDS
        hit = self.lookup(token, allow_split=unknown)
        if hit is not None:
            return (hit,)
        if TIME_TOKEN_RE.fullmatch(token) and not token.isdigit():
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
        if self._inflected(token):
            # "pasted", "signing", "stays": a known word's form, not a typo of another word.
            return ((token, ()),)
        fixed = self.correct(token)
        if fixed is not None:
            return (self._known(fixed),)
        parts = self.split(token)
        if parts:
            return tuple(self._known(part) for part in parts)
        return ((token, ()),)

    def _inflected(self, token: str) -> bool:
        """Whether the token is an everyday word's plural, past or -ing form."""
        common = COMMON_WORDS
        for suffix in ("s", "es", "d", "ed", "ing", "ly", "er", "ers"):
            if len(token) > len(suffix) + 2 and token.endswith(suffix):
                stem = token[: -len(suffix)]
                candidates = (stem, stem + "e", stem[:-1] if stem[-1:] == stem[-2:-1] else "")
                if any(c in common or self.vocab.get(c, 0) >= 2 for c in candidates if c):
                    return True
        return False

    def _known(self, word: str) -> Entry:
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
