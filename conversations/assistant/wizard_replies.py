"""The create-agent wizard's reply templates, marked for translation (``wizard.py`` fills them).

Every template names its placeholders, so a translation may put them in any order. A clause
of what an agent does ("watches Jira for overdue tickets and alerts #ops every Monday at
09:00") is built from the clause templates below, each one taking the clause so far as
``%(what)s``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from django.utils.functional import Promise as StrPromise
from django.utils.translation import gettext_lazy


class Translated(Mapping[str, str]):
    """Texts marked for translation, read in the active language: plain strings, so a label
    can be compared, escaped or sent as JSON."""

    def __init__(self, texts: Mapping[str, StrPromise]) -> None:
        self._texts = dict(texts)

    def __getitem__(self, key: str) -> str:
        return str(self._texts[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)


QUESTIONS = {
    "source": gettext_lazy(
        "Where does the data come from (for example Jira, Notion, Google Sheets, HubSpot)?"
    ),
    "trigger": gettext_lazy("What should it watch for or work on?"),
    "action": gettext_lazy(
        "What should it do with what it finds: send an alert, write a summary, or build a "
        "report? And where should that go (a Slack channel, an email address)?"
    ),
    "schedule": gettext_lazy("How often should it run, and at what time?"),
    "when": gettext_lazy("On which day and at what time should it run?"),
}
# "daily" or "hourly" has its days; only the time is open.
QUESTION_TIME = gettext_lazy("At what time should it run?")
# A place named only by its kind: the kind is known, not which one.
QUESTION_PLACE = gettext_lazy("Which %(kind)s should it put them in? Its name or a link will do.")
TIMES_IN = gettext_lazy("(Times are in %(zone)s unless you name a time zone.)")
A_FEW_QUESTIONS = gettext_lazy("A few questions:\n%(questions)s")

# The labels of the detail lines ("- Source: Jira"), in the order the lines come.
LABELS = Translated(
    {
        "name": gettext_lazy("Name"),
        "source": gettext_lazy("Source"),
        "scope": gettext_lazy("In"),
        "trigger": gettext_lazy("Watches"),
        "about": gettext_lazy("For"),
        "task": gettext_lazy("Does"),
        "action": gettext_lazy("Action"),
        "destination": gettext_lazy("Sends to"),
        "schedule": gettext_lazy("Schedule"),
        "details": gettext_lazy("Details"),
    }
)
# The labels of an existing agent's settings; a key not here is shown title-cased.
SETTING_LABELS = Translated(
    {
        "source": gettext_lazy("Source"),
        "trigger": gettext_lazy("Trigger"),
        "action": gettext_lazy("Action"),
        "destination": gettext_lazy("Destination"),
        "schedule": gettext_lazy("Schedule"),
        "details": gettext_lazy("Details"),
    }
)
DETAIL_LINE = gettext_lazy("- %(label)s: %(value)s")
RENAMED_LINE = gettext_lazy("- Name: %(old)s \u2192 %(new)s")
# The schedule when the wizard picked its day or time (what ``defaulted`` says it picked).
PICKED = {
    "a day": gettext_lazy("%(schedule)s (you didn't say a day, so I picked it)"),
    "a time": gettext_lazy("%(schedule)s (you didn't say a time, so I picked it)"),
    "a day or a time": gettext_lazy(
        "%(schedule)s (you didn't say a day or a time, so I picked it)"
    ),
    "an exact time": gettext_lazy("%(schedule)s (you didn't say an exact time, so I picked it)"),
}
PICKED_OTHER = gettext_lazy("%(schedule)s (you didn't say %(what)s, so I picked it)")
# An agent's details: the sheet, board or repository it works in.
IN_SCOPE = gettext_lazy("In %(scope)s")

# What an agent does, a clause at a time.
DOES_THIS = gettext_lazy("does this: %(task)s")
# (how it reads its source, whether a scope is named): the clause.
WATCHING = {
    ("source_for", False): gettext_lazy("watches %(source)s for %(watched)s"),
    ("source_for", True): gettext_lazy("watches %(source)s for %(watched)s (%(scope)s)"),
    ("watched", False): gettext_lazy("watches %(watched)s"),
    ("watched", True): gettext_lazy("watches %(watched)s (%(scope)s)"),
    ("source", False): gettext_lazy("reads %(source)s"),
    ("source", True): gettext_lazy("reads %(source)s (%(scope)s)"),
}
WATCHING_AND_DOING = gettext_lazy("%(watching)s and %(doing)s")
FOR_ABOUT = gettext_lazy("%(what)s for %(about)s")
WORKS_ON = gettext_lazy("works on %(about)s")
AND_SENDS_THE_RESULTS_TO = gettext_lazy("%(what)s and sends the results to %(destination)s")
TO = gettext_lazy("%(what)s to %(destination)s")
SENDS_TO = gettext_lazy("sends to %(destination)s")
AT_WHEN = gettext_lazy("%(what)s %(when)s")
RUNS = gettext_lazy("runs %(when)s")
TAKES_THIS_OFF_YOUR_HANDS = gettext_lazy("takes this off your hands")

# The first reply to a request: (a name given, what it does known).
OPENING = {
    (True, True): gettext_lazy("I'll create a new agent, %(name)s, that %(what)s."),
    (False, True): gettext_lazy("I'll create a new agent that %(what)s."),
    (True, False): gettext_lazy("I'll help you create a new agent called %(name)s."),
    (False, False): gettext_lazy("I'll help you create a new agent."),
}
# An answer taken: (a name given, what it does known).
GOT_IT = {
    (True, True): gettext_lazy("Got it. So far: %(name)s, an agent that %(what)s."),
    (False, True): gettext_lazy("Got it. So far: an agent that %(what)s."),
    (True, False): gettext_lazy("Got it. I'll call it %(name)s."),
    (False, False): gettext_lazy("Got it."),
}
PROPOSE = gettext_lazy(
    "That sounds like a job for an agent. I can set up an agent that %(what)s. Shall I set it up?"
)
PROPOSE_WITH_DETAILS = gettext_lazy(
    "That sounds like a job for an agent. I can set up an agent that %(what)s.\n%(details)s\n"
    "Shall I set it up?"
)
ALREADY_HAVE = gettext_lazy(
    "You already have an agent that does this: %(agent)s.\n%(details)s\n\nI can run %(name)s "
    'now, or create a second one anyway: say "create it anyway" (and give it a name if you '
    'like), or "no" to leave things as they are.'
)
CREATED = gettext_lazy(
    "Done! I've created %(name)s, an agent that %(what)s.\n%(details)s\n\n"
    'Say "run it" to start it now, or "actually cancel that" to undo.'
)
UNDONE = gettext_lazy("Okay, I've undone that: %(name)s is deleted and nothing else changed.")
UPDATED = gettext_lazy("Updated %(name)s:\n%(details)s")
UPDATED_NOW_DOES = gettext_lazy("Updated %(name)s:\n%(details)s\n\nSo %(name)s now %(what)s.")

# Where the wizard stands, a paragraph at a time.
RECAP_ASKED = gettext_lazy("Here's the agent we're setting up.")
RECAP = gettext_lazy("No problem! We were setting up a new agent.")
RECAP_SO_FAR = gettext_lazy("So far we have:\n%(details)s")
RECAP_NOTHING_YET = gettext_lazy("We haven't settled any details yet.")
RECAP_DUPLICATE = gettext_lazy(
    "I pointed out that %(name)s already does this: say \u201ccreate it anyway\u201d for a "
    "second one, or \u201cno\u201d to leave things as they are."
)
RECAP_PROPOSED = gettext_lazy("I offered to set it up: say yes to go ahead, or no to leave it.")
RECAP_ASKING = gettext_lazy("I was asking:\n%(questions)s")
SUMMARY_TITLE = gettext_lazy("Setting up a new agent")
