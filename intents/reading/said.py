"""What a message says, as values the flows take: a reading's details.

``Reading`` (``intents/reading/reading.py``) says what a message does: its acts, its topics,
its yes and no. This mixin gives the same reading the values a flow takes from it: the
wizard's details, a skill's, a new time, a destination, a name as written, whether it asks
to pause or resume an agent. Each is read from the message here, in the reading layer, with
the patterns of ``details``, ``skill``, ``values`` and ``agent_words``; the assistant and the
skill flow ask the reading for them and never hold the text or a pattern themselves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from intents.offline.entities import extract_entities
from intents.offline.lexicon import CHAT_TOOLS, SOURCES, spelled
from intents.offline.schedule import find_time
from intents.offline.text import normalize
from intents.reading import details
from intents.reading.acts import Act
from intents.reading.agent_words import asks
from intents.reading.told import details_told
from intents.reading.values import first_clause

if TYPE_CHECKING:
    from intents.reading.skill import SkillDetails

# A described problem said back as the thing to look out for: long enough to say something,
# short enough to be one clause.
_PROBLEM_WORDS, _PROBLEM_LENGTH = 4, 140

# Rule "the user's manner is not the agent's task": how someone does a chore today ("by
# hand", "manually") is why they hand it on, not part of what the agent does, which never
# works by hand. Seen in the dev scenario sets dev, dev2, dev4, dev5, dev6 and dev7 and in
# most dev intent sets, in the shape "<I do the chore> by hand" or "I manually <do it>".
BY_HAND = (
    "by hand", "manually", "per hand", "a mano", "à la main", "a la main", "von hand",
    "händisch", "handisch", "manualmente", "manuellement", "à mão", "a mão", "a mao",
)  # fmt: skip
_MANNERS = tuple((manner, "") for manner in BY_HAND)
_PHRASES = ("task", "action", "trigger")  # the details said in the user's words
# The tools a phrase may name in lower case, as the product writes them ("hubspot": HubSpot);
# a tool whose bare key is an everyday word ("linear", "monday") is left as typed.
_SPELLINGS = sorted(
    (
        (key.replace("_", " "), spelled(key))
        for key, aliases in {**SOURCES, **CHAT_TOOLS}.items()
        if key.replace("_", " ") in aliases
    ),
    key=lambda pair: -len(pair[0]),
)

# Rule "a place named by its kind is still to be named": copying things into a kind of place
# says where results go, not to which one, so the setup asks which. Seen in the dev
# scenario sets dev4, dev5 and dev7 and in most dev intent sets, in the shape "<into|in|to>
# <a|an|una|une|ein> <spreadsheet|sheet|doc|tracker>".
_INTO = frozenset({"into", "in", "to", "onto", "en", "dans", "auf", "para", "em"})
_SOME = frozenset({"a", "an", "some", "one", "una", "un", "une", "ein", "eine", "einen", "uma"})
PLACE_KINDS = (
    "google sheet", "spreadsheet", "sheet", "excel file", "excel sheet", "doc", "document",
    "google doc", "tracker", "hoja de calculo", "hoja de cálculo", "planilha",
    "feuille de calcul", "tableur", "tabelle", "excel",
)  # fmt: skip


class Said:
    """The values a message gives; mixed into ``Reading``, whose ``source`` it reads."""

    source: str
    told_details: tuple[tuple[str, str], ...]

    def shows(self, *acts: Act) -> bool:  # the reading's (``Reading.shows``)
        raise NotImplementedError

    @property
    def question(self) -> bool:
        """Whether the message is put as a question (a question mark, or a question's opening
        words in any of the lexicon's languages)."""
        return details.is_question(self.source)

    @property
    def ends_asking(self) -> bool:
        """Whether the message ends with a question mark."""
        return self.source.strip().endswith("?")

    @property
    def acknowledgement(self) -> bool:
        """Whether the message only acknowledges ("ok", "thanks", "sí") and says nothing else."""
        return details.is_acknowledgement(self.source)

    @property
    def length(self) -> int:
        """How many words the message has, as typed."""
        return len(self.source.split())

    def details(
        self,
        have: Mapping[str, str],
        *,
        asking: Sequence[str] = (),
        zone: str = "UTC",
        opening: bool = False,
    ) -> dict[str, str]:
        """The details of an agent the message adds to what a setup ``have``s (only what it
        changes): source, trigger, action, destination, frequency, zone, name, title…

        What the LLM tier read in the open fields (``told_details``, each read again the
        offline way) comes first; the offline reader's details complete it."""
        if self.shows(Act.RESTRICTS):
            # A narrowing reply ("only the …") says which things count; it is not the
            # answer to the question being asked.
            asking = ()
        found = details.read_slots(
            self.source, have=have, asking=asking, zone=zone, opening=opening
        )
        told = details_told(dict(self.told_details)) if self.told_details else {}
        found.update((key, value) for key, value in told.items() if have.get(key) != value)
        if found.get("frequency") and not found.get("zone"):
            found["zone"] = have.get("zone") or zone
        for key in _PHRASES:
            if found.get(key):
                found[key] = with_tools_spelled(without_manner(found[key]))
        if not (found.get("destination") or have.get("destination")):
            place = next((p for k in ("task", "action") if (p := place_by_kind(found.get(k)))), "")
            if place:
                found["place"] = place
        return {key: value for key, value in found.items() if value}

    def one_off(self, besides: str = "") -> bool:
        """Whether the message asks for something done once ("just this once", "today"),
        leaving out ``besides`` (what an agent watches: "posts due tomorrow" is no one-off)."""
        return details.is_one_off(self.source.replace(besides or "\0", " "))

    @cached_property
    def problem(self) -> str:
        """The first clause of a problem the message describes, as written, when it says
        enough to be what an agent looks out for; "" otherwise."""
        clause = first_clause(self.source).strip(" ,:-")
        if len(clause.split()) < _PROBLEM_WORDS or len(clause) > _PROBLEM_LENGTH:
            return ""
        if clause[:1].isupper() and clause[1:2].islower():
            return clause[0].lower() + clause[1:]
        return clause

    def takes_back(self, tool: str) -> bool:
        """Whether the message takes ``tool`` back ("moved off <tool>", "not <tool>")."""
        return details.taken_back(tool, self.source)

    @cached_property
    def clock(self) -> str | None:
        """The first clock time the message names, as HH:MM ("at 4pm": "16:00")."""
        return find_time(normalize(self.source))

    @cached_property
    def entities(self) -> dict[str, str]:
        """The entities of the message (tools, schedule, time, destination, new name…)."""
        return extract_entities(self.source)

    @cached_property
    def zone(self) -> str | None:
        """The time zone the message names, as an IANA name."""
        return details.zone_in(self.source)

    def destination(self, entity: str | None) -> str | None:
        """Where the message says results go ("to #ops and ana@acme.io"), completing the
        destination ``entity`` already found."""
        return details.destination_in(self.source, entity)

    def renamed_as_written(self, name: str) -> str:
        """The new name the message gives, with the capitals and spaces it was typed with."""
        return details.renamed_as_written(self.source, name)

    @cached_property
    def agent_commands(self) -> frozenset[str]:
        """What the message asks of an agent that no act says yet: "pause", "resume"."""
        return asks(self.source)

    @cached_property
    def skill_details(self) -> SkillDetails:
        """The details of a skill the message gives (name, purpose, inputs, an example)."""
        # Imported here: the skill reader reads the message's acts through ``read`` itself.
        from intents.reading.skill import read_skill_details

        return read_skill_details(self.source)

    @cached_property
    def stems(self) -> frozenset[str]:
        """The first five letters of each word of four letters or more, lower-cased."""
        return stems_of(self.source)

    @cached_property
    def ascii_stems(self) -> frozenset[str]:
        """``stems`` of the words made of the letters a to z only."""
        return stems_of(self.source, ascii_only=True)


def stems_of(text: str, *, ascii_only: bool = False) -> frozenset[str]:
    """The first five letters of each word of four letters or more of ``text``, lower-cased:
    words compared whatever their ending. A word is letters, digits and "_" (with
    ``ascii_only``, the letters a to z only)."""
    lowered = text.lower()
    kept = ("a" <= c <= "z" if ascii_only else c.isalnum() or c == "_" for c in lowered)
    spaced = "".join(c if keep else " " for c, keep in zip(lowered, kept, strict=True))
    return frozenset(w[:5] for w in spaced.split() if len(w) >= 4)


def without_manner(phrase: str) -> str:
    """``phrase`` without the words that say how the user does it today (``BY_HAND``)."""
    return " ".join(_replace_alone(phrase, _MANNERS).split()).strip(" ,;")


def place_by_kind(phrase: str | None) -> str:
    """The place ``phrase`` puts things into when it names only its kind ("into a
    spreadsheet": "a spreadsheet", as written), else ""."""
    words = (phrase or "").split()
    lowered = [w.lower().strip(",.;:!?") for w in words]
    for i in range(len(words) - 2):
        if lowered[i] not in _INTO or lowered[i + 1] not in _SOME:
            continue
        for kind in PLACE_KINDS:
            size = len(kind.split())
            if " ".join(lowered[i + 2 : i + 2 + size]) == kind:
                return " ".join(w.strip(",.;:!?") for w in words[i + 1 : i + 2 + size])
    return ""


def with_tools_spelled(phrase: str) -> str:
    """``phrase`` with the tools it names written as the product writes them ("new zendesk
    tickets": new Zendesk tickets); a tool inside a name, a channel or an address stays."""
    return _replace_alone(phrase, _SPELLINGS, joins_before="_#@./-", joins_after="_@-")


def _replace_alone(
    phrase: str, table: Sequence[tuple[str, str]], *, joins_before: str = "", joins_after: str = ""
) -> str:
    """``phrase`` with each word of ``table`` (written in lower case) replaced where it stands
    alone: not part of a longer word or of a domain ("monday.com"), nor joined to one by a
    character of ``joins_before`` before it or of ``joins_after`` after it."""
    out = phrase
    for plain, new in table:
        at = out.lower().find(plain)
        while at >= 0:
            end = at + len(plain)
            before, after = out[at - 1 : at] if at else "", out[end : end + 2]
            joined = (
                (before != "" and (before.isalnum() or before in joins_before))
                or after[:1].isalnum()
                or (after[:1] != "" and after[:1] in joins_after)
                or (after[:1] == "." and after[1:2].isalnum())
            )
            if not joined:
                out = out[:at] + new + out[end:]
            at = out.lower().find(plain, at + (1 if joined else len(new)))
    return out
