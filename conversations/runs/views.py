"""The runs endpoints: list, read, run now, cancel; and the runtime's reports."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations.agents import selectors as agent_selectors
from conversations.api.pagination import page_body
from conversations.models import AgentRun
from conversations.runs import selectors, services
from conversations.runs.auth import IsRuntime, RuntimeTokenAuthentication, RuntimeTokenThrottle
from conversations.runs.serializers import RunEventSerializer, RunPageSerializer, RunSerializer
from conversations.store.serializers import ListQuerySerializer
from conversations.tenancy.permissions import request_tenant, request_user


def _page(request: Request, agent_id: str | None = None) -> Response:
    query = ListQuerySerializer(data=request.query_params.dict())
    query.is_valid(raise_exception=True)
    tenant = request_tenant(request)
    agent = agent_selectors.agent_get(tenant=tenant, agent_id=agent_id) if agent_id else None
    page = selectors.run_list(
        tenant=tenant,
        agent=agent,
        limit=query.validated_data["limit"],
        cursor=query.validated_data.get("cursor"),
    )
    return Response(page_body(request, page, RunSerializer))


class RunListView(APIView):
    @extend_schema(
        parameters=[ListQuerySerializer], responses=RunPageSerializer, operation_id="runs_list"
    )
    def get(self, request: Request) -> Response:
        return _page(request)


class AgentRunsView(APIView):
    @extend_schema(
        parameters=[ListQuerySerializer],
        responses=RunPageSerializer,
        operation_id="agents_runs_list",
    )
    def get(self, request: Request, agent_id: str) -> Response:
        return _page(request, agent_id)

    @extend_schema(request=None, responses={201: RunSerializer}, operation_id="agents_runs_create")
    def post(self, request: Request, agent_id: str) -> Response:
        agent = agent_selectors.agent_get(tenant=request_tenant(request), agent_id=agent_id)
        run = services.run_request(
            agent=agent, user=request_user(request), trigger=AgentRun.Trigger.API
        )
        return Response(RunSerializer(run).data, status=status.HTTP_201_CREATED)


class RunDetailView(APIView):
    @extend_schema(responses=RunSerializer)
    def get(self, request: Request, run_id: str) -> Response:
        run = selectors.run_get(tenant=request_tenant(request), run_id=run_id)
        return Response(RunSerializer(run).data)


class RunCancelView(APIView):
    @extend_schema(request=None, responses=RunSerializer, operation_id="runs_cancel")
    def post(self, request: Request, run_id: str) -> Response:
        run = selectors.run_get(tenant=request_tenant(request), run_id=run_id)
        return Response(RunSerializer(services.run_cancel(run=run)).data)


class RunEventsView(APIView):
    """Where the tenant's agent runtime reports on a run it was handed."""

    authentication_classes = [RuntimeTokenAuthentication]
    permission_classes = [IsRuntime]
    throttle_classes = [RuntimeTokenThrottle]

    @extend_schema(
        request=RunEventSerializer,
        responses={
            204: None,
            401: OpenApiResponse(description="No runtime token, or a wrong one."),
            404: OpenApiResponse(description="No run of the token's tenant has that id."),
        },
        operation_id="runs_events_create",
    )
    def post(self, request: Request, run_id: str) -> Response:
        body = RunEventSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        tenant_id = request.user.tenant_id  # type: ignore[union-attr]
        try:
            services.run_event_apply(
                tenant_id=tenant_id, run_id=run_id, event=services.RunEvent(**body.validated_data)
            )
        except ObjectDoesNotExist:
            raise NotFound("No such run.") from None
        return Response(status=status.HTTP_204_NO_CONTENT)
