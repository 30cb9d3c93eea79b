"""The details of a skill a message gives, as the skill flow takes them."""

from __future__ import annotations

import pytest

from intents.reading.skill import read_skill_details


def test_an_opening_gives_the_purpose_and_what_it_says_of_output_and_input() -> None:
    dates = read_skill_details("Create a skill that turns messy dates into ISO 8601.")
    assert (dates.purpose, dates.outputs, dates.inputs) == (
        "turns messy dates into ISO 8601",
        "ISO 8601",
        "",
    )
    totals = read_skill_details("Teach it how to extract totals from PDF invoices")
    assert (totals.purpose, totals.inputs) == ("extract totals from PDF invoices", "PDF invoices")


def test_a_message_that_says_no_purpose_gives_none() -> None:
    details = read_skill_details("a CSV file")
    assert (details.purpose, details.inputs, details.outputs, details.example) == ("",) * 4
    assert details.answer == "a CSV file" and details.name == ""


@pytest.mark.parametrize(
    ("message", "example"),
    [
        ("input: 3rd of March 2024 -> output: 2024-03-03", "3rd of March 2024 → 2024-03-03"),
        ("in: a photo => {}", "a photo → {}"),
        ("Input = invoice.pdf output: 42 EUR", "invoice.pdf → 42 EUR"),
        ("the input is a photo", ""),
    ],
)
def test_an_input_paired_with_its_output_is_an_example(message: str, example: str) -> None:
    assert read_skill_details(message).example == example


@pytest.mark.parametrize(
    ("message", "answer"),
    [("ok, a PDF invoice.", "a PDF invoice"), ("yes please!", ""), ("thanks", "")],
)
def test_the_answer_is_the_message_without_an_acknowledgement(message: str, answer: str) -> None:
    assert read_skill_details(message).answer == answer


def test_a_name_given_alone_is_only_a_name() -> None:
    alone = read_skill_details("call it receipt-reader")
    assert alone.name == "receipt-reader" and alone.names_only
    more = read_skill_details("call it receipt-reader, it reads photos of receipts")
    assert more.name == "receipt-reader" and not more.names_only


@pytest.mark.parametrize(
    ("opening", "name"),
    [
        ("Create a skill that turns messy dates into ISO 8601", "dates-converter"),
        ("Create a skill that re-formats dates", "dates-formatter"),  # a verb after a hyphen
        ("Create a skill that extracts totals from invoices", "totals-invoices-extractor"),
        ("Create a skill that zqxvs the zqxv", "new-skill"),
    ],
)
def test_a_name_is_made_of_the_products_words_for_the_purpose(opening: str, name: str) -> None:
    assert read_skill_details(opening).purpose_name == name


def test_an_answer_given_as_the_purpose_names_the_skill() -> None:
    assert read_skill_details("sorts Zendesk tickets by urgency").answer_name == (
        "zendesk-tickets-classifier"
    )


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("It takes a date string such as 3rd of March", "a date string such as 3rd of March"),
        ("it should return JSON with amount and currency.", "JSON with amount and currency"),
        ("the skill gives back an ISO 8601 date", "an ISO 8601 date"),
        ("ok, a CSV file", "a CSV file"),  # no frame: the acknowledgement goes
    ],
)
def test_an_answer_in_the_questions_frame_is_what_follows_it(message: str, answer: str) -> None:
    assert read_skill_details(message).answer == answer
