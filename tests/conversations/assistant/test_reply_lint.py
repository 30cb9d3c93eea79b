"""The reply lint's checks, each on replies seen in the product and on clean ones."""

from __future__ import annotations

import pytest

from tests.conversations.assistant.reply_lint import (
    LABELS,
    TOOL_SPELLINGS,
    Span,
    doubled_verb,
    lowercase_tool_name,
    quoted_user_sentence,
    reply_violations,
    slot_starts_with_verb_or_pronoun,
)

CLEAN_CREATED = (
    "Done! I've created jira-overdue-watch, an agent that watches Jira for overdue tickets and "
    "sends the results to Slack #ops-alerts every weekday at 09:00 (Europe/Berlin).\n"
    "- Name: jira-overdue-watch\n"
    "- Source: Jira\n"
    "- Watches: overdue tickets\n"
    "- Action: Send the results\n"
    "- Sends to: Slack #ops-alerts\n"
    "- Schedule: Every weekday at 09:00 (Europe/Berlin)\n\n"
    'Say "run it" to start it now, or "actually cancel that" to undo.'
)
CLEAN_REQUEST = (
    "Create an agent that watches Jira for overdue tickets and posts them to #ops-alerts in "
    "Slack every weekday at 9am Berlin time, call it jira-overdue-watch"
)


def texts(spans: list[Span]) -> list[str]:
    return [span.text for span in spans]


# -- quoted_user_sentence ----------------------------------------------------------------------


def test_a_whole_user_message_quoted_back_is_flagged() -> None:
    said = "pause the refund one, we're changing payment providers"
    reply = f"I can't do that from here: to \u201c{said}\u201d, go with the agents page."
    spans = quoted_user_sentence(reply, user_messages=[said], agent_names=[])
    assert texts(spans) == [said]


def test_a_clause_from_an_earlier_message_is_flagged() -> None:
    earlier = (
        "Every Monday at 9am Berlin time I spend an hour copying our revenue numbers from the "
        "Stripe dashboard into the Finance Google Sheet"
    )
    reply = (
        "I can set up an agent that watches our revenue numbers from the Stripe dashboard into "
        "the Finance Google Sheet. Shall I set it up?"
    )
    spans = quoted_user_sentence(reply, user_messages=[earlier, "yes please"], agent_names=[])
    assert texts(spans) == [
        "our revenue numbers from the Stripe dashboard into the Finance Google Sheet"
    ]


def test_case_and_punctuation_do_not_hide_a_quote() -> None:
    said = "Add maria@example.com to the workspace, as a viewer please!"
    reply = (
        "To \u201cadd MARIA@example.com to the workspace as a viewer please\u201d: use the admin."
    )
    assert len(quoted_user_sentence(reply, user_messages=[said], agent_names=[])) == 1


def test_eight_words_in_a_row_are_not_a_quote() -> None:
    said = "watch the payments api for failed charges over fifty euros please"
    reply = "I'll watch the payments api for failed charges over 50 euros."
    assert quoted_user_sentence(reply, user_messages=[said], agent_names=[]) == []


def test_a_clean_reply_to_a_long_request_is_not_flagged() -> None:
    spans = quoted_user_sentence(CLEAN_CREATED, user_messages=[CLEAN_REQUEST], agent_names=[])
    assert spans == []


def test_the_replys_own_frame_words_do_not_make_a_quote() -> None:
    said = "Create an agent that watches Linear for issues marked as blockers"
    reply = "So far: an agent that watches Linear for issues marked as blockers."
    assert quoted_user_sentence(reply, user_messages=[said], agent_names=[]) == []


def test_a_quote_does_not_run_across_lines() -> None:
    said = "every 15 minutes Warsaw time and name it main pipeline watch"
    reply = "Runs every 15 minutes Warsaw time and\nname it main pipeline watch, you said."
    assert quoted_user_sentence(reply, user_messages=[said], agent_names=[]) == []


def test_a_match_inside_an_agent_name_an_address_or_a_url_is_not_a_quote() -> None:
    title = "Weekly Summary Of Every Open Ticket In The Support Queue"
    url = "https://example.com/docs/how-to-set-up-an-agent-that-watches-jira-for-you"
    said = f"call it {title} and use {url}"
    reply = f"Renamed it to {title}. The link {url} is kept."
    assert quoted_user_sentence(reply, user_messages=[said], agent_names=[title]) == []
    spans = quoted_user_sentence(reply, user_messages=[said], agent_names=[])
    assert texts(spans) == [title]


# -- doubled_verb ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "Run hubspot-analyze-customer-churn-sync anyway, which does analyzes our customer churn "
        "data (it may partially help)",
        "Run assignment-tracker anyway, which does lists Trello cards for year 9",
        "The agent will sends a summary every Monday.",
        "It can checks the board for you.",
        "I'll set up an agent to watches the queue.",
    ],
)
def test_an_auxiliary_before_an_inflected_verb_is_flagged(reply: str) -> None:
    assert len(doubled_verb(reply, user_messages=[], agent_names=[])) == 1


def test_the_verb_may_be_known_from_the_users_words() -> None:
    reply = "Run churn-report anyway, which does summarizes churn by plan"
    said = ["summarize churn by plan for the board"]
    assert texts(doubled_verb(reply, user_messages=said, agent_names=[])) == ["does summarizes"]


