"""Follow-ups resolved from the previous assistant turn's text alone (no metadata).

The history a dataset, an import or ``POST intents/classify/`` brings is role and content
only: the numbered list, the options, the proposal and the setup question are read from the
prose.
"""

from __future__ import annotations

import pytest

from intents.offline.classifier import classify_offline
from intents.types import ActionType, AgentRef, HistoryTurn

AGENTS = (
    AgentRef("notion-reporter", "Weekly Notion project summaries"),
    AgentRef("jira-overdue-monitor", "Daily overdue ticket alerts"),
    AgentRef("financial-analyzer", "Monthly financial analysis"),
)


def said(assistant: str, user: str | None = None) -> list[HistoryTurn]:
    history: list[HistoryTurn] = []
    if user is not None:
        history.append({"role": "user", "content": user})
    history.append({"role": "assistant", "content": assistant})
    return history


def classify(message: str, history: list[HistoryTurn]) -> tuple[str, dict[str, str]]:
    result = classify_offline(message, history=history, agents=AGENTS)
    return str(result.action_type), dict(result.entities)


LISTED = (
    "These are your agents:\n1. financial-analyzer - month-end numbers\n"
    "2. notion-reporter - project digest\n3. jira-overdue-monitor - late tickets\n"
)


@pytest.mark.parametrize(
    ("question", "reply", "action", "agent"),
    [
        ("Which one should I run?", "2", "execute_task", "notion-reporter"),
        ("Which one should I run?", "el último", "execute_task", "jira-overdue-monitor"),
        ("Which one do you want to change?", "the first", "update_agent", "financial-analyzer"),
        ("Which one would you like details on?", "2", "query_info", "notion-reporter"),
    ],
)
def test_a_pick_from_a_listed_agents_text_does_what_its_question_asked(
    question: str, reply: str, action: str, agent: str
) -> None:
    assert classify(reply, said(LISTED + question, "show me my agents")) == (
        action,
        {"agent": agent},
    )


OPTIONS = (
    "I can read that two or three ways. Should I:\n"
    "1. Set up a new agent that posts the churn numbers every Friday\n"
    "2. Run financial-analyzer now\n"
    "3. Show the runs of last week\n"
    "4. Invite the finance team to the workspace\n"
)


@pytest.mark.parametrize(
    ("reply", "action"),
    [
        ("1", "create_agent"),
        ("option 2 please", "execute_task"),
        ("the third one", "query_info"),
        ("4", "manage_platform"),
        ("none of those", "unknown"),
    ],
)
def test_a_numbered_option_in_the_text_is_picked_for_what_it_says(reply: str, action: str) -> None:
    assert classify(reply, said(OPTIONS))[0] == action


PROPOSAL = (
    "Copying those numbers by hand every week sounds tedious. I could set up an agent that "
    "reads the Stripe payouts every Monday and posts a summary to #finance. Want me to do that?"
)


@pytest.mark.parametrize("reply", ["yes", "sí", "oui", "ja", "sure, go ahead"])
def test_a_yes_to_a_proposal_in_the_text_accepts_it_in_any_language(reply: str) -> None:
    action, entities = classify(reply, said(PROPOSAL, "I waste an hour on Stripe numbers"))
    assert action == "create_agent"
    assert entities.get("source") == "stripe"


def test_a_no_to_a_proposal_in_the_text_declines_it() -> None:
    assert classify("no thanks", said(PROPOSAL))[0] == "unknown"


def test_a_question_that_asks_what_is_not_a_proposal() -> None:
    text = "I can create agents, run them and show their history. What would you like to do?"
    assert classify("yes", said(text))[0] != "create_agent"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("Where does the data come from?", "Airtable"),
        ("How often should it run?", "every weekday at 7"),
        ("Which channel should I post to?", "#support-leads"),
    ],
)
def test_a_bare_answer_to_a_setup_question_continues_the_setup(question: str, reply: str) -> None:
    history = said(f"Happy to set that up. {question}", "make me an agent for support tickets")
    assert classify(reply, history)[0] == "create_agent"


def test_a_bare_answer_to_a_skill_question_continues_the_skill() -> None:
    history = said("Let's build the skill. What inputs does the skill take?", "new skill please")
    assert classify("a scanned receipt", history)[0] == "create_skill"


def test_a_clear_other_request_during_a_setup_question_is_that_request() -> None:
    history = said("How often should it run?", "create an agent that watches Jira")
    assert classify("run financial-analyzer now", history)[0] == "execute_task"


