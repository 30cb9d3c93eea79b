"""Agent schedules as data: validation, the next run across daylight saving, the wizard's words."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError

from conversations.agents.schedules import (
    ScheduleSpec,
    schedule_clean,
    schedule_due,
    schedule_from_compact,
    schedule_from_words,
    schedule_next,
    schedule_text,
)
from intents.offline.schedule import find_schedule
from intents.offline.text import normalize
from intents.reading.details.schedule import Schedule


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


def spec(rrule: str, zone: str = "UTC") -> ScheduleSpec:
    cleaned = schedule_clean({"rrule": rrule, "timezone": zone})
    assert cleaned is not None
    return cleaned


def runs(schedule: ScheduleSpec, after: datetime, count: int) -> list[datetime | None]:
    """``count`` runs in a row, each asked for after the one before."""
    found: list[datetime | None] = []
    for _ in range(count):
        nxt = schedule_next(schedule, after=after)
        found.append(nxt)
        if nxt is None:
            break
        after = nxt
    return found


BERLIN_0230 = spec("FREQ=DAILY;BYHOUR=2;BYMINUTE=30", "Europe/Berlin")


def test_spring_forward_a_missing_time_fires_once_an_hour_later() -> None:
    assert runs(BERLIN_0230, utc(2026, 3, 27, 12), 3) == [
        utc(2026, 3, 28, 1, 30),  # 02:30 CET
        utc(2026, 3, 29, 1, 30),  # 02:30 does not exist: 03:30 CEST
        utc(2026, 3, 30, 0, 30),  # 02:30 CEST
    ]
    assert schedule_due(BERLIN_0230, after=utc(2026, 3, 28, 12), until=utc(2026, 3, 29, 12)) == (
        utc(2026, 3, 29, 1, 30),
        1,
    )


def test_fall_back_a_repeated_time_fires_once_the_first_time() -> None:
    assert runs(BERLIN_0230, utc(2026, 10, 23, 12), 3) == [
        utc(2026, 10, 24, 0, 30),  # 02:30 CEST
        utc(2026, 10, 25, 0, 30),  # the first 02:30, still CEST
        utc(2026, 10, 26, 1, 30),  # 02:30 CET
    ]
    # Asked from between the two 02:30s, the second one is not a run.
    assert schedule_next(BERLIN_0230, after=utc(2026, 10, 25, 0, 45)) == utc(2026, 10, 26, 1, 30)
    assert schedule_due(BERLIN_0230, after=utc(2026, 10, 24, 12), until=utc(2026, 10, 25, 12)) == (
        utc(2026, 10, 25, 0, 30),
        1,
    )


CHICAGO_WEEKDAYS = spec("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0", "America/Chicago")


def test_weekdays_stay_at_nine_local_across_both_changes() -> None:
    # Sunday 8 March 2026: CST (UTC-6) to CDT (UTC-5).
    assert runs(CHICAGO_WEEKDAYS, utc(2026, 3, 6, 12), 2) == [
        utc(2026, 3, 6, 15),
        utc(2026, 3, 9, 14),
    ]
    # Sunday 1 November 2026: CDT back to CST.
    assert runs(CHICAGO_WEEKDAYS, utc(2026, 10, 30, 12), 2) == [
        utc(2026, 10, 30, 14),
        utc(2026, 11, 2, 15),
    ]


BIWEEKLY_FRIDAY = spec("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=16;BYMINUTE=0", "Europe/Berlin")


def test_biweekly_phase_is_the_same_from_any_week() -> None:
    # Weeks count in twos from Monday 2024-01-01: 24 April 2026 is a slot, 1 May is not.
    may_8, may_22 = utc(2026, 5, 8, 14), utc(2026, 5, 22, 14)
    assert schedule_next(BIWEEKLY_FRIDAY, after=utc(2026, 4, 24, 13)) == utc(2026, 4, 24, 14)
    assert schedule_next(BIWEEKLY_FRIDAY, after=utc(2026, 4, 24, 14)) == may_8
    assert schedule_next(BIWEEKLY_FRIDAY, after=utc(2026, 4, 28)) == may_8
    assert schedule_next(BIWEEKLY_FRIDAY, after=utc(2026, 5, 5)) == may_8
    assert schedule_next(BIWEEKLY_FRIDAY, after=utc(2026, 5, 9)) == may_22
    assert schedule_next(BIWEEKLY_FRIDAY, after=utc(2026, 5, 12)) == may_22
    assert runs(BIWEEKLY_FRIDAY, utc(2026, 4, 27), 3) == [may_8, may_22, utc(2026, 6, 5, 14)]


def test_weekly_without_a_day_is_monday_at_midnight() -> None:
    weekly = spec("FREQ=WEEKLY", "Europe/Berlin")
    assert runs(weekly, utc(2026, 5, 1), 2) == [utc(2026, 5, 3, 22), utc(2026, 5, 10, 22)]
    assert schedule_next(weekly, after=utc(2026, 5, 6)) == utc(2026, 5, 10, 22)


def test_every_n_days_and_months_count_from_2024() -> None:
    every_3_days = spec("FREQ=DAILY;INTERVAL=3;BYHOUR=9;BYMINUTE=0")
    assert runs(every_3_days, utc(2026, 5, 1), 2) == [utc(2026, 5, 2, 9), utc(2026, 5, 5, 9)]
    assert schedule_next(every_3_days, after=utc(2026, 5, 3)) == utc(2026, 5, 5, 9)
    quarterly = spec("FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0", "Europe/Berlin")
    assert runs(quarterly, utc(2026, 5, 1), 2) == [utc(2026, 7, 1, 7), utc(2026, 10, 1, 7)]
    yearly = spec("FREQ=YEARLY;INTERVAL=2")
    assert schedule_next(yearly, after=utc(2026, 5, 1)) == utc(2028, 1, 1)


def test_hourly_and_minutely() -> None:
    assert schedule_next(spec("FREQ=HOURLY"), after=utc(2026, 5, 1, 10, 15)) == utc(2026, 5, 1, 11)
    assert schedule_next(spec("FREQ=HOURLY"), after=utc(2026, 5, 1, 11)) == utc(2026, 5, 1, 12)
    quarter = spec("FREQ=MINUTELY;INTERVAL=15", "Europe/Berlin")
    assert runs(quarter, utc(2026, 5, 1, 10, 7), 2) == [
        utc(2026, 5, 1, 10, 15),
        utc(2026, 5, 1, 10, 30),
    ]
    minutely = spec("FREQ=MINUTELY")
    assert schedule_next(minutely, after=utc(2026, 5, 1, 10, 7, 30)) == utc(2026, 5, 1, 10, 8)
    # The phase restarts at local midnight: 00, 05, 10, 15, 20 o'clock, then 00 again.
    every_5_hours = spec("FREQ=HOURLY;INTERVAL=5", "Europe/Berlin")
    assert runs(every_5_hours, utc(2026, 5, 1, 17, 30), 3) == [
        utc(2026, 5, 1, 18),
        utc(2026, 5, 1, 22),
        utc(2026, 5, 2, 3),
    ]
    every_7_minutes = spec("FREQ=MINUTELY;INTERVAL=7", "Europe/Berlin")
    assert runs(every_7_minutes, utc(2026, 5, 1, 21, 50), 3) == [
        utc(2026, 5, 1, 21, 55),
        utc(2026, 5, 1, 22, 0),
        utc(2026, 5, 1, 22, 7),
    ]


def test_minutely_across_both_changes_is_increasing_and_once_each() -> None:
    minutely = spec("FREQ=MINUTELY", "Europe/Berlin")
    # Spring: every minute of UTC once (the missing hour lands on the one after it).
    seen = runs(minutely, utc(2026, 3, 29, 0, 55), 10)
    assert seen == [utc(2026, 3, 29, 0, 56) + timedelta(minutes=i) for i in range(10)]
    assert schedule_due(minutely, after=utc(2026, 3, 29), until=utc(2026, 3, 29, 3)) == (
        utc(2026, 3, 29, 3),
        180,
    )
    # Autumn: the repeated hour runs once, so 01:00-01:59 UTC has no run.
    assert schedule_next(minutely, after=utc(2026, 10, 25, 0, 59)) == utc(2026, 10, 25, 2)
    assert schedule_due(minutely, after=utc(2026, 10, 25), until=utc(2026, 10, 25, 3)) == (
        utc(2026, 10, 25, 3),
        120,
    )


def test_until() -> None:
    ended = spec("FREQ=DAILY;BYHOUR=9;UNTIL=20240101T000000Z", "Europe/Berlin")
    assert schedule_next(ended, after=utc(2026, 5, 1)) is None
    assert schedule_due(ended, after=utc(2026, 5, 1), until=utc(2026, 5, 9)) == (None, 0)
    ending = spec("FREQ=DAILY;BYHOUR=9;UNTIL=20260502T070000Z", "Europe/Berlin")
    assert runs(ending, utc(2026, 5, 1), 3) == [utc(2026, 5, 1, 7), utc(2026, 5, 2, 7), None]
    by_date = spec("FREQ=DAILY;BYHOUR=23;UNTIL=20260502", "Europe/Berlin")  # the whole local day
    assert runs(by_date, utc(2026, 5, 1), 3) == [utc(2026, 5, 1, 21), utc(2026, 5, 2, 21), None]
    local = spec("FREQ=DAILY;BYHOUR=9;UNTIL=20260502T085959", "Europe/Berlin")
    assert runs(local, utc(2026, 5, 1), 2) == [utc(2026, 5, 1, 7), None]


def test_due_after_a_week_offline_on_a_minutely_rule_is_fast() -> None:
    minutely = spec("FREQ=MINUTELY", "Europe/Berlin")
    start = time.perf_counter()
    latest, count = schedule_due(minutely, after=utc(2026, 3, 1), until=utc(2026, 3, 8))
    assert time.perf_counter() - start < 0.5
    assert (latest, count) == (utc(2026, 3, 8), 1000)
    assert schedule_due(minutely, after=utc(2026, 3, 1), until=utc(2026, 3, 8), limit=20_000) == (
        utc(2026, 3, 8),
        7 * 24 * 60,
    )
    assert schedule_due(minutely, after=utc(2026, 3, 1), until=utc(2026, 3, 1, 0, 30, 30)) == (
        utc(2026, 3, 1, 0, 30),
        30,
    )
    assert schedule_due(minutely, after=utc(2026, 3, 1), until=utc(2026, 3, 1)) == (None, 0)
    with pytest.raises(ValueError):
        schedule_due(minutely, after=utc(2026, 3, 1), until=utc(2026, 3, 2), limit=0)


def test_next_is_fast_and_needs_an_aware_datetime() -> None:
    start = time.perf_counter()
    for i in range(500):
        schedule_next(CHICAGO_WEEKDAYS, after=utc(2026, 1, 1) + timedelta(minutes=97 * i))
    assert (time.perf_counter() - start) / 500 < 0.005
    with pytest.raises(ValueError):
        schedule_next(CHICAGO_WEEKDAYS, after=datetime(2026, 1, 1))


def test_clean_normalizes() -> None:
    assert schedule_clean(None) is None
    assert schedule_clean({"rrule": " rrule:freq=weekly;byday=mo ", "timezone": "Asia/Tokyo"}) == {
        "rrule": "FREQ=WEEKLY;BYDAY=MO",
        "timezone": "Asia/Tokyo",
    }
    assert spec("FREQ=DAILY;UNTIL=20261231T235959Z")["rrule"] == "FREQ=DAILY;UNTIL=20261231T235959Z"
    assert (
        spec("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29")["rrule"]
        == "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29"
    )


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("FREQ=DAILY", "must be an object"),
        (["FREQ=DAILY", "UTC"], "must be an object"),
        ({"rrule": "FREQ=DAILY"}, "exactly two keys"),
        ({"rrule": "FREQ=DAILY", "timezone": "UTC", "start": "now"}, "exactly two keys"),
        ({"rrule": 5, "timezone": "UTC"}, "non-empty string"),
        ({"rrule": "FREQ=DAILY", "timezone": None}, "non-empty string"),
        ({"rrule": "  ", "timezone": "UTC"}, "non-empty string"),
        ({"rrule": "FREQ=DAILY", "timezone": ""}, "non-empty string"),
        ({"rrule": "FREQ=DAILY\x00", "timezone": "UTC"}, "control characters"),
        ({"rrule": "DTSTART:20260101T000000\nRRULE:FREQ=DAILY", "timezone": "UTC"}, "control"),
        ({"rrule": "FREQ=DAILY;" + "BYHOUR=1;" * 60, "timezone": "UTC"}, "at most 500"),
        ({"rrule": "FREQ=DAILY", "timezone": "local"}, "IANA"),
        ({"rrule": "FREQ=DAILY", "timezone": "localtime"}, "IANA"),
        ({"rrule": "FREQ=DAILY", "timezone": "/usr/share/zoneinfo/UTC"}, "IANA"),
        ({"rrule": "FREQ=DAILY", "timezone": "../zoneinfo/UTC"}, "IANA"),
        ({"rrule": "FREQ=DAILY", "timezone": "Mars/Olympus"}, "IANA"),
        ({"rrule": "BYHOUR=9", "timezone": "UTC"}, "needs a FREQ"),
        ({"rrule": "FREQ=SECONDLY", "timezone": "UTC"}, "SECONDLY"),
        ({"rrule": "FREQ=FORTNIGHTLY", "timezone": "UTC"}, "FREQ must be one of"),
        ({"rrule": "FREQ=DAILY;COUNT=3", "timezone": "UTC"}, "no fixed start"),
        ({"rrule": "FREQ=DAILY;DTSTART=20260101T090000", "timezone": "UTC"}, "no fixed start"),
        ({"rrule": "DTSTART:20260101T090000;FREQ=DAILY", "timezone": "UTC"}, "no fixed start"),
        ({"rrule": "FREQ=DAILY;FREQ=WEEKLY", "timezone": "UTC"}, "twice"),
        ({"rrule": "FREQ=DAILY;BYEASTER=0", "timezone": "UTC"}, "cannot have"),
        ({"rrule": "FREQ=DAILY;BYHOUR", "timezone": "UTC"}, "NAME=VALUE"),
        ({"rrule": "FREQ=DAILY;BYHOUR=24", "timezone": "UTC"}, "BYHOUR"),
        ({"rrule": "FREQ=DAILY;BYMINUTE=-5", "timezone": "UTC"}, "BYMINUTE"),
        ({"rrule": "FREQ=MONTHLY;BYMONTHDAY=0", "timezone": "UTC"}, "BYMONTHDAY"),
        ({"rrule": "FREQ=WEEKLY;BYDAY=XX", "timezone": "UTC"}, "BYDAY"),
        ({"rrule": "FREQ=MONTHLY;BYDAY=+1", "timezone": "UTC"}, "BYDAY"),
        ({"rrule": "FREQ=WEEKLY;WKST=XX", "timezone": "UTC"}, "WKST"),
        ({"rrule": "FREQ=DAILY;INTERVAL=0", "timezone": "UTC"}, "INTERVAL"),
        ({"rrule": "FREQ=DAILY;INTERVAL=two", "timezone": "UTC"}, "INTERVAL"),
        ({"rrule": "FREQ=DAILY;UNTIL=2026", "timezone": "UTC"}, "UNTIL"),
        ({"rrule": "FREQ=DAILY;UNTIL=20261301", "timezone": "UTC"}, "UNTIL"),
        ({"rrule": "FREQ=DAILY;UNTIL=20260101Z", "timezone": "UTC"}, "UNTIL"),
        ({"rrule": "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "timezone": "UTC"}, "never fires"),
        ({"rrule": "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", "timezone": "UTC"}, "never fires"),
        ({"rrule": "FREQ=DAILY;INTERVAL=7;BYDAY=TU", "timezone": "UTC"}, "never fires"),
        ({"rrule": "FREQ=HOURLY;INTERVAL=5;BYHOUR=1", "timezone": "UTC"}, "never fires"),
        ({"rrule": "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=9", "timezone": "UTC"}, "never fires"),
        ({"rrule": "FREQ=MINUTELY;BYMONTH=2", "timezone": "UTC"}, "limited only by"),
        ({"rrule": "FREQ=DAILY;BYSETPOS=2", "timezone": "UTC"}, "BYSETPOS"),
    ],
)
def test_clean_refuses(value: object, said: str) -> None:
    with pytest.raises(ValidationError) as refused:
        schedule_clean(value)
    messages = refused.value.message_dict["schedule"]
    assert len(messages) == 1
    assert said in messages[0]


# Phrases a person types, the compact schedule the chat reads, and the rule it becomes.
PHRASES = [
    ("every monday at 8am", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=8;BYMINUTE=0"),
    ("every weekday at 9am", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0"),
    ("every day at 9", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0"),
    ("daily at 18:30", "FREQ=DAILY;BYHOUR=18;BYMINUTE=30"),
    ("every morning", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0"),
    ("every evening", "FREQ=DAILY;BYHOUR=18;BYMINUTE=0"),
    ("twice a day at 9 and 15:00", "FREQ=DAILY;BYHOUR=9,15;BYMINUTE=0"),
    ("every day at 9:00 and 15:30", "FREQ=DAILY;BYHOUR=9,15;BYMINUTE=0"),  # the first minute
    ("every hour", "FREQ=HOURLY"),
    ("hourly", "FREQ=HOURLY"),
    ("every 15 minutes", "FREQ=MINUTELY;INTERVAL=15"),
    ("every 30 minutes", "FREQ=MINUTELY;INTERVAL=30"),
    ("quarter-hourly", "FREQ=MINUTELY;INTERVAL=15"),
    ("every 2 hours", "FREQ=HOURLY;INTERVAL=2"),
    ("every 3 days", "FREQ=DAILY;INTERVAL=3;BYHOUR=9;BYMINUTE=0"),
    ("every 2 weeks on tuesday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0"),
    ("every other week on friday at 4pm", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=16;BYMINUTE=0"),
    ("biweekly on friday at 16:00", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=16;BYMINUTE=0"),
    ("fortnightly", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0"),
    ("every tuesday and thursday at 9am", "FREQ=WEEKLY;BYDAY=TU,TH;BYHOUR=9;BYMINUTE=0"),
    ("once a week", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0"),
    ("first day of every month", "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0"),
    ("monthly at 10am", "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=10;BYMINUTE=0"),
    ("every 2 months", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0"),
    ("quarterly", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0"),
    ("every year", "FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0"),
    ("cada lunes a las 9", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0"),
    ("todos los días a las 8", "FREQ=DAILY;BYHOUR=8;BYMINUTE=0"),
    ("cada hora", "FREQ=HOURLY"),
    ("de lunes a viernes a las 9", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0"),
    ("tous les jours à 18h", "FREQ=DAILY;BYHOUR=18;BYMINUTE=0"),
    ("chaque lundi à 9h", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0"),
    ("toutes les deux semaines", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0"),
    ("jeden Freitag um 16 Uhr", "FREQ=WEEKLY;BYDAY=FR;BYHOUR=16;BYMINUTE=0"),
    ("täglich um 7 Uhr", "FREQ=DAILY;BYHOUR=7;BYMINUTE=0"),
    ("alle zwei Wochen", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0"),
    ("todos os dias às 9h", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0"),
    ("toda segunda às 10h", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=10;BYMINUTE=0"),
    ("remind me later", None),
    ("at 9am", None),
]


@pytest.mark.parametrize(("phrase", "rrule"), PHRASES)
def test_the_wizards_schedules_convert(phrase: str, rrule: str | None) -> None:
    found = find_schedule(normalize(phrase))
    converted = schedule_from_compact(found[0], "Europe/Berlin") if found else None
    expected = None if rrule is None else {"rrule": rrule, "timezone": "Europe/Berlin"}
    assert converted == expected
    if converted is not None:  # every conversion has a next run
        assert schedule_next(converted, after=utc(2026, 5, 1)) is not None


def test_compact_edge_cases() -> None:
    assert schedule_from_compact("once", "UTC") is None
    assert schedule_from_compact("", "UTC") is None
    assert schedule_from_compact("sometimes 09:00", "UTC") is None
    assert schedule_from_compact("every 0 days", "UTC") is None
    assert schedule_from_compact("every 3 fortnights", "UTC") is None
    assert schedule_from_compact("minutely", "Nowhere/Land") == {
        "rrule": "FREQ=MINUTELY",
        "timezone": "UTC",
    }
    assert schedule_from_compact("weekly", "local") == {
        "rrule": "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0",
        "timezone": "UTC",
    }
    # Several clock times with different minutes: every hour named, at the first time's minute.
    assert schedule_from_compact("daily 15:30 09:45", "UTC") == {
        "rrule": "FREQ=DAILY;BYHOUR=9,15;BYMINUTE=30",
        "timezone": "UTC",
    }
    assert schedule_from_compact("weekly sunday monday 08:00", "UTC") == {
        "rrule": "FREQ=WEEKLY;BYDAY=MO,SU;BYHOUR=8;BYMINUTE=0",
        "timezone": "UTC",
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Every Monday at 08:00 (Europe/Berlin)",
            ("FREQ=WEEKLY;BYDAY=MO;BYHOUR=8;BYMINUTE=0", "Europe/Berlin"),
        ),
        ("Every weekday at 09:00", ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0", "UTC")),
        (
            "Every day at 09:00 and 15:00 (3 pm) (America/Chicago)",
            ("FREQ=DAILY;BYHOUR=9,15;BYMINUTE=0", "America/Chicago"),
        ),
        ("Every hour", ("FREQ=HOURLY", "UTC")),
        ("Minutely (UTC)", ("FREQ=MINUTELY", "UTC")),
        (
            "Every other Friday at 16:00 (4 pm) (Europe/Paris)",
            ("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=16;BYMINUTE=0", "Europe/Paris"),
        ),
        (
            "every 2 weeks on tuesday at 10am",
            ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=10;BYMINUTE=0", "UTC"),
        ),
        ("every weekend", ("FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=9;BYMINUTE=0", "UTC")),
        ("every morning at 7 in Tokyo", ("FREQ=DAILY;BYHOUR=7;BYMINUTE=0", "Asia/Tokyo")),
        ("Once, right away", None),
        ("please summarize my inbox", None),
        ("", None),
        ("\x00" * 10, None),
    ],
)
def test_from_words(text: str, expected: tuple[str, str] | None) -> None:
    want = None if expected is None else {"rrule": expected[0], "timezone": expected[1]}
    assert schedule_from_words(text) == want


@pytest.mark.parametrize(
    "compact",
    [
        "weekly monday 08:00",
        "weekly tuesday thursday 09:00",
        "biweekly friday 16:00",
        "weekdays 09:00",
        "daily 09:00 15:00",
        "daily 18:30",
        "daily",
        "hourly",
        "minutely",
        "every 15 minutes",
        "every 2 hours",
        "every 3 days",
        "every 2 weeks",
        "every 2 months",
        "weekly",
        "biweekly",
        "monthly",
        "monthly 10:00",
        "quarterly",
        "yearly",
    ],
)
def test_the_products_own_words_read_back_the_same(compact: str) -> None:
    words = Schedule(compact, "Europe/Berlin").words()
    assert schedule_from_words(words) == schedule_from_compact(compact, "Europe/Berlin")


def test_from_words_never_raises_on_odd_input() -> None:
    assert schedule_from_words(None) is None  # type: ignore[arg-type]
    assert schedule_from_words("every day " * 2000) == {
        "rrule": "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
        "timezone": "UTC",
    }


@pytest.mark.parametrize(
    ("rrule", "zone", "words"),
    [
        (
            "FREQ=WEEKLY;BYDAY=MO;BYHOUR=8;BYMINUTE=0",
            "Europe/Berlin",
            "Every Monday at 08:00 (Europe/Berlin)",
        ),
        (
            "FREQ=WEEKLY;BYDAY=TU,TH;BYHOUR=9;BYMINUTE=30",
            "UTC",
            "Every Tuesday and Thursday at 09:30 (UTC)",
        ),
        (
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0",
            "UTC",
            "Every weekday at 09:00 (UTC)",
        ),
        (
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=16;BYMINUTE=0",
            "UTC",
            "Every other Friday at 16:00 (UTC)",
        ),
        (
            "FREQ=WEEKLY;INTERVAL=3;BYDAY=FR;BYHOUR=16",
            "UTC",
            "Every 3 weeks on Friday at 16:00 (UTC)",
        ),
        ("FREQ=WEEKLY", "UTC", "Every Monday at 00:00 (UTC)"),
        ("FREQ=DAILY;BYHOUR=9,15;BYMINUTE=0", "UTC", "Every day at 09:00 and 15:00 (UTC)"),
        ("FREQ=DAILY;INTERVAL=3;BYHOUR=9", "UTC", "Every 3 days at 09:00 (UTC)"),
        ("FREQ=HOURLY", "UTC", "Every hour (UTC)"),
        ("FREQ=HOURLY;INTERVAL=2", "UTC", "Every 2 hours (UTC)"),
        ("FREQ=MINUTELY", "UTC", "Every minute (UTC)"),
        ("FREQ=MINUTELY;INTERVAL=15", "UTC", "Every 15 minutes (UTC)"),
        (
            "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0",
            "UTC",
            "Every month on day 1 at 09:00 (UTC)",
        ),
        (
            "FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=9",
            "UTC",
            "Every month on the last day at 09:00 (UTC)",
        ),
        ("FREQ=DAILY;BYHOUR=9;UNTIL=20261231", "UTC", "Every day at 09:00, until 2026-12-31 (UTC)"),
        ("FREQ=HOURLY;BYMINUTE=30", "UTC", "FREQ=HOURLY;BYMINUTE=30 (UTC)"),
        ("FREQ=MONTHLY;BYDAY=-1FR", "UTC", "FREQ=MONTHLY;BYDAY=-1FR (UTC)"),
        ("FREQ=YEARLY;BYMONTH=3", "UTC", "FREQ=YEARLY;BYMONTH=3 (UTC)"),
    ],
)
def test_text(rrule: str, zone: str, words: str) -> None:
    assert schedule_text(spec(rrule, zone)) == words


def test_text_of_nothing() -> None:
    assert schedule_text(None) == "Only when asked"
