"""Agent schedules as data: an RFC 5545 RRULE and an IANA time zone.

A schedule is ``{"rrule": "FREQ=WEEKLY;BYDAY=MO;BYHOUR=8", "timezone": "Europe/Berlin"}`` or
None (runs only when asked). Every schedule comes in through ``schedule_clean``; the rest trust it.

- Occurrences are wall-clock times in the schedule's zone. The rule is evaluated on naive local
  datetimes and each one gets the zone with ``fold=0``. A time that does not exist (02:30 on the
  spring-forward day in Europe/Berlin) fires at the instant it would have been with the offset
  before the change, i.e. 03:30 local (RFC 5545 section 3.3.5). A time that exists twice (02:30 on
  the fall-back day) fires once, at its first occurrence. The instants come out sorted, each
  once: two local times that land on the same instant fire once.
- No DTSTART (so no COUNT): the rule starts at a local midnight, with INTERVAL=1 the one of the
  day before ``after``, with INTERVAL>1 the latest on or before it a whole number of INTERVALs
  after Monday 2024-01-01: days (DAILY), weeks from a Monday, months from the 1st, years from
  1 January. HOURLY and MINUTELY count from each local midnight: the phase restarts every day
  ("every 5 hours" is 00, 05, 10, 15, 20).
- What the rule does not say comes from the anchor: BYHOUR, BYMINUTE and BYSECOND default to
  00:00:00. A WEEKLY rule without BYDAY runs on Mondays, a MONTHLY one without a day on the 1st,
  a YEARLY one on 1 January (or the 1st of its BYMONTH).
- UNTIL ends the rule: with a ``Z`` it is a UTC instant, without one a local time, and a date
  alone means the end of that local day. An UNTIL in the past is allowed; it yields no next run.
- The search looks 8 years (plus one INTERVAL period) ahead; past that there is no next run.
"""

from __future__ import annotations

import functools
import heapq
import zoneinfo
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from itertools import islice, takewhile
from typing import TypedDict

from dateutil import rrule as du  # type: ignore[import-untyped, unused-ignore]
from django.core.exceptions import ValidationError


class ScheduleSpec(TypedDict):
    """A stored schedule: the rule without its ``RRULE:`` prefix, and an IANA zone name."""

    rrule: str
    timezone: str


MAX_RRULE = 500
MAX_INTERVAL = 1000
_FREQS = ("YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY")
_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# The numeric parts: lowest, highest, and whether a minus sign (counting from the end) is allowed.
_RANGES = {
    "BYSECOND": (0, 59, False), "BYMINUTE": (0, 59, False), "BYHOUR": (0, 23, False),
    "BYMONTHDAY": (1, 31, True), "BYYEARDAY": (1, 366, True), "BYWEEKNO": (1, 53, True),
    "BYMONTH": (1, 12, False), "BYSETPOS": (1, 366, True),
}  # fmt: skip
_KEYS = frozenset({"FREQ", "UNTIL", "INTERVAL", "BYDAY", "WKST", *_RANGES})
_PERIOD_DAYS = {"YEARLY": 366, "MONTHLY": 31, "WEEKLY": 7, "DAILY": 1, "HOURLY": 1, "MINUTELY": 1}
_EPOCH = datetime(2024, 1, 1)  # a Monday
_DAY = timedelta(days=1)
_SLACK = timedelta(hours=3)  # wider than any daylight-saving shift
_SEARCH = timedelta(days=366 * 8)
_NO_START = "The schedule has no fixed start, so the rule cannot say {}; use UNTIL to end it."


def _invalid(message: str) -> ValidationError:
    return ValidationError({"schedule": [message]})


@dataclass(frozen=True)
class _Rule:
    """A parsed rule: its parts in order, and dateutil's rule with the defaults filled in."""

    parts: dict[str, str]
    freq: str
    interval: int
    until: str | None
    rule: du.rrule


def _number_list(name: str, value: str) -> None:
    """Refuse a BY... list with an item out of its range."""
    low, high, signed = _RANGES[name]
    for item in value.split(","):
        digits = item[1:] if signed and item[:1] in "+-" and item else item
        if not digits.isdigit() or not low <= int(digits) <= high:
            raise _invalid(f"{name} must list whole numbers from {low} to {high}, not {item!r}.")