@pytest.mark.parametrize(
    ("reply", "action"),
    [
        ("and the notion one?", "query_info"),
        ("what does it do?", "query_info"),
        ("weekly", "update_agent"),
    ],
)
def test_a_follow_up_about_an_agent_the_text_described(reply: str, action: str) -> None:
    text = "jira-overdue-monitor runs every day at 9:00 and posts late tickets to #eng."
    assert classify(reply, said(text, "tell me about the jira monitor"))[0] == action


def test_the_same_again_after_a_run_in_the_text_runs_it_again() -> None:
    text = "Running notion-reporter now. It posted 14 project updates to #product."
    action, entities = classify("do that again", said(text, "run the notion reporter"))
    assert (action, entities.get("agent")) == ("execute_task", "notion-reporter")


def test_metadata_when_present_outranks_the_text() -> None:
    # The text offers options, the metadata says a wizard asked for the source: metadata wins.
    history: list[HistoryTurn] = [
        {
            "role": "assistant",
            "content": OPTIONS,
            "metadata": {"wizard": {"kind": "create_agent", "asking": ["source"]}},
        }
    ]
    assert classify_offline("2", history=history, agents=AGENTS).action_type == (
        ActionType.CREATE_AGENT
    )


def test_a_follow_up_after_a_status_answer_asks_about_the_next_agent_too() -> None:
    # The answer reports what the agent posted, but the user had asked a question, not for a run.
    text = (
        "notion-reporter is active: its last run on Monday succeeded and posted 9 project "
        "updates to #product."
    )
    assert classify("and the finance one?", said(text, "is the notion reporter healthy?"))[0] == (
        "query_info"
    )


INLINE = (
    "There are two ways to do that: 1) an agent that posts new Stripe refunds to #finance "
    "every week, or 2) a one-off export of last month's refunds to a sheet. Which do you prefer?"
)


@pytest.mark.parametrize(
    ("reply", "action"),
    [("2", "execute_task"), ("the first one", "create_agent"), ("option 2 please", "execute_task")],
)
def test_options_numbered_inside_a_sentence_are_picked_like_a_list(reply: str, action: str) -> None:
    assert classify(reply, said(INLINE, "refunds keep surprising us"))[0] == action


EITHER_OR = (
    "financial-analyzer already reads the Q3 sheet. Should I add the Q4 sheet to it, "
    "or build a separate agent for Q4?"
)


@pytest.mark.parametrize(
    ("reply", "action"),
    [
        ("a separate one please", "create_agent"),
        ("separate", "create_agent"),
        ("just add it", "update_agent"),
    ],
)
def test_a_reply_that_names_one_side_of_an_either_or_question_takes_that_side(
    reply: str, action: str
) -> None:
    assert classify(reply, said(EITHER_OR, "we need Q4 numbers analysed as well"))[0] == action


def test_an_either_or_between_settings_is_not_two_courses_of_action() -> None:
    text = "Got it, a Zendesk digest for the support team. Should it run daily or weekly?"
    assert classify("weekly", said(text, "build an agent that digests Zendesk tickets"))[0] == (
        "create_agent"
    )


@pytest.mark.parametrize(
    ("text", "reply", "action"),
    [
        (
            "The financial-analyzer run failed: Google Drive timed out. Want me to retry?",
            "yes",
            "execute_task",
        ),
        (
            "Priya isn't in this workspace yet. Do you want me to invite priya@northwind.io "
            "as a viewer?",
            "sure, go ahead",
            "manage_platform",
        ),
        (
            "The 'pdf-totals' skill is ready and tested. Want me to add it to one of your agents?",
            "yes, the notion one",
            "update_agent",
        ),
        (
            "jira-overdue-monitor found 4 overdue tickets in WEB. Want me to run it again with "
            "the MOBILE project included?",
            "yeah",
            "execute_task",
        ),
        (
            "That sounds like a reusable skill: a 'pdf-totals' skill that reads totals out of "
            "PDF invoices. Should I start building it?",
            "yes",
            "create_skill",
        ),
    ],
)
def test_a_yes_accepts_the_action_the_proposal_names(text: str, reply: str, action: str) -> None:
    assert classify(reply, said(text, "hmm"))[0] == action


