"""Values read out of text: a stored setting's clock time, zone, channels and addresses
(``Setting``), a described problem's first clause. The patterns stay in the reading layer;
the policy reads no text with ``re``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from intents.reading.details import zone_in

_CLOCK_RE = re.compile(r"(\d{1,2}):(\d{2})")
_ADDRESS_RE = re.compile(r"#[\w-]+|[\w.+-]+@[\w.-]+")
_LEAD_RE = re.compile(
    r"^(?:\W*(?:ugh|argh|honestly|so|well|hey|hi|hello|ok|okay|sigh|help|hmm)\b[\W]*)+", re.I
)
_CLAUSE_END_RE = re.compile(
    r"[.;!?\n]|,? (?:and (?:nobody|no one|we|i|it)|until|but|because|so that|which means|"
    r"y nadie|et personne|und niemand|e ningu[eé]m)\b",
    re.IGNORECASE,
)


def clock_in(text: str) -> tuple[str, str] | None:
    """The first clock time of ``text`` as (hour, minutes) as written ("9", "05"), else None."""
    found = _CLOCK_RE.search(text)
    return (found.group(1), found.group(2)) if found else None


def with_clock(text: str, clock: str) -> str:
    """``text`` (a stored schedule) with its first clock time ("09:30") replaced by ``clock``."""
    return _CLOCK_RE.sub(clock, text, count=1)


def addresses_in(text: str) -> set[str]:
    """The channels ("#ops-alerts") and email addresses ("ana@acme.io") ``text`` names."""
    return set(_ADDRESS_RE.findall(text))


def first_clause(text: str) -> str:
    """``text`` without a leading "ugh, so"/"hi", up to a sentence end or "and nobody"/"until"."""
    return _CLAUSE_END_RE.split(_LEAD_RE.sub("", text.strip()), maxsplit=1)[0]


@dataclass(frozen=True)
class Setting:
    """A value the product stored in an agent's settings, in its own words ("Every Monday at
    09:00 (Europe/Berlin)", "#ops-alerts and ana@acme.io"): what it says, for a change or a
    comparison. (Schedules become data of their own with the agent runtime.)"""

    words: str

    @property
    def clock(self) -> tuple[str, str] | None:
        """Its first clock time as (hour, minutes) as written ("9", "05"), else None."""
        return clock_in(self.words)

    def with_clock(self, clock: str) -> str:
        """The words with their first clock time ("09:30") replaced by ``clock``."""
        return with_clock(self.words, clock)

    @property
    def addresses(self) -> frozenset[str]:
        """The channels ("#ops-alerts") and email addresses ("ana@acme.io") it names."""
        return frozenset(addresses_in(self.words))

    @property
    def zone(self) -> str | None:
        """The time zone it names, as an IANA name."""
        return zone_in(self.words)
