"""The vocabulary generated agent and skill names are made from."""

from __future__ import annotations

from intents.offline.lexicon.vocabulary import words

# --- the vocabulary generated names are made from ---
# An agent or skill the user did not name gets a name made of the product's own words only: a
# tool of SOURCES or CHAT_TOOLS, the object nouns below and a role word. A word the user typed
# that is not here never reaches such a name, which is stored plain (docs/OPERATIONS.md).
# These lists say what a name may be made of; no classifier reads them, so adding a word
# changes names and never what a message is taken to mean. Objects are written as a name
# writes them (plural, words joined by "-"); a singular in the text names the same object.
NAME_OBJECTS: frozenset[str] = words(
    """
    tickets issues bugs incidents tasks cards stories epics sprints projects milestones
    releases deployments builds commits pull-requests merge-requests prs alerts errors
    exceptions outages logs metrics health-checks
    leads deals opportunities contacts accounts companies customers prospects quotes renewals
    signups subscriptions trials churn
    invoices bills receipts payments payouts refunds charges disputes expenses budgets
    revenue costs transactions totals amounts taxes
    orders shipments deliveries returns products inventory stock
    pages documents docs files contracts forms spreadsheets records rows tables notes posts
    articles newsletters campaigns ads comments mentions
    emails messages replies conversations calls meetings events appointments
    candidates applications interviews employees shifts timesheets absences
    feedback surveys responses reviews ratings dates addresses
    """
)
# The role word a generated agent name ends with ("jira-tickets-monitor"); the wizard picks it
# from what the agent does.
AGENT_ROLES: frozenset[str] = words("monitor reporter sync")
# The role word a generated skill name ends with ("invoices-extractor"), by the stem of the
# verb its purpose uses; the first word of the purpose that starts with one of them decides.
SKILL_ROLES: tuple[tuple[str, str], ...] = (
    ("extract", "extractor"), ("pars", "parser"), ("convert", "converter"), ("turn", "converter"),
    ("transform", "converter"), ("classif", "classifier"), ("categori", "classifier"),
    ("sort", "classifier"), ("label", "classifier"), ("tag", "tagger"), ("summar", "summarizer"),
    ("translat", "translator"), ("format", "formatter"), ("normali", "formatter"),
    ("clean", "cleaner"), ("validat", "validator"), ("check", "checker"), ("verif", "checker"),
    ("read", "reader"), ("writ", "writer"), ("draft", "writer"), ("generat", "generator"),
    ("calculat", "calculator"), ("comput", "calculator"), ("match", "matcher"),
    ("dedup", "deduplicator"), ("detect", "detector"), ("scor", "scorer"), ("route", "router"),
    ("routing", "router"),
)  # fmt: skip
