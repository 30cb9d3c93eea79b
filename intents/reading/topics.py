"""What a message is about, when it is about the workspace rather than an agent: a table of
named topics in the same form as the acts (``acts/``), read from the same words."""

from __future__ import annotations

from enum import StrEnum

from intents.reading.acts import Entry, entry


class Topic(StrEnum):
    TOKENS = "tokens"
    ROLES = "roles"
    PEOPLE = "people"
    SKILLS = "skills"
    SCHEDULES = "schedules"
    HOW_AGENTS_WORK = "how_agents_work"
    WORKSPACE = "workspace"
    BILLING = "billing"
    WHAT_YOU_DO = "what_you_do"
    INTEGRATIONS = "integrations"


_PEOPLE = (
    "teammate*|colleague*|coworker*|user|users|member*|person|people|someone|viewer|editor|"
    "companero*|colega*|usuario*|miembro*|collegue*|utilisateur*|membre*|kollege*|kollegin*|"
    "benutzer*|mitglied*|membro*"
)
_ADD = (
    "add|invite*|invita*|invito|remove|delete|onboard|anad*|agreg*|ajout*|einlad*|adicion*|convid*"
)

TOPICS: tuple[Entry, ...] = (
    entry(
        Topic.TOKENS,
        "API tokens and keys: who issues them and what they allow.",
        """
        token|tokens
        api key|keys
        key|keys
        """,
        examples=("how do I get an API token?", "where are my api keys", "revoke that token"),
    ),
    entry(
        Topic.PEOPLE,
        "Adding, inviting or removing people: a tenant admin's job, in the admin console.",
        f"""
        {_ADD} …6 {_PEOPLE}
        {_ADD} @EMAIL
        teammate*|colleague*|coworker*
        """,
        examples=(
            "how do I add a teammate?",
            "invite my colleague maria@example.com",
            "remove Tom from the workspace users",
        ),
    ),
    entry(
        Topic.ROLES,
        "Roles and permissions: member or admin, and what each may do.",
        "role|roles|rol|rolle|rollen|papel|permission*|permiso*|berechtigung*|admin|admins|"
        "administrador*|administrat*|member|members|viewer|viewers",
        examples=("what roles are there?", "am I an admin?", "what can a member do?"),
    ),
    entry(
        Topic.SKILLS,
        "Skills: reusable capabilities the skill builder makes.",
        "skill|skills",
        examples=("what is a skill?", "how do skills work", "do I have any skills?"),
    ),
    entry(
        Topic.SCHEDULES,
        "Schedules and time zones of agents.",
        """
        schedule|schedules|timezone|cron
        time zone|zones
        """,
        examples=("how do schedules work?", "which time zone do you use?", "is it a cron?"),
    ),
    entry(
        Topic.HOW_AGENTS_WORK,
        "How an agent works, asked in general.",
        "@N_AGENT|agent …6 work|works|run|runs",
        examples=(
            "how do agents work?",
            "how does an agent run?",
            "explain how these bots work",
        ),
    ),
    entry(
        Topic.WORKSPACE,
        "The workspace itself: its name and settings.",
        "rename|workspace|tenant|settings|setting|name",
        examples=("rename our workspace", "change the tenant settings", "what's our tenant?"),
    ),
    entry(
        Topic.BILLING,
        "Billing, plans and payments, which this console does not hold.",
        "bill*|plan|plans|plano|forfait|tarif*|invoice*|payment*|subscription*|factur*|"
        "rechnung*|fatura*|abonnement*|suscrip*|assinatura*|pago|pagos|paiement*|zahlung*",
        examples=("upgrade our plan", "where are the invoices?", "change the payment card"),
    ),
    entry(
        Topic.WHAT_YOU_DO,
        "What the assistant can do, asked outright.",
        """
        help
        what else? can|could you …1 do
        what do you do
        how do|does this|it|you work
        capabilit*
        que puedes|sabes hacer
        que peux-tu faire
        was kannst du
        o que voce? pode|podes|sabe fazer
        """,
        examples=("help", "what can you do?", "was kannst du?"),
    ),
    entry(
        Topic.INTEGRATIONS,
        "Connecting a tool to the workspace.",
        """
        connect*|conecta*|connecter|verbind*|integrat*|integracion*|integrac*
        """,
        examples=(
            "connect our HubSpot",
            "conecta la integración de HubSpot",
            "how do integrations work?",
        ),
    ),
)
