"""Synonym lexicon of the offline classifier: surface forms to canonical words and concepts.

Every surface form is written accent-stripped and lower-case, the way ``offline_text``
normalizes input. A trailing ``*`` makes a form a prefix (morphology: "automatizar",
"automatisieren" and "automation" share ``automat*``). Forms with spaces are phrases.
Foreign forms map to the English canonical word, so word and bigram features learned from
English training sentences carry over to Spanish, French, German and Portuguese.
"""

from __future__ import annotations

from intents.offline.lexicon.concepts import CONCEPTS
from intents.offline.lexicon.conversation import CONVERSATION
from intents.offline.lexicon.names import AGENT_ROLES, NAME_OBJECTS, SKILL_ROLES
from intents.offline.lexicon.tools import CHAT_TOOLS, SOURCES, SPELLED, spelled
from intents.offline.lexicon.verbs import VERBS
from intents.offline.lexicon.vocabulary import (
    AGENT_WORD,
    CHAT_WORD,
    COMMON_WORDS,
    ORDINALS,
    SOURCE_WORD,
    STOPWORDS,
    words,
)

# (canonical word, concepts separated by spaces, surface forms separated by "|")
GROUPS: tuple[tuple[str, str, str], ...] = (*VERBS, *CONCEPTS, *CONVERSATION)

__all__ = [
    "AGENT_ROLES", "AGENT_WORD", "CHAT_TOOLS", "CHAT_WORD", "COMMON_WORDS", "GROUPS",
    "NAME_OBJECTS", "ORDINALS", "SKILL_ROLES", "SOURCES", "SOURCE_WORD", "SPELLED", "STOPWORDS",
    "spelled", "words",
]  # fmt: skip
