"""The named acts, and the entry that gives each its reason, cues and examples."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from intents.reading.cues import Cue, Cues, cue, cue_set


class Act(StrEnum):
    ASKS_FOR_AGENT = "asks_for_agent"
    UNDO = "undo"
    INSISTS = "insists"
    NO_NEED = "no_need"
    ASKS_HOW = "asks_how"
    ASKS_FOR_IT = "asks_for_it"
    RECONSIDERS = "reconsiders"
    TAKES_UP = "takes_up"
    ASKS_ABOUT_SETUP = "asks_about_setup"
    VAGUE = "vague"
    CHANGES_IT = "changes_it"
    OPENS_WITH_QUESTION = "opens_with_question"
    THE_PROPOSAL = "the_proposal"
    AGAIN = "again"
    ABOUT_IT = "about_it"
    OPENS_WITH_YES = "opens_with_yes"
    SMALL_TALK = "small_talk"
    STOPS = "stops"
    OPENS_WITH_NO = "opens_with_no"
    SAME_AGAIN = "same_again"
    POINTS_AT_IT = "points_at_it"
    THE_OTHER_ONE = "the_other_one"
    GREETING = "greeting"
    THANKS = "thanks"
    RENAMES_TO = "renames_to"
    BACK_TO_TASK = "back_to_task"
    GIVES_NAME = "gives_name"
    NOTHING_MORE = "nothing_more"
    DELETES_ALL = "deletes_all"
    PICKS_UP = "picks_up"
    ASKS_FOR_SKILLS = "asks_for_skills"
    ASKS_HOW_MANY_AGENTS = "asks_how_many_agents"
    WAIVES_CONFIRMATION = "waives_confirmation"
    ASKS_TO_DELETE = "asks_to_delete"
    ASKS_WHICH_PAUSED = "asks_which_paused"
    ASKS_WHEN_IT_RUNS = "asks_when_it_runs"
    ASKS_WHERE_IT_SENDS = "asks_where_it_sends"
    ASKS_HOW_IT_WENT = "asks_how_it_went"
    RESTRICTS = "restricts"
    IN_THE_FRAME = "in_the_frame"


@dataclass(frozen=True)
class Entry:
    act: StrEnum  # an Act here, a Topic in topics.py
    reason: str
    cues: tuple[Cue, ...]
    unless: tuple[Cue, ...] = ()
    examples: tuple[str, ...] = ()

    @cached_property
    def said(self) -> Cues:
        """The cues as one set, ruled out at a glance when a message lacks their words."""
        return cue_set(self.cues)

    @cached_property
    def unless_said(self) -> Cues:
        return cue_set(self.unless)


def entry(
    act: StrEnum, reason: str, cues: str, *, unless: str = "", examples: tuple[str, ...] = ()
) -> Entry:
    """An entry; ``cues`` and ``unless`` hold one cue a line."""
    return Entry(
        act,
        reason,
        tuple(cue(line) for line in cues.strip().splitlines()),
        tuple(cue(line) for line in unless.strip().splitlines() if line.strip()),
        examples,
    )
