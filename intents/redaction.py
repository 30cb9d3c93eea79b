"""Secrets in what users type: found, named, and replaced by a placeholder.

A message that carries an API key, a password or a card number is stored as typed (encrypted at
rest like every message) and flagged; everything derived from it sees the redacted text instead:
the classifiers and any prompt sent to an LLM provider, the assistant (so an agent's or a skill's
name, description and config never hold it), the conversation title. It lives here, below both
apps, because the LLM prompt builder applies it too.

Each pattern is anchored on a vendor prefix or a shape no ordinary sentence has; card numbers
also pass the Luhn check, so an order number does not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PATTERNS: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (kind, label, re.compile(pattern))
    for kind, label, pattern in (
        ("private_key", "a private key",
         r"-----BEGIN (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z]+ )*"
         r"PRIVATE KEY(?: BLOCK)?-----|\Z)"),
        ("anthropic_api_key", "an Anthropic API key", r"\bsk-ant-[A-Za-z0-9]+-[A-Za-z0-9_-]{20,}"),
        ("openai_api_key", "an OpenAI API key",
         r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
        ("google_api_key", "a Google API key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
        ("slack_token", "a Slack token", r"\bxox[abprs]-[0-9A-Za-z-]{10,}"),
        ("slack_webhook", "a Slack webhook URL",
         r"https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{16,}"),
        ("github_token", "a GitHub token",
         r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b"),
        ("stripe_key", "a Stripe key", r"\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}\b"),
        ("aws_access_key", "an AWS access key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
        ("aws_secret_key", "an AWS secret key",
         r"(?i:aws_?secret_?(?:access_?)?key)[\"']?\s*[:=]\s*[\"']?[A-Za-z0-9/+=]{40}\b"),
        ("sendgrid_key", "a SendGrid key", r"\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b"),
        ("jwt", "a JSON Web Token",
         r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
        ("connection_password", "a password in a connection string",
         r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{1,64}:[^\s@/]{1,128}@[^\s/]+"),
        ("password", "a password",
         r"(?i:\b(?:password|passwd|pwd|passwort|contrase[ñn]a|mot de passe|senha)\b)"
         r"(?:\s+(?:is|es|est|ist|é)\s+|\s*[:=]\s*)[\"']?[^\s\"']{6,}"),
    )
)  # fmt: skip
_CARD_RE = re.compile(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])")


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


@dataclass(frozen=True)
class Redacted:
    text: str  # the message with every secret replaced by a placeholder
    kinds: tuple[str, ...] = ()  # what was found, in order, once each
    labels: tuple[str, ...] = ()  # the same, in words ("an OpenAI API key")

    @property
    def found(self) -> bool:
        return bool(self.kinds)


def redact(text: str) -> Redacted:
    """The text with its secrets replaced ("[redacted: an OpenAI API key]")."""
    if not isinstance(text, str) or not text:
        return Redacted(text if isinstance(text, str) else "")
    kinds: list[str] = []
    labels: list[str] = []

    def note(kind: str, label: str) -> str:
        if kind not in kinds:
            kinds.append(kind)
            labels.append(label)
        return f"[redacted: {label}]"

    for kind, label, pattern in _PATTERNS:
        if pattern.search(text) is None:
            continue
        if kind == "connection_password":
            # Only the password goes: the rest of the URL is what the user is talking about.
            placeholder = note(kind, label)

            def password_only(match: re.Match[str], p: str = placeholder) -> str:
                return re.sub(r":[^:@/]+@", lambda _m: f":{p}@", match.group(0))

            text = pattern.sub(password_only, text)
        else:
            text = pattern.sub(note(kind, label), text)

    def card(match: re.Match[str]) -> str:
        digits = re.sub(r"\D", "", match.group(0))
        if 13 <= len(digits) <= 19 and _luhn(digits):
            return note("card_number", "a card number")
        return match.group(0)

    text = _CARD_RE.sub(card, text)
    return Redacted(text, tuple(kinds), tuple(labels))


def notice(redacted: Redacted) -> str:
    """What the assistant says, once, about a secret it noticed."""
    what = " and ".join(redacted.labels) if len(redacted.labels) <= 2 else "some credentials"
    return (
        f"By the way: your message contained what looks like {what}. I didn't copy it anywhere "
        "(not into any agent, skill, title or prompt). Credentials belong in the workspace's "
        "integrations, which your tenant's admins manage in the admin console."
    )
