"""The schedule a message gives, and the time zone it names."""

from __future__ import annotations

import re
import zoneinfo
from dataclasses import dataclass

from intents.offline.schedule import find_schedule, find_time
from intents.offline.text import normalize
from intents.reading.cues import cues

# Cities and zone words people say, to IANA names (a full "Europe/Berlin" is read as is).
ZONES = {
    "berlin": "Europe/Berlin", "berliner": "Europe/Berlin", "london": "Europe/London",
    "londres": "Europe/London", "paris": "Europe/Paris", "madrid": "Europe/Madrid",
    "amsterdam": "Europe/Amsterdam", "brussels": "Europe/Brussels", "zurich": "Europe/Zurich",
    "vienna": "Europe/Vienna", "wien": "Europe/Vienna", "rome": "Europe/Rome",
    "roma": "Europe/Rome", "lisbon": "Europe/Lisbon", "lisboa": "Europe/Lisbon",
    "dublin": "Europe/Dublin", "stockholm": "Europe/Stockholm", "warsaw": "Europe/Warsaw",
    "helsinki": "Europe/Helsinki", "athens": "Europe/Athens", "istanbul": "Europe/Istanbul",
    "munich": "Europe/Berlin", "munchen": "Europe/Berlin", "hamburg": "Europe/Berlin",
    "new york": "America/New_York", "nueva york": "America/New_York",
    "eastern": "America/New_York", "boston": "America/New_York", "toronto": "America/Toronto",
    "chicago": "America/Chicago", "central": "America/Chicago", "denver": "America/Denver",
    "mountain": "America/Denver", "los angeles": "America/Los_Angeles",
    "san francisco": "America/Los_Angeles", "pacific": "America/Los_Angeles",
    "seattle": "America/Los_Angeles", "mexico city": "America/Mexico_City",
    "sao paulo": "America/Sao_Paulo", "brasilia": "America/Sao_Paulo",
    "rio de janeiro": "America/Sao_Paulo", "buenos aires": "America/Argentina/Buenos_Aires",
    "sydney": "Australia/Sydney", "melbourne": "Australia/Melbourne",
    "auckland": "Pacific/Auckland", "tokyo": "Asia/Tokyo", "seoul": "Asia/Seoul",
    "singapore": "Asia/Singapore", "hong kong": "Asia/Hong_Kong", "shanghai": "Asia/Shanghai",
    "mumbai": "Asia/Kolkata", "india": "Asia/Kolkata", "bangalore": "Asia/Kolkata",
    "dubai": "Asia/Dubai", "utc": "UTC", "gmt": "UTC",
    "bogota": "America/Bogota", "lima": "America/Lima", "santiago": "America/Santiago",
    "caracas": "America/Caracas", "montevideo": "America/Montevideo",
    "ciudad de mexico": "America/Mexico_City", "cdmx": "America/Mexico_City",
    "vancouver": "America/Vancouver", "montreal": "America/Toronto",
    "phoenix": "America/Phoenix", "atlanta": "America/New_York", "miami": "America/New_York",
    "austin": "America/Chicago", "dallas": "America/Chicago", "manila": "Asia/Manila",
    "jakarta": "Asia/Jakarta", "bangkok": "Asia/Bangkok", "kuala lumpur": "Asia/Kuala_Lumpur",
    "karachi": "Asia/Karachi", "tel aviv": "Asia/Jerusalem", "cairo": "Africa/Cairo",
    "lagos": "Africa/Lagos", "nairobi": "Africa/Nairobi", "johannesburg": "Africa/Johannesburg",
    "milan": "Europe/Rome", "milano": "Europe/Rome", "bruxelles": "Europe/Brussels",
    "prague": "Europe/Prague", "budapest": "Europe/Budapest", "copenhagen": "Europe/Copenhagen",
    "oslo": "Europe/Oslo", "barcelona": "Europe/Madrid", "porto": "Europe/Lisbon",
    "perth": "Australia/Perth", "brisbane": "Australia/Brisbane",
}  # fmt: skip
# The same cities and zone words as the words a reading holds them in ("new york": new, york).
_ZONE_WORDS = {tuple(place.split()): zone for place, zone in ZONES.items()}
_LONGEST_ZONE = max(len(place) for place in _ZONE_WORDS)
# Abbreviations count only in capitals: "est" and "ist" are words in French and German.
_ABBREVIATIONS = {
    "CET": "Europe/Berlin", "CEST": "Europe/Berlin", "BST": "Europe/London",
    "EST": "America/New_York", "EDT": "America/New_York", "CST": "America/Chicago",
    "CDT": "America/Chicago", "MST": "America/Denver", "MDT": "America/Denver",
    "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles", "IST": "Asia/Kolkata",
    "JST": "Asia/Tokyo", "AEST": "Australia/Sydney", "AEDT": "Australia/Sydney",
}  # fmt: skip
_ABBREVIATION_RE = re.compile(r"\b(" + "|".join(_ABBREVIATIONS) + r")\b")
_IANA_RE = re.compile(r"\b([A-Z][a-z]+/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?)\b")
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

