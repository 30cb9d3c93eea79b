"""The skill builder's state machine, as a pure function of (context, message)."""

from __future__ import annotations

import pytest

from intents.reading.reading import read
from skill_sessions.context import SkillContext
from skill_sessions.flow import definition, skill_start, skill_step


def test_what_the_opening_says_is_not_asked_again() -> None:
    step = skill_start(read("Create a skill that turns messy dates into ISO 8601"))
    context = step.context
    assert (context.purpose, context.outputs) == ("turns messy dates into ISO 8601", "ISO 8601")
    assert context.state == "gathering_details" and context.asking == "inputs"
    assert "What does the skill take as input" in step.reply
    assert "What should it give back" not in step.reply


def test_a_whole_session_gathers_confirms_and_completes() -> None:
    step = skill_start(read("Create a skill named date-fixer that turns messy dates into ISO 8601"))
    assert step.context.name == "date-fixer"
    step = skill_step(step.context, read("ok"))  # an acknowledgement answers nothing
    assert step.context.inputs == "" and step.context.asking == "inputs"
    step = skill_step(step.context, read("free text such as '3rd of March'"))
    assert step.context.inputs == "free text such as '3rd of March'"
    step = skill_step(step.context, read("input: 3rd of March 2024 -> output: 2024-03-03"))
    assert step.context.state == "confirming" and not step.completed
    assert step.context.examples == ["3rd of March 2024 → 2024-03-03"]
    assert "Shall I create it?" in step.reply
    done = skill_step(step.context, read("sí"))
    assert done.completed and done.context.state == "completed"
    assert done.context.draft == definition(done.context)
    assert done.context.draft["name"] == "date-fixer"
    # Every exchange is in the document's history.
    assert [h["role"] for h in done.context.history] == ["user", "assistant"] * 5


def test_a_change_while_confirming_is_taken_and_confirmed_again() -> None:
    context = SkillContext(
        state="confirming", purpose="reads receipts", name="receipts", inputs="a photo",
        outputs="JSON", examples=["a photo → {}"],
    )  # fmt: skip
    step = skill_step(context, read("no, call it receipt-reader"))
    assert step.context.name == "receipt-reader" and step.context.state == "confirming"
    assert not step.completed


@pytest.mark.parametrize("state", ["gathering_purpose", "gathering_details", "confirming", "error"])
def test_cancel_from_any_state_creates_nothing(state: str) -> None:
    step = skill_step(SkillContext(state=state, purpose="x", name="x"), read("cancel"))
    assert step.context.state == "cancelled" and not step.completed


def test_the_error_state_keeps_what_was_gathered_and_retries() -> None:
    context = SkillContext(
        state="error", purpose="reads receipts", name="receipts", inputs="a photo",
        outputs="JSON", examples=["x → y"], last_error="Timeout",
    )  # fmt: skip
    step = skill_step(context, read("try again"))
    assert step.completed and step.context.inputs == "a photo"


def test_the_input_is_not_mutated() -> None:
    context = SkillContext(state="gathering_details", purpose="p", asking="inputs")
    skill_step(context, read("a CSV file"))
    assert context.inputs == "" and context.history == []


def test_a_no_with_a_change_takes_the_change_after_the_no() -> None:
    context = SkillContext(
        state="confirming", purpose="reads receipts", name="receipts", inputs="a photo",
        outputs="JSON", examples=["a photo → {}"],
    )  # fmt: skip
    step = skill_step(context, read("wait, input: a scan -> output: {}"))
    assert step.context.examples == ["a photo → {}", "a scan → {}"]
    assert step.context.state == "confirming" and not step.completed


def test_an_answer_about_cancelled_orders_is_an_answer() -> None:
    context = SkillContext(state="gathering_details", purpose="p", asking="inputs")
    step = skill_step(context, read("cancelled orders from Shopify"))
    assert step.context.inputs == "cancelled orders from Shopify"


def test_a_question_while_confirming_creates_nothing() -> None:
    context = SkillContext(
        state="confirming", purpose="reads receipts", name="receipts", inputs="a photo",
        outputs="JSON", examples=["a photo → {}"],
    )  # fmt: skip
    assert not skill_step(context, read("does it handle PDFs?")).completed
