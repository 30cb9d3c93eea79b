"""Which agent a message means, from its reading and what the conversation has in view.

The order is the order a person would follow: the agent named outright (whole, or its words
in a row), the item picked from the list just shown, a word only one listed agent has, the
agent run last asked for again, "the other one" of two, "it" for the one just talked about,
and then a nickname: a word only one of the tenant's agents has, used as a name ("pause the
refund one" when only refund-alert has "refund"), typing slips included. Nothing here looks at
the database: the caller gives the names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from intents.offline.lexicon import words
from intents.reading.acts import Act
from intents.reading.cues import slip
from intents.reading.reading import Reading, name_words

# Words an agent's name may share with a request and that single no agent out.
_GENERIC = words(
    "agent agents bot daily weekly monthly report reports summary digest alert alerts sync "
    "watch watcher monitor check one the new"
)


@dataclass(frozen=True)
class InView:
    """What the conversation shows that a reference may point at."""

    agents: Sequence[str] = ()  # the tenant's agents' names
    listed: Sequence[str] = ()  # the numbered list shown last, in order
    last_agent: str | None = None  # the agent just talked about
    last_run: str | None = None  # the agent run last


def by_own_word(
    reading: Reading,
    names: Sequence[str],
    *,
    shortest: int = 4,
    generic: frozenset[str] = _GENERIC,
    nicknames: bool = False,
) -> int | None:
    """The one of ``names`` that alone has a word of the message, a typing slip allowed: its
    index, else None ("the support one" among sales-digest and support-digest). Words in
    ``generic`` single no agent out; with ``nicknames``, only a word used as a name counts
    (``_as_a_name``), since among all of a tenant's agents a word of a described task ("analyze
    our churn") is no reference to the one whose name shares it."""
    words = reading.words
    said = {w for w in words if len(w) >= shortest and w.isalpha()} - generic
    if nicknames:
        said = {w for i, w in enumerate(words) if w in said and _as_a_name(words, i)}
    parts = [frozenset(name_words(name)) for name in names]
    hits = []
    for index, mine in enumerate(parts):
        others = frozenset().union(*(p for i, p in enumerate(parts) if i != index))
        own = mine - others - generic
        if said & own or any(slip(w, o) for w in said for o in own if len(o) >= 5):
            hits.append(index)
    return hits[0] if len(hits) == 1 else None


_NAMED_BY = words("one ones agent bot job thing")  # "the refund one", "the lead bot"
_NAMING_BEFORE = words("the that this teh")


def _as_a_name(words: Sequence[str], i: int) -> bool:
    """Whether the word at ``i`` is used as a name: "the refund one", "the lead bot"."""
    after = words[i + 1] if i + 1 < len(words) else ""
    return after in _NAMED_BY and i > 0 and words[i - 1] in _NAMING_BEFORE


def referent(reading: Reading, in_view: InView) -> str | None:
    """The name of the agent the message means, or None."""
    for name in in_view.agents:
        if reading.mentions(name):
            return name
    if in_view.listed:
        pick = reading.pick(len(in_view.listed))
        if pick is None:
            pick = by_own_word(reading, in_view.listed, shortest=5, generic=frozenset())
        if pick is not None:
            return in_view.listed[pick]
    if reading.shows(Act.SAME_AGAIN) and in_view.last_run:
        return in_view.last_run
    if reading.shows(Act.THE_OTHER_ONE):  # before "it": "la otra" is no pronoun
        other = _the_other(in_view)
        if other is not None:
            return other
    if reading.shows(Act.POINTS_AT_IT) and in_view.last_agent:
        return in_view.last_agent
    own = by_own_word(reading, in_view.agents, nicknames=True)
    return in_view.agents[own] if own is not None else None


def _the_other(in_view: InView) -> str | None:
    """Of the two just listed (or the tenant's two), the one not used just now."""
    pool = list(in_view.listed) if len(in_view.listed) == 2 else []
    if not pool and len(in_view.agents) == 2:
        pool = list(in_view.agents)
    current = in_view.last_run or in_view.last_agent
    others = [name for name in pool if name != current]
    return others[0] if current in pool and len(others) == 1 else None