# Words that say a job is done once: a one-off, for a meeting or a deck, by a near day. The
# reading writes a word with its "'s" as one word ("tomorrows"), so a day or a meeting has
# that form too.
_ONE_OFF = cues(
    """
    =once|one-off|presentation|slides|deck|tomorrow|tomorrows
    =one =off
    =just =this =time
    =for =the =board|boards|meeting|meetings
    =board =meeting|meetings
    =next =week|weeks
    =by =friday|fridays
    =before =the
    =ad =hoc
    =right =now
    """
)


@dataclass(frozen=True)
class Schedule:
    """A schedule as the offline tier reads it, and the time zone it is in."""

    compact: str  # "weekly monday 08:00", "daily 09:00", "every 15 minutes", "weekly"
    zone: str

    @property
    def complete(self) -> bool:
        """Whether it says when (a weekly one needs its day and time, a daily one its time)."""
        words = self.compact.split()
        if words[0] in ("hourly", "every", "minutely", "once"):
            return True
        has_time = bool(re.search(r"\d{1,2}:\d{2}", self.compact))
        if words[0] in ("weekly", "biweekly"):
            return has_time and any(day in words for day in _DAYS)
        if words[0] == "monthly":
            return has_time or len(words) > 1
        return has_time

    def words(self) -> str:
        """ "Every Monday at 08:00 (Europe/Berlin)"."""
        if self.compact == "once":
            return "Once, right away"
        return f"{schedule_words(self.compact)} ({self.zone})"


def _said(clock: str) -> str:
    """ "15:00 (3 pm)": a 24-hour time with its afternoon reading."""
    hour, minute = int(clock.split(":")[0]), clock.split(":")[1]
    if hour <= 12:
        return clock
    return f"{clock} ({hour - 12}{':' + minute if minute != '00' else ''} pm)"


def schedule_words(compact: str) -> str:
    words = compact.split()
    clocks = [w for w in words if re.fullmatch(r"\d{1,2}:\d{2}", w)]
    days = [w.title() for w in words if w in _DAYS]
    # "at 09:00 and 15:00 (3 pm)": every time of a schedule that runs more than once a day.
    at = f" at {' and '.join(_said(c) for c in clocks)}" if clocks else ""
    head = words[0] if words else ""
    if head == "weekly" and days:
        return f"Every {' and '.join(days)}{at}"
    if head == "biweekly":
        return f"Every other {' and '.join(days) or 'week'}{at}"
    if head in ("weekdays", "weekday"):
        return f"Every weekday{at}"
    if head == "daily":
        return f"Every day{at}"
    if head == "hourly":
        return "Every hour"
    if head == "monthly":
        rest = " ".join(w for w in words[1:] if w not in clocks)
        return f"Every month{(' on the ' + rest) if rest else ''}{at}"
    if head == "once":
        return "Once, now"
    if head == "every":
        return compact[0].upper() + compact[1:]
    if head == "weekly":
        return f"Every week{at}"
    return compact[0].upper() + compact[1:] if compact else compact


def zone_in(text: str) -> str | None:
    """The time zone a message names, if any ("9am Berlin time" -> Europe/Berlin)."""
    iana = _IANA_RE.search(text)
    if iana:
        try:
            zoneinfo.ZoneInfo(iana.group(1))
            return iana.group(1)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass
    from intents.reading.reading import read  # the reading reads its details through here

    said = read(text).words
    for at in range(len(said)):
        for size in range(_LONGEST_ZONE, 0, -1):  # "new york" before "york"
            zone = _ZONE_WORDS.get(said[at : at + size])
            if zone:
                return zone
    abbreviation = _ABBREVIATION_RE.search(text)
    return _ABBREVIATIONS[abbreviation.group(1)] if abbreviation else None


def is_one_off(text: str) -> bool:
    from intents.reading.reading import read  # the reading reads its details through here

    return read(text).matches(_ONE_OFF)


_PART_OF_DAY = {"morning": "09:00", "afternoon": "14:00", "evening": "18:00", "night": "22:00"}


def _merge_when(before: str, when: str | None, text: str) -> str | None:
    """A schedule from this answer, completed by the frequency asked about before."""
    if when and Schedule(when, "UTC").complete:
        return when
    new_days = [d for d in _DAYS if when and d in when.split()]
    if before and new_days and not any(d in before.split() for d in new_days):
        # "actually make it tuesdays": the new day replaces the old one, the time stays.
        kept = [w for w in before.split() if w not in _DAYS]
        at = next((i for i, w in enumerate(kept) if re.fullmatch(r"\d{1,2}:\d{2}", w)), len(kept))
        return " ".join([*kept[:at], *new_days, *kept[at:]])
    clock = find_time(normalize(text))
    if before and clock and not when:
        # "yes but at 8 instead": the new time replaces the old one, the days stay.
        kept = [w for w in before.split() if not re.fullmatch(r"\d{1,2}:\d{2}", w)]
        return " ".join([*kept, clock])
    if before:
        merged = find_schedule(normalize(f"{before} {text}"))
        if merged:
            return merged[0]
    return when