def _days_list(value: str) -> None:
    """Refuse a BYDAY list with an item that is not a weekday, with an optional +1/-1 before."""
    for item in value.split(","):
        count = item[:-2].removeprefix("+").removeprefix("-")
        if item[-2:] not in _DAYS or (count and not (count.isdigit() and 1 <= int(count) <= 53)):
            raise _invalid(f"BYDAY must list weekdays such as MO or -1FR, not {item!r}.")


def _check_part(name: str, value: str) -> None:
    if name in _RANGES:
        _number_list(name, value)
    elif name == "BYDAY":
        _days_list(value)
    elif name == "WKST" and value not in _DAYS:
        raise _invalid(f"WKST must be a weekday such as MO, not {value!r}.")
    elif name == "INTERVAL" and not (value.isdigit() and 1 <= int(value) <= MAX_INTERVAL):
        raise _invalid(f"INTERVAL must be a whole number from 1 to {MAX_INTERVAL}.")
    elif name == "UNTIL" and _until_utc(value, zoneinfo.ZoneInfo("UTC")) is None:
        raise _invalid("UNTIL must be a date such as 20261231 or 20261231T180000Z.")


def _split(text: str) -> dict[str, str]:
    """The parts of a rule, NAME to VALUE, each checked on its own."""
    parts: dict[str, str] = {}
    for piece in text.split(";"):
        name, equals, value = (word.strip() for word in piece.partition("="))
        if not piece.strip():
            continue
        if name.startswith("DTSTART") or name == "COUNT":
            raise _invalid(_NO_START.format(name.split(":")[0]))
        if not (equals and name and value):
            raise _invalid(f"Each part of the rule must read NAME=VALUE, not {piece.strip()!r}.")
        if name not in _KEYS:
            raise _invalid(f"The rule cannot have a {name} part.")
        if name in parts:
            raise _invalid(f"The rule says {name} twice.")
        _check_part(name, value)
        parts[name] = value
    return parts


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> _Rule:
    """A rule's text, already upper-case and without its prefix, read and checked."""
    parts = _split(text)
    freq = parts.get("FREQ")
    if freq is None:
        raise _invalid("The rule needs a FREQ, such as FREQ=DAILY or FREQ=WEEKLY.")
    if freq == "SECONDLY":
        raise _invalid("A schedule runs at most once a minute, so FREQ=SECONDLY is refused.")
    if freq not in _FREQS:
        raise _invalid(f"FREQ must be one of {', '.join(_FREQS)}, not {freq!r}.")
    filled = {name: value for name, value in parts.items() if name != "UNTIL"}
    if not parts.keys() & {"BYWEEKNO", "BYYEARDAY", "BYMONTHDAY", "BYDAY"}:
        if freq == "WEEKLY":
            filled["BYDAY"] = "MO"
        elif freq in ("MONTHLY", "YEARLY"):
            filled["BYMONTHDAY"] = "1"
        if freq == "YEARLY" and "BYMONTH" not in parts:
            filled["BYMONTH"] = "1"
    try:
        rule = du.rrulestr(";".join(f"{k}={v}" for k, v in filled.items()), dtstart=_EPOCH)
    except Exception as exc:  # dateutil raises several kinds; none of them may escape
        raise _invalid(f"The rule is not a valid RFC 5545 RRULE ({exc}).") from None
    if not isinstance(rule, du.rrule):
        raise _invalid("The schedule takes one RRULE.")
    parsed = _Rule(parts, freq, int(parts.get("INTERVAL", "1")), parts.get("UNTIL"), rule)
    if freq in ("HOURLY", "MINUTELY") and parts.keys() & {*_DATE_PARTS, "BYSETPOS"}:
        raise _invalid("An hourly or minutely rule can be limited only by day, hour and minute.")
    if freq not in ("MONTHLY", "YEARLY") and "BYSETPOS" in parts:
        raise _invalid("BYSETPOS is taken only in a MONTHLY or YEARLY rule.")
    if not _fires(parsed):
        raise _invalid("The rule never fires: no date matches all of its parts.")
    return parsed


