"""Values the reading gives the flows, cleaned the way replies show them."""

from __future__ import annotations

import pytest

from intents.reading.said import with_tools_spelled


@pytest.mark.parametrize(
    ("phrase", "written"),
    [
        ("nuevos tickets de zendesk", "nuevos tickets de Zendesk"),
        ("new hubspot deals and google sheets rows", "new HubSpot deals and Google Sheets rows"),
        ("from salesforce, daily.", "from Salesforce, daily."),
        ("jira-tickets-monitor", "jira-tickets-monitor"),  # a name
        ("#zendesk-alerts", "#zendesk-alerts"),  # a channel
        ("ana@hubspot.com", "ana@hubspot.com"),  # an address
        ("github.com repos", "github.com repos"),  # a domain
        ("the linear issues", "the linear issues"),  # an everyday word first
    ],
)
def test_a_tool_in_the_users_words_is_written_as_the_product_writes_it(
    phrase: str, written: str
) -> None:
    assert with_tools_spelled(phrase) == written


def test_a_cue_set_is_matched_against_the_reading() -> None:
    from intents.reading.cues import cues
    from intents.reading.reading import read

    said = cues(
        """
        ^ only the
        copy …2 into
        """
    )
    assert read("only the ones that changed").span_of(said) == (0, 2)
    assert read("we copy our payouts into a sheet").matches(said)
    assert read("we cpoy our payouts into a sheet").matches(said)  # a typing slip
    assert not read("is that only for owners?").matches(said)
