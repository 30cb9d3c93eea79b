"""What the wizard reads from a message: the details kept exactly as the user wrote them."""

from __future__ import annotations

import pytest

from intents.reading.details import (
    destination_in,
    name_as_written,
    name_in,
    read_slots,
    scope_in,
    zone_in,
)


@pytest.mark.parametrize(
    ("message", "scope"),
    [
        ("checks the GitHub repo acme/web every day at 10:00", "acme/web"),
        ("watch gitlab infra/terraform merge requests", "infra/terraform"),
        ("Google Sheets - the 'Q3 Budget' spreadsheet", "Q3 Budget"),
        ("revise la hoja «Facturación Q3» de Google Sheets", "Facturación Q3"),
        ("alert me 24/7 and/or email me", None),
        ("it's our team's board, don't worry", None),
        ("9:15, Asia/Kolkata", None),
    ],
)
def test_the_sheet_board_or_repository_is_kept_as_written(message: str, scope: str | None) -> None:
    assert scope_in(message) == scope


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("Name it budget-digest", "budget-digest"),
        ("Crea un agente llamado «Cobros de Facturación» que revise", "cobros-de-facturacion"),
        ("call it 'deal-watch'", "deal-watch"),
    ],
)
def test_a_name_is_read_whatever_its_case_or_quotes(message: str, name: str) -> None:
    assert name_in(message) == name


def test_a_time_zone_answer_is_not_what_the_agent_watches() -> None:
    found = read_slots(
        "9:15, Asia/Kolkata",
        have={"frequency": "daily", "zone": "UTC"},
        asking=("trigger", "when"),
        zone="UTC",
        opening=False,
    )
    assert found.get("zone") == "Asia/Kolkata"
    assert "trigger" not in found and "details" not in found


def test_every_new_thing_is_what_it_reacts_to() -> None:
    found = read_slots(
        "I'd like an agent that emails me every new HubSpot lead",
        have={},
        asking=(),
        zone="UTC",
        opening=True,
    )
    assert found["trigger"] == "new HubSpot lead"
    assert found["source"] == "hubspot"


def test_a_destination_taken_back_is_not_the_destination() -> None:
    found = read_slots(
        "no sorry not #support-leads, it should go to #cx-escalations",
        have={"destination": "Slack #support-leads"},
        asking=(),
        zone="UTC",
        opening=False,
    )
    assert found["destination"] == "Slack #cx-escalations"


def test_every_address_results_go_to_is_kept() -> None:
    found = read_slots(
        "watch freshdesk for late tickets and email ravi@northwind.io and oksana@northwind.io",
        have={},
        asking=(),
        zone="UTC",
        opening=True,
    )
    assert found["destination"] == "ravi@northwind.io, oksana@northwind.io"


def test_a_time_taken_back_mid_sentence_is_replaced() -> None:
    found = read_slots(
        "every weekday at 10 -- no wait 11am -- post the open PRs in #backend",
        have={},
        asking=(),
        zone="UTC",
        opening=True,
    )
    assert "11:00" in found["frequency"] and "10:00" not in found["frequency"]


def test_a_new_day_replaces_the_day_and_keeps_the_time() -> None:
    found = read_slots(
        "actually make it tuesdays",
        have={"frequency": "weekly monday 08:00", "zone": "Europe/London"},
        asking=(),
        zone="UTC",
        opening=False,
    )
    assert found["frequency"] == "weekly tuesday 08:00"