@pytest.mark.parametrize(
    ("text", "reply", "action"),
    [
        (
            "Should I run the financial-analyzer now for June, or switch it to run weekly?",
            "the second",
            "update_agent",
        ),
        (
            "Should I run the financial-analyzer now for June, or switch it to run weekly?",
            "the first",
            "execute_task",
        ),
        (
            "Soll ich den financial-analyzer jetzt für Juni ausführen, oder den Zeitplan auf "
            "wöchentlich ändern?",
            "Letzteres",
            "update_agent",
        ),
    ],
)
def test_an_ordinal_picks_a_side_of_an_either_or_question(
    text: str, reply: str, action: str
) -> None:
    assert classify(reply, said(text, "the finance bot for June"))[0] == action


def test_an_option_is_picked_by_the_one_word_only_it_has() -> None:
    text = (
        "Sure. Would you like to 1) attach an existing skill to one of your agents, or "
        "2) build a new skill from scratch?"
    )
    assert classify("a new one", said(text, "I want to work on skills"))[0] == "create_skill"


@pytest.mark.parametrize(
    ("question", "reply", "action", "agent"),
    [
        ("Which agent should I run: {}?", "the jira one", "execute_task", "jira-overdue-monitor"),
        ("Which one would you like details on: {}?", "finance", "query_info", "financial-analyzer"),
    ],
)
def test_agents_listed_inside_the_question_are_picked_by_a_word_of_their_name(
    question: str, reply: str, action: str, agent: str
) -> None:
    text = question.format("notion-reporter, jira-overdue-monitor, or financial-analyzer")
    got, entities = classify(reply, said(text, "one of my agents"))
    assert (got, entities.get("agent")) == (action, agent)


def test_a_numbered_agent_is_picked_by_a_word_of_its_name() -> None:
    action, entities = classify("the notion one", said(LISTED + "Which one should I run?"))
    assert (action, entities.get("agent")) == ("execute_task", "notion-reporter")


@pytest.mark.parametrize(
    ("reply", "action"),
    [("why are costs up?", "query_info"), ("what's the weather in Oslo?", "unknown")],
)
def test_a_question_right_after_a_result_asks_about_the_result(reply: str, action: str) -> None:
    text = "financial-analyzer finished: revenue is up 6% and costs are up 9% month over month."
    assert classify(reply, said(text, "run the finance bot"))[0] == action


def test_is_it_done_yet_after_a_run_started_asks_for_its_status() -> None:
    text = "I've started notion-reporter. It usually takes a couple of minutes."
    assert classify("is it done yet?", said(text, "run the notion reporter"))[0] == "query_info"


def test_a_bare_answer_to_which_repository_continues_the_setup() -> None:
    text = "Great, let's set it up. Which repository should it watch?"
    assert classify("acme/api", said(text, "I want an agent for GitHub issues"))[0] == (
        "create_agent"
    )


def test_a_yes_to_reconnecting_an_account_is_administration() -> None:
    text = (
        "I couldn't run financial-analyzer: the Google Sheets connection has expired. "
        "Would you like me to reconnect Google Sheets?"
    )
    assert classify("ok", said(text, "run the financial analyzer"))[0] == "manage_platform"


@pytest.mark.parametrize("reply", ["refais-le pour le mois dernier", "rehazlo para marzo"])
def test_redo_it_after_a_run_runs_it_again_in_other_languages(reply: str) -> None:
    text = "financial-analyzer finished: revenue is up 4%. The report is in your Drive."
    action, entities = classify(reply, said(text, "run the finance bot"))
    assert (action, entities.get("agent")) == ("execute_task", "financial-analyzer")


def test_a_portuguese_article_is_not_an_either_or() -> None:
    text = "O financial-analyzer falhou ontem. Quer que eu rode o financial-analyzer de novo agora?"
    assert classify("sim", said(text, "o financeiro"))[0] == "execute_task"


@pytest.mark.parametrize(
    ("text", "reply", "action"),
    [
        # The second side has no verb of its own: it shares the first side's.
        ("Do you want the sprint summary posted in Slack, or just shown here in the chat?",
         "just here", "execute_task"),
        ("Should I run it for all three regions or just EMEA, like last time?", "all",
         "execute_task"),
        ("Do you want me to pause jira-overdue-monitor, notion-reporter, or both?", "both",
         "update_agent"),
        # "neither, …": the rest of the message is the request.
        ("Shall I add it to financial-analyzer's sources, or create a separate agent?",
         "neither, just analyze it once for me today", "execute_task"),
        # A side that names a thing of its own is judged on its own.
        ("Should that be part of the Jira monitor, or a separate agent that checks GitHub?",
         "separate, keep them apart", "create_agent"),
    ],
)  # fmt: skip
def test_either_or_sides_and_answers_that_take_neither_or_both(
    text: str, reply: str, action: str
) -> None:
    assert classify(reply, said(text))[0] == action


