"""What a message does in the dialogue, as named cues: one table, read once per message.

Each entry names an act, says in one line why the assistant needs it, lists the cues that
show it (``cues.py`` says how they are written) and cues that rule it out, and gives example
messages. ``tests/intents/test_reading.py`` reads every example and checks that it shows its
act, so an entry cannot drift from what it claims. Which act matters when is the assistant's
business; this table only says what a message shows.
"""

from __future__ import annotations

from intents.reading.acts.entry import Act, Entry, entry
from intents.reading.acts.managing import MANAGING
from intents.reading.acts.proposal import PROPOSAL
from intents.reading.acts.replies import REPLIES

TABLE: tuple[Entry, ...] = (*PROPOSAL, *REPLIES, *MANAGING)

__all__ = ["TABLE", "Act", "Entry", "entry"]
