"""Schedules and clock times in five languages, for the offline tier's entities.

"every morning at 9am" -> ``daily 09:00``, "weekly on Mondays" -> ``weekly monday``, "alle zwei
Wochen" -> ``biweekly``; a frequency beside each. Patterns run only behind cheap substring gates:
most messages name no schedule at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

MAX_VALUE = 80


def short_value(value: str) -> str:
    """A value cut to ``MAX_VALUE`` characters between words, stripped of edge punctuation."""
    value = value.strip(" ,.;:-")
    if len(value) <= MAX_VALUE:
        return value
    cut = value[:MAX_VALUE].rsplit(" ", 1)[0]
    return cut or value[:MAX_VALUE]


_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "ten": 10,
    "twelve": 12,
    "fifteen": 15,
    "thirty": 30,
    "dos": 2,
    "tres": 3,
    "deux": 2,
    "trois": 3,
    "zwei": 2,
    "drei": 3,
    "dois": 2,
    "due": 2,
    "tre": 3,
    "a couple of": 2,
    "couple": 2,
    "few": 3,
}
_WEEKDAYS = {
    "monday": "monday",
    "lunedi": "monday",
    "mon": "monday",
    "lunes": "monday",
    "lundi": "monday",
    "montag": "monday",
    "segunda": "monday",
    "tuesday": "tuesday",
    "martedi": "tuesday",
    "tue": "tuesday",
    "tues": "tuesday",
    "martes": "tuesday",
    "mardi": "tuesday",
    "dienstag": "tuesday",
    "terca": "tuesday",
    "wednesday": "wednesday",
    "mercoledi": "wednesday",
    "wed": "wednesday",
    "miercoles": "wednesday",
    "mercredi": "wednesday",
    "mittwoch": "wednesday",
    "quarta": "wednesday",
    "thursday": "thursday",
    "giovedi": "thursday",
    "thu": "thursday",
    "thurs": "thursday",
    "jueves": "thursday",
    "jeudi": "thursday",
    "donnerstag": "thursday",
    "quinta": "thursday",
    "friday": "friday",
    "venerdi": "friday",
    "fri": "friday",
    "viernes": "friday",
    "vendredi": "friday",
    "freitag": "friday",
    "sexta": "friday",
    "saturday": "saturday",
    "sabato": "saturday",
    "sat": "saturday",
    "sabado": "saturday",
    "samedi": "saturday",
    "samstag": "saturday",
    "sunday": "sunday",
    "domenica": "sunday",
    "sun": "sunday",
    "domingo": "sunday",
    "dimanche": "sunday",
    "sonntag": "sunday",
}
_DAY_ALT = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
_UNIT_ALT = (
    r"min(?:ute)?s?|minutos?|minuti|hours?|hrs?|horas?|heures?|stunden?|or[ae]|days?|dias?|"
    r"jours?|tage?n?|giorni|weeks?|semanas?|semaines?|wochen?|settimane|months?|mes(?:es)?|mois|"
    r"monate?n?|mesi"
)
_UNIT_NAMES = (
    ("min", "minutes"),
    ("hour", "hours"),
    ("hr", "hours"),
    ("hora", "hours"),
    ("ora", "hours"),
    ("ore", "hours"),
    ("giorn", "days"),
    ("settiman", "weeks"),
    ("heure", "hours"),
    ("stunde", "hours"),
    ("day", "days"),
    ("dia", "days"),
    ("jour", "days"),
    ("tag", "days"),
    ("week", "weeks"),
    ("semana", "weeks"),
    ("semaine", "weeks"),
    ("woche", "weeks"),
    ("month", "months"),
    ("mes", "months"),
    ("mois", "months"),
    ("monat", "months"),
)
_EVERY = r"(?:every|each|cada|a cada|toutes les|tous les|alle|jede[nrs]?|ogni)"
_EVERY_N_RE = re.compile(
    rf"\b{_EVERY}\s+(\d+|one|two|three|four|five|six|ten|twelve|fifteen|thirty|dos|tres|"
    rf"deux|trois|zwei|drei|dois|due|tre|couple of|few)\s+({_UNIT_ALT})\b"
)
_FREQ_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        ("every 15 minutes", r"\bquarter[- ]hourly\b"),
        (
            "hourly",
            r"\b(?:hourly|every hour|each hour|once an hour|cada hora|a cada hora|"
            r"toutes les heures|chaque heure|stundlich|jede stunde|de hora en hora|"
            r"toda hora|por hora|ogni ora)\b",
        ),
        (
            "weekdays",
            r"\b(?:every weekday|weekdays|each weekday|workdays|every workday|"
            r"business days|monday (?:to|through|thru|-) friday|mon-fri|"
            r"lunes a viernes|du lundi au vendredi|montag bis freitag|"
            r"dias uteis|dias habiles|dias laborables|dias laborales|werktags|werktag|werktagen|"
            r"jours ouvres|jour ouvre|jours ouvrables|jour ouvrable|dia util|giorni feriali|"
            r"giorni lavorativi|dal lunedi al venerdi)\b",
        ),
        (
            "biweekly",
            r"\b(?:biweekly|bi-weekly|fortnightly|every other week|"
            r"every (?:two|2) weeks|cada (?:dos|2) semanas|toutes les deux semaines|"
            r"alle zwei wochen|quinzenal(?:mente)?|quincenal(?:mente)?)\b",
        ),
        (
            "daily",
            r"\b(?:daily|every ?day|each day|every (?:morning|evening|night|afternoon)|"
            r"each (?:morning|evening|night)|nightly|once a day|per day|a day\b(?= at)|"
            r"in the mornings|mornings|cada dia|todos los dias|diari[oa]|diariamente|"
            r"cada manana|todas las (?:mananas|noches|tardes)|chaque (?:jour|matin|soir)|"
            r"tous les (?:jours|matins|soirs)|quotidien(?:ne)?(?:ment)?|jeden (?:tag|"
            r"morgen|abend)|taglich|taeglich|morgens|abends|todo dia|todos os dias|"
            r"toda (?:manha|noite)|todas as (?:manhas|noites)|ogni (?:giorno|mattina|sera|notte)|"
            r"tutti i giorni|tutte le (?:mattine|sere)|quotidianamente|giornalmente)\b",
        ),
        (
            "weekly",
            rf"\b(?:weekly|every week|each week|once a week|per week|"
            rf"(?:every|each|on) (?:{_DAY_ALT})s?\b|(?:{_DAY_ALT})s\b|"
            rf"semanal(?:mente)?|cada semana|todas las semanas|"
            rf"(?:cada|todos los) (?:{_DAY_ALT})|hebdomadaire|chaque semaine|"
            rf"toutes les semaines|(?:chaque|tous les|le) (?:{_DAY_ALT})s?\b|"
            rf"wochentlich|woechentlich|jede woche|jeden (?:{_DAY_ALT})|"
            rf"(?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)s\b|"
            rf"toda semana|todas as semanas|toda (?:{_DAY_ALT})|"
            rf"todas as (?:{_DAY_ALT})s|settimanale|settimanalmente|ogni settimana|"
            rf"ogni (?:{_DAY_ALT})|tutti i (?:{_DAY_ALT})|il (?:{_DAY_ALT}))",
        ),
        (
            "monthly",
            r"\b(?:monthly|every month|each month|once a month|per month|"
            r"first of (?:the|every|each) month|end of (?:the|every|each) month|"
            r"mensual(?:mente)?|cada mes|todos los meses|mensuel(?:le)?(?:ment)?|"
            r"chaque mois|tous les mois|monatlich|jeden monat|mensal(?:mente)?|"
            r"todo mes|todos os meses|ogni mese|mensile|mensilmente|tutti i mesi)\b",
        ),
        (
            "quarterly",
            r"\b(?:quarterly|every quarter|each quarter|trimestral|trimestriel|"
            r"vierteljahrlich|quartalsweise)\b",
        ),
        (
            "yearly",
            r"\b(?:yearly|annually|every year|each year|once a year|anual(?:mente)?|"
            r"annuel(?:lement)?|jahrlich|jaehrlich)\b",
        ),
    )
)
_DAY_RE = re.compile(rf"\b({_DAY_ALT})s?\b")
# "on friday, not monday": a day taken back.
_NOT_THAT_DAY_RE = re.compile(
    r"\b(?:not|no|instead of|rather than|nicht|pas|nao|ni)\s+(?:on\s+|el\s+|le\s+|am\s+)?$"
)
_TIME_RE = re.compile(
    r"(?:\b(at|around|by|before|after|a las|a la|um|as|vers|a|ab|alle)\s+)?"
    r"\b(\d{1,2})(?:[:h.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.|uhr|heures?|h)?(?![\w:])"
    # "alle 2 Stunden", "every 2 hours": a count of units is no clock time.
    r"(?!\s*(?:min|stund|std\b|tag|woch|monat|hours?\b|hrs?\b|or[ae]\b|giorn|settiman|mesi\b|"
    r"days?\b|weeks?\b|months?\b|dias?\b|semana))"
)
_PERIOD_OF_DAY = (
    ("noon", "12:00"),
    ("midday", "12:00"),
    ("mediodia", "12:00"),
    ("midi", "12:00"),
    ("mittag", "12:00"),
    ("midnight", "00:00"),
    ("medianoche", "00:00"),
    ("minuit", "00:00"),
    ("mitternacht", "00:00"),
)
_PART_OF_DAY = re.compile(
    r"\b(morning|mornings|evening|evenings|night|afternoon|manana|matin|morgen|morgens|manha|"
    r"soir|abend|abends|noche|noite|tarde)\b"
)
_PART_NAMES = {
    "morning": "morning",
    "mornings": "morning",
    "manana": "morning",
    "matin": "morning",
    "morgen": "morning",
    "morgens": "morning",
    "manha": "morning",
    "evening": "evening",
    "evenings": "evening",
    "soir": "evening",
    "abend": "evening",
    "abends": "evening",
    "tarde": "afternoon",
    "afternoon": "afternoon",
    "night": "night",
    "noche": "night",
    "noite": "night",
}


def _hhmm(hour: int, minute: int, meridiem: str) -> str | None:
    if meridiem.startswith("p") and hour < 12:
        hour += 12
    elif meridiem.startswith("a") and hour == 12:
        hour = 0
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    return f"{hour:02d}:{minute:02d}"


# "twice a day at 9:00 and 15:00", "at 9 and 3pm", "um 8 und 16 Uhr": more than one time.
_SEVERAL_TIMES_RE = re.compile(
    r"\b(?:twice|two times|2x|three times|3x|dos veces|tres veces|deux fois|trois fois|zweimal|"
    r"dreimal|duas vezes|tres vezes)\b|"
    r"\d(?::\d{2})?\s*(?:am|pm|h|uhr)?\s*(?:and|&|y|et|und|e)\s*(?:at |a las |um |as |às )?"
    r"\d{1,2}(?::\d{2}|\s*(?:am|pm|h\b|uhr))"
)


def _clock_times(norm: str) -> Iterator[str]:
    """Each clock time ("9am", "at 17:30", "um 8 Uhr", "a las 9") as HH:MM, in order. A bare
    number counts only after "at"-like words; after "a", "by", "after" it needs minutes or
    am/pm ("by 5" is a deadline, "a 2" a count)."""
    for match in _TIME_RE.finditer(norm) if _DIGIT_RE.search(norm) else ():
        lead, hour_s, minute_s, meridiem = match.groups()
        meridiem = (meridiem or "").replace(".", "")
        if not (meridiem or minute_s or lead):
            continue
        if lead in {"a", "as", "by", "after", "before", "ab"} and not (meridiem or minute_s):
            continue
        value = _hhmm(int(hour_s), int(minute_s or 0), meridiem)
        if value:
            yield value


def find_times(norm: str) -> list[str]:
    """Every clock time a schedule names, in order and once each ("at 9 and 3pm")."""
    return list(dict.fromkeys(_clock_times(norm)))[:4]


def find_time(norm: str) -> str | None:
    """A clock time ("9am", "at 17:30", "um 8 Uhr", "a las 9") as HH:MM."""
    first = next(_clock_times(norm), None)
    if first is not None:
        return first
    noon = _NOON_RE.search(norm) if "n" in norm else None
    return _NOON[noon.group(1)] if noon else None


# Substrings without which a frequency pattern cannot match: a substring test costs a
# fraction of a regex search, and most messages name no schedule at all.
_FREQ_GATES: dict[str, tuple[str, ...]] = {
    "every 15 minutes": ("quarter",),
    "hourly": ("hour", "hora", "heure", "stund", "ogni ora"),
    "weekdays": (
        "week",
        "feriali",
        "lavorativ",
        "lunedi",
        "work",
        "business",
        "fri",
        "vendredi",
        "viernes",
        "freitag",
        "uteis",
        "habiles",
        "werktag",
        "ouvre",
        "laborab",
        "ouvrab",
        "laboral",
        "util",
    ),
    "biweekly": ("week", "fortnight", "semana", "semaine", "wochen", "quin"),
    "daily": (
        "dai",
        "giorn",
        "ogni",
        "tutte le",
        "day",
        "morning",
        "evening",
        "night",
        "afternoon",
        "dia",
        "jour",
        "matin",
        "soir",
        "quotid",
        "tag",
        "morgen",
        "abend",
        "manha",
        "noite",
        "manana",
        "noche",
        "tarde",
    ),
    "weekly": (
        "week",
        "settiman",
        "lunedi",
        "martedi",
        "mercoledi",
        "giovedi",
        "venerdi",
        "sabato",
        "domenica",
        "day",
        "semana",
        "semaine",
        "hebdo",
        "woch",
        "lunes",
        "martes",
        "miercoles",
        "jueves",
        "viernes",
        "sabado",
        "domingo",
        "lundi",
        "mardi",
        "mercredi",
        "jeudi",
        "vendredi",
        "samedi",
        "dimanche",
        "tag",
        "segunda",
        "terca",
        "quarta",
        "quinta",
        "sexta",
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
    ),
    "monthly": ("month", "mes", "mens", "mois", "monat"),
    "quarterly": ("quarter", "trimest", "viertel", "quartal"),
    "yearly": ("year", "annu", "anual", "jahr"),
}
_UNIT_FREQUENCY = {
    "minutes": "minutely",
    "hours": "hourly",
    "days": "daily",
    "weeks": "weekly",
    "months": "monthly",
}
_EVERY_GATE = ("every", "each", "cada", "toutes", "tous", "alle", "jede", "ogni")
_NOON_RE = re.compile(
    r"\b(noon|midday|mediodia|midi|mittag|midnight|medianoche|minuit|mitternacht)\b"
)
_NOON = dict(_PERIOD_OF_DAY)


def find_days(norm: str) -> list[str]:
    """Every weekday named ("tuesdays and thursdays"), in the order said, less those taken
    back ("friday, not monday")."""
    return list(
        dict.fromkeys(
            _WEEKDAYS[day.group(1)]
            for day in _DAY_RE.finditer(norm)
            if not _NOT_THAT_DAY_RE.search(norm, max(0, day.start() - 16), day.start())
        )
    )


# Misspellings common enough to read as the word ("evry weekday", "dialy").
_TYPOS_RE = re.compile(
    r"\b(?:evry|evrey|eveyr|everey|dialy|dayly|wkly|nite|nitely|mornin|evenin)\b"
)
_TYPOS = {
    "dialy": "daily",
    "dayly": "daily",
    "wkly": "weekly",
    "nite": "night",
    "nitely": "nightly",
    "mornin": "morning",
    "evenin": "evening",
}


def find_schedule(norm: str) -> tuple[str, str] | None:
    """(schedule, frequency) from normalized text, or None when no recurrence is said."""
    norm = _TYPOS_RE.sub(lambda m: _TYPOS.get(m.group(0), "every"), norm)
    frequency = ""
    every_n = _EVERY_N_RE.search(norm) if any(k in norm for k in _EVERY_GATE) else None
    if every_n:
        count_s, unit_s = every_n.groups()
        count = int(count_s) if count_s.isdigit() else _NUMBER_WORDS.get(count_s, 2)
        unit = next((name for stem, name in _UNIT_NAMES if unit_s.startswith(stem)), "hours")
        frequency = _UNIT_FREQUENCY[unit]
        if count == 1:
            schedule = frequency
        else:
            schedule = f"every {count} {unit}"
            if unit == "weeks" and count == 2:
                frequency = "biweekly"
        return short_value(schedule), frequency
    for name, pattern in _FREQ_PATTERNS:
        if any(k in norm for k in _FREQ_GATES[name]) and pattern.search(norm):
            frequency = name
            break
    if not frequency:
        return None
    parts = [frequency]
    if frequency in {"weekly", "biweekly"}:
        parts += find_days(norm)
    if frequency in {"daily", "weekly", "biweekly", "weekdays", "monthly"}:
        clock = find_time(norm)
        if clock:
            parts.extend(find_times(norm) if _SEVERAL_TIMES_RE.search(norm) else [clock])
        elif frequency == "daily":
            part = _PART_OF_DAY.search(norm)
            if part:
                parts.append(_PART_NAMES[part.group(1)])
    if frequency == "every 15 minutes":
        frequency = "minutely"
    return short_value(" ".join(parts)), frequency


_DIGIT_RE = re.compile(r"\d")

# Words that name a time of day without digits ("at noon").
NOON_WORDS = frozenset(word for word, _ in _PERIOD_OF_DAY)
