"""What ``skill-sessions/`` and ``skills/`` take and give."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from conversations.api.fields import StrictCharField, StrictRegexField, StrictSerializer, not_blank
from conversations.api.pagination import NAME_CURSOR_PATTERN
from conversations.store.serializers import ListQuerySerializer, PageSerializer
from skill_sessions.flow import summary_lines
from skill_sessions.models import Skill, SkillCreationSession
from skill_sessions.services import LoadedSession

STATUSES = SkillCreationSession.Status.choices


class OptionalIdField(serializers.CharField):
    """An id that may be absent: null, not an empty string (which no path could take)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_null=True, **kwargs)

    def to_representation(self, value: Any) -> str | None:  # type: ignore[override]
        return str(value) if value else None


class SkillMessageSerializer(StrictSerializer):
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        limit = settings.OMNIFORGE_MESSAGE_MAX_CHARS
        fields["message"] = StrictCharField(max_length=limit, validators=[not_blank])
        return fields


class SkillSessionQuerySerializer(StrictSerializer, ListQuerySerializer):
    status = serializers.ChoiceField(choices=STATUSES, required=False)


class SkillListQuerySerializer(ListQuerySerializer):
    cursor = StrictRegexField(
        NAME_CURSOR_PATTERN, required=False, help_text="From `next`/`previous`."
    )


class SkillTurnSerializer(serializers.Serializer[Any]):
    """One exchange with the skill builder."""

    session_id = serializers.CharField()
    reply = serializers.CharField()
    state = serializers.CharField()
    status = serializers.ChoiceField(choices=STATUSES)
    skill_name = serializers.CharField(allow_blank=True)


class SkillSessionSerializer(serializers.Serializer[Any]):
    session_id = serializers.CharField()
    state = serializers.CharField()
    status = serializers.ChoiceField(choices=STATUSES)
    skill_name = serializers.CharField(allow_blank=True)
    # The chat conversation the session was started in; null when started through the API.
    conversation_id = OptionalIdField()
    user = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    gathered = serializers.ListField(child=serializers.CharField())
    history = serializers.ListField(child=serializers.DictField(child=serializers.CharField()))

    @classmethod
    def of(cls, loaded: LoadedSession) -> dict[str, Any]:
        """The session as the API shows it (through the fields: no conversation is null)."""
        row = loaded.row
        return cls(
            {
                "session_id": row.session_id,
                "state": row.state,
                "status": row.status,
                "skill_name": row.skill_name,
                "conversation_id": row.conversation_id,
                "user": row.user.get_username(),
                "created_at": row.created_at,
                "updated_at": row.updated_at,
                "gathered": [line.removeprefix("- ") for line in summary_lines(loaded.context)],
                "history": loaded.context.history,
            }
        ).data


class SkillSessionListItemSerializer(serializers.ModelSerializer[SkillCreationSession]):
    user = serializers.CharField(source="user.username")
    conversation_id = OptionalIdField()

    class Meta:
        model = SkillCreationSession
        fields = ("session_id", "state", "status", "skill_name", "conversation_id", "user",
                  "created_at", "updated_at")  # fmt: skip


class SkillSerializer(serializers.ModelSerializer[Skill]):
    created_by = serializers.CharField(source="created_by.username", allow_null=True)
    # Stored encrypted as text; a string and a JSON object on the wire.
    description = serializers.CharField(read_only=True)
    definition = serializers.JSONField(read_only=True)

    class Meta:
        model = Skill
        fields = ("id", "name", "description", "definition", "session_id", "created_by",
                  "created_at")  # fmt: skip


class SkillSessionPageSerializer(PageSerializer):
    results = SkillSessionListItemSerializer(many=True)


class SkillPageSerializer(PageSerializer):
    results = SkillSerializer(many=True)
