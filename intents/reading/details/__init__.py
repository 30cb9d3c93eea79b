"""The details of an agent a message gives, as clean phrases in the user's own words.

The offline tier's entities say *which* tool or schedule a message names (normalized, accents
stripped); this reads the phrases a summary shows back from the original text, case and accents
intact: what to watch, the job described, the destination with its channel or address
verbatim, the schedule in words with its time zone, an explicit name. An acknowledgement
("yes please", "ok", "sure") gives nothing.
"""

from __future__ import annotations

from intents.reading.details.names import name_as_written, name_in, renamed_as_written, without_name
from intents.reading.details.places import destination_in, scope_in
from intents.reading.details.schedule import ZONES, Schedule, is_one_off, schedule_words, zone_in
from intents.reading.details.slots import (
    is_acknowledgement,
    is_question,
    read_slots,
    strip_acknowledgement,
    taken_back,
)
from intents.reading.details.task import what_it_does, what_it_watches

__all__ = [
    "ZONES", "Schedule", "destination_in", "is_acknowledgement", "is_one_off", "is_question",
    "name_as_written", "name_in", "read_slots", "renamed_as_written", "schedule_words", "scope_in",
    "strip_acknowledgement", "taken_back", "what_it_does", "what_it_watches", "without_name",
    "zone_in",
]  # fmt: skip
