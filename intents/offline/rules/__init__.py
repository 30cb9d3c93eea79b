"""The offline classifier's rules, as one ordered table (see engine.py for the shapes).

Order matters: the first rule that decides wins, and a nudge moves the scores only for the
rules and the model after it. Follow-up rules apply only when there is a conversation to follow
up on; once a reply refuses every option offered and asks for something else, that something
else is read on its own, past the rest of the follow-ups.
"""

from __future__ import annotations

from intents.offline.rules import (
    after_a_result,
    agent_named,
    choices,
    guards,
    messages,
    nudges,
    offers,
    wizard,
)
from intents.offline.rules.engine import Entry, Nudge, Outcome, Rule, Section, always, entries, run
from intents.offline.rules.reading import Decision, Reading


def _has_history(r: Reading) -> bool:
    return r.ctx.has_history


def _an_offer_pending(r: Reading) -> bool:
    return r.ctx.has_history and r.ctx.offer is not None


def _choices_offered(r: Reading) -> bool:
    return r.ctx.has_history and bool(r.ctx.options or r.ctx.alternatives)


def _past_the_options(r: Reading) -> bool:
    return r.ctx.has_history and not offers.refuses_the_options_then_asks(r)


def _options_offered(r: Reading) -> bool:
    return bool(r.ctx.options) and _past_the_options(r)


def _two_sides_offered(r: Reading) -> bool:
    return bool(r.ctx.alternatives) and not r.ctx.options and _past_the_options(r)


def _agents_listed(r: Reading) -> bool:
    return bool(r.ctx.listed_agents) and _past_the_options(r)


def _a_setup_open(r: Reading) -> bool:
    return r.ctx.wizard is not None and _past_the_options(r)


# Each section's condition is also checked by its rules: a section only spares the rules a
# message cannot meet (most messages answer no offer, no options and no setup).
TABLE: tuple[Section, ...] = (
    Section(
        "nothing to read",
        always,
        (guards.only_instructions_to_the_classifier, guards.nothing_to_classify),
    ),
    Section(
        "what the whole message leans to",
        always,
        (
            guards.shares_and_asks_nothing,
            nudges.the_request_counts_twice,
            nudges.a_long_account_of_an_agent,
            nudges.a_period_leans_to_a_run,
            nudges.what_an_agent_sends,
        ),
    ),
    Section(
        "where things stand",
        _has_history,
        (
            offers.cancels_the_wizard,
            offers.asks_where_the_wizard_stands,
            offers.asks_where_we_were,
        ),
    ),
    Section(
        "a reply to an offer",
        _an_offer_pending,
        (
            offers.agrees_to_the_offer,
            offers.declines_the_offer,
            offers.agrees_with_changes,
            nudges.a_change_reshapes_the_offer,
        ),
    ),
    Section("a refusal of every choice", _choices_offered, (offers.none_of_the_options,)),
    # Past a refusal that asks for something else, the rest is read on its own.
    Section(
        "a pick among numbered options",
        _options_offered,
        (
            choices.acts_on_the_picked_item,
            choices.picks_an_option,
            choices.acts_on_the_named_item,
            choices.names_an_option,
            nudges.the_options_on_offer,
        ),
    ),
    Section(
        "a side of an either/or question",
        _two_sides_offered,
        (
            choices.takes_one_side,
            choices.leaves_the_choice_to_the_assistant,
            choices.answers_both_sides_alike,
        ),
    ),
    Section(
        "a pick among the agents listed",
        _agents_listed,
        (
            choices.changes_a_listed_agent,
            choices.runs_a_listed_agent,
            choices.asks_about_a_listed_agent,
            choices.picks_for_the_pending_action,
            choices.a_listed_agent_with_a_request,
            choices.picks_from_a_list_shown_for_information,
        ),
    ),
    Section(
        "a reply while a setup is open",
        _a_setup_open,
        (
            wizard.small_talk_mid_wizard,
            wizard.asks_for_a_suggestion,
            wizard.asks_its_own_question_mid_wizard,
            wizard.answers_the_wizard,
        ),
    ),
    Section(
        "more about what was just done or said",
        _past_the_options,
        (
            agent_named.the_same_for_another,
            agent_named.asks_about_the_agent_just_named,
            agent_named.a_new_setting_for_the_agent_just_named,
            agent_named.asks_the_same_about_another,
            agent_named.corrects_the_agent_just_made,
            agent_named.asks_the_agent_to_change,
            agent_named.undoes_a_change_to_an_agent,
            agent_named.the_same_for_someone_else,
            agent_named.a_new_agent_like_that_one,
            after_a_result.changes_the_setting_just_talked_about,
            after_a_result.asks_about_the_answer,
            after_a_result.repeats_the_last_run,
            after_a_result.answers_the_open_question,
            nudges.a_short_reply_goes_on,
            after_a_result.fixes_the_connection,
            after_a_result.tells_people_about_the_result,
            after_a_result.keeps_it_current,
            agent_named.adds_to_the_agent_just_named,
        ),
    ),
    Section(
        "what the message asks on its own",
        always,
        (
            messages.runs_an_agent_for_a_period,
            nudges.connects_an_account,
            messages.sets_up_a_tool,
            messages.extends_an_agent_to_more,
            messages.asks_why_an_agent_did_not_work,
            messages.says_what_they_do_not_understand,
            messages.asks_what_agents_can_do,
            messages.asks_about_an_agent,
            messages.lets_someone_see_or_use,
            messages.asks_why,
            messages.what_every_agent_must_be_told,
            messages.things_wait_unseen,
            messages.needs_a_result_now,
            guards.a_grumble,
            guards.personal_reminder_once,
            nudges.pausing_is_a_change,
            nudges.how_do_i_asks_how,
            messages.names_an_agent_to_run_again,
            messages.names_only_an_agent,
        ),
    ),
)
# Every entry, in table order: what `eval_intents --rules` scores.
ENTRIES: tuple[Entry, ...] = entries(TABLE)


def decide(reading: Reading) -> Outcome:
    """The table's decision for a reading (``None`` leaves it to the model)."""
    return run(TABLE, reading)


__all__ = ["ENTRIES", "TABLE", "Decision", "Entry", "Nudge", "Outcome", "Reading", "Rule", "decide"]
