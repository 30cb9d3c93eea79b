"""Where results go (a channel, an address, a table) and where a request looks."""

from __future__ import annotations

import re

from intents.reading.cues import cues
from intents.reading.details.names import _QUOTED_NAME_RE
from intents.reading.details.schedule import zone_in

_SLACK_USER_RE = re.compile(r"(?<![\w.@])@[A-Za-z][\w.-]*[\w](?![\w@])")
# A direct message asked for: results go to the person named.
_DM = cues(
    """
    =dm|dms
    =direct =message
    =slack|message =me
    """
)
# A message about the workspace's people: an address in it is someone's, not a destination.
_PEOPLE = cues("=add|invite|remove|user")
_TEAMS = cues("=teams")
_DISCORD = cues("=discord")
_CHANNEL_RE = re.compile(r"(?<![\w#])#[^\W_][\w-]*")  # "#équipe-ventes-lyon" as written
_EMAIL_RE = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")

# Where exactly it looks, in the user's words: a quoted sheet, board or project name, or a
# repository ("acme/web").
_QUOTED_RE = re.compile(
    r"[\"“«]([^\"”»\n]{2,60})[\"”»]|(?<!\w)['\u2018]([^'\u2019\n]{2,60})['\u2019](?!\w)"
)
_REPO_WORDS = cues("=repo|repos|repository|repositorio|depot|github|gitlab|bitbucket")
_REPO_RE = re.compile(r"(?<![\w/.:@-])([A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)(?![\w/])")

# A channel named after the word, unquoted: "channel Staffing-Alerts", "nel canale
# Qualita-Linea2", "im Kanal Instandhaltung".
_CHANNEL_NAMED_AFTER_RE = re.compile(
    r"\b(?i:channel|canale|canal|kanal)\s+(?:(?i:microsoft\s+teams|teams|slack|discord)\s+)?"
    r"(?:(?i:called|named|chiamato|llamado|nommé|namens)\s+)?[«\"'“]?\s*"
    r"(?P<name>(?!(?i:teams|slack|discord)\b)[A-Za-z0-9][\w-]{1,60})"
)

# What comes just before a channel's name: the word channel, and the tool it is in.
_A_CHANNEL_BEFORE = cues(
    """
    =channel|canale|canal|kanal $
    =channel|canale|canal|kanal =microsoft? =teams|slack|discord $
    """
)
_NAMED_CHANNEL_RE = re.compile(
    r"['\"«“](?P<name>[^'\"»”#]{1,60})['\"»”]\s+channel\s+(?:in|on|of)\s+"
    r"(?P<tool>(?:Microsoft\s+)?Teams|Slack)\b",
    re.IGNORECASE,
)
_INTO_A_TABLE_RE = re.compile(
    r"\b(?:put|add|save|write|append|log|store|drop|send|insert)\b[^.;!?]{0,30}?\b(?:in|into|to)\s+"
    r"(?:the\s+|our\s+|a\s+)?['\"«“](?P<name>[^'\"»”]{1,60})['\"»”]\s+"
    r"(?P<kind>table|sheet|spreadsheet|database|tab|base)\s+(?:in|on|of)\s+"
    r"(?P<tool>Airtable|Google Sheets|Notion|Excel|Smartsheet)\b",
    re.IGNORECASE,
)


def destination_in(text: str, entity: str | None) -> str | None:
    """Where results go, with channels and addresses exactly as written."""
    from intents.reading.reading import read  # the reading reads its details through here

    channel = _where_to(_CHANNEL_RE, text)
    email = _where_to(_EMAIL_RE, text)
    tool = (entity or "").split(":")[0]
    if channel and email and email.start() > channel.start():
        channel = None  # "messages from #standup … emailed to team@acme.com"
    if channel:
        where = "Microsoft Teams" if tool == "teams" else "Slack"
        return f"{where} {channel.group(0)}"
    person = _SLACK_USER_RE.search(text)
    said = read(text)
    if person and (tool == "slack" or said.matches(_DM)):
        return f"Slack {person.group(0)}"  # "dm them to me on slack @jordan"
    if email and not said.matches(_PEOPLE):
        # "emails ravi@… and oksana@…": every address, in the order written.
        more = [m.group(0) for m in _EMAIL_RE.finditer(text, email.end())]
        return ", ".join(dict.fromkeys([email.group(0), *more]))
    named = _NAMED_CHANNEL_RE.search(text)
    if named:
        # "the 'Support Leads' channel in Microsoft Teams", as written.
        tool_name = "Microsoft Teams" if "teams" in named.group("tool").lower() else "Slack"
        return f"{tool_name} '{named.group('name')}'"
    after = _CHANNEL_NAMED_AFTER_RE.search(text)
    if after and re.search(r"[A-Z0-9-]", after.group("name")):
        # "Microsoft Teams, channel Staffing-Alerts", "nel canale Qualita-Linea2", as written.
        where = (
            "Microsoft Teams"
            if tool == "teams" or said.matches(_TEAMS)
            else "Discord"
            if tool == "discord" or said.matches(_DISCORD)
            else "Slack"
        )
        return f"{where} '{after.group('name')}'"
    table = _INTO_A_TABLE_RE.search(text)
    if table:
        # "put them in the 'Wins' table in Airtable": a table or sheet, named as written.
        return f"{table.group('tool')} '{table.group('name')}' {table.group('kind').lower()}"
    if tool in ("slack", "teams", "discord", "email", "sms"):
        return {"slack": "Slack", "teams": "Microsoft Teams", "discord": "Discord"}.get(
            tool, "Email" if tool == "email" else "SMS"
        )
    return None


# Words just before a channel or address it reads from, not sends to.
_READ_FROM = cues("=from|of|del|aus|von|depuis =the|our|my|la|le|el|dem|der? $")


def _where_to(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first channel or address results go to; one read from ("from #standup") or taken
    back ("not #support-leads, …") is not."""
    from intents.reading.reading import read  # the reading reads its details through here

    for match in pattern.finditer(text):
        before = text[max(0, match.start() - 30) : match.start()]
        said = read(before)
        if not said.matches(_READ_FROM) and not said.matches(_NOT_THERE):
            return match
    return None


# Words just before a channel or address taken back.
_NOT_THERE = cues(
    """
    =not|no|nicht|pas|nao =to|in|a|an? $
    =instead =of =to|in|a|an? $
    =rather =than =to|in|a|an? $
    """
)


def _tool_of(destination: str) -> str:
    for tool, shown in (("slack", "Slack"), ("teams", "Microsoft Teams"), ("discord", "Discord")):
        if destination.startswith(shown):
            return tool
    return "email" if "@" in destination or destination == "Email" else ""


def scope_in(text: str) -> str | None:
    """The quoted sheet, board or project, or the repository, a request names (as written)."""
    from intents.reading.reading import read  # the reading reads its details through here

    named = _QUOTED_NAME_RE.search(text)
    found = [
        (m.group(1) or m.group(2)).strip()
        for m in _QUOTED_RE.finditer(text)
        if not (named and named.start() <= m.start() < named.end())
        # "le canal Teams « Ventes »" names where results go, not where it looks.
        and not read(text[max(0, m.start() - 30) : m.start()]).matches(_A_CHANNEL_BEFORE)
    ]
    found += [
        m.group(1)
        for m in _REPO_RE.finditer(text)
        # "the repo acme/web", "GitHub … acme/web"; not "and/or", "24/7" or "Asia/Kolkata".
        if read(text[max(0, m.start() - 40) : m.start()]).matches(_REPO_WORDS)
        and not zone_in(m.group(1))
    ]
    return ", ".join(dict.fromkeys(found)) or None
