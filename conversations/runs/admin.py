"""The admin's runs pages: what ran, how long it took, retrying failures, the runtime link."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from conversations.admin import TenantScopedAdmin, is_tenant_admin, tenant_of_admin, user_column
from conversations.models import AgentRun, AgentRunEvent, RuntimeConnection
from conversations.runs.runtime import runtime_credentials_rotate, runtime_url_clean
from conversations.runs.services import run_request, runs_release_waiting


def _seconds(start: datetime | None, end: datetime | None) -> str:
    if start is None or end is None:
        return "-"
    return f"{(end - start).total_seconds():.1f}\N{NO-BREAK SPACE}s"  # one line, unit and all


class RunEventInline(admin.TabularInline):
    model = AgentRunEvent
    fields = ("received_at", "type", "event_id", "applied")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Whoever may view the run sees its reports (the run's page is tenant-scoped already).
        return bool(request.user.is_superuser or is_tenant_admin(request))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[AgentRunEvent]:
        # cross-tenant: the events of the one run shown, which the run's own page scoped.
        return AgentRunEvent.objects.cross_tenant()


@admin.register(AgentRun)
class AgentRunAdmin(TenantScopedAdmin):
    list_display = (
        "requested_at", "agent", "trigger", "status", "waited", "ran",
        user_column("requested_by", "requested by"), "tenant",
    )  # fmt: skip
    list_filter = (("tenant", admin.RelatedOnlyFieldListFilter), "status", "trigger")
    list_select_related = ("agent", "requested_by", "tenant")
    search_fields = ("agent__name", "=id", "=conversation_id")
    date_hierarchy = "requested_at"
    ordering = ("-requested_at",)
    readonly_fields = (
        "id", "tenant", "agent", "status", "trigger", "slot", "requested_at", "requested_by",
        "attempts", "dispatched_at", "started_at", "finished_at", "deadline_at", "summary",
        "progress", "reason", "link", "conversation_id", "message_id", "told_at",
    )  # fmt: skip
    inlines = (RunEventInline,)
    actions = ("retry_runs",)

    @admin.display(description="waited")
    def waited(self, obj: AgentRun) -> str:
        """From the request to the runtime's first word (or to the hand-over)."""
        return _seconds(obj.requested_at, obj.started_at or obj.dispatched_at)

    @admin.display(description="ran")
    def ran(self, obj: AgentRun) -> str:
        return _seconds(obj.started_at, obj.finished_at)

    def has_retry_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser or is_tenant_admin(request))

    @admin.action(
        description="Run the selected failed or timed-out runs again", permissions=["retry"]
    )
    def retry_runs(self, request: HttpRequest, queryset: QuerySet[AgentRun]) -> None:
        ended = queryset.filter(status__in=(AgentRun.Status.FAILED, AgentRun.Status.TIMED_OUT))
        retried = 0
        for run in ended.select_related("agent")[:200]:
            # A new run: a final state stays final. Told where the first one would have been.
            run_request(
                agent=run.agent, user=request.user, trigger=run.trigger,  # type: ignore[arg-type]
                conversation_id=run.conversation_id,
            )  # fmt: skip
            retried += 1
        self.message_user(request, f"Requested {retried} new run(s).")


class RuntimeConnectionForm(forms.ModelForm):
    url = forms.URLField(
        required=False, max_length=500, assume_scheme="https",
        help_text="Empty: the operator's runtime. https on a public address otherwise.",
    )  # fmt: skip

    class Meta:
        model = RuntimeConnection
        fields = ("url",)

    def clean_url(self) -> str:
        url = self.cleaned_data.get("url") or ""
        try:
            return runtime_url_clean(url) if url else ""
        except ValidationError as exc:
            raise ValidationError(exc.message_dict.get("url", exc.messages)) from None


@admin.register(RuntimeConnection)
class RuntimeConnectionAdmin(TenantScopedAdmin):
    """A tenant admin sets the tenant's own runtime URL and rotates its credentials; the new
    secret and token are shown once, in the message after the rotation."""

    form = RuntimeConnectionForm
    list_display = ("tenant", "url", "token_prefix", "rotated_at")
    fields = ("tenant", "url", "token_prefix", "rotated_at")
    readonly_fields = ("tenant", "token_prefix", "rotated_at")
    actions = ("rotate",)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return bool(request.user.is_superuser or is_tenant_admin(request))

    def has_add_permission(self, request: HttpRequest) -> bool:
        """A tenant admin's tenant gets its connection here once; superusers use the command."""
        tenant = tenant_of_admin(request)
        return tenant is not None and not RuntimeConnection.objects.for_tenant(tenant).exists()

    def save_model(
        self, request: HttpRequest, obj: RuntimeConnection, form: Any, change: bool
    ) -> None:
        if not change:
            tenant = tenant_of_admin(request)
            assert tenant is not None
            obj.tenant = tenant
        super().save_model(request, obj, form, change)
        runs_release_waiting(tenant_id=obj.tenant_id)

    def has_rotate_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser or is_tenant_admin(request))

    @admin.action(description="Rotate the secret and token (shown once)", permissions=["rotate"])
    def rotate(self, request: HttpRequest, queryset: QuerySet[RuntimeConnection]) -> None:
        for connection in queryset.select_related("tenant")[:20]:
            made = runtime_credentials_rotate(tenant=connection.tenant)
            runs_release_waiting(tenant_id=connection.tenant_id)
            self.message_user(
                request,
                f"{connection.tenant.slug}: secret {made.secret} token {made.token} "
                "(copy them now: they are not shown again).",
                level=messages.WARNING,
            )