@pytest.mark.parametrize(
    ("text", "user", "reply", "action"),
    [
        ("jira-overdue-monitor checks the OPS project every day at 08:30 and posts a list to "
         "#ops-alerts.", "what does the jira one do?",
         "does it also catch tickets with no due date?", "query_info"),
        ("The Team plan is $99 per month and includes 10 agents and 5 seats.",
         "what does the Team plan cost?", "and the enterprise one?", "query_info"),
        ("I've paused jira-overdue-monitor. It won't send any alerts until you resume it.",
         "pause the jira monitor", "actually undo that", "update_agent"),
        ("The last three runs of financial-analyzer took 2, 3 and 41 minutes.",
         "how long does the finance bot take?", "why was the last one so slow", "query_info"),
    ],
)  # fmt: skip
def test_questions_and_undo_right_after_an_answer(
    text: str, user: str, reply: str, action: str
) -> None:
    assert classify(reply, said(text, user))[0] == action


def test_a_proposal_to_attach_something_to_an_agent_is_a_change() -> None:
    text = (
        "The 'Invoice Parser' skill is ready. Want me to attach it to financial-analyzer so it "
        "can read PDF invoices too?"
    )
    assert classify("yes", said(text, "build me an invoice parser skill"))[0] == "update_agent"


@pytest.mark.parametrize(
    ("user", "text", "reply", "action"),
    [
        # A proposal without a question mark.
        ("competitors keep changing prices", "I can build a watcher that checks their pricing "
         "pages every night and emails you a diff — just say the word.", "do it", "create_agent"),
        ("plan a churn agent", "Here's the plan: a new agent called churn-watch that checks "
         "HubSpot every morning. Shall I create it?", "looks good, go", "create_agent"),
        ("I want a calendar skill", "Here's the summary: skill 'calendar-free-slots'. Shall I go "
         "ahead and create it?", "sí, adelante", "create_skill"),
        ("when does the jira monitor run?", "The Jira monitor is scheduled for 9:00 tomorrow. "
         "Do you want to run it ahead of time?", "sim, roda agora", "execute_task"),
        # A plain answer to an open question goes on with what the user asked for.
        ("make an agent that watches our pull requests in the backend repo", "Sure. What "
         "exactly should the agent check for in each pull request?", "whether anyone's been "
         "waiting on a review for more than two days", "create_agent"),
        ("change what the finance bot looks for", "No problem. What should the new "
         "instructions for financial-analyzer say?", "flag any expense line that grows more "
         "than 15% month over month", "update_agent"),
        # The same for someone else.
        ("give Priya editor access", "Done: Priya now has editor access to the workspace.",
         "same for Lucía", "manage_platform"),
    ],
)  # fmt: skip
def test_replies_to_proposals_questions_and_steps_just_taken(
    user: str, text: str, reply: str, action: str
) -> None:
    assert classify(reply, said(text, user))[0] == action


@pytest.mark.parametrize(
    ("user", "text", "reply", "action"),
    [
        # A question on the way through a setup the user asked for, answered plainly.
        ("build a skill that geocodes addresses", "Got it. Should the skill retry when the "
         "provider times out?", "yes, twice", "create_skill"),
        ("make an agent that tracks new GitHub stars", "Okay, I'll create an agent for that. "
         "Which repos — api, web, docs, or all of them?", "just api and web", "create_agent"),
        ("I want a skill for our billing API", "Sure. Which endpoints should it call?",
         "invoices, customers and refunds", "create_skill"),
        # The setup's question handed back.
        ("create an agent that watches Intercom", "Good. How often should it check?",
         "what would you suggest?", "create_agent"),
        # French inversions are not agent names.
        ("je veux un agent qui surveille Linear", "D'accord. Où dois-je publier le résumé ?",
         "dans #produit sur Slack", "create_agent"),
        # "please" and warm yeses accept an offer.
        ("the weekend alerts are noise", "I can pause jira-overdue-monitor on weekends. "
         "Want me to?", "please", "update_agent"),
        ("", "Your workspace allows password logins. I can turn on Google SSO for acme.io. "
         "Do it?", "oh yes that would be great", "manage_platform"),
        # Follow-ups to text about the workspace.
        ("which keys do we have?", "Your API keys:\n1. deploy-bot - created in May\n"
         "2. old-zapier - unused since March\n3. laptop-dev - created last week",
         "revoke the second", "manage_platform"),
        ("what plan are we on?", "You're on the Starter plan, limited to 3 agents.",
         "ok, upgrade us to Pro then", "manage_platform"),
        # A list offered for the user's own request.
        ("I'd like to rename one of my agents", "Sure, which one?\n" + LISTED.split(":\n")[1],
         "the notion one", "update_agent"),
        # After a run or an agent named.
        ("run the finance analysis", "financial-analyzer finished: revenue $210k, costs $180k.",
         "do this for each region", "execute_task"),
        ("", "notion-reporter runs Mondays at 9am and posts to #product.",
         "could it come a bit later?", "update_agent"),
    ],
)  # fmt: skip
def test_setup_questions_offers_and_settings_read_from_the_text(
    user: str, text: str, reply: str, action: str
) -> None:
    history = said(text, user or None)
    assert classify(reply, history)[0] == action


