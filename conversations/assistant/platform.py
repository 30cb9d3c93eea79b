"""Greetings, questions about how the platform works, and workspace requests.

The assistant never changes workspace settings from the chat: it says who can, and where, for
exactly what was asked (the address and the role named back as written). What a caller may do
depends on their membership role alone, never on the intent label.
"""

from __future__ import annotations

import re

from conversations.assistant.outcome import Reply, Turn
from conversations.assistant.wizard import tenant_zone
from conversations.models import Membership

_GREETING_RE = re.compile(
    r"^[\s¡!]*(?:hi|hello|hey|hiya|howdy|yo|good (?:morning|afternoon|evening)|greetings|hola|"
    r"buenos d[ií]as|buenas(?: tardes| noches)?|bonjour|bonsoir|salut|hallo|guten (?:morgen|"
    r"tag|abend)|servus|moin|ol[aá]|oi|bom dia|boa tarde)\b[\W_]*(?:there|all|team|"
    r"everyone|omniforge)?(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
# What may follow a greeting and still be answered as one: "hi! what can you do?", "👋".
_CAN_DO_RE = re.compile(
    r"\b(?:what (?:else )?(?:can|could) you (?:\w+ )?do|what do you do|"
    r"how (?:do|does) (?:this|it|you) work|capabilit\w*|qu[eé] puedes hacer|"
    r"qu[eé] (?:sabes|puedes) hacer|que peux-tu faire|qu.est-ce que tu (?:peux|sais) faire|"
    r"was kannst du|o que (?:voc[eê] )?(?:pode|podes|sabe) fazer)",
    re.IGNORECASE,
)
HELP_RE = re.compile(rf"\bhelp\b|{_CAN_DO_RE.pattern}", re.IGNORECASE)
CAPABILITIES = (
    "I can set up an agent from a description (\u201cwatch Jira for overdue tickets and alert "
    "#platform every morning\u201d), run or change one of your agents, show what you have and "
    "how it ran, and hand you to the skill builder for new skills."
)
# Questions about the platform, answered from what it actually does.
FAQ = (
    (
        re.compile(r"\b(?:api )?(?:token|tokens|api key|api keys|keys?)\b", re.I),
        "API tokens let a program use the REST API as you: it sends the header "
        "\u201cAuthorization: Token <key>\u201d with every request. A token acts with its "
        "user's role in your tenant and nothing more. Tenant admins issue and revoke tokens in "
        "the admin console (/admin/, Tokens); a token shown once should be kept like a password.",
    ),
    (
        re.compile(r"\b(?:role|roles|permission|permissions|admin|member|viewer)s?\b", re.I),
        "Every user has one role in your tenant: member (uses the chat, their own "
        "conversations and the tenant's agents) or admin (also manages users, roles, tokens "
        "and the tenant's settings in the admin console at /admin/).",
    ),
    (
        re.compile(r"\b(?:skill|skills)\b", re.I),
        "A skill is a reusable capability your agents can call (parsing invoices, cleaning "
        "addresses). Say \u201ccreate a skill that \u2026\u201d and I'll hand you to the skill "
        "builder.",
    ),
    (
        re.compile(r"\b(?:schedule|schedules|time ?zone|timezone|cron)\b", re.I),
        "Each agent runs on its own schedule, in its time zone: your tenant's default ({zone}) "
        "unless you name one (\u201cevery Monday at 9am Berlin time\u201d). Say \u201cchange "
        "<agent> to run daily at 8am\u201d to move it.",
    ),
    (
        re.compile(r"\b(?:agent|agents)\b.*\b(?:work|works|run|runs)\b", re.I),
        "An agent reads one source (Jira, Notion, a sheet\u2026) on a schedule, looks for "
        "what you told it to watch, and acts: an alert, a summary or a report, sent where you "
        "said. Describe one in your own words and I'll set it up.",
    ),
)
_WHERE_ADMIN = (
    (re.compile(r"\b(?:add|invite|remove|delete|user|users|member|viewer|editor|role)\b", re.I),
     "in the admin console (/admin/): Users to add or remove someone, Memberships to set a role"),
    (re.compile(r"\b(?:token|tokens|api key|key)\b", re.I),
     "in the admin console (/admin/), under Tokens"),
    (re.compile(r"\b(?:rename|workspace|tenant|settings?|name)\b", re.I),
     "in the admin console (/admin/), under Tenants"),
    (re.compile(r"\b(?:bill|billing|plan|invoice|payment|subscription)\w*\b", re.I),
     "with your account contact: billing is not part of this workspace's console yet"),
)  # fmt: skip
_REQUEST_LEAD_RE = re.compile(
    r"^(?:(?:and|also|then|so|ok(?:ay)?|please|pls|hey|oh|btw|by the way|one more thing)"
    r"[,\s\-\u2013\u2014:]+)*"
    r"(?:(?:can|could|would) you|i (?:want|need|would like|'d like) (?:you )?to|please)?\s*",
    re.IGNORECASE,
)


def is_greeting(message: str) -> bool:
    """A greeting alone, or one followed by "what can you do?" (answered by the greeting)."""
    match = _GREETING_RE.match(message)
    if match is None:
        return False
    rest = match.group("rest").strip()
    return not re.search(r"\w", rest) or bool(_CAN_DO_RE.search(rest) and len(rest.split()) <= 8)


_THANKS_RE = re.compile(
    r"^[\W_]*(?:(?:ok(?:ay)?|great|cool|perfect|awesome|nice|super|genial|parfait|prima|"
    r"[oó]timo)[\W_]+)?(?:thanks?(?: a lot| so much| again)?|thank (?:you|u)(?: so much)?|thx|ty|"
    r"cheers|(?:muchas )?gracias|merci(?: beaucoup| bien)?|danke(?: sch[öo]n| dir| euch)?|"
    r"dankesch[öo]n|vielen dank|(?:muito )?obrigad[oa]|valeu|grazie)[\W_]*$",
    re.IGNORECASE,
)


def is_thanks(message: str) -> bool:
    return bool(_THANKS_RE.match(message))


def thank(turn: Turn) -> Reply:
    return Reply("You're welcome! Tell me whenever you need something else.", decision="thanks")


# "how's your day going?", "how are you?": asked of the assistant itself.
HOW_ARE_YOU_RE = re.compile(
    r"\b(?:how(?:'s| is| are)? (?:you|your (?:day|week|morning))|how(?:'s| is) it going|"
    r"what'?s up|como (?:estas|est[aá]s|vai|va)|ça va|comment (?:vas-tu|allez-vous)|"
    r"wie geht'?s|wie geht es dir)\b",
    re.IGNORECASE,
)


def not_for_me(turn: Turn) -> Reply:
    """Small talk, or a request that has nothing to do with agents or the workspace: said so in
    a sentence, with what the assistant does, and no menu of options that do not fit."""
    if HOW_ARE_YOU_RE.search(turn.message):
        return Reply(
            f"All good here, thanks for asking! {CAPABILITIES} What would you like to do?",
            decision="small_talk",
        )
    asked = _request(turn.message)
    return Reply(
        f"“{asked}” is outside what I can do: I work with your workspace's agents and skills. "
        f"{CAPABILITIES}",
        decision="out_of_scope",
    )


def greet(turn: Turn) -> Reply:
    name = turn.user.first_name or turn.user.get_username()
    return Reply(f"Hello {name}! {CAPABILITIES} What would you like to do?", decision="greeting")


def answer_platform_question(turn: Turn, question: str) -> Reply | None:
    for pattern, answer in FAQ:
        if pattern.search(question):
            return Reply(answer.format(zone=tenant_zone(turn)), decision="platform_question")
    return None


def _request(message: str) -> str:
    """What was asked, in the user's words, ready to be quoted back."""
    text = _REQUEST_LEAD_RE.sub("", message.strip()).strip(" ?!.")
    return text[:200] or message.strip()[:200]


def manage(turn: Turn, message: str) -> Reply:
    # Routing said "workspace settings"; what the caller may do depends on their role alone.
    asked = _request(message)
    where = next(
        (place for pattern, place in _WHERE_ADMIN if pattern.search(message)),
        "in the admin console (/admin/)",
    )
    if turn.role == Membership.Role.ADMIN:
        return Reply(
            f"You can do that yourself as a tenant admin: to \u201c{asked}\u201d, go {where}. "
            "I don't change workspace settings from the chat, so nothing has changed yet.",
            decision="manage_platform_admin",
        )
    return Reply(
        f"Only your tenant's admins can do that: \u201c{asked}\u201d is done {where}. Your "
        "role is member, so I can't do it for you; ask one of your admins.",
        decision="manage_platform_not_allowed",
    )