@pytest.mark.parametrize(
    ("message", "trigger"),
    [
        # What the request looks for, not the tool it reads ("revise Zendesk", "o Intercom").
        ("Crea un agente que revise Zendesk cada día a las 9:00, busque tickets con prioridad "
         "urgente sin responder y mande un resumen al canal #soporte", "tickets con prioridad "
         "urgente sin responder"),
        ("Cria um agente que verifica o Intercom toda segunda-feira às 9h, encontra conversas "
         "sem resposta há mais de 24 horas e manda um resumo", "conversas sem resposta há mais "
         "de 24 horas"),
        ("Erstelle einen Agenten, der in Shopify Produkte mit weniger als 10 Stück Lagerbestand "
         "findet", "Produkte mit weniger als 10 Stück Lagerbestand"),
        ("Wir übersehen ständig neue Zendesk-Tickets mit Priorität hoch.",
         "neue Zendesk-Tickets mit Priorität hoch"),
        ("checks my Gmail for emails from @bigclient.com marked important",
         "emails from @bigclient.com marked important"),
        ("make an agent that posts new GitHub issues into #triage", "new GitHub issues"),
        # With nothing more said, the tool is what it reads.
        ("un resumen semanal de Notion por Slack", "Notion"),
    ],
)  # fmt: skip
def test_what_it_watches_is_the_thing_looked_for(message: str, trigger: str) -> None:
    assert read_slots(message, have={}, asking=(), zone="UTC", opening=True)["trigger"] == trigger


def test_a_tool_taken_back_is_not_the_source() -> None:
    found = read_slots(
        "sorry, I meant Linear, not Asana",
        have={"source": "asana", "trigger": "overdue tasks"},
        asking=("schedule",),
        zone="UTC",
        opening=False,
    )
    assert found["source"] == "linear"
    assert "details" not in found and "action" not in found  # "sorry" is no answer


@pytest.mark.parametrize(
    ("message", "zone"),
    [("every monday 8:30 CET", "Europe/Berlin"), ("9am PST", "America/Los_Angeles"),
     ("c'est à 9h", None)],
)  # fmt: skip
def test_time_zone_abbreviations_count_in_capitals_only(message: str, zone: str | None) -> None:
    assert zone_in(message) == zone


@pytest.mark.parametrize(
    ("message", "name"),
    [("every hour, UTC. name: bug-feed", "bug-feed"), ("o nome pode ser reembolsos-altos",
     "reembolsos-altos"), ("el nombre es cobros-q3", "cobros-q3")],
)  # fmt: skip
def test_a_name_given_as_a_statement(message: str, name: str) -> None:
    assert name_in(message) == name


def test_every_weekday_named_is_kept_and_one_taken_back_is_not() -> None:
    found = read_slots(
        "tuesdays and thursdays at 11:00, not mondays",
        have={"source": "asana"},
        asking=("schedule",),
        zone="Europe/Paris",
        opening=False,
    )
    assert found["frequency"] == "weekly tuesday thursday 11:00"


@pytest.mark.parametrize(
    ("message", "have", "frequency"),
    [
        # A new time keeps the days; new days keep the time; a day taken back is dropped.
        ("yes but at 8 instead", "weekly friday 09:00", "weekly friday 08:00"),
        ("moment, nicht freitag sondern donnerstag bitte", "weekly friday 16:00",
         "weekly thursday 16:00"),
        ("Thursday 15:00", "weekly", "weekly thursday 15:00"),
    ],
)  # fmt: skip
def test_a_correction_changes_only_what_it_names(message: str, have: str, frequency: str) -> None:
    found = read_slots(
        message, have={"frequency": have, "zone": "UTC"}, asking=(), zone="UTC", opening=False
    )
    assert found["frequency"] == frequency
    assert "details" not in found  # "moment", "bitte" and a day are no details


def test_a_slack_direct_message_goes_to_the_person() -> None:
    found = read_slots(
        "grabs new linear issues evry weekday 8am and dms them to me on slack @jordan",
        have={},
        asking=(),
        zone="UTC",
        opening=True,
    )
    assert found["destination"] == "Slack @jordan"
    assert found["frequency"] == "weekdays 08:00"  # "evry" is "every"


