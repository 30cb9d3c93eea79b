"""How the wizard says what an agent does: the user's words, with English verbs conjugated."""

from __future__ import annotations

import pytest

from conversations.assistant.wizard import describe


@pytest.mark.parametrize(
    ("task", "said"),
    [
        ("pull the data and send it", "pulls the data and sends it"),
        ("build a report and post it, and keep one", "builds a report and posts it, and keep one"),
        # "band" is no "and": a verb is conjugated only right after the word itself.
        ("collect the band send list", "collects the band send list"),
        ("copy the rows and summarize them", "copies the rows and summarizes them"),
    ],
)  # fmt: skip
def test_the_verbs_of_a_task_are_conjugated_after_and_too(task: str, said: str) -> None:
    assert describe({"task": task}) == said
