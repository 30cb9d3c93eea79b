"""Reading a short reply against what the assistant just said (for the master agent).

The same multilingual normalizing and matching the offline classifier uses, exposed for
deterministic follow-up handling: a number or ordinal picking an option, "where were we?",
"cancel", "yes"/"no".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from intents.offline.context import is_affirmation, is_cancel, is_denial, is_recap, selection
from intents.offline.guard import strip_meta
from intents.offline.model import engine
from intents.offline.text import Parsed, agent_keys, normalize, parse


@dataclass(frozen=True)
class FollowUp:
    parsed: Parsed

    @property
    def recap(self) -> bool:
        return is_recap(self.parsed)

    @property
    def cancel(self) -> bool:
        return is_cancel(self.parsed)

    @property
    def yes(self) -> bool:
        return is_affirmation(self.parsed)

    @property
    def no(self) -> bool:
        return is_denial(self.parsed)

    @property
    def run(self) -> bool:
        """A run asked for in any of the lexicon's languages ("run it", "lance-le", "roda")."""
        return "V_RUN" in self.parsed.concepts

    @property
    def off_topic(self) -> bool:
        """Small talk or an errand ("write me a poem", "what's the weather")."""
        return "OOS" in self.parsed.concepts

    def pick(self, size: int) -> int | None:
        """The 0-based item of a numbered list of ``size`` that the reply picks, if any."""
        return selection(self.parsed, size)


@lru_cache(maxsize=64)
def read_followup(message: str) -> FollowUp:
    """The reply, parsed once: a turn's master agent reads the same message more than once."""
    cleaned, _ = strip_meta(normalize(message))
    return FollowUp(parse(cleaned, engine().analyzer, agent_keys(()), normalized=True))
