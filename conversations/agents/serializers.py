"""Agents as the API shows and takes them."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from rest_framework import serializers

from conversations.agents.schedules import schedule_clean
from conversations.agents.services import CONFIG_KEYS
from conversations.api.fields import (
    StrictBooleanField,
    StrictCharField,
    StrictRegexField,
    StrictSerializer,
    no_nul,
)
from conversations.api.pagination import NAME_CURSOR_PATTERN
from conversations.models import Agent
from conversations.store.serializers import ListQuerySerializer, PageSerializer

# A name as people write it ("Jira Monitor"); agent_services stores its slug (jira-monitor).
AGENT_NAME_PATTERN = r"^[A-Za-z0-9 _-]*[A-Za-z0-9][A-Za-z0-9 _-]*$"


class AgentListQuerySerializer(ListQuerySerializer):
    cursor = StrictRegexField(
        NAME_CURSOR_PATTERN, required=False, help_text="From `next`/`previous`."
    )


class ScheduleSerializer(StrictSerializer):
    """When an agent runs: an RFC 5545 rule in an IANA time zone."""

    rrule = StrictCharField(
        max_length=500, validators=[no_nul],
        help_text="An RFC 5545 RRULE without DTSTART or COUNT, e.g. FREQ=WEEKLY;BYDAY=MO;BYHOUR=9.",
    )  # fmt: skip
    timezone = StrictCharField(
        max_length=64, validators=[no_nul], help_text="An IANA time zone, e.g. Europe/Berlin."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        try:
            cleaned = schedule_clean(dict(attrs))
        except ValidationError as exc:
            raise serializers.ValidationError(
                exc.message_dict.get("schedule", exc.messages)
            ) from None
        return dict(cleaned or {})


class AgentSerializer(serializers.ModelSerializer[Agent]):
    # Stored encrypted as text; a string and a JSON object on the wire.
    description = serializers.CharField(read_only=True)
    config = serializers.JSONField(read_only=True)
    schedule = ScheduleSerializer(read_only=True, allow_null=True)

    paused = serializers.BooleanField(read_only=True)

    class Meta:
        model = Agent
        fields = (
            "id",
            "name",
            "description",
            "config",
            "paused",
            "paused_at",
            "schedule",
            "next_run_at",
            "created_at",
            "updated_at",
        )
        read_only_fields = ("id", "paused_at", "next_run_at", "created_at", "updated_at")


class AgentPageSerializer(PageSerializer):
    results = AgentSerializer(many=True)


class AgentConfigSerializer(StrictSerializer):
    """What an agent does, as the wizard gathers it; every part optional."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            key: StrictCharField(
                required=False, allow_blank=True, max_length=200, validators=[no_nul]
            )
            for key in CONFIG_KEYS
        }


class AgentWriteSerializer(StrictSerializer):
    name = StrictRegexField(
        AGENT_NAME_PATTERN,
        max_length=80,
        error_messages={"invalid": "Use letters, digits, spaces, dashes or underscores."},
    )
    description = StrictCharField(
        max_length=500, allow_blank=True, required=False, validators=[no_nul]
    )
    config = AgentConfigSerializer(required=False)
    paused = StrictBooleanField(
        required=False,
        help_text="Pause (true) or resume (false): a paused agent runs only when asked.",
    )
    schedule = ScheduleSerializer(
        required=False, allow_null=True, help_text="null: it runs only when asked."
    )
