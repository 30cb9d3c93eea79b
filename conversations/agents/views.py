"""The agent registry endpoints: list, create, read, change, delete."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations.agents import selectors, services
from conversations.agents.serializers import (
    AgentListQuerySerializer,
    AgentPageSerializer,
    AgentSerializer,
    AgentWriteSerializer,
)
from conversations.api.pagination import page_body
from conversations.models import Agent
from conversations.tenancy.permissions import request_tenant, request_user


class AgentListView(APIView):
    @extend_schema(
        parameters=[AgentListQuerySerializer],
        responses=AgentPageSerializer,
        operation_id="agents_list",
    )
    def get(self, request: Request) -> Response:
        query = AgentListQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        page = selectors.agent_list(
            tenant=request_tenant(request),
            limit=query.validated_data["limit"],
            cursor=query.validated_data.get("cursor"),
        )
        return Response(page_body(request, page, AgentSerializer))

    @extend_schema(
        request=AgentWriteSerializer,
        responses={
            201: AgentSerializer,
            409: OpenApiResponse(description="The tenant already has an agent of that name."),
        },
    )
    def post(self, request: Request) -> Response:
        body = AgentWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        agent = services.agent_create(
            tenant=request_tenant(request), created_by=request_user(request), **body.validated_data
        )
        return Response(AgentSerializer(agent).data, status=status.HTTP_201_CREATED)


class AgentDetailView(APIView):
    def get_agent(self, request: Request, agent_id: str) -> Agent:
        return selectors.agent_get(tenant=request_tenant(request), agent_id=agent_id)

    @extend_schema(responses=AgentSerializer)
    def get(self, request: Request, agent_id: str) -> Response:
        return Response(AgentSerializer(self.get_agent(request, agent_id)).data)

    @extend_schema(
        request=AgentWriteSerializer,
        responses={
            200: AgentSerializer,
            409: OpenApiResponse(description="The tenant already has an agent of that name."),
        },
    )
    def patch(self, request: Request, agent_id: str) -> Response:
        agent = self.get_agent(request, agent_id)
        body = AgentWriteSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        agent = services.agent_update(agent=agent, **body.validated_data)
        return Response(AgentSerializer(agent).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, agent_id: str) -> Response:
        agent = self.get_agent(request, agent_id)
        # Members create and change the tenant's agents; removing one is for its creator or
        # a tenant admin (same tenant, not allowed: 403, not 404).
        membership = request.membership  # type: ignore[attr-defined]
        if not services.agent_deletable_by(
            agent=agent, user=request_user(request), admin=membership.is_admin
        ):
            raise PermissionDenied("Only the agent's creator or a tenant admin can delete it.")
        services.agent_delete(agent=agent)
        return Response(status=status.HTTP_204_NO_CONTENT)