@pytest.mark.parametrize(
    "reply",
    [
        "I found your agent, but I'm not sure it does this.",
        "Run financial-analyzer anyway, which does monthly revenue analysis",
        "Where do alerts go when nobody reads them?",
        "How often should reports run?",
        "It sends the results to reports@acme.com and to ops.",
        "I can send it to sales and to founders every Friday.",
        "Which channel should it post to? It will post its summary there.",
        "Can agents share a channel? Yes: an agent can post to any channel.",
        CLEAN_CREATED,
    ],
)
def test_english_that_only_looks_doubled_is_not_flagged(reply: str) -> None:
    assert doubled_verb(reply, user_messages=[CLEAN_REQUEST], agent_names=[]) == []


# -- lowercase_tool_name -----------------------------------------------------------------------


def test_the_tools_come_from_the_products_spellings() -> None:
    assert TOOL_SPELLINGS["hubspot"] == "HubSpot"
    assert TOOL_SPELLINGS["google sheets"] == "Google Sheets"
    assert TOOL_SPELLINGS["jira"] == "Jira"
    assert TOOL_SPELLINGS["slack"] == "Slack"
    # Ordinary words unless written as the tool ("Linear app", "monday.com").
    assert "linear" not in TOOL_SPELLINGS
    assert "monday" not in TOOL_SPELLINGS


@pytest.mark.parametrize(
    ("reply", "found"),
    [
        ("You already have an agent that does this.\n- Source: jira", ["jira"]),
        ("an agent that watches new sentry issues from the last 24h", ["sentry"]),
        ("- Watches: emails do gmail saved to google sheets", ["gmail", "google sheets"]),
        ("- Source: google_sheets", ["google_sheets"]),
        ("- Destination: slack:#studio", ["slack"]),
        ("which does lists trello cards for year 9", ["trello"]),
    ],
)
def test_a_tool_written_in_lowercase_in_prose_is_flagged(reply: str, found: list[str]) -> None:
    assert texts(lowercase_tool_name(reply, user_messages=[], agent_names=[])) == found


@pytest.mark.parametrize(
    "reply",
    [
        "Running jira-tickets-monitor now.",
        "Posting to #slack-alerts and to ops@jira.example.com.",
        "See https://github.com/acme/web and `hubspot` in the config.",
        "It runs every monday at 09:00 on a linear schedule.",
        "- Source: HubSpot\n- Sends to: Slack #sales and Microsoft Teams",
        CLEAN_CREATED,
    ],
)
def test_names_addresses_code_and_proper_spellings_are_not_flagged(reply: str) -> None:
    assert lowercase_tool_name(reply, user_messages=[], agent_names=[]) == []


def test_an_agent_named_like_a_tool_is_not_flagged() -> None:
    reply = "Paused zendesk. It will not run until you resume it."
    assert lowercase_tool_name(reply, user_messages=[], agent_names=["zendesk"]) == []


# -- slot_starts_with_verb_or_pronoun ----------------------------------------------------------


def test_the_labels_are_read_from_the_code() -> None:
    for label in ("Name", "Source", "Watches", "Does", "Sends to", "Schedule", "Takes"):
        assert label in LABELS
    assert {"Gives back", "Example", "Details", "Action"} <= set(LABELS)


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        (
            "I can set up an agent that watches get our Zendesk backlog numbers into Slack.",
            "get our Zendesk backlog numbers into Slack",
        ),
        (
            "- Name: date-normalizer\n- Takes: It takes a date string such as 3/4/25",
            "It takes a date string such as 3/4/25",
        ),
        ("- Watches: our Shopify refund requests", "our Shopify refund requests"),
        ("- Watches: them", "them"),
        ("- Gives back: that's all for now", "that's all for now"),
        ("- Example: call the skill invoice-extractor", "call the skill invoice-extractor"),
        ("- Details: I know; create a second one anyway", "I know; create a second one anyway"),
        ("- Does: sends the totals to finance", "sends the totals to finance"),
        ("- Watches: Jira → checks the board", "checks the board"),
        (
            "Run it anyway, which does our churn numbers (it may help)",
            "our churn numbers (it may help)",
        ),
    ],
)
def test_a_value_that_starts_with_a_verb_or_a_pronoun_is_flagged(reply: str, value: str) -> None:
    spans = slot_starts_with_verb_or_pronoun(reply, user_messages=[], agent_names=[])
    assert texts(spans) == [value]


@pytest.mark.parametrize(
    "reply",
    [
        CLEAN_CREATED,
        "- Action: Send a summary\n- Does: Pull project updates out of Notion",
        "Run financial-analyzer anyway, which does monthly revenue analysis",
        "You already have an agent that does this: sales-digest.",
        "- Watches: i nuovi ticket ServiceNow con priorità alta",
        "- Takes: PDF invoices\n- Gives back: JSON with amount, currency and due_date",
        "- Schedule: daily 09:00 → daily 18:00",
        "Watches: tickets. It takes a minute to set up.",
    ],
)
def test_clean_values_are_not_flagged(reply: str) -> None:
    assert slot_starts_with_verb_or_pronoun(reply, user_messages=[], agent_names=[]) == []


# -- all of them -------------------------------------------------------------------------------


def test_a_clean_reply_has_no_violation() -> None:
    found = reply_violations(
        CLEAN_CREATED, user_messages=[CLEAN_REQUEST], agent_names=["jira-overdue-watch"]
    )
    assert found == {}


def test_violations_are_reported_by_check() -> None:
    reply = "Run hubspot-analyze-churn anyway, which does analyzes our churn.\n- Source: hubspot"
    found = reply_violations(reply, user_messages=[], agent_names=["hubspot-analyze-churn"])
    assert {name: texts(spans) for name, spans in found.items()} == {
        "doubled_verb": ["does analyzes"],
        "lowercase_tool_name": ["hubspot"],
    }