@pytest.mark.parametrize(
    ("user", "text", "reply", "action"),
    [
        # Asides in the middle of a setup: small talk, a request the writer marks as unrelated.
        ("new skill: summarise Gong calls", "Sure. Should the skill keep speaker names?",
         "who won the football last night?", "unknown"),
        ("new skill: summarise Gong calls", "Sure. Should the skill keep speaker names?",
         "unrelated, but run the jira monitor for me", "execute_task"),
        ("new skill: summarise Gong calls", "Sure. Should the skill keep speaker names?",
         "let's scrap this whole idea", "unknown"),
        # An item of a list of runs, with the message's own verb.
        ("how did the finance bot do?", "Its last runs:\n1. May 1 - ok\n2. June 1 - failed "
         "(timeout)\n3. July 1 - ok", "rerun the second", "execute_task"),
        # A request phrased as a question about the agent just made.
        ("", "Done: 'intercom-digest' is live and runs every day at 18:00.",
         "could you run it now so I can check the output?", "execute_task"),
        # More for the agent just described; one like it elsewhere.
        ("", "jira-overdue-monitor checks the WEB project daily and posts to #eng.",
         "add the API project to it", "update_agent"),
        ("", "jira-overdue-monitor checks the WEB project daily and posts to #eng.",
         "nice, I'd like another just like that for our Trello boards", "create_agent"),
        # A day or a time put right just after the agent was made.
        ("agent for new Asana tasks in #ops, fridays 4pm", "Done: 'asana-ops' is live and "
         "posts new Asana tasks to #ops every Friday at 16:00.", "oops, thursday not friday",
         "update_agent"),
        ("", "Fertig: 'pr-check' läuft jeden Montag um 9 Uhr und postet in #dev.",
         "nicht montag sondern dienstag", "update_agent"),
        # The choice left to the assistant; a failed connection fixed; people told once.
        ("add the Android bugs too", "I can add ANDROID to jira-overdue-monitor, or create a "
         "separate agent for it. Which would you like?", "up to you", "update_agent"),
        ("why did the notion one fail?", "notion-reporter failed at 9:00 because the Notion "
         "access token expired.", "can you fix it", "manage_platform"),
        ("run the jira monitor", "jira-overdue-monitor found 5 overdue tickets in WEB.",
         "nudge the assignees", "execute_task"),
        ("export the Shopify orders", "Done: the export of today's Shopify orders is in your "
         "Drive as 'Orders - today'.", "great, can you keep it updated?", "create_agent"),
        # A run asked for as a schedule is an agent.
        ("run the finance analysis", "financial-analyzer finished: margin 18%, churn 3%.",
         "do the same for churn every month", "create_agent"),
    ],
)  # fmt: skip
def test_asides_lists_of_runs_and_more_of_the_agent_just_named(
    user: str, text: str, reply: str, action: str
) -> None:
    assert classify(reply, said(text, user or None))[0] == action


