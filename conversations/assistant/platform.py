"""Greetings, questions about how the platform works, and workspace requests.

The assistant never changes workspace settings from the chat: it says who can, and where, for
what was asked (the topic, and an address the message named). What a caller may do depends on
their membership role alone, never on the intent label. Everything here decides from the
turn's reading (``intents/reading``): which topic a message is about, never its raw text.
"""

from __future__ import annotations

from django.utils.functional import Promise as StrPromise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from conversations.assistant.outcome import Reply, Turn
from conversations.assistant.text import display
from conversations.assistant.wizard import tenant_zone
from conversations.models import Membership
from intents.reading.acts import Act
from intents.reading.reading import Reading
from intents.reading.topics import Topic

CAPABILITIES = gettext_lazy(
    "I can set up an agent from a description (\u201cwatch Jira for overdue tickets and alert "
    "#platform every morning\u201d), run or change one of your agents, show what you have and "
    "how it ran, and hand you to the skill builder for new skills."
)
# Questions about the platform, answered from what it actually does (the first topic wins).
FAQ: dict[Topic, StrPromise] = {
    Topic.TOKENS: gettext_lazy(
        "API tokens let a program use the REST API as you: it sends the header "
        "\u201cAuthorization: Token <key>\u201d with every request. A token acts with its "
        "user's role in your tenant and nothing more. Tenant admins issue and revoke tokens in "
        "the admin console (/admin/, Tokens); a token shown once should be kept like a password."
    ),
    Topic.PEOPLE: gettext_lazy(
        "Tenant admins invite, add and remove people in the admin console (/admin/): Users to "
        "add or remove someone, Memberships to give them a role (member or admin). Nothing "
        "about people is changed from the chat."
    ),
    Topic.ROLES: gettext_lazy(
        "Every user has one role in your tenant: member (uses the chat, their own "
        "conversations and the tenant's agents) or admin (also manages users, roles, tokens "
        "and the tenant's settings in the admin console at /admin/)."
    ),
    Topic.SKILLS: gettext_lazy(
        "A skill is a reusable capability your agents can call (parsing invoices, cleaning "
        "addresses). Say \u201ccreate a skill that \u2026\u201d and I'll hand you to the skill "
        "builder."
    ),
    Topic.SCHEDULES: gettext_lazy(
        "Each agent runs on its own schedule, in its time zone: your tenant's default (%(zone)s) "
        "unless you name one (\u201cevery Monday at 9am Berlin time\u201d). Say \u201cchange "
        "<agent> to run daily at 8am\u201d to move it."
    ),
    Topic.HOW_AGENTS_WORK: gettext_lazy(
        "An agent reads one source (Jira, Notion, a sheet\u2026) on a schedule, looks for "
        "what you told it to watch, and acts: an alert, a summary or a report, sent where you "
        "said. Describe one in your own words and I'll set it up."
    ),
}
# Where a tenant admin does what was asked, and what it is called in a sentence.
_WHERE_ADMIN: dict[Topic, tuple[StrPromise, StrPromise]] = {
    Topic.PEOPLE: (
        gettext_lazy("Adding or removing people"),
        gettext_lazy(
            "in the admin console (/admin/): Users to add or remove someone, Memberships to set "
            "a role"
        ),
    ),
    Topic.ROLES: (
        gettext_lazy("Changing someone's role"),
        gettext_lazy("in the admin console (/admin/), under Memberships"),
    ),
    Topic.TOKENS: (
        gettext_lazy("Issuing or revoking API keys"),
        gettext_lazy("in the admin console (/admin/), under Tokens"),
    ),
    Topic.WORKSPACE: (
        gettext_lazy("Changing the workspace"),
        gettext_lazy("in the admin console (/admin/), under Tenants"),
    ),
}
_ANYTHING_ELSE = (gettext_lazy("That"), gettext_lazy("in the admin console (/admin/)"))


def not_for_me(turn: Turn) -> Reply:
    """Small talk, or a request that has nothing to do with agents or the workspace: said so in
    a sentence, with what the assistant does, and no menu of options that do not fit."""
    if turn.reading.shows(Act.SMALL_TALK):
        return Reply(
            _("All good here, thanks for asking! %(capabilities)s What would you like to do?")
            % {"capabilities": CAPABILITIES},
            decision="small_talk",
        )
    return Reply(
        _(
            "That's outside what I can do: I work with your workspace's agents and skills. "
            "%(capabilities)s"
        )
        % {"capabilities": CAPABILITIES},
        decision="out_of_scope",
    )


def greet(turn: Turn) -> Reply:
    name = turn.user.first_name or turn.user.get_username()
    return Reply(
        _("Hello %(name)s! %(capabilities)s What would you like to do?")
        % {"name": name, "capabilities": CAPABILITIES},
        decision="greeting",
    )


def thank(turn: Turn) -> Reply:
    return Reply(_("You're welcome! Tell me whenever you need something else."), decision="thanks")


def answer_platform_question(turn: Turn, reading: Reading) -> Reply | None:
    for topic in reading.topics:
        if topic in FAQ:
            answer = FAQ[topic] % {"zone": tenant_zone(turn)}
            return Reply(answer, decision="platform_question")
    return None


_ROLE = {
    "admin": gettext_lazy("as an admin"),
    "member": gettext_lazy("as a member"),
    "viewer": gettext_lazy("as a viewer"),
    "editor": gettext_lazy("as an editor"),
    "owner": gettext_lazy("as an owner"),
}


def _named(reading: Reading) -> str:
    """The values a workspace request named, to say back: never the request itself."""
    named = [
        *reading.addresses,
        *(str(_ROLE[role]) for role in reading.roles if role in _ROLE),
        *reading.names,
        *(display(tool) for tool in sorted(reading.tools)),
    ]
    if reading.plan:
        named.append(_("the %(plan)s plan") % {"plan": reading.plan})
    if reading.new_name:
        named.append(_("to \u201c%(name)s\u201d") % {"name": reading.new_name})
    return " (" + ", ".join(named) + ")" if named else ""


def manage(turn: Turn, reading: Reading) -> Reply:
    """Who can do a workspace request, and where; the caller's role alone decides which."""
    named = _named(reading)
    admin = turn.role == Membership.Role.ADMIN
    if reading.topics and reading.topics[0] == Topic.BILLING:
        template = (
            _(
                "Billing%(named)s isn't part of this workspace's console yet: you take it up "
                "with your account contact. I don't change workspace settings from the chat, so "
                "nothing has changed."
            )
            if admin
            else _(
                "Billing%(named)s isn't part of this workspace's console yet: your tenant's "
                "admins take it up with your account contact. I don't change workspace settings "
                "from the chat, so nothing has changed."
            )
        )
        return Reply(template % {"named": named}, decision="manage_platform_billing")
    what, where = next(
        (_WHERE_ADMIN[topic] for topic in reading.topics if topic in _WHERE_ADMIN),
        _ANYTHING_ELSE,
    )
    values = {"what": what, "named": named, "where": where}
    if admin:
        return Reply(
            _(
                "%(what)s%(named)s is something you can do yourself as a tenant admin, "
                "%(where)s. I don't change workspace settings from the chat, so nothing has "
                "changed yet."
            )
            % values,
            decision="manage_platform_admin",
        )
    return Reply(
        _(
            "Only your tenant's admins can do that. %(what)s%(named)s is done %(where)s. Your "
            "role is member, so I can't do it for you; ask one of your admins."
        )
        % values,
        decision="manage_platform_not_allowed",
    )
