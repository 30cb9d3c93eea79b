"""The tools the lexicon knows by name: data sources and chat or mail tools."""

from __future__ import annotations

# Data sources and tools: canonical lower_snake name -> aliases (accent-stripped, lower-case).
SOURCES: dict[str, tuple[str, ...]] = {
    "notion": ("notion", "notion db", "notion database", "notion pages"),
    "jira": ("jira", "jira board", "jira cloud", "atlassian jira"),
    "confluence": ("confluence",),
    "google_sheets": (
        "google sheets", "google sheet", "gsheets", "gsheet", "g sheets", "google spreadsheet",
        "google spreadsheets", "sheets",
    ),
    "google_drive": ("google drive", "gdrive", "drive folder", "g drive"),
    "google_docs": ("google docs", "google doc", "gdocs"),
    "google_calendar": ("google calendar", "gcal", "calendar"),
    "google_analytics": ("google analytics", "ga4"),
    "gmail": ("gmail", "g mail"),
    "outlook": ("outlook", "office 365", "o365"),
    "excel": ("excel", "xlsx"),
    "salesforce": ("salesforce", "sfdc", "sales force"),
    "hubspot": ("hubspot", "hub spot"),
    "pipedrive": ("pipedrive",),
    "zoho": ("zoho", "zoho crm"),
    "github": ("github", "git hub", "gh"),
    "gitlab": ("gitlab",),
    "bitbucket": ("bitbucket",),
    "linear": (
        "linear app", "linear issues", "linear issue", "linear tickets", "in linear", "from linear",
        "linear board", "linear project", "linear projects", "linear for", "linear cycle",
        "linear cycles", "meant linear", "linear team", "our linear", "linear workspace",
        "use linear", "using linear", "to linear", "on linear", "linear instead",
    ),
    "asana": ("asana",),
    "trello": ("trello",),
    "monday": ("monday.com", "monday com", "mondaycom"),
    "clickup": ("clickup", "click up"),
    "airtable": ("airtable",),
    "zendesk": ("zendesk", "zen desk"),
    "freshdesk": ("freshdesk",),
    "intercom": ("intercom",),
    "servicenow": ("servicenow", "service now"),
    "stripe": ("stripe",),
    "shopify": ("shopify",),
    "quickbooks": ("quickbooks", "qbo", "quick books"),
    "xero": ("xero",),
    "personio": ("personio",),
    "okta": ("okta",),
    "shipbob": ("shipbob", "ship bob"),
    "mailchimp": ("mailchimp",),
    "postgresql": ("postgresql", "postgres", "psql", "pg database", "postgres db"),
    "mysql": ("mysql",),
    "mongodb": ("mongodb", "mongo"),
    "bigquery": ("bigquery", "big query"),
    "snowflake": ("snowflake",),
    "redshift": ("redshift",),
    "s3": ("s3", "s3 bucket", "aws s3"),
    "dropbox": ("dropbox",),
    "sharepoint": ("sharepoint", "share point"),
    "onedrive": ("onedrive", "one drive"),
    "datadog": ("datadog",),
    "sentry": ("sentry",),
    "pagerduty": ("pagerduty", "pager duty"),
    "grafana": ("grafana",),
    "twitter": ("twitter",),
    "linkedin": ("linkedin",),
    "youtube": ("youtube",),
    "google_ads": ("google ads", "adwords"),
    "workday": ("workday",),
    "bamboohr": ("bamboohr", "bamboo hr"),
    "greenhouse": ("greenhouse",),
    "typeform": ("typeform",),
    "calendly": ("calendly",),
    "figma": ("figma",),
    "rss": ("rss", "rss feed", "rss feeds"),
}  # fmt: skip

# Chat and mail tools: they are usually where results go, sometimes what is read.
CHAT_TOOLS: dict[str, tuple[str, ...]] = {
    "slack": ("slack",),
    "microsoft_teams": ("microsoft teams", "ms teams", "msteams", "teams channel"),
    "discord": ("discord",),
    "telegram": ("telegram",),
    "whatsapp": ("whatsapp", "whats app"),
}

# How the product writes a tool whose name is not its key title-cased ("hubspot": HubSpot).
SPELLED: dict[str, str] = {
    "google_sheets": "Google Sheets",
    "hubspot": "HubSpot",
    "github": "GitHub",
    "postgresql": "PostgreSQL",
    "gmail": "Gmail",
}


def spelled(key: str) -> str:
    """A tool's key as the product writes it ("google_sheets": Google Sheets, "jira": Jira)."""
    return SPELLED.get(key) or key.replace("_", " ").title()