@pytest.mark.parametrize(
    ("user", "text", "reply", "action"),
    [
        # A cancel that opens the message, whatever reason follows; a change of mind.
        ("new agent for open job posts", "Got it. Which job openings should the agent include, "
         "all of them or only some roles?", "forget it, cancel the setup. hiring froze anyway",
         "unknown"),
        ("post new GitLab bugs to Discord", "Got it, Mobile team. Which Discord channel should "
         "the bugs go to?", "stop, I changed my mind. not doing this", "unknown"),
        # An offer turned down after an "ok".
        ("why did the finance run fail?", "It timed out after 60 seconds. It usually works on a "
         "second try. Want me to re-run it?", "lol ok never mind then", "unknown"),
        # A change offered in its own sentence, then "should I make that change?".
        ("", "I could change jira-overdue-monitor so it only alerts on tickets more than 3 days "
         "overdue. Should I make that change?", "yep, go ahead", "update_agent"),
        ("", "I can switch jira-overdue-monitor to run hourly instead of daily. Should I make "
         "that change?", "yes but only on weekdays", "update_agent"),
        # The agents named before "which one should I run?".
        ("run one of my agents", "All three are available: notion-reporter, jira-overdue-monitor "
         "and financial-analyzer. Which one should I run?", "the notion one please",
         "execute_task"),
        # A failed run, tried again; the agent just made, renamed to a slug.
        ("", "The run of notion-reporter failed: the Notion API returned a rate-limit error.",
         "retry it", "execute_task"),
        ("", "Created stripe-dunning-watch: it checks for failed payments daily at 8:00.",
         "actually rename it to payment-failures", "update_agent"),
    ],
)  # fmt: skip
def test_cancels_changes_offered_and_agents_named_before_the_question(
    user: str, text: str, reply: str, action: str
) -> None:
    assert classify(reply, said(text, user or None))[0] == action


@pytest.mark.parametrize(
    "message",
    [
        "¿Cómo funcionan los horarios de los agentes?",
        "Comment fonctionnent les déclencheurs ?",
        "hw do schedules wrk w timezones",
    ],
)
def test_how_things_work_is_asked_in_any_language(message: str) -> None:
    assert classify(message, [])[0] == "query_info"


@pytest.mark.parametrize(
    ("message", "action"),
    [
        # A particle after the object; a slug that names a repository; idioms of runs,
        # pauses and misses.
        ("Kick the notion reporter off now rather than waiting for Monday.", "execute_task"),
        ("Flip the finance bot back on.", "update_agent"),
        ("Round up the open PRs in our billing-service repo on GitHub", "execute_task"),
        ("Give the financial one a spin for February.", "execute_task"),
        ("Can the jira watcher hold off until I'm back from leave on the 14th?", "update_agent"),
        ("Sentry errors in the checkout service keep slipping past us.", "create_agent"),
    ],
)
def test_split_verbs_named_repositories_and_idioms(message: str, action: str) -> None:
    assert classify(message, [])[0] == action


def test_a_question_about_it_after_a_hesitation_asks_about_the_agent_described() -> None:
    text = "financial-analyzer pulls last month's QuickBooks and Stripe transactions on the 1st."
    assert classify("hmm does it include the Brex card spend?", said(text)) == (
        "query_info",
        {"agent": "financial-analyzer"},
    )


@pytest.mark.parametrize(
    ("text", "reply", "action"),
    [
        # A setup left open, picked back up.
        ("No problem, I've put the agent setup on hold. So far it will check Monday.com for "
         "overdue items every morning.", "ok let's finish setting up that agent", "create_agent"),
        ("Earlier we started setting up an agent to post new Sentry errors to Teams. Do you "
         "want to continue with it or start something else?", "let's finish that one",
         "create_agent"),
        # A compound word is no agent's name: the question is a setup's.
        ("What time should the Shopify low-stock alert run each day?",
         "7am before the warehouse opens", "create_agent"),
        # Options said as "first, …; second, …"; options of a change; German options.
        ("I found two ways: first, a skill that pulls call transcripts from Gong so any agent "
         "can use them; second, a one-time export of last week's calls.", "the first",
         "create_skill"),
        ("What would you like to change about jira-overdue-monitor?\n1. Its schedule\n"
         "2. Which projects it watches\n3. Where alerts are sent",
         "3 — send them to #support-escalations", "update_agent"),
        ("Was möchten Sie mit notion-reporter tun?\n1. Jetzt ausführen\n2. Die letzten Läufe "
         "anzeigen\n3. Zeitplan oder Empfänger ändern", "Nummer 3", "update_agent"),
        # None of the options, and nothing else.
        ("You have these integrations connected:\n1. Dropbox\n2. Box\n3. Google Drive\nWhich "
         "one would you like me to disconnect?", "none of those actually, leave them", "unknown"),
        # A connection fixed after a run failed on it, in English and Portuguese.
        ("The last 3 runs of notion-reporter failed: the workspace's Notion connection needs "
         "to be re-authorized.", "reconnect notion then", "manage_platform"),
        ("O notion-reporter falhou esta manhã porque a ligação ao Notion expirou.",
         "Então volta a ligar a conta do Notion.", "manage_platform"),
        # "and …" with a verb of its own: a run after a rename.
        ("Updated suivi-devoirs:\n- Name: devoirs-en-retard → suivi-devoirs",
         "Et lance-le maintenant.", "execute_task"),
        # "and …" with a verb of its own after a description.
        ("financial-analyzer runs on the 1st of each month and emails the analysis to "
         "cfo@northwind.com.", "and cc me on its emails", "update_agent"),
    ],
)  # fmt: skip
def test_setups_left_open_options_in_words_and_requests_after_and(
    text: str, reply: str, action: str
) -> None:
    assert classify(reply, said(text))[0] == action


