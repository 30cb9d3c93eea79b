"""``skill-sessions/`` and ``skills/``: a member sees their own sessions, an admin the tenant's.

Only a session's own member answers in it or deletes it; the admin's view is read-only.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations.api.pagination import page_body
from conversations.models import new_id
from conversations.tenancy.permissions import request_tenant, request_user
from intents.reading.reading import read
from intents.redaction import redact
from skill_sessions import services
from skill_sessions.flow import Step, skill_start, skill_step
from skill_sessions.generate import generate_definition
from skill_sessions.models import Skill, SkillCreationSession
from skill_sessions.serializers import (
    SkillListQuerySerializer,
    SkillMessageSerializer,
    SkillPageSerializer,
    SkillSerializer,
    SkillSessionListItemSerializer,
    SkillSessionPageSerializer,
    SkillSessionQuerySerializer,
    SkillSessionSerializer,
    SkillTurnSerializer,
)

CONFLICT = OpenApiResponse(description="The session changed meanwhile; read it and answer again.")


def _visible(
    request: Request, session_id: str, *, to_change: bool = False
) -> services.LoadedSession:
    """The session if the caller may see it; another member's or tenant's is a 404.

    A tenant admin sees the tenant's sessions for the audit, read-only: answering in or
    deleting another member's session is refused (same tenant, not allowed: 403).
    """
    tenant, user = request_tenant(request), request_user(request)
    rows = services.sessions_visible(tenant=tenant, user=user)
    owner_id = (
        rows.filter(session_id=session_id)
        .exclude(status="deleted")
        .values_list("user_id", flat=True)
        .first()
    )
    if owner_id is None:
        raise Http404
    if to_change and owner_id != user.pk:
        raise PermissionDenied("Only the member who started the session can change it.")
    loaded = services.session_load(tenant=tenant, session_id=session_id)
    if loaded is None:
        raise Http404
    return loaded


@transaction.atomic
def apply_step(
    request: Request, session_id: str, step: Step, expected_version: int, conversation_id: str = ""
) -> SkillCreationSession:
    """Store the step (and the skill it completes) in one transaction."""
    tenant, user = request_tenant(request), request_user(request)
    row = services.session_save(
        tenant=tenant, user=user, session_id=session_id, context=step.context,
        expected_version=expected_version, conversation_id=conversation_id,
    )  # fmt: skip
    if step.completed:
        services.skill_create(
            tenant=tenant, user=user, skill_id=new_id(), name=step.context.name,
            description=step.context.purpose, definition=step.context.draft,
            session_id=session_id,
        )  # fmt: skip
    return row


def _turn(row: SkillCreationSession, step: Step) -> dict[str, Any]:
    return {
        "session_id": row.session_id,
        "reply": step.reply,
        "state": row.state,
        "status": row.status,
        "skill_name": row.skill_name,
    }


class SkillSessionListView(APIView):
    @extend_schema(
        parameters=[SkillSessionQuerySerializer],
        responses=SkillSessionPageSerializer,
        operation_id="skill_sessions_list",
    )
    def get(self, request: Request) -> Response:
        query = SkillSessionQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        page = services.sessions_page(
            tenant=request_tenant(request),
            user=request_user(request),
            status=query.validated_data.get("status"),
            limit=query.validated_data["limit"],
            cursor=query.validated_data.get("cursor"),
        )
        return Response(page_body(request, page, SkillSessionListItemSerializer))

    @extend_schema(request=SkillMessageSerializer, responses={201: SkillTurnSerializer})
    def post(self, request: Request) -> Response:
        body = SkillMessageSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        # The builder (and so the skill's name, description and definition) sees no secret.
        step = skill_start(read(redact(body.validated_data["message"]).text))
        row = apply_step(request, services.session_new_id(), step, expected_version=0)
        return Response(_turn(row, step), status=status.HTTP_201_CREATED)


class SkillSessionDetailView(APIView):
    @extend_schema(responses=SkillSessionSerializer, operation_id="skill_sessions_retrieve")
    def get(self, request: Request, session_id: str) -> Response:
        return Response(SkillSessionSerializer.of(_visible(request, session_id)))

    @extend_schema(responses={204: None})
    def delete(self, request: Request, session_id: str) -> Response:
        services.session_delete(session=_visible(request, session_id, to_change=True).row)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SkillSessionMessagesView(APIView):
    @extend_schema(
        request=SkillMessageSerializer, responses={200: SkillTurnSerializer, 409: CONFLICT}
    )
    def post(self, request: Request, session_id: str) -> Response:
        body = SkillMessageSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        loaded = _visible(request, session_id, to_change=True)
        step = skill_step(
            loaded.context,
            read(redact(body.validated_data["message"]).text),
            generate=generate_definition,
        )
        try:
            row = apply_step(request, session_id, step, expected_version=loaded.row.version)
        except services.StaleSession:
            return Response(
                {"detail": "The session changed meanwhile; read it and answer again."},
                status=status.HTTP_409_CONFLICT,
            )
        return Response(_turn(row, step))


class SkillListView(APIView):
    @extend_schema(
        parameters=[SkillListQuerySerializer],
        responses=SkillPageSerializer,
        operation_id="skills_list",
    )
    def get(self, request: Request) -> Response:
        query = SkillListQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        page = services.skills_page(
            tenant=request_tenant(request),
            limit=query.validated_data["limit"],
            cursor=query.validated_data.get("cursor"),
        )
        return Response(page_body(request, page, SkillSerializer))


class SkillDetailView(APIView):
    def get_skill(self, request: Request, skill_id: str) -> Skill:
        skill = Skill.objects.for_tenant(request_tenant(request)).filter(id=skill_id).first()
        if skill is None:
            raise Http404
        return skill

    @extend_schema(responses=SkillSerializer)
    def get(self, request: Request, skill_id: str) -> Response:
        return Response(SkillSerializer(self.get_skill(request, skill_id)).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, skill_id: str) -> Response:
        skill = self.get_skill(request, skill_id)
        membership = request.membership  # type: ignore[attr-defined]
        if not membership.is_admin and skill.created_by_id != request_user(request).pk:
            raise PermissionDenied("Only the skill's creator or a tenant admin can delete it.")
        skill.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