@pytest.mark.parametrize(
    ("message", "watched"),
    [
        # What is sent is what it looks for.
        ("an agent that posts failed Stripe payouts to #finance at 8am", "failed Stripe payouts"),
        # A chore described: what is looked for, or forgotten.
        ("each morning I check Linear to see which bugs were reopened and paste them in #qa",
         "bugs were reopened"),
        ("we keep forgetting to follow up on Zendesk tickets waiting on the customer",
         "Zendesk tickets waiting on the customer"),
        # German: the object before the verb, with its relative clause.
        ("ein agent der montags die offenen issues im repo acme/app prüft die kein label haben",
         "offenen issues, die kein label haben"),
        ("new agnet: stale Asana tasks in the Launch project", "stale Asana tasks in the Launch "
         "project"),
        ("an agent that emails me (ana@kiln.io) the new Airtable rows from our Leads base",
         "new Airtable rows from our Leads base"),
        ("cada viernes paso horas revisando en Xero qué pagos están pendientes y avisando a "
         "cada proveedor", "pagos están pendientes"),
        ("wir vergessen immer, die Jira-Tickets mit dem Label 'urgent' durchzugehen",
         "Jira-Tickets mit dem Label 'urgent'"),
        ("It should look for Zendesk tickets with no assignee.",
         "Zendesk tickets with no assignee"),
        ("my manager asks me which Stripe payouts failed and I check by hand",
         "Stripe payouts failed"),
        ("ein Agent, der in Personio nachschaut, wer morgen Geburtstag hat",
         "wer morgen Geburtstag hat"),
    ],
)  # fmt: skip
def test_what_it_watches_is_read_from_more_ways_of_saying_it(message: str, watched: str) -> None:
    assert read_slots(message, have={}, asking=(), zone="UTC", opening=True)["trigger"] == watched


def test_a_tool_moved_off_is_not_the_source_and_linear_as_a_name_is_one() -> None:
    found = read_slots(
        "we moved off Trello last month, it's Linear now: issues closed this week",
        have={"source": "trello"},
        asking=("schedule",),
        zone="UTC",
        opening=False,
    )
    assert found["source"] == "linear"


def test_a_quoted_channel_in_teams_is_where_results_go() -> None:
    found = read_slots("post it to the 'Ops Leads' channel in Microsoft Teams instead",
                       have={}, asking=(), zone="UTC", opening=False)  # fmt: skip
    assert found["destination"] == "Microsoft Teams 'Ops Leads'"


@pytest.mark.parametrize("text", ["Danke dir!", "Thank you!", "merci beaucoup", "¡Muchas gracias!"])
def test_thanks_in_many_forms_are_no_answer(text: str) -> None:
    assert read_slots(text, have={"source": "jira"}, asking=("trigger",), zone="UTC",
                      opening=False) == {}  # fmt: skip


@pytest.mark.parametrize(
    ("message", "destination"),
    [
        ("put them in the 'Wins' table in Airtable", "Airtable 'Wins' table"),
        ('add each one to the "Q3 leads" sheet in Google Sheets', "Google Sheets 'Q3 leads' sheet"),
    ],
)
def test_a_named_table_or_sheet_in_a_tool_is_where_results_go(
    message: str, destination: str
) -> None:
    assert read_slots(message, have={}, asking=(), zone="UTC", opening=False)["destination"] == (
        destination
    )


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("hora de Bogotá", "America/Bogota"),
        ("Manila time", "Asia/Manila"),
        ("ora di Milano", "Europe/Rome"),
    ],
)
def test_more_cities_name_their_time_zone(text: str, zone: str) -> None:
    assert zone_in(text) == zone


def test_thanks_after_an_opening_mark_is_no_answer() -> None:
    assert read_slots("¡Gracias!", have={"source": "quickbooks"}, asking=("trigger",),
                      zone="UTC", opening=False) == {}  # fmt: skip


def test_an_italian_answer_gives_schedule_destination_and_name() -> None:
    slots = read_slots(
        "Ok. L'elenco va mandato via Gmail a segreteria@studiorossi.it ogni giorno alle 17:30, "
        "ora di Roma. Chiamalo conferme-domani.",
        have={"source": "google_calendar", "trigger": "appuntamenti non confermati"},
        asking=("action", "when"),
        zone="UTC",
        opening=False,
    )
    assert slots["frequency"] == "daily 17:30"
    assert slots["zone"] == "Europe/Rome"
    assert slots["destination"] == "segreteria@studiorossi.it"
    assert slots["name"] == "conferme-domani"