@pytest.mark.parametrize(
    ("text", "reply", "action"),
    [
        # An option named by its tool; options of a connect question are administration.
        ("Which account would you like to connect?\n1. Google Drive\n2. Dropbox\n3. Box",
         "dropbox", "manage_platform"),
        # A setting of the agent being set up, asked as an either/or.
        ("Good idea. Should the agent also notify someone when it finds an angry ticket, or "
         "just tag it?", "ping @dana on slack too", "create_agent"),
    ],
)  # fmt: skip
def test_options_by_tool_and_settings_asked_as_either_or(
    text: str, reply: str, action: str
) -> None:
    assert classify(reply, said(text))[0] == action


def test_a_question_word_and_an_agent_ask_about_that_agent() -> None:
    agents = (AgentRef("csat-pulse", ""), AgentRef("escalation-relay", ""))
    result = classify_offline("who gets CSAT Pulse", agents=agents)
    assert (str(result.action_type), result.entities.get("agent")) == ("query_info", "csat-pulse")
    described = said("escalation-relay sends what it finds to Slack #support-escalations.")
    result = classify_offline("what time", history=described, agents=agents)
    assert (str(result.action_type), result.entities.get("agent")) == (
        "query_info",
        "escalation-relay",
    )


@pytest.mark.parametrize(
    ("message", "action"),
    [
        # Who may see or use what is administration; an agent given something is changed.
        ("Let Priya see the financial-analyzer results", "manage_platform"),
        ("Let the marketing team use my agents.", "manage_platform"),
        ("let the financial analyzer use it", "update_agent"),
        # A personal errand, once, is no job for an agent; a reminder every week is.
        ("Can you remind me to call my mom tonight?", "unknown"),
        ("remind me to call the vendors every Friday", "create_agent"),
        # "hook … up" connects; "twice a day" is a schedule for the agent named.
        ("Hook our Snowflake warehouse up so the agents can run queries against it.",
         "create_skill"),
        ("maybe the jira thing should run twice a day", "update_agent"),
    ],
)  # fmt: skip
def test_permissions_errands_and_schedules_said_in_passing(message: str, action: str) -> None:
    assert classify(message, [])[0] == action


@pytest.mark.parametrize(
    ("message", "action"),
    [
        # What every agent must be told again is a skill.
        ("Every time I build an agent I have to re-explain how to talk to our inventory API.",
         "create_skill"),
        # Things that wait unseen, again and again, are for an agent to watch.
        ("Candidates in Greenhouse sit in 'phone screen' for weeks before anyone follows up.",
         "create_agent"),
        # A grumble with nothing to act on; a complaint about an agent's output is a change.
        ("Ugh, Jira itself is so slow today.", "unknown"),
        ("Ugh, another all-hands that could've been an email.", "unknown"),
        ("The finance report is pretty useless without a marketing spend breakdown.",
         "update_agent"),
        # A result needed now that is not there: a run.
        ("The board meeting is in an hour and I still don't have the financial analysis",
         "execute_task"),
    ],
)  # fmt: skip
def test_pains_grumbles_and_results_needed_now(message: str, action: str) -> None:
    assert classify(message, [])[0] == action


@pytest.mark.parametrize(
    ("text", "reply", "action"),
    [
        # The agents named before a longer "which one would you like me to run?".
        ("All three can be triggered manually: the notion-reporter, the jira-overdue-monitor "
         "and the financial-analyzer. Which one would you like me to run?", "the jira one",
         "execute_task"),
        # A setting asked "from now on" is a change to an agent, not a setup.
        ("Sure. Which Slack channel should it post to from now on?", "#ops-oncall",
         "update_agent"),
        # "¿Lo configuro?": a Spanish offer, taken up with "sí, dale".
        ("Puedo crear un agente que revise Stripe cada mañana y te avise de las facturas "
         "vencidas. ¿Lo configuro?", "sí, dale", "create_agent"),
        # Italian offers and yeses.
        ("Vuoi che aggiunga anche il progetto MOBILE ai progetti controllati dal "
         "jira-overdue-monitor?", "Sì, grazie", "update_agent"),
        ("I could set up an agent that checks the Inventory sheet every morning and pings "
         "#ops when stock runs low. Want me to?", "certo, grazie", "create_agent"),
    ],
)  # fmt: skip
def test_longer_which_questions_changes_from_now_on_and_italian_yeses(
    text: str, reply: str, action: str
) -> None:
    assert classify(reply, said(text))[0] == action


