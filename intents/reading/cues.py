"""Cues: short patterns over a message's words, read once through the one lexicon.

A cue is written as words separated by spaces; each word is a slot:

- ``yes|ok``: one of these words, as typed (accent-stripped, lower-case) or as the lexicon's
  canonical word for it ("agentes", "bot" and "Agenten" are all ``agent``);
- ``=yes|ok``: one of these words exactly as typed (not its synonyms, not a slip);
- ``automat*``: a word that starts with ``automat``;
- ``@V_CREATE``: a lexicon unit with that concept (a phrase unit such as "set up" is one slot);
- a trailing ``?`` makes the slot optional; ``…`` skips up to ``GAP`` words, ``…3`` up to 3;
- a leading ``^`` ties the cue to the start of the message, after lead-in words ("ok", "so",
  "well", "actually"); a trailing ``$`` to its end, before closing words ("please", "thanks",
  "then"): a cue with both covers the whole message.

Typing slips are read as the word meant: a word the lexicon does not know (and no function
word of its languages) that is one slip away from a cue word of four letters or more (two
neighbouring letters swapped, or one letter left out) is that word, so "agnet" is "agent" and
"mak" is "make" in every cue, while "und" stays German for "and".

Cues are the project's replacement for regular expressions over text: they see words, not
characters, so "it's", "its" and "it s" cannot drift apart, and they share the lexicon's
languages and synonyms.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from intents.offline.lexicon import words

GAP = 6  # words a ``…`` may skip
LEAD_IN = words("ok okay so well actually hmm right alright and but wait oh y et und e also")
CLOSING = words("please pls plz then thanks thank you again for now bitte merci gracias")


@dataclass(frozen=True, slots=True)
class Slot:
    words: frozenset[str]
    prefixes: tuple[str, ...]
    concepts: frozenset[str]
    optional: bool = False
    exact: bool = False  # as typed only


@dataclass(frozen=True, slots=True)
class Cue:
    text: str
    anchored: bool
    slots: tuple[Slot | int, ...]  # an int: a gap of up to that many words
    to_the_end: bool = False


@dataclass(frozen=True, slots=True)
class Position:
    """One word of a message: as typed, its canonical words, and the units starting there."""

    word: str
    canon: frozenset[str]
    units: tuple[tuple[frozenset[str], int], ...]  # (concepts, end) of each unit starting here
    known: bool = True  # whether the lexicon has a concept for it


def slip(typed: str, word: str) -> bool:
    """Whether ``typed`` is ``word`` with two neighbouring letters swapped or one left out."""
    if len(word) < 4:
        return False
    if len(typed) == len(word):
        diff = [i for i, (a, b) in enumerate(zip(typed, word, strict=True)) if a != b]
        return (
            len(diff) == 2 and diff[1] == diff[0] + 1 and typed[diff[0]] == word[diff[1]]
            and typed[diff[1]] == word[diff[0]]
        )  # fmt: skip
    if len(typed) == len(word) - 1:
        return any(word[:i] + word[i + 1 :] == typed for i in range(len(word)))
    return False


def cue(text: str) -> Cue:
    parts = text.split()
    anchored = bool(parts) and parts[0] == "^"
    to_the_end = bool(parts) and parts[-1] == "$"
    parts = parts[: len(parts) - to_the_end]
    slots: list[Slot | int] = []
    for part in parts[anchored:]:
        if part.startswith("…"):
            slots.append(int(part[1:] or GAP))
            continue
        optional = part.endswith("?") and len(part) > 1
        exact = part.startswith("=")
        alternatives = (part[exact : len(part) - optional]).split("|")
        slots.append(
            Slot(
                words=frozenset(a for a in alternatives if a[:1] != "@" and a[-1:] != "*"),
                prefixes=tuple(a[:-1] for a in alternatives if a[-1:] == "*"),
                concepts=frozenset(a[1:] for a in alternatives if a[:1] == "@"),
                optional=optional,
                exact=exact,
            )
        )
    return Cue(text, anchored, tuple(slots), to_the_end)


def _ends(slot: Slot, message: Sequence[Position], i: int) -> Iterable[int]:
    """Where a slot that starts at word ``i`` can end (one past its last word)."""
    if i >= len(message):
        return
    here = message[i]
    if slot.exact:
        if here.word in slot.words:
            yield i + 1
        return
    typed = here.word in slot.words or not slot.words.isdisjoint(here.canon)
    prefixed = bool(slot.prefixes) and here.word.startswith(slot.prefixes)
    slipped = not here.known and here.word.isalpha() and any(slip(here.word, w) for w in slot.words)
    if typed or prefixed or slipped:
        yield i + 1
    for concepts, end in here.units:
        if not slot.concepts.isdisjoint(concepts):
            yield end


def _match(
    slots: Sequence[Slot | int], message: Sequence[Position], i: int, stop: int | None
) -> int | None:
    """Where the slots, matched from word ``i`` on, end (at ``stop`` when it is given)."""
    if not slots:
        return i if stop is None or i == stop else None
    slot, rest = slots[0], slots[1:]
    if isinstance(slot, int):
        for j in range(i, min(i + slot, len(message)) + 1):
            end = _match(rest, message, j, stop)
            if end is not None:
                return end
        return None
    for end in _ends(slot, message, i):
        found = _match(rest, message, end, stop)
        if found is not None:
            return found
    return _match(rest, message, i, stop) if slot.optional else None


def find(c: Cue, message: Sequence[Position]) -> tuple[int, int] | None:
    """The first span (start, end) of the message the cue matches, if any (``Cues`` rules
    most cues out before this is asked)."""
    if c.anchored:
        start = 0
        while start < len(message) and message[start].word in LEAD_IN:
            start += 1
        starts: Iterable[int] = range(start + 1)
    else:
        starts = range(len(message))
    stops: list[int | None] = [None]
    if c.to_the_end:
        last = len(message)
        stops = [last]
        while last > 0 and message[last - 1].word in CLOSING:
            last -= 1
            stops.append(last)
    for start in starts:
        for stop in stops:
            end = _match(c.slots, message, start, stop)
            if end is not None:
                return start, end
    return None


def _slips(word: str) -> set[str]:
    """Every way to type ``word`` with one letter left out or two neighbours swapped (the
    slips ``intents.reading.cues.slip`` reads, listed once here)."""
    if len(word) < 4:
        return set()
    left_out = {word[:i] + word[i + 1 :] for i in range(len(word))}
    swapped = {
        word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        for i in range(len(word) - 1)
        if word[i] != word[i + 1]
    }
    return left_out | swapped


def _keys(slot: Slot) -> frozenset[str]:
    """What a message may hold for the slot to match: one of its words, a slip of one of them
    or one of its concepts (``@CONCEPT``); a slot with prefixes is not ruled out this way."""
    slips = set() if slot.exact else {s for w in slot.words for s in _slips(w)}
    return frozenset({*slot.words, *slips, *(f"@{c}" for c in slot.concepts)})


@dataclass(frozen=True)
class Cues:
    """A cue set: the message says it when any of its cues matches. Each cue keeps, for each
    slot it cannot do without, what a message must hold for it to match, so most cues are
    ruled out at a glance."""

    lines: tuple[Cue, ...]
    needs: tuple[tuple[frozenset[str], ...], ...]
    # What a message must hold for any cue of the set to match (None: no such word).
    any_needs: frozenset[str] | None = None

    def span(
        self, seen: frozenset[str], positions: Sequence[Position], after: int = 0
    ) -> tuple[int, int] | None:
        """The words (start, end) of the first cue a message matches, from its word ``after``
        on; ``seen`` is all its slots could match (words, canonical words, ``@CONCEPT``)."""
        if self.any_needs is not None and self.any_needs.isdisjoint(seen):
            return None
        for c, needs in zip(self.lines, self.needs, strict=True):
            if all(not keys.isdisjoint(seen) for keys in needs):
                found = find(c, positions[after:] if after else positions)
                if found is not None:
                    return found[0] + after, found[1] + after
        return None


# A slot for any one word (a word starts with a letter or a digit).
ANY_WORD = "|".join(f"{c}*" for c in "abcdefghijklmnopqrstuvwxyz0123456789")


def cues(lines: str) -> Cues:
    """A cue set, one cue a line (``intents/reading/cues.py`` says how a cue is written)."""
    return cue_set(tuple(cue(line) for line in lines.strip().splitlines() if line.strip()))


def cue_set(said: tuple[Cue, ...]) -> Cues:
    """The cue set of these cues, with what a message must hold for each to match."""
    needs = tuple(
        tuple(
            _keys(s) for s in c.slots if isinstance(s, Slot) and not s.optional and not s.prefixes
        )
        for c in said
    )
    any_needs = None if not all(needs) else frozenset().union(*(n[0] for n in needs))
    return Cues(said, needs, any_needs)
