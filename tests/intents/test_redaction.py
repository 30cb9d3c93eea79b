"""Secrets in user text: each pattern found and replaced, and a near miss of each left alone."""

from __future__ import annotations

import pytest

from intents.redaction import Redacted, notice, redact

FOUND = [
    ("openai_api_key", "use {} for it", "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    ("anthropic_api_key", "key: {}", "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-yz12"),
    ("google_api_key", "{} is the maps key", "AIzaSyA1234567890abcdefghijklmnopqrstuv"),
    ("slack_token", "the bot token {}", "xoxb-1234567890-abcdefghij"),
    ("slack_webhook", "post to {}",
     "https://hooks.slack.com/services/T0001/B0002/abcdefghijklmnopqrstuvwx"),
    ("github_token", "{} has repo scope", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
    ("stripe_key", "stripe: {}", "sk_live_abcdefghijklmnop1234"),
    ("aws_access_key", "id {}", "AKIAIOSFODNN7EXAMPLE"),
    ("aws_secret_key", "aws_secret_access_key = {}", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("sendgrid_key", "{}", "SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ"),
    ("jwt", "Bearer {}", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N"),
    ("connection_password", "read postgres://admin:{}@db.example.com:5432/prod", "s3cretPass"),
    ("password", "my password is {}", "hunter2hunter"),
    ("card_number", "charge {} please", "4111 1111 1111 1111"),
    ("private_key", "{}",
     "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"),
]  # fmt: skip
NEAR_MISSES = [
    "we use the sk-learn library",
    "AIza is a prefix",
    "xoxb- tokens go in the integrations page",
    "the webhook is https://hooks.example.com/services/abc",
    "ghp_ alone is not a token",
    "sk_live_ keys are secret",
    "AKIA123 looks like a key but is too short",
    "the aws secret key goes in the vault",
    "SG.short.value",
    "eyJ alone is the start of a JWT",
    "open https://example.com/path and postgres://db.example.com/prod",
    "reset my password please",
    "order number 4111 1111 1111 1112",
    "-----BEGIN CERTIFICATE-----",
    "call me at +1 555 123 4567",
]


@pytest.mark.parametrize(("kind", "template", "secret"), FOUND, ids=[k for k, _, _ in FOUND])
def test_each_kind_of_secret_is_found_and_replaced(kind: str, template: str, secret: str) -> None:
    redacted = redact(template.format(secret))
    assert redacted.kinds == (kind,)
    assert "[redacted: " in redacted.text
    assert secret not in redacted.text
    assert "MIIEow" not in redacted.text and "1111 1111" not in redacted.text


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_a_near_miss_is_left_as_written(text: str) -> None:
    assert redact(text) == Redacted(text)


def test_the_rest_of_the_message_is_kept_and_the_notice_names_what_it_saw() -> None:
    redacted = redact("Create an agent for Jira using key sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz012345")
    assert redacted.text == "Create an agent for Jira using key [redacted: an OpenAI API key]"
    said = notice(redacted)
    assert "an OpenAI API key" in said and "sk-proj" not in said
    assert "integrations" in said