@pytest.mark.parametrize(
    ("message", "action"),
    [
        ("Just venting a bit: this week has been chaos. The product launch slipped twice, half "
         "the team was out sick, and our biggest client changed their requirements on "
         "Wednesday, so we spent the week redoing slides. The agents ran like clockwork, but "
         "everything around them was on fire. Looking forward to the weekend.", "unknown"),
        ("Je voulais juste dire que notre équipe a enfin terminé la migration vers le nouvel "
         "ERP hier soir, après huit mois de travail. Il y a eu des nuits blanches et beaucoup de "
         "café, mais tout marche. Bref, une bonne journée, rien de particulier à demander.",
         "unknown"),
        # A long account of what one of the user's agents does wrong: a change to it.
        ("I manage three product squads and I set up the notion reporter a while back so I'd "
         "have a weekly view of all our projects. It's been pretty useful, honestly. The "
         "problem is that it lumps everything together, so the platform squad has to scroll "
         "past two other squads' projects to find theirs. It would be great if each squad got "
         "its own section, with their projects grouped under a heading.", "update_agent"),
        # Sharing first, then asking: the ask counts.
        ("Just venting a bit: this week has been chaos. The product launch slipped twice, half "
         "the team was out sick, and our biggest client changed their requirements on "
         "Wednesday. Could you pause the jira monitor until Monday so I get some quiet?",
         "update_agent"),
    ],
)  # fmt: skip
def test_a_long_message_that_only_shares_asks_for_nothing(message: str, action: str) -> None:
    assert classify(message, [])[0] == action


@pytest.mark.parametrize(
    ("message", "action"),
    [
        ("y is the jira alert emtpy today", "query_info"),
        ("Fammi subito un riepilogo delle issue aperte su Linear assegnate al mio team.",
         "execute_task"),
        ("Passa il nostro abbonamento al piano annuale, ci conviene di più.", "manage_platform"),
        ("Crank out the monthly finance breakdown for me now", "execute_task"),
        # Only agents pause and resume; a subscription paused is billing.
        ("pausa el primero", "update_agent"),
        ("mets-le en pause jusqu'à septembre", "update_agent"),
        ("pause our subscription for two months", "manage_platform"),
        ("Give me a rundown of the Asana tasks the ops team finished this week.", "execute_task"),
    ],
)  # fmt: skip
def test_why_in_txt_speak_and_italian_summaries_and_plans(message: str, action: str) -> None:
    assert classify(message, [])[0] == action


def test_questions_about_the_agent_just_changed_or_named_are_sure_enough_to_answer() -> None:
    agents = (AgentRef("csat-pulse", ""), AgentRef("invoice-chaser", ""))
    changed: list[HistoryTurn] = [
        {"role": "assistant", "content": "Updated invoice-chaser:\n- Sends to: ar@x.ca → c@x.ca",
         "metadata": {"agents_referenced": ["invoice-chaser"]}},
    ]  # fmt: skip
    result = classify_offline("what's its schedule now?", history=changed, agents=agents)
    assert (str(result.action_type), result.entities.get("agent")) == (
        "query_info",
        "invoice-chaser",
    )
    result = classify_offline("who gets CSAT Pulse", history=changed, agents=agents)
    assert str(result.action_type) == "query_info" and result.confidence >= 0.75


@pytest.mark.parametrize(
    ("message", "action"),
    [
        # Confusion said as a statement is a question.
        ("I'm new here and I don't really get the difference between agents and skills.",
         "query_info"),
        ("Not sure how I'm supposed to hand a file to an agent.", "query_info"),
        ("No entiendo por qué el bot de finanzas dice que tenemos 14 meses de runway",
         "query_info"),
        # Something looks wrong with what an agent did: asked about, not run.
        ("weird that the jira monitor was silent yesterday, we definitely had overdue tickets",
         "query_info"),
        ("The jira monitor said zero overdue tickets today, which can't be right.", "query_info"),
    ],
)  # fmt: skip
def test_confusion_and_results_that_look_wrong_are_questions(message: str, action: str) -> None:
    assert classify(message, [])[0] == action
