"""The master agent as a pure function: (state, classified turn) -> (reply, new state, effects).

No chat turn, no HTTP: a state and a classified message go in; what comes out is checked, and
so is that the database was only read.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from conversations.assistant.effects import CreateAgent, DeleteAgent, RunAgent, UpdateAgent
from conversations.assistant.outcome import Outcome, Turn
from conversations.assistant.respond import assistant_respond
from conversations.assistant.state import AssistantState, Option, PendingRequest, Wizard
from conversations.models import Agent, AgentRun, Membership
from intents.types import ActionType, IntentResult, Method
from tests.conftest import World

pytestmark = pytest.mark.django_db


@pytest.fixture
def agents(world: World) -> list[Agent]:
    return [
        Agent.objects.create(tenant=world.tenant_a, name=name, description=description)
        for name, description in (
            ("financial-analyzer", "Monthly financial analysis"),
            ("jira-overdue-monitor", "Daily overdue ticket alerts"),
            ("notion-reporter", "Weekly Notion project summaries"),
        )
    ]


@pytest.fixture
def reads_only() -> Iterator[CaptureQueriesContext]:
    with CaptureQueriesContext(connection) as queries:
        yield queries
    writes = [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert writes == [], "the master agent wrote to the database"


def respond(
    world: World,
    state: AssistantState,
    message: str,
    action: ActionType,
    *,
    confidence: float = 0.9,
    entities: dict[str, str] | None = None,
    role: str = Membership.Role.MEMBER,
    **intent: Any,
) -> Outcome:
    turn = Turn(
        tenant=world.tenant_a,
        user=world.owner,
        role=role,
        conversation_id="01CONVERSATION",
        message=message,
        message_id="01MESSAGE",
        intent=IntentResult(
            action_type=action,
            confidence=confidence,
            entities=entities or {},
            method=Method.OFFLINE,
            **intent,
        ),
    )
    return assistant_respond(state, turn)


def test_a_complete_request_decides_an_agent_and_creates_nothing_itself(
    world: World, reads_only: Any
) -> None:
    outcome = respond(
        world,
        AssistantState(),
        "Create an agent that watches Jira for overdue tickets and posts to #ops every morning",
        ActionType.CREATE_AGENT,
        entities={"source": "jira", "task": "overdue tickets", "destination": "slack:#ops"},
    )
    (effect,) = outcome.effects
    assert isinstance(effect, CreateAgent)
    assert effect.config["source"] == "jira" and effect.config["destination"] == "Slack #ops"
    assert effect.config["trigger"] == "overdue tickets"
    # "every morning" is read as 09:00 in the tenant's zone, and the summary says so.
    assert effect.config["schedule"] == "Every day at 09:00 (UTC)"
    assert outcome.reply.content.startswith(f"Done! I've created {effect.name}, an agent that")
    assert "you didn't say an exact time, so I picked it" in outcome.reply.content
    assert f"- Name: {effect.name}" in outcome.reply.content
    assert outcome.state.wizard is None and outcome.state.last_agent == effect.name
    assert not Agent.objects.for_tenant(world.tenant_a).exists()


def test_a_partial_request_opens_the_wizard_in_the_state(world: World, reads_only: Any) -> None:
    outcome = respond(
        world,
        AssistantState(),
        "Set up a Jira agent",
        ActionType.CREATE_AGENT,
        entities={"source": "jira"},
    )
    assert outcome.effects == ()
    wizard = outcome.state.wizard
    assert wizard is not None and wizard.gathered["source"] == "jira"
    assert wizard.asking == ("trigger", "action", "schedule")
    assert "How often should it run" in outcome.reply.content
    assert "Times are in UTC unless you name a time zone" in outcome.reply.content
    assert "wizard" not in outcome.reply.meta  # the state is not copied into the reply


def test_an_answer_continues_the_wizard_and_cancel_closes_it(world: World, reads_only: Any) -> None:
    open_wizard = AssistantState(
        wizard=Wizard(gathered={"source": "jira", "trigger": "overdue tickets"},
                      asking=("action", "schedule")),
    )  # fmt: skip
    answered = respond(world, open_wizard, "every morning at 9", ActionType.CREATE_AGENT)
    assert answered.state.wizard is not None
    assert answered.state.wizard.gathered["frequency"] == "daily 09:00"
    assert answered.state.wizard.gathered["zone"] == "UTC"

    cancelled = respond(world, answered.state, "cancel", ActionType.UNKNOWN)
    assert cancelled.state.wizard is None
    assert "cancelled" in cancelled.reply.content and cancelled.effects == ()


def test_a_name_given_mid_wizard_is_said_back_with_the_next_question(
    world: World, reads_only: Any
) -> None:
    state = AssistantState(
        wizard=Wizard(gathered={"source": "monday", "destination": "dispatch@haulnorth.com",
                                "frequency": "daily 05:30", "zone": "America/Chicago"},
                      asking=("trigger",)),
    )  # fmt: skip
    outcome = respond(world, state, "call it delayed-loads", ActionType.CREATE_AGENT)
    assert outcome.effects == ()
    assert outcome.reply.content.startswith("Got it. So far: delayed-loads, an agent that reads")
    assert outcome.reply.content.endswith("What should it watch for or work on?")
    assert outcome.state.wizard is not None
    assert outcome.state.wizard.gathered["name"] == "delayed-loads"


def test_where_were_we_recaps_the_open_wizard_from_the_state(world: World, reads_only: Any) -> None:
    state = AssistantState(
        wizard=Wizard(gathered={"source": "google_sheets"}, asking=("trigger",)),
    )
    outcome = respond(world, state, "where were we?", ActionType.QUERY_INFO)
    assert "- Source: Google Sheets" in outcome.reply.content
    assert outcome.reply.content.endswith("What should it watch for or work on?")
    assert outcome.state.wizard == state.wizard


def test_a_listed_agent_is_run_by_its_position(
    world: World, agents: list[Agent], reads_only: Any
) -> None:
    listed = respond(world, AssistantState(), "list my agents", ActionType.QUERY_INFO)
    assert listed.state.listed_agents == (
        "financial-analyzer",
        "jira-overdue-monitor",
        "notion-reporter",
    )
    ran = respond(world, listed.state, "run the second one", ActionType.EXECUTE_TASK)
    (effect,) = ran.effects
    assert isinstance(effect, RunAgent) and effect.agent_id == agents[1].id
    assert effect.run_id in ran.reply.content
    assert ran.state.last_agent_run == "jira-overdue-monitor"
    assert not AgentRun.objects.for_tenant(world.tenant_a).exists()


def test_numbered_options_are_remembered_and_a_number_picks_one(
    world: World, agents: list[Agent], reads_only: Any
) -> None:
    unclear = respond(
        world,
        AssistantState(),
        "maybe the financial analyzer thing",
        ActionType.EXECUTE_TASK,
        confidence=0.55,
        alternative_action=ActionType.CREATE_AGENT,
        clarifying_question="Do you want me to run an agent, or create one?",
    )
    assert [o.n for o in unclear.state.options] == [1, 2, 3]
    assert unclear.state.pending == PendingRequest("maybe the financial analyzer thing", {})
    assert "1. Run financial-analyzer now" in unclear.reply.content

    picked = respond(world, unclear.state, "1", ActionType.UNKNOWN, confidence=0.3)
    assert picked.reply.decision.startswith("picked_option_1:")
    assert isinstance(picked.effects[0], RunAgent)
    assert picked.state.pending is None and picked.state.options == ()


def test_it_means_the_last_agent_and_a_change_is_an_effect(
    world: World, agents: list[Agent], reads_only: Any
) -> None:
    state = AssistantState(last_agent="notion-reporter")
    outcome = respond(world, state, "make it daily at 8am instead", ActionType.UPDATE_AGENT)
    (effect,) = outcome.effects
    assert isinstance(effect, UpdateAgent) and effect.agent_id == agents[2].id
    assert effect.config == {"schedule": "Every day at 08:00 (UTC)"}
    assert outcome.reply.content == (
        "Updated notion-reporter:\n- Schedule: not set → Every day at 08:00 (UTC)"
    )
    assert Agent.objects.for_tenant(world.tenant_a).get(name="notion-reporter").config == {}


def test_the_role_not_the_intent_decides_what_platform_help_says(
    world: World, reads_only: Any
) -> None:
    member = respond(world, AssistantState(), "make bob an admin", ActionType.MANAGE_PLATFORM)
    admin = respond(
        world,
        AssistantState(),
        "make bob an admin",
        ActionType.MANAGE_PLATFORM,
        role=Membership.Role.ADMIN,
    )
    assert "Your role is member" in member.reply.content
    # What was asked, named back as values (the role), never as the sentence quoted.
    assert "Changing someone's role (as an admin)" in member.reply.content
    assert "make bob" not in member.reply.content
    assert "as a tenant admin" in admin.reply.content
    assert member.effects == admin.effects == ()


def test_options_last_only_one_turn(world: World, agents: list[Agent], reads_only: Any) -> None:
    state = AssistantState(options=(Option(1, "query_info", "Show all your agents"),))
    outcome = respond(world, state, "what can you do?", ActionType.QUERY_INFO)
    assert outcome.state.options == ()


# --- Proposals, identical agents, undo and amendments, detours, greetings ---------------------


def test_a_described_chore_is_proposed_and_a_yes_in_any_language_creates_it(
    world: World, reads_only: Any
) -> None:
    chore = (
        "Cada lunes a las 9 (hora de Madrid) paso una hora copiando los números de Stripe "
        "a la hoja Finanzas"
    )
    proposed = respond(world, AssistantState(), chore, ActionType.CREATE_AGENT, confidence=0.6)
    assert proposed.effects == ()
    assert proposed.reply.content.endswith("Shall I set it up?")
    assert "copiando los números de Stripe a la hoja Finanzas" in proposed.reply.content
    wizard = proposed.state.wizard
    assert wizard is not None and wizard.proposed

    accepted = respond(world, proposed.state, "sí", ActionType.UNKNOWN, confidence=0.5)
    (effect,) = accepted.effects
    assert isinstance(effect, CreateAgent)
    assert effect.config["source"] == "stripe"
    assert effect.config["schedule"] == "Every Monday at 09:00 (Europe/Madrid)"
    assert "Finanzas" in effect.config["action"]  # the user's words, accents and case kept


def test_a_proposal_looks_out_for_the_problem_described_when_nothing_else_says_what(
    world: World, reads_only: Any
) -> None:
    proposed = respond(
        world,
        AssistantState(),
        "ugh, applicants sit in the 'Onsite' stage in Greenhouse for weeks and nobody notices",
        ActionType.CREATE_AGENT,
    )
    wizard = proposed.state.wizard
    assert wizard is not None and wizard.proposed
    assert wizard.gathered["trigger"] == (
        "applicants sit in the 'Onsite' stage in Greenhouse for weeks"
    )


def test_a_declined_proposal_creates_nothing_and_forgets_it(world: World, reads_only: Any) -> None:
    proposed = respond(
        world,
        AssistantState(),
        "I keep forgetting to check Zendesk for urgent tickets every morning",
        ActionType.CREATE_AGENT,
    )
    declined = respond(world, proposed.state, "no thanks", ActionType.UNKNOWN)
    assert declined.effects == () and declined.state.wizard is None
    assert "won't set that up" in declined.reply.content


def _zendesk_proposal_declined(world: World, no: str) -> Outcome:
    proposed = respond(
        world,
        AssistantState(),
        "I keep forgetting to check Zendesk for urgent tickets and posting them to #support",
        ActionType.CREATE_AGENT,
    )
    return respond(world, proposed.state, no, ActionType.UNKNOWN)


@pytest.mark.parametrize(
    "later",
    [
        "ok, let's do that agent after all. Every weekday at 8:15 Europe/Dublin, call it zd-urgent",
        "actually yes, go ahead with the zendesk thing: weekdays 8:15 Europe/Dublin, "
        "name: zd-urgent",
        "Na gut, mach das doch. Werktags um 8:15 Europe/Dublin, Name: zd-urgent",
        # A yes after "on second thought" takes it up; details alone would only weigh it again.
        "on second thought, yes: every weekday at 8:15 Europe/Dublin, name: zd-urgent",
    ],
)
def test_a_declined_proposal_taken_up_later_creates_it_with_what_was_said(
    world: World, reads_only: Any, later: str
) -> None:
    declined = _zendesk_proposal_declined(world, "not now, thanks")
    aside = respond(world, declined.state, "what can you do?", ActionType.QUERY_INFO)
    assert declined.effects == aside.effects == ()
    taken_up = respond(world, aside.state, later, ActionType.UPDATE_AGENT, confidence=0.5)
    (effect,) = taken_up.effects
    assert isinstance(effect, CreateAgent)
    assert effect.name == "zd-urgent"
    assert effect.config["source"] == "zendesk"
    assert "urgent tickets" in effect.config["trigger"]
    assert "#support" in effect.config["destination"]
    assert "08:15" in effect.config["schedule"] and "Europe/Dublin" in effect.config["schedule"]
    assert taken_up.state.declined is None


def test_details_given_after_a_proposal_add_to_it_and_it_still_waits_for_a_yes(
    world: World, reads_only: Any
) -> None:
    proposed = respond(
        world,
        AssistantState(),
        "every week I lose an hour copying new Stripe disputes into a sheet",
        ActionType.CREATE_AGENT,
    )
    more = respond(world, proposed.state, "it should post them in #billing-ops", ActionType.UNKNOWN)
    assert more.effects == ()
    assert more.state.wizard is not None and more.state.wizard.proposed
    assert "Stripe" in more.reply.content and "#billing-ops" in more.reply.content
    (effect,) = respond(world, more.state, "yes, Mondays at 9", ActionType.UNKNOWN).effects
    assert isinstance(effect, CreateAgent)
    assert effect.config["source"] == "stripe" and "#billing-ops" in effect.config["destination"]


@pytest.mark.parametrize(
    ("request_", "confidence"),
    [
        ("I'd love an agent that keeps an eye on stale HubSpot deals", 0.8),
        ("mak an agnet that grabs new Linear bugs for #mobile", 0.8),
        ("je veux un agent qui surveille les tickets Jira urgents", 0.8),
        # Read with doubt, but asked for in so many words: the wizard, not a menu.
        ("quero criar um agente", 0.4),
        ("ich möchte einen Agenten erstellen", 0.4),
    ],
)
def test_asking_for_an_agent_in_other_words_starts_the_wizard_not_a_proposal(
    world: World, reads_only: Any, request_: str, confidence: float
) -> None:
    outcome = respond(
        world, AssistantState(), request_, ActionType.CREATE_AGENT, confidence=confidence
    )
    assert outcome.state.wizard is not None and not outcome.state.wizard.proposed
    assert outcome.state.options == ()


def test_what_does_it_watch_while_setting_one_up_is_about_the_one_being_set_up(
    world: World, jira_watch: Agent, reads_only: Any
) -> None:
    opened = respond(
        world,
        AssistantState(last_agent="jira-watch"),
        "I want a new agent that pulls closed-won deals from Salesforce",
        ActionType.CREATE_AGENT,
    )
    asked = respond(
        world,
        opened.state,
        "what does it watch?",
        ActionType.QUERY_INFO,
        entities={"agent": "jira-watch"},  # "it", read as the agent talked about before
    )
    assert "closed-won deals" in asked.reply.content and "jira-watch" not in asked.reply.content
    assert asked.state.wizard == opened.state.wizard


def test_a_list_of_one_agent_makes_it_what_it_means(
    world: World, jira_watch: Agent, reads_only: Any
) -> None:
    listed = respond(world, AssistantState(), "list my agents", ActionType.QUERY_INFO)
    assert listed.state.last_agent == "jira-watch"


def test_a_summary_of_a_named_sheet_needs_nothing_more_to_watch(
    world: World, reads_only: Any
) -> None:
    (effect,) = respond(
        world,
        AssistantState(),
        "Set up an agent named fuel-weekly: every Friday at 16:00 Europe/Madrid, read the 'Fuel' "
        "tab of our Google Sheet and email a cost summary to flota@example.es",
        ActionType.CREATE_AGENT,
    ).effects
    assert isinstance(effect, CreateAgent) and effect.name == "fuel-weekly"


def test_when_does_it_run_in_spanish_mid_wizard_is_about_the_one_being_set_up(
    world: World, reads_only: Any
) -> None:
    opened = respond(
        world,
        AssistantState(),
        "crea un agente que revise las facturas vencidas en QuickBooks los lunes a las 8",
        ActionType.CREATE_AGENT,
    )
    asked = respond(world, opened.state, "¿Y a qué hora corre exactamente?", ActionType.QUERY_INFO)
    assert "Here's the agent we're setting up" in asked.reply.content
    assert asked.state.wizard == opened.state.wizard


@pytest.mark.parametrize(
    ("message", "change"),
    [
        ("Could you please move it to 16:00, same time zone?", "schedule"),
        ("and would you send its results to talent@example.com rather than the old inbox?",
         "destination"),
    ],
)  # fmt: skip
def test_a_change_asked_of_it_changes_the_agent_just_talked_about(
    world: World, jira_watch: Agent, reads_only: Any, message: str, change: str
) -> None:
    (effect,) = respond(
        world, AssistantState(last_agent="jira-watch"), message, ActionType.UNKNOWN, confidence=0.4
    ).effects
    assert isinstance(effect, UpdateAgent) and effect.agent_id == jira_watch.id
    assert list(effect.config) == [change]


@pytest.mark.parametrize(
    "message", ["post it in #leadership too", "remove the archived projects from jira-watch"]
)
def test_sharing_a_result_or_taking_something_out_is_no_new_destination_and_no_deletion(
    world: World, jira_watch: Agent, reads_only: Any, message: str
) -> None:
    # Read with doubt (as the classifier may), neither moves where the agent posts for good
    # nor offers to delete it.
    outcome = respond(
        world,
        AssistantState(last_agent="jira-watch", last_agent_run="jira-watch"),
        message,
        ActionType.UNKNOWN,
        confidence=0.5,
    )
    assert outcome.effects == ()
    assert "Delete jira-watch" not in outcome.reply.content


def test_why_did_you_move_it_is_a_question_not_a_change(
    world: World, jira_watch: Agent, reads_only: Any
) -> None:
    outcome = respond(
        world,
        AssistantState(last_agent="jira-watch"),
        "why did you move it to 9:00?",
        ActionType.QUERY_INFO,
    )
    assert outcome.effects == ()


def test_a_listed_agent_is_named_by_a_word_of_its_name(
    world: World, two_digests: list[Agent], reads_only: Any
) -> None:
    listed = respond(world, AssistantState(), "list my agents", ActionType.QUERY_INFO)
    (effect,) = respond(
        world, listed.state, "renomme celui des finance en budget-hebdo", ActionType.UPDATE_AGENT
    ).effects
    assert isinstance(effect, UpdateAgent) and effect.agent_id == two_digests[0].id
    assert effect.name == "budget-hebdo"


def test_a_time_put_right_mid_wizard_leaves_no_details_behind(
    world: World, reads_only: Any
) -> None:
    opened = respond(
        world,
        AssistantState(),
        "je veux un agent qui surveille les tickets Jira urgents, tous les jours à 8h30",
        ActionType.CREATE_AGENT,
    )
    fixed = respond(world, opened.state, "ah non, plutôt 7h45", ActionType.CREATE_AGENT)
    gathered = fixed.state.wizard.gathered
    assert "07:45" in gathered["frequency"] and "details" not in gathered


def test_a_summary_by_email_in_french_is_an_answer_not_where_were_we(
    world: World, reads_only: Any
) -> None:
    opened = respond(
        world,
        AssistantState(),
        "Je voudrais créer un agent qui surveille les tickets Zendesk urgents",
        ActionType.CREATE_AGENT,
    )
    answered = respond(
        world, opened.state, "envoie un résumé par e-mail à support@acme.fr", ActionType.UNKNOWN
    )
    assert answered.state.wizard is not None
    assert answered.state.wizard.gathered.get("destination") == "support@acme.fr"


def test_a_yes_that_names_another_thing_does_not_take_up_a_declined_proposal(
    world: World, reads_only: Any
) -> None:
    declined = _zendesk_proposal_declined(world, "no thanks")
    other = respond(world, declined.state, "yes, what plans do you have?", ActionType.QUERY_INFO)
    assert other.effects == ()
    # A particle that only sometimes means "after all" is not enough: here it is a date.
    later = respond(
        world, declined.state, "zeig mir doch die Läufe al final del mes", ActionType.QUERY_INFO
    )
    assert later.effects == () and later.state.declined is not None


@pytest.fixture
def jira_watch(world: World) -> Agent:
    return Agent.objects.create(
        tenant=world.tenant_a, name="jira-watch", config=JIRA_WATCH, created_by=world.owner
    )


JIRA_WATCH = {"source": "jira", "trigger": "overdue tickets", "destination": "Slack #ops",
              "schedule": "Every day at 09:00 (UTC)"}  # fmt: skip


def test_an_agent_identical_to_one_that_exists_is_pointed_out_first(
    world: World, jira_watch: Agent, reads_only: Any
) -> None:
    request = "Create an agent that watches Jira for overdue tickets and alerts #ops daily at 9am"
    pointed = respond(world, AssistantState(), request, ActionType.CREATE_AGENT)
    assert pointed.effects == ()
    assert "You already have an agent that does this: jira-watch" in pointed.reply.content
    second = respond(
        world, pointed.state, "create it anyway, call it jira-watch-2", ActionType.CREATE_AGENT
    )
    (effect,) = second.effects
    assert isinstance(effect, CreateAgent) and effect.name == "jira-watch-2"


def test_a_run_asked_for_after_an_identical_agent_was_pointed_out_runs_that_one(
    world: World, jira_watch: Agent, reads_only: Any
) -> None:
    request = "Create an agent that posts overdue Jira tickets to #ops every day at 9:00 UTC"
    pointed = respond(world, AssistantState(), request, ActionType.CREATE_AGENT)
    assert "You already have an agent that does this: jira-watch" in pointed.reply.content
    ran = respond(
        world, pointed.state, "oh right, forgot about it. just run it then", ActionType.CREATE_AGENT
    )
    (effect,) = ran.effects
    assert isinstance(effect, RunAgent) and effect.agent_id == jira_watch.id
    assert ran.state.wizard is None


@pytest.mark.parametrize(
    ("message", "config", "name"),
    [
        ("Verschieb jira-watch auf 10:15", {"schedule": "Every day at 10:15 (UTC)"}, None),
        ("move jira-watch to 7:30", {"schedule": "Every day at 07:30 (UTC)"}, None),
        ("benenn jira-watch in late-tickets um", {}, "late-tickets"),
        ("renomme jira-watch en tickets-en-retard", {}, "tickets-en-retard"),
    ],
)
def test_a_new_time_alone_or_a_new_name_in_other_languages_changes_the_agent(
    world: World,
    jira_watch: Agent,
    reads_only: Any,
    message: str,
    config: dict[str, str],
    name: str | None,
) -> None:
    (effect,) = respond(world, AssistantState(), message, ActionType.UPDATE_AGENT).effects
    assert isinstance(effect, UpdateAgent) and effect.agent_id == jira_watch.id
    assert effect.config == config and effect.name == name


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("write me a limerick about our CFO", "outside what I can do"),
        ("what's the weather like in Oslo tomorrow?", "outside what I can do"),
        ("how's your day going?", "thanks for asking"),
    ],
)
def test_small_talk_and_errands_get_a_sentence_not_a_menu(
    world: World, reads_only: Any, message: str, said: str
) -> None:
    outcome = respond(world, AssistantState(), message, ActionType.UNKNOWN, confidence=0.95)
    assert said in outcome.reply.content
    assert "1." not in outcome.reply.content and outcome.state.options == ()
    assert outcome.effects == ()


def test_an_errand_in_the_middle_of_a_wizard_is_answered_and_the_wizard_kept(
    world: World, reads_only: Any
) -> None:
    opened = respond(
        world,
        AssistantState(),
        "create an agent that watches Intercom for unanswered chats",
        ActionType.CREATE_AGENT,
    )
    aside = respond(world, opened.state, "tell me a joke first", ActionType.UNKNOWN, confidence=0.9)
    assert "outside what I can do" in aside.reply.content
    assert aside.state.wizard == opened.state.wizard
    assert "tell me a joke" not in str(aside.state.wizard.gathered)


def test_a_source_put_right_takes_what_it_watches_along(world: World, reads_only: Any) -> None:
    opened = respond(
        world,
        AssistantState(),
        "create an agent that collects the cards moved to Done in Trello and emails a recap to "
        "team@acme.io",
        ActionType.CREATE_AGENT,
    )
    fixed = respond(
        world,
        opened.state,
        "sorry, we moved off Trello. It's Asana now: tasks completed in the Launch project.",
        ActionType.UPDATE_AGENT,
        confidence=0.8,
    )
    assert fixed.effects == ()
    gathered = fixed.state.wizard.gathered
    assert gathered["source"] == "asana"
    assert gathered["trigger"] == "tasks completed in the Launch project"


def test_an_agent_that_runs_twice_a_day_keeps_both_times(world: World, reads_only: Any) -> None:
    (effect,) = respond(
        world,
        AssistantState(),
        "create an agent that posts new VIP Zendesk tickets to #vip-care twice a day at 9:00 "
        "and 15:00 Africa/Johannesburg, name it vip-digest",
        ActionType.CREATE_AGENT,
    ).effects
    assert isinstance(effect, CreateAgent)
    assert effect.config["schedule"] == (
        "Every day at 09:00 and 15:00 (3 pm) (Africa/Johannesburg)"
    )


@pytest.fixture
def two_digests(world: World) -> list[Agent]:
    return [
        Agent.objects.create(
            tenant=world.tenant_a,
            name=name,
            config={"schedule": "weekly monday 09:00 UTC", "source": "xero"},
        )
        for name in ("finance-weekly-digest", "ops-weekly-digest")
    ]


def test_a_change_asked_of_one_of_two_agents_is_made_once_the_agent_is_picked(
    world: World, two_digests: list[Agent], reads_only: Any
) -> None:
    asked = respond(
        world, AssistantState(), "move the weekly digest to fridays pls", ActionType.UPDATE_AGENT
    )
    assert "Which agent should I change?" in asked.reply.content
    state = asked.state.replace(
        options=tuple(
            Option(o["n"], o["action_type"], o["label"], o["agent"])
            for o in asked.reply.meta["options"]
        )
    )
    (effect,) = respond(world, state, "the finance one", ActionType.UNKNOWN).effects
    assert isinstance(effect, UpdateAgent) and effect.agent_id == two_digests[0].id
    assert "Friday" in effect.config["schedule"]


def test_an_unclear_request_naming_two_agents_offers_those_two(
    world: World, two_digests: list[Agent], reads_only: Any
) -> None:
    asked = respond(
        world, AssistantState(), "can u do the weekly digest", ActionType.QUERY_INFO, confidence=0.5
    )
    assert "finance-weekly-digest" in asked.reply.content
    assert "ops-weekly-digest" in asked.reply.content
    state = asked.state.replace(
        options=tuple(
            Option(o["n"], o["action_type"], o["label"], o.get("agent"))
            for o in asked.reply.meta["options"]
        )
    )
    (effect,) = respond(world, state, "the ops one", ActionType.UNKNOWN).effects
    assert isinstance(effect, RunAgent) and effect.agent_id == two_digests[1].id


def test_a_request_that_names_no_action_gets_options_not_a_run(
    world: World, jira_watch: Agent, reads_only: Any
) -> None:
    outcome = respond(
        world,
        AssistantState(last_agent="jira-watch"),
        "do something about the jira tickets",
        ActionType.EXECUTE_TASK,
        confidence=0.87,
        entities={"agent": "jira-watch"},
    )
    assert outcome.effects == ()
    assert outcome.reply.decision == "clarify" and len(outcome.state.options) >= 2


def test_deleting_an_agent_from_the_chat_waits_for_a_yes(
    world: World, jira_watch: Agent, reads_only: Any
) -> None:
    asked = respond(world, AssistantState(), "delete jira-watch", ActionType.UPDATE_AGENT)
    assert asked.effects == ()
    assert "Delete jira-watch" in asked.reply.content and asked.state.deleting == "jira-watch"
    kept = respond(world, asked.state, "no, keep it", ActionType.UNKNOWN)
    assert kept.effects == () and "stays" in kept.reply.content
    asked_again = respond(world, kept.state, "get rid of jira-watch", ActionType.MANAGE_PLATFORM)
    (effect,) = respond(world, asked_again.state, "yes", ActionType.UNKNOWN).effects
    assert effect == DeleteAgent(agent_id=jira_watch.id)


def test_delete_it_do_it_now_still_asks_to_delete(
    world: World, jira_watch: Agent, reads_only: Any
) -> None:
    # "do" is an English word, not the Portuguese "from the" that takes something out.
    asked = respond(
        world, AssistantState(), "delete jira-watch, do it now", ActionType.UPDATE_AGENT
    )
    assert asked.state.deleting == "jira-watch"


def test_a_deletion_whose_confirmation_was_waived_happens_at_once_and_only_then(
    world: World, jira_watch: Agent, reads_only: Any
) -> None:
    listed = respond(world, AssistantState(), "list my agents", ActionType.QUERY_INFO)
    (effect,) = respond(
        world, listed.state, "delete the first one, no need to confirm", ActionType.UPDATE_AGENT
    ).effects
    assert effect == DeleteAgent(agent_id=jira_watch.id)
    # A yes later on, with nothing waiting for it, deletes nothing.
    asked = respond(world, AssistantState(), "delete jira-watch", ActionType.UPDATE_AGENT)
    moved_on = respond(world, asked.state, "what can you do?", ActionType.QUERY_INFO)
    assert respond(world, moved_on.state, "yes", ActionType.UNKNOWN).effects == ()


def test_how_many_agents_counts_them_rather_than_describing_the_last_one(
    world: World, jira_watch: Agent, reads_only: Any
) -> None:
    outcome = respond(
        world,
        AssistantState(last_agent="jira-watch"),
        "how many agents do I have now?",
        ActionType.QUERY_INFO,
    )
    assert outcome.reply.content.startswith("You have 1 agent.\nHere are your agents:")


def test_actually_cancel_that_right_after_creating_undoes_it(world: World, reads_only: Any) -> None:
    created = respond(
        world,
        AssistantState(),
        "Create an agent named sweeper that checks Freshdesk for stale tickets and posts them "
        "to #support every Sunday at 11pm Paris time",
        ActionType.CREATE_AGENT,
    )
    (made,) = created.effects
    assert isinstance(made, CreateAgent) and made.name == "sweeper"
    undone = respond(world, created.state, "actually cancel that", ActionType.UNKNOWN)
    assert undone.effects == (DeleteAgent(agent_id=made.agent_id),)
    assert "sweeper is deleted" in undone.reply.content
    # Only right after: a later "cancel" undoes nothing.
    later = respond(world, undone.state, "cancel that", ActionType.UNKNOWN)
    assert later.effects == ()


def test_details_right_after_creating_amend_the_new_agent(world: World, reads_only: Any) -> None:
    created = respond(
        world,
        AssistantState(),
        "Create an agent that watches Jira for overdue tickets and alerts #ops daily at 9am",
        ActionType.CREATE_AGENT,
    )
    (made,) = created.effects
    assert isinstance(made, CreateAgent)
    amended = respond(
        world, created.state, "Berlin time, and call it late-tickets", ActionType.UPDATE_AGENT
    )
    (change,) = amended.effects
    # The description is written again, so it no longer says the old time zone.
    assert change == UpdateAgent(
        agent_id=made.agent_id,
        name="late-tickets",
        config={"schedule": "Every day at 09:00 (Europe/Berlin)"},
        description="watches Jira for overdue tickets and sends an alert to Slack #ops every day "
        "at 09:00 (Europe/Berlin)",
    )
    assert "late-tickets now watches Jira" in amended.reply.content


def test_a_different_request_mid_wizard_is_answered_and_the_wizard_kept(
    world: World, agents: list[Agent], reads_only: Any
) -> None:
    open_wizard = AssistantState(
        wizard=Wizard(gathered={"source": "jira", "trigger": "overdue tickets"},
                      asking=("action", "schedule")),
    )  # fmt: skip
    detour = respond(
        world,
        open_wizard,
        "wait, first run the notion-reporter once",
        ActionType.EXECUTE_TASK,
        entities={"agent": "notion-reporter"},
    )
    (run,) = detour.effects
    assert isinstance(run, RunAgent) and run.agent_id == agents[2].id
    assert detour.state.wizard == open_wizard.wizard
    assert "We're still setting up an agent that watches Jira for overdue tickets" in (
        detour.reply.content
    )


def test_a_greeting_is_answered_as_a_greeting(world: World, reads_only: Any) -> None:
    outcome = respond(world, AssistantState(), "hello!", ActionType.UNKNOWN, confidence=0.4)
    assert outcome.reply.content.startswith("Hello olivia!")
    assert "1." not in outcome.reply.content and outcome.state.options == ()


def test_a_rename_keeps_the_name_as_written_beside_its_slug(
    world: World, jira_watch: Agent, reads_only: Any
) -> None:
    outcome = respond(
        world,
        AssistantState(last_agent="jira-watch"),
        "rename jira-watch to Crash Morning Brief",
        ActionType.UPDATE_AGENT,
    )
    (effect,) = outcome.effects
    assert isinstance(effect, UpdateAgent) and effect.name == "crash-morning-brief"
    assert effect.config == {"details": "Called \u201cCrash Morning Brief\u201d"}
    assert "- Name: jira-watch → crash-morning-brief (\u201cCrash Morning Brief\u201d)" in (
        outcome.reply.content
    )


def test_a_name_given_right_after_creation_is_kept_as_written(
    world: World, reads_only: Any
) -> None:
    created = respond(
        world,
        AssistantState(),
        "Create an agent that watches Jira for overdue tickets and posts to #ops every day at 9am",
        ActionType.CREATE_AGENT,
    )
    outcome = respond(world, created.state, "call it Late Load Digest", ActionType.UPDATE_AGENT)
    (effect,) = outcome.effects
    assert isinstance(effect, UpdateAgent) and effect.name == "late-load-digest"
    assert "Called \u201cLate Load Digest\u201d" in effect.config["details"]
    assert "(\u201cLate Load Digest\u201d)" in outcome.reply.content


@pytest.mark.parametrize(
    ("message", "undone"),
    [
        ("Name it jira-watch. Actually no, call it Platform Overdue Radar", False),
        ("actually no", True),
        ("anzi, annulla", True),
    ],
)
def test_actually_no_undoes_a_creation_unless_a_correction_follows(
    world: World, reads_only: Any, message: str, undone: bool
) -> None:
    created = respond(
        world,
        AssistantState(),
        "Create an agent that watches Jira for overdue tickets and posts to #ops every day at 9am",
        ActionType.CREATE_AGENT,
    )
    (effect,) = respond(world, created.state, message, ActionType.UPDATE_AGENT).effects
    assert isinstance(effect, DeleteAgent) is undone
    if not undone:
        assert isinstance(effect, UpdateAgent) and effect.name == "platform-overdue-radar"


def test_agent_colon_asks_for_an_agent_in_so_many_words(world: World, reads_only: Any) -> None:
    outcome = respond(
        world,
        AssistantState(),
        "agent: Xero unpaid bills older than 30 days, daily, Slack #ap-team, name Bills Radar",
        ActionType.CREATE_AGENT,
        confidence=0.6,
    )
    # Not a proposal waiting for a yes: the setup asks only the time still missing.
    assert outcome.effects == ()
    assert outcome.reply.content.startswith("I'll create a new agent, Bills Radar, that watches")
    assert outcome.state.wizard is not None and not outcome.state.wizard.proposed


@pytest.fixture
def rapport_stocks(world: World) -> Agent:
    return Agent.objects.create(
        tenant=world.tenant_a,
        name="rapport-stocks",
        description="Stock levels from Shopify",
        config={"details": "Called \u201cRapport Stocks\u201d"},
    )


def test_replies_name_an_agent_as_the_user_wrote_it_beside_its_slug(
    world: World, rapport_stocks: Agent, reads_only: Any
) -> None:
    listed = respond(world, AssistantState(), "list my agents", ActionType.QUERY_INFO)
    assert "1. rapport-stocks (\u201cRapport Stocks\u201d) - Stock levels" in listed.reply.content
    ran = respond(world, listed.state, "run the first one", ActionType.EXECUTE_TASK)
    assert ran.reply.content.startswith("rapport-stocks (\u201cRapport Stocks\u201d) can't run yet")


def test_details_weighed_after_a_no_bring_the_proposal_back_to_wait_for_a_yes(
    world: World, reads_only: Any
) -> None:
    declined = _zendesk_proposal_declined(world, "Não, obrigado. Só queria desabafar")
    weighed = respond(
        world,
        declined.state,
        "Hmm, pensando melhor... antes de decidir: se fizer, quem recebe seria "
        "suporte@loja.com.br, toda sexta às 14h, horário de Brasília.",
        ActionType.UPDATE_AGENT,
        confidence=0.5,
    )
    # Back as a proposal with what was proposed and the new details, and still nothing made.
    assert weighed.effects == ()
    wizard = weighed.state.wizard
    assert wizard is not None and wizard.proposed
    assert wizard.gathered["source"] == "zendesk" and "details" not in wizard.gathered
    assert "suporte@loja.com.br" in weighed.reply.content
    (effect,) = respond(
        world, weighed.state, "Beleza, pode criar. Nome: zd-urgente.", ActionType.CREATE_AGENT
    ).effects
    assert isinstance(effect, CreateAgent) and effect.name == "zd-urgente"
    assert "details" not in effect.config


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("what's its schedule now?", "jira-watch runs every day at 09:00 (UTC)."),
        ("how do schedules work?", "Each agent runs on its own schedule"),
    ],
)
def test_a_question_about_its_schedule_is_about_the_agent_not_the_platform(
    world: World, jira_watch: Agent, reads_only: Any, message: str, answer: str
) -> None:
    outcome = respond(
        world, AssistantState(last_agent="jira-watch"), message, ActionType.QUERY_INFO
    )
    assert outcome.reply.content.startswith(answer)


@pytest.fixture
def titled_jira_watch(world: World) -> Agent:
    # The same agent, created from the chat as "Jira Watch".
    config = {**JIRA_WATCH, "details": "Called \u201cJira Watch\u201d"}
    return Agent.objects.create(tenant=world.tenant_a, name="jira-watch", config=config)


def test_an_identical_agent_is_pointed_out_by_the_name_its_owner_wrote(
    world: World, titled_jira_watch: Agent, reads_only: Any
) -> None:
    request = "Create an agent that watches Jira for overdue tickets and alerts #ops daily at 9am"
    pointed = respond(world, AssistantState(), request, ActionType.CREATE_AGENT)
    assert "You already have an agent that does this: jira-watch (\u201cJira Watch\u201d)." in (
        pointed.reply.content
    )