def test_what_an_italian_request_looks_for_drops_its_verb() -> None:
    slots = read_slots(
        "Deve trovare gli appuntamenti di domani che il paziente non ha ancora confermato.",
        have={"source": "google_calendar"},
        asking=("trigger",),
        zone="UTC",
        opening=False,
    )
    assert slots["trigger"] == "appuntamenti di domani che il paziente non ha ancora confermato"


def test_a_misspelt_check_on_a_dotted_tool_still_says_what_it_looks_for() -> None:
    slots = read_slots(
        "pls mak an agnet that chekcs our monday.com board 'Inbound Trucks' for loads with "
        "status Delayed",
        have={},
        asking=(),
        zone="UTC",
        opening=True,
    )
    assert slots["trigger"] == "loads with status Delayed"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Name it jira-overdue-monitor. Actually no, call it Platform Overdue Radar",
         "Platform Overdue Radar"),
        ("agent: Xero unpaid bills older than 30 days, daily, name Bills Radar", "Bills Radar"),
        ("Noem hem Starfall Crashwacht", "Starfall Crashwacht"),
        ("the name of the game is speed", None),
        # Small words between capitalized ones belong to the name.
        ("e chama de Relatório de Faltas", "Relatório de Faltas"),
        ("call it Reports of the Day and run it", "Reports of the Day"),
    ],
)  # fmt: skip
def test_the_name_said_last_is_the_name(text: str, name: str | None) -> None:
    assert name_as_written(text) == name


@pytest.mark.parametrize(
    ("text", "destination"),
    [
        ("post the results in Microsoft Teams, channel Staffing-Alerts", "Microsoft Teams "
         "'Staffing-Alerts'"),
        ("li invia su Microsoft Teams nel canale Qualita-Linea2", "Microsoft Teams "
         "'Qualita-Linea2'"),
        ("post it on Discord, channel Crash-Reports", "Discord 'Crash-Reports'"),
        ("send it to the channel for sales", None),
    ],
)  # fmt: skip
def test_a_channel_named_after_the_word_is_where_results_go(
    text: str, destination: str | None
) -> None:
    assert destination_in(text, None) == destination


def test_what_an_italian_request_sends_is_no_part_of_what_it_watches() -> None:
    slots = read_slots(
        "Crea un agente che controlla i nuovi ticket ServiceNow con priorità alta e li invia su "
        "Microsoft Teams nel canale Qualita-Linea2",
        have={},
        asking=(),
        zone="UTC",
        opening=True,
    )
    assert slots["trigger"] == "i nuovi ticket ServiceNow con priorità alta"


def test_the_hour_before_what_a_german_request_watches_is_not_part_of_it() -> None:
    slots = read_slots(
        "Erstelle einen Agenten namens Bewerber-Radar, der jeden Morgen um 8 Uhr neue "
        "Bewerbungen in Greenhouse prüft",
        have={},
        asking=(),
        zone="UTC",
        opening=True,
    )
    assert slots["trigger"] == "neue Bewerbungen"
    # A name written with capitals is kept as written beside its slug.
    assert (slots["name"], slots["title"]) == ("bewerber-radar", "Bewerber-Radar")


def test_a_french_channel_named_in_quotes_after_its_tool_and_a_schedule_said_first() -> None:
    slots = read_slots(
        "Crée un agent qui récupère chaque mardi à 9h (heure de Paris) les rendez-vous Outlook "
        "de l'équipe commerciale et envoie un récap dans le canal Teams « Ventes ».",
        have={},
        asking=(),
        zone="UTC",
        opening=True,
    )
    assert slots["destination"] == "Microsoft Teams 'Ventes'"
    assert "scope" not in slots  # where it sends, not where it looks
    assert slots["trigger"].startswith("rendez-vous Outlook")
    assert "mardi" not in slots["trigger"]
