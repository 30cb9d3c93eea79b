"""Runs as the API shows them, and the runtime's reports as it takes them."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from conversations.api.fields import StrictCharField, StrictSerializer, no_nul
from conversations.models import AgentRun
from conversations.store.serializers import PageSerializer


class _NullWhenEmpty(serializers.CharField):
    """A value a run may not have: null rather than "" (so no client follows an empty id)."""

    def to_representation(self, value: Any) -> str | None:  # type: ignore[override]
        return str(value) if value else None


class RunSerializer(serializers.ModelSerializer[AgentRun]):
    agent_id = serializers.CharField(read_only=True)
    link = _NullWhenEmpty(read_only=True, allow_null=True, help_text="As the runtime gave it.")
    conversation_id = _NullWhenEmpty(
        read_only=True, allow_null=True, help_text="The conversation it was asked from (chat)."
    )
    agent_name = serializers.CharField(source="agent.name", read_only=True)
    # Stored encrypted as text.
    summary = serializers.CharField(read_only=True)
    reason = serializers.CharField(read_only=True)

    class Meta:
        model = AgentRun
        fields = (
            "id", "agent_id", "agent_name", "status", "trigger", "requested_at", "started_at",
            "finished_at", "summary", "link", "reason", "conversation_id",
        )  # fmt: skip
        read_only_fields = fields


class RunPageSerializer(PageSerializer):
    results = RunSerializer(many=True)


@extend_schema_serializer(component_name="RunEvent")
class RunEventSerializer(StrictSerializer):
    type = serializers.ChoiceField(choices=("started", "progress", "succeeded", "failed"))
    event_id = StrictCharField(
        max_length=100, required=False, allow_blank=True, validators=[no_nul],
        help_text="The runtime's id of this report: a repeat with the same id changes nothing.",
    )  # fmt: skip
    summary = StrictCharField(
        max_length=2000, required=False, allow_blank=True, validators=[no_nul],
        help_text="What it did (succeeded), or what it is doing (progress).",
    )  # fmt: skip
    link = StrictCharField(
        max_length=2000, required=False, allow_blank=True, validators=[no_nul],
        help_text="Where the result is; the chat shows it only when it is an http(s) URL.",
    )  # fmt: skip
    reason = StrictCharField(
        max_length=2000, required=False, allow_blank=True, validators=[no_nul],
        help_text="Why it failed (failed).",
    )  # fmt: skip
