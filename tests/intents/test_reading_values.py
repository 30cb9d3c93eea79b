"""The values the reading layer reads out of stored text for the policy (reading/values.py)."""

from __future__ import annotations

import pytest

from intents.reading.values import addresses_in, clock_in, first_clause


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("weekly monday 09:30", ("09", "30")),
        ("every day at 7:05 and 18:00", ("7", "05")),
        ("daily", None),
        ("weekly friday 9", None),
        ("at 9:5", None),
    ],
)
def test_clock_in_reads_the_first_clock_time(text: str, clock: tuple[str, str] | None) -> None:
    assert clock_in(text) == clock


def test_addresses_in_reads_channels_and_emails() -> None:
    assert addresses_in("post to #ops-alerts and email ana.b+x@acme.io") == {
        "#ops-alerts",
        "ana.b+x@acme.io",
    }
    assert addresses_in("Slack, the ops channel") == set()
    assert addresses_in("#a, #a and #b") == {"#a", "#b"}


@pytest.mark.parametrize(
    ("text", "clause"),
    [
        (
            "Ugh, so candidates sit in Phone Screen for weeks and nobody notices",
            "candidates sit in Phone Screen for weeks",
        ),
        ("hi! invoices pile up until month end", "invoices pile up"),
        ("Tickets go stale. Nobody looks", "Tickets go stale"),
        ("los pedidos se atrasan y nadie avisa", "los pedidos se atrasan"),
        ("the sober review, because", "the sober review"),
    ],
)
def test_first_clause_drops_the_lead_and_stops_at_the_clause_end(text: str, clause: str) -> None:
    assert first_clause(text) == clause
