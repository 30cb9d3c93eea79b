"""One reading of a message: its words through the one lexicon, and the acts it shows.

A turn reads its message once (``read``); the assistant and the flows decide from the reading
and never look at the text again. The reading holds no raw text: what was said travels beside
it only to be stored.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from intents.offline.context import is_affirmation, is_cancel, is_denial, is_recap, selection
from intents.offline.guard import strip_meta
from intents.offline.lexicon import STOPWORDS, words
from intents.offline.model import engine
from intents.offline.text import TOKEN_RE, Parsed, agent_keys, normalize, parse
from intents.reading.acts import TABLE, Act
from intents.reading.cues import CLOSING, Cues, Position, find
from intents.reading.said import Said
from intents.reading.topics import TOPICS, Topic

# Role words of the lexicon's languages, to the workspace's roles.
_ROLES = {
    "admin": "admin", "admins": "admin", "administrator": "admin", "administrador": "admin",
    "administrateur": "admin", "member": "member", "members": "member", "miembro": "member",
    "membre": "member", "mitglied": "member", "membro": "member", "viewer": "viewer",
    "viewers": "viewer", "editor": "editor", "editors": "editor", "owner": "owner",
}  # fmt: skip
_PLAN = words("plan plano forfait tarif")
_DETERMINERS = words(
    "our my your their his her its this that nuestro nuestra notre unser unseren nosso nossa"
)
LABEL_WORDS = 3  # "new agent: …" labels what follows; a longer head is a sentence


@dataclass(frozen=True)
class Reading(Said):
    parsed: Parsed
    # The message as written, read here (``Said``) into the values the flows take; the flows
    # never get it.
    source: str = field(default="", repr=False, compare=False)
    # What another engine understood on top of the words (the LLM tier's dialogue act and
    # pick): it completes the reading and never takes anything away from it.
    told: frozenset[Act] = frozenset()
    told_pick: int | None = None
    # The open wizard's fields the LLM tier read in the message (field, value): ``Said.details``
    # reads them again the offline way, first.
    told_details: tuple[tuple[str, str], ...] = ()

    @cached_property
    def positions(self) -> tuple[Position, ...]:
        starting: list[list[tuple[frozenset[str], int]]] = [[] for _ in self.parsed.tokens]
        canon: list[set[str]] = [set() for _ in self.parsed.tokens]
        # A function word of any language is a word, never a typing slip ("und" is no "undo").
        known = [word in STOPWORDS for word in self.parsed.tokens]
        for unit in self.parsed.units:
            if unit.start < len(starting):
                starting[unit.start].append((frozenset(unit.concepts), unit.end))
                known[unit.start] = known[unit.start] or bool(unit.concepts)
                if unit.end == unit.start + 1:
                    canon[unit.start].add(unit.canon)
        positions = [
            Position(word, frozenset(canon[i]), tuple(starting[i]), known[i])
            for i, word in enumerate(self.parsed.tokens)
        ]
        head, colon, _ = self.parsed.norm.partition(":")
        labelled = len(TOKEN_RE.findall(head))
        if colon and 0 < labelled <= LABEL_WORDS and not head.rstrip()[-1:].isdigit():
            positions.insert(labelled, Position(":", frozenset(), ()))
        return tuple(positions)

    @cached_property
    def acts(self) -> frozenset[Act]:
        shown: set[Act] = set()
        at, seen = self.positions, self.seen
        for item in TABLE:
            if item.said.span(seen, at) is not None and item.unless_said.span(seen, at) is None:
                shown.add(Act(item.act))
        return frozenset(shown) | self.told

    @cached_property
    def topics(self) -> tuple[Topic, ...]:
        """What the message is about (the workspace's topics), in the table's order."""
        at, seen = self.positions, self.seen
        return tuple(Topic(item.act) for item in TOPICS if item.said.span(seen, at) is not None)

    @cached_property
    def seen(self) -> frozenset[str]:
        """All a cue slot could match: the words, their canonical words, the concepts (as
        ``@CONCEPT``) and a label's ":", to rule a cue set out before its words are built."""
        canon = {u.canon for u in self.parsed.units}
        concepts = (f"@{c}" for c in self.parsed.concepts)
        return frozenset(self.parsed.tokens).union(canon, concepts, (":",))

    def span_of(self, said: Cues, after: int = 0) -> tuple[int, int] | None:
        """The words (start, end) of the first cue of ``said`` the message matches, from its
        word ``after`` on, if any."""
        return said.span(self.seen, self.positions, after)

    def matches(self, said: Cues) -> bool:
        """Whether the message matches any cue of the set ``said``."""
        return self.span_of(said) is not None

    def shows(self, *acts: Act) -> bool:
        """Whether the message shows any of these acts."""
        return not self.acts.isdisjoint(acts)

    @property
    def concepts(self) -> frozenset[str]:
        return self.parsed.concepts

    @property
    def words(self) -> tuple[str, ...]:
        return self.parsed.tokens

    @property
    def recap(self) -> bool:
        return is_recap(self.parsed)

    @property
    def cancel(self) -> bool:
        return is_cancel(self.parsed) or Act.STOPS in self.told

    @property
    def yes(self) -> bool:
        return is_affirmation(self.parsed) or Act.OPENS_WITH_YES in self.told

    @property
    def no(self) -> bool:
        return is_denial(self.parsed) or Act.OPENS_WITH_NO in self.told

    @property
    def run(self) -> bool:
        """A run asked for in any of the lexicon's languages ("run it", "lance-le", "roda")."""
        return "V_RUN" in self.parsed.concepts

    @property
    def off_topic(self) -> bool:
        """Small talk or an errand ("write me a poem", "what's the weather")."""
        return "OOS" in self.parsed.concepts

    def rest_after(self, *acts: Act) -> str:
        """What the message says after the last words that show any of ``acts`` (all of it
        when none do), for a flow that still takes details as text."""
        at, seen = self.positions, self.seen
        ends = [
            span[1]
            for item in TABLE
            if item.act in acts
            for c, needs in zip(item.said.lines, item.said.needs, strict=True)
            if all(not keys.isdisjoint(seen) for keys in needs) and (span := find(c, at))
        ]
        if not ends:
            # Told by another engine with no words of its own here: the act is the message.
            return "" if not self.told.isdisjoint(acts) else self.source
        end = max(ends) - sum(1 for p in self.positions[: max(ends)] if p.word == ":")
        cut = 0
        while cut < len(self.source):
            cut = self.source.find(" ", cut + 1)
            if cut < 0:
                return ""
            if len(TOKEN_RE.findall(normalize(self.source[:cut]))) >= end:
                return self.source[cut:].lstrip(" ,.:;!?…-")
        return ""

    def after(self, *acts: Act) -> Reading:
        """The reading of what the message says after the words that show any of ``acts``
        (``rest_after``): the details that follow a yes, an "anyway", a "back to the setup"."""
        rest = read(self.rest_after(*acts))
        # The fields the LLM read are the message's, whichever part of it they were in.
        if not self.told_details:
            return rest
        return dataclasses.replace(rest, told_details=self.told_details)

    @property
    def opens_with_yes(self) -> bool:
        return Act.OPENS_WITH_YES in self.acts

    @property
    def addresses(self) -> tuple[str, ...]:
        """The e-mail addresses the message names, as written (lower-case)."""
        return tuple(
            u.tag or self.words[u.start] for u in self.parsed.units if "EMAIL" in u.concepts
        )

    @property
    def gives_details(self) -> bool:
        """Whether the message holds anything beyond function words and filler."""
        return any(u.concepts for u in self.parsed.units) or any(
            w not in STOPWORDS and w not in CLOSING for w in self.words
        )

    @property
    def roles(self) -> tuple[str, ...]:
        """The workspace roles the message names (admin, member, viewer, editor, owner)."""
        return tuple(dict.fromkeys(_ROLES[w] for w in self.words if w in _ROLES))

    @property
    def names(self) -> tuple[str, ...]:
        """Names the message gives something ("call it zapier-prod", "named legacy-ci")."""
        if not self.shows(Act.GIVES_NAME):
            return ()
        given = self.rest_after(Act.GIVES_NAME).split(maxsplit=1)
        name = given[0].strip(".,;:!?\"'\u201c\u201d()") if given else ""
        return (name,) if name else ()

    @property
    def plan(self) -> str:
        """The plan the message names ("the Business plan"), as written, or ""."""
        words = self.words
        for i, word in enumerate(words[1:], start=1):
            if word in _PLAN and words[i - 1] not in STOPWORDS | _DETERMINERS:
                return self.as_written(words[i - 1])
        return ""

    def as_written(self, word: str) -> str:
        """A word of the message with the capitals it was typed with (when it can be found)."""
        at = self.source.lower().find(word)
        return self.source[at : at + len(word)] if at >= 0 else word

    @property
    def new_name(self) -> str:
        """The name given after "rename … to", as written, up to the end of its clause."""
        if not self.shows(Act.RENAMES_TO):
            return ""
        rest = self.rest_after(Act.RENAMES_TO)
        for stop in ".,;!?\n":
            rest = rest.split(stop, 1)[0]
        return rest.strip(" \"'“”")[:80]

    @property
    def tools(self) -> frozenset[str]:
        """The tools the message names, as the product keys them ("google_sheets")."""
        return frozenset(u.tag for u in self.parsed.units if "SRC" in u.concepts and u.tag)

    def mentions(self, name: str) -> bool:
        """Whether the message names this agent, whole or word by word ("jira-overdue-watch")."""
        return normalize(name) in self.parsed.tokens or self.says(*name_words(name))

    def spans_of(self, name: str) -> list[tuple[int, int]]:
        """Where the message holds the words of this agent's name in a row (word positions,
        start and end)."""
        parts, said = name_words(name), self.parsed.tokens
        n = len(parts)
        return [(i, i + n) for i in range(len(said) - n + 1) if n and said[i : i + n] == parts]

    def says(self, *phrase: str) -> bool:
        """Whether the message's words hold ``phrase``, word after word."""
        words, n = self.parsed.tokens, len(phrase)
        return n > 0 and any(words[i : i + n] == phrase for i in range(len(words) - n + 1))

    def pick(self, size: int) -> int | None:
        """The 0-based item of a numbered list of ``size`` that the message picks, if any."""
        picked = selection(self.parsed, size)
        if picked is None and self.told_pick is not None and 1 <= self.told_pick <= size:
            return self.told_pick - 1
        return picked


@lru_cache(maxsize=4096)
def name_words(name: str) -> tuple[str, ...]:
    """An agent's name as the words a message would hold it in ("jira-overdue-watch": jira,
    overdue, watch), parsed once per name and process. Names have a cache of their own: a
    tenant's 200 names read through ``read`` would push every message out of its cache."""
    return parse(normalize(name), engine().analyzer, agent_keys(()), normalized=True).tokens


@lru_cache(maxsize=64)
def read(message: str) -> Reading:
    """The message read once (a turn's steps ask for the same reading more than once)."""
    cleaned, _ = strip_meta(normalize(message))
    return Reading(parse(cleaned, engine().analyzer, agent_keys(()), normalized=True), message)