_DATE_PARTS = ("BYMONTH", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO")


def _fires(rule: _Rule) -> bool:
    """Whether the rule fires in 2024-2031, tried one year or month at a time: dateutil looks
    on to the year 9999 for a rule that never fires, which takes seconds."""
    n, parts, once = rule.interval, rule.parts, 10**6  # an INTERVAL that stops after one period
    if rule.freq in ("HOURLY", "MINUTELY"):
        hours = [int(h) for h in parts.get("BYHOUR", ",".join(map(str, range(24)))).split(",")]
        if rule.freq == "HOURLY":
            return any(hour % n == 0 for hour in hours)
        minutes = [int(m) for m in parts.get("BYMINUTE", ",".join(map(str, range(60)))).split(",")]
        return any((hour * 60 + minute) % n == 0 for hour in hours for minute in minutes)
    if rule.freq == "DAILY" and n % 7 == 0 and "BYDAY" in parts:
        return "MO" in [day[-2:] for day in parts["BYDAY"].split(",")]  # the anchor's weekday
    if rule.freq == "MONTHLY":
        months = [datetime(2024 + m // 12, m % 12 + 1, 1) for m in range(96)]
        return any(next(iter(rule.rule.replace(dtstart=at, interval=once)), None) for at in months)
    probe = rule.rule if rule.freq == "YEARLY" else _days_rule(parts)
    years = [datetime(year, 1, 1) for year in range(2024, 2032)]
    return any(next(iter(probe.replace(dtstart=at, interval=once)), None) for at in years)


def _days_rule(parts: dict[str, str]) -> du.rrule:
    """A YEARLY rule for the days a DAILY or WEEKLY rule may fire on."""
    days = ",".join(day[-2:] for day in parts.get("BYDAY", "").split(",") if day)
    kept = [f"{k}={parts[k]}" for k in _DATE_PARTS if k in parts] + [f"BYDAY={days}"] * bool(days)
    return du.rrulestr(";".join(["FREQ=YEARLY", *kept]), dtstart=_EPOCH)


def _until_utc(value: str, zone: zoneinfo.ZoneInfo) -> datetime | None:
    """UNTIL as a UTC instant (a date alone: the end of that local day), None if malformed."""
    day, _, clock = value.partition("T")
    in_utc = clock.endswith("Z")
    clock = clock.removesuffix("Z")
    if len(day) != 8 or not day.isdigit() or (clock and not (len(clock) == 6 and clock.isdigit())):
        return None
    hour, minute, second = (
        (int(clock[:2]), int(clock[2:4]), int(clock[4:])) if clock else (23, 59, 59)
    )
    try:
        when = datetime(int(day[:4]), int(day[4:6]), int(day[6:]), hour, minute, second)
    except ValueError:
        return None
    return (
        None
        if in_utc and not clock
        else when.replace(tzinfo=UTC if in_utc else zone).astimezone(UTC)
    )


@functools.cache
def _zone_names() -> frozenset[str]:
    """The IANA zones this machine can load, less the local clock's aliases."""
    return frozenset(zoneinfo.available_timezones()) - {"localtime", "Factory", "posixrules"}


def _zone_ok(name: str) -> bool:
    return name in _zone_names()


def _text_field(value: dict[object, object], name: str, limit: int) -> str:
    text = value[name]
    if not isinstance(text, str) or not text.strip():
        raise _invalid(f"The schedule's {name!r} must be a non-empty string.")
    if any(ord(ch) < 32 for ch in text):
        raise _invalid(f"The schedule's {name!r} must be one line without control characters.")
    if len(text) > limit:
        raise _invalid(f"The schedule's {name!r} must be at most {limit} characters.")
    return text.strip()


def schedule_clean(value: object) -> ScheduleSpec | None:
    """A schedule checked and normalized, or None; ValidationError on anything wrong."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _invalid('The schedule must be an object with "rrule" and "timezone", or null.')
    if set(value) != {"rrule", "timezone"}:
        raise _invalid('The schedule takes exactly two keys, "rrule" and "timezone".')
    text = _text_field(value, "rrule", MAX_RRULE).upper().removeprefix("RRULE:").strip()
    zone = _text_field(value, "timezone", 64)
    if not _zone_ok(zone):
        raise _invalid(f"{zone!r} is not an IANA time zone name such as Europe/Berlin.")
    parts = _parse(text).parts
    return {"rrule": ";".join(f"{k}={v}" for k, v in parts.items()), "timezone": zone}


def _anchor(freq: str, interval: int, day: date) -> datetime:
    """The local midnight the rule starts from: a whole number of INTERVALs after the epoch."""
    if interval > 1 and freq == "DAILY":
        day -= timedelta(days=(day - _EPOCH.date()).days % interval)
    elif interval > 1 and freq == "WEEKLY":
        day -= timedelta(days=day.weekday())
        day -= timedelta(weeks=((day - _EPOCH.date()).days // 7) % interval)
    elif interval > 1 and freq == "MONTHLY":
        months = (day.year - _EPOCH.year) * 12 + day.month - 1
        months -= months % interval
        day = date(_EPOCH.year + months // 12, months % 12 + 1, 1)
    elif interval > 1 and freq == "YEARLY":
        day = date(day.year - (day.year - _EPOCH.year) % interval, 1, 1)
    return datetime.combine(day, time())


def _naive(rule: _Rule, start: datetime, horizon: datetime) -> Iterator[datetime]:
    """The rule's local times at or after ``start`` up to ``horizon``, in order."""
    if rule.freq not in ("HOURLY", "MINUTELY"):
        anchor = _anchor(rule.freq, rule.interval, start.date() - _DAY)
        yield from rule.rule.replace(dtstart=anchor, until=horizon).xafter(start, inc=True)
        return
    unit = timedelta(hours=1) if rule.freq == "HOURLY" else timedelta(minutes=1)
    step = unit * rule.interval
    day = datetime.combine(start.date(), time())
    first = day + step * ((start - day) // step)
    whole = _DAY % step == timedelta(0)  # the phase carries over midnight unchanged
    while first <= horizon:
        end = horizon if whole else min(horizon, day + _DAY - timedelta(seconds=1))
        yield from rule.rule.replace(dtstart=first, until=end).xafter(start, inc=True)
        if whole:
            return
        day += _DAY
        first = day


def _occurrences(spec: ScheduleSpec, after: datetime) -> Iterator[datetime]:
    """The UTC instants strictly after ``after``, sorted, each once, up to UNTIL."""
    if after.tzinfo is None or after.utcoffset() is None:
        raise ValueError("after must be an aware datetime")
    rule = _parse(spec["rrule"])
    zone = zoneinfo.ZoneInfo(spec["timezone"])
    after = after.astimezone(UTC)
    until = _until_utc(rule.until, zone) if rule.until else None
    if until is not None and until <= after:
        return
    local = after.astimezone(zone)
    # Only across a change of offset can a local time before ``after`` fall after it.
    moved = (after - _SLACK).astimezone(zone).utcoffset() != local.utcoffset()
    start = local.replace(tzinfo=None) - (_SLACK if moved else timedelta(0))
    horizon = start + _SEARCH + _DAY * (_PERIOD_DAYS[rule.freq] * rule.interval)
    if until is not None:
        horizon = min(horizon, until.astimezone(zone).replace(tzinfo=None) + _SLACK)
    pending: list[datetime] = []
    last = after
    for naive in _naive(rule, start, horizon):
        instant = naive.replace(tzinfo=zone).astimezone(UTC)
        # No later local time falls before this: a gap's time has the offset after the change.
        floor = min(instant, naive.replace(tzinfo=zone, fold=1).astimezone(UTC))
        if instant > last:
            heapq.heappush(pending, instant)
        while pending and pending[0] <= floor:
            instant = heapq.heappop(pending)
            if until is not None and instant > until:
                return
            if instant > last:
                last = instant
                yield instant
        if until is not None and floor > until:
            break
    for instant in sorted(pending):
        if instant > last and (until is None or instant <= until):
            last = instant
            yield instant


def schedule_next(spec: ScheduleSpec, *, after: datetime) -> datetime | None:
    """The first run strictly after ``after`` (aware), in UTC, or None once the rule has ended."""
    return next(_occurrences(spec, after), None)


def schedule_due(
    spec: ScheduleSpec, *, after: datetime, until: datetime, limit: int = 1000
) -> tuple[datetime | None, int]:
    """The latest run in (after, until] and how many runs it holds, counted up to ``limit``."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    latest, count = None, 0
    for when in islice(takewhile(lambda at: at <= until, _occurrences(spec, after)), limit):
        latest, count = when, count + 1
    if count < limit:
        return latest, count
    span = timedelta(hours=2)
    while True:  # more runs than counted: look back from ``until`` in widening steps
        start, found = max(after, until - span), None
        for when in takewhile(lambda at: at <= until, _occurrences(spec, start)):
            found = when
        if found is not None or start == after:
            return found or latest, count
        span *= 32


_COMPACT_HEADS = {
    "minutely": ("MINUTELY", 1), "hourly": ("HOURLY", 1), "daily": ("DAILY", 1),
    "weekdays": ("WEEKLY", 1), "weekday": ("WEEKLY", 1), "weekly": ("WEEKLY", 1),
    "biweekly": ("WEEKLY", 2), "monthly": ("MONTHLY", 1), "quarterly": ("MONTHLY", 3),
    "yearly": ("YEARLY", 1),
}  # fmt: skip
_COMPACT_UNITS = {
    "minute": "MINUTELY", "hour": "HOURLY", "day": "DAILY", "week": "WEEKLY", "month": "MONTHLY"
}  # fmt: skip
_PARTS_OF_DAY = {"morning": (9, 0), "afternoon": (14, 0), "evening": (18, 0), "night": (22, 0)}


def _clock(word: str) -> tuple[int, int] | None:
    """ "09:30" as (9, 30), or None."""
    hour, colon, minute = word.partition(":")
    if not (colon and hour.isdigit() and minute.isdigit() and len(minute) == 2):
        return None
    return (int(hour), int(minute)) if int(hour) < 24 and int(minute) < 60 else None


def _compact_head(words: list[str]) -> tuple[str, int, list[str]] | None:
    """(FREQ, INTERVAL, the words after the head) of a compact schedule, or None."""
    if words[0] in _COMPACT_HEADS:
        return (*_COMPACT_HEADS[words[0]], words[1:])
    if words[0] == "every" and len(words) >= 3 and words[1].isdigit():
        freq = _COMPACT_UNITS.get(words[2].removesuffix("s"))
        if freq and 1 <= int(words[1]) <= MAX_INTERVAL:
            return freq, int(words[1]), words[3:]
    return None


def schedule_from_compact(compact: str, zone: str) -> ScheduleSpec | None:
    """The chat wizard's compact schedule ("weekly monday 08:00") as a spec; None if unknown.

    Unsaid: 09:00, Monday, the 1st of the month. Several times of day become one BYHOUR list
    with the first time's minute ("daily 09:00 15:30" runs at 09:00 and 15:00). Words it does
    not know after a known head are left out; an invalid zone becomes UTC."""
    words = compact.lower().split() if isinstance(compact, str) else []
    head = _compact_head(words) if words else None
    if head is None:
        return None
    freq, interval, rest = head
    days = [code for code, name in zip(_DAYS, _DAY_NAMES, strict=True) if name.lower() in rest]
    clocks = [c for c in map(_clock, rest) if c] or [
        _PARTS_OF_DAY[w] for w in rest if w in _PARTS_OF_DAY
    ]
    parts = [f"FREQ={freq}"] + ([f"INTERVAL={interval}"] if interval > 1 else [])
    if words[0] in ("weekdays", "weekday"):
        days = list(_DAYS[:5])
    if freq == "WEEKLY":
        parts.append("BYDAY=" + ",".join(days or ["MO"]))
    elif freq == "MONTHLY":
        parts.append("BYMONTHDAY=1")
    elif freq == "YEARLY":
        parts += ["BYMONTH=1", "BYMONTHDAY=1"]
    if freq not in ("HOURLY", "MINUTELY"):
        clocks = clocks or [(9, 0)]
        hours = ",".join(str(hour) for hour in sorted({hour for hour, _ in clocks}))
        parts += [f"BYHOUR={hours}", f"BYMINUTE={clocks[0][1]}"]
    zone = zone if isinstance(zone, str) and _zone_ok(zone) else "UTC"
    try:
        return schedule_clean({"rrule": ";".join(parts), "timezone": zone})
    except ValidationError:
        return None


def schedule_from_words(text: str) -> ScheduleSpec | None:
    """The product's own words for a schedule ("Every Monday at 08:00 (Europe/Berlin)") as a
    spec, or None when they say no recurrence. Never raises."""
    from intents.offline.schedule import find_days, find_schedule, find_time
    from intents.offline.text import normalize
    from intents.reading.details.schedule import zone_in

    if not isinstance(text, str) or not text.strip():
        return None
    try:
        # The product writes "Every other Friday" and "Minutely"; the reading knows other words.
        norm = normalize(text).replace("every other ", "biweekly on ")
        found = ("minutely", "") if norm.startswith("minutely") else find_schedule(norm)
        if not found:
            return None
        words = found[0].split()
        if "week" in found[0] and not find_days(found[0]):  # "every 2 weeks on tuesday"
            words += ["saturday", "sunday"] if "weekend" in norm else find_days(norm)
        clock = find_time(norm) if found[1] not in ("hourly", "minutely") else None
        if clock and not any(":" in word for word in words):  # "every 3 days at 7am"
            words.append(clock)
        return schedule_from_compact(" ".join(words), zone_in(text) or "UTC")
    except Exception:  # arbitrary text from the API: a reading that fails is no schedule
        return None


def _times(parts: dict[str, str]) -> str | None:
    """ "09:00 and 15:00" from BYHOUR and BYMINUTE, or None when they say more than that."""
    if parts.get("BYSECOND", "0") != "0":
        return None
    hours = [int(h) for h in parts.get("BYHOUR", "0").split(",")]
    minutes = [int(m) for m in parts.get("BYMINUTE", "0").split(",")]
    clocks = sorted(f"{h:02d}:{m:02d}" for h in hours for m in minutes)
    return " and ".join(clocks) if len(clocks) <= 4 else None


def _words(parts: dict[str, str]) -> str | None:
    """The common forms of a rule in words, or None."""
    freq, n = parts["FREQ"], int(parts.get("INTERVAL", "1"))
    if parts.keys() - {"FREQ", "INTERVAL", "BYDAY", "BYHOUR", "BYMINUTE", "BYSECOND", "BYMONTHDAY"}:
        return None
    days = parts.get("BYDAY", "MO" if freq == "WEEKLY" else "").split(",")
    unit = "minute" if freq == "MINUTELY" else "hour"
    if freq in ("MINUTELY", "HOURLY") and not parts.keys() - {"FREQ", "INTERVAL"}:
        return f"Every {n} {unit}s" if n > 1 else f"Every {unit}"
    at = _times(parts)
    if at is None or (freq != "WEEKLY" and "BYDAY" in parts) or any(len(d) > 2 for d in days):
        return None
    if freq == "DAILY" and "BYMONTHDAY" not in parts:
        return f"Every {n} days at {at}" if n > 1 else f"Every day at {at}"
    if freq == "WEEKLY" and "BYMONTHDAY" not in parts:
        if days == list(_DAYS[:5]) and n == 1:
            return f"Every weekday at {at}"
        named = " and ".join(_DAY_NAMES[_DAYS.index(d)] for d in days)
        every = {1: "Every ", 2: "Every other "}.get(n, f"Every {n} weeks on ")
        return f"{every}{named} at {at}"
    monthday = parts.get("BYMONTHDAY", "1")
    if freq == "MONTHLY" and "," not in monthday:
        on = "the last day" if monthday == "-1" else f"day {monthday}"
        return f"Every {n} months on {on} at {at}" if n > 1 else f"Every month on {on} at {at}"
    return None


def schedule_text(spec: ScheduleSpec | None) -> str:
    """Short English words for a schedule, e.g. "Every Monday at 08:00 (Europe/Berlin)"."""
    if spec is None:
        return "Only when asked"
    try:
        parts = _parse(spec["rrule"]).parts
        said = _words({k: v for k, v in parts.items() if k != "UNTIL"})
    except (ValidationError, KeyError):
        said = None
    if said is None:
        return f"{spec['rrule']} ({spec['timezone']})"
    until = parts.get("UNTIL")
    if until is not None:
        said += f", until {until[:4]}-{until[4:6]}-{until[6:8]}"
    return f"{said} ({spec['timezone']})"
