"""The Django admin as the audit and operations console.

Superusers see every tenant; a tenant admin (staff with the admin role) sees only their own
tenant's rows, list filters and counts included. Conversations and messages are read-only here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from rest_framework.authtoken.models import TokenProxy

from conversations.agents.schedules import schedule_clean
from conversations.agents.services import agent_update
from conversations.models import (
    Agent,
    ApiToken,
    Conversation,
    Membership,
    Message,
    Tenant,
    TranscriptView,
)
from conversations.tenancy.managers import TenantQuerySet
from conversations.tenancy.permissions import membership_of
from conversations.tenancy.services import transcript_view_record

TRANSCRIPT_LIMIT = 200
COUNT_CAP = 10_000


def tenant_of_admin(request: HttpRequest) -> Tenant | None:
    """The tenant a tenant admin may see; None for superusers and for everyone else."""
    membership = membership_of(request.user)
    if membership is not None and membership.is_admin and request.user.is_staff:
        return membership.tenant
    return None


def is_tenant_admin(request: HttpRequest) -> bool:
    return tenant_of_admin(request) is not None


def user_column(field: str, description: str) -> Callable[[Any], str]:
    """A changelist column naming the user in ``field``, sortable by username. An e-mail used
    as a username may break before its "@" and after a dot, instead of widening the column
    until the next columns are pushed out of view (docs/OPERATIONS.md, "The console")."""

    @admin.display(description=description, ordering=f"{field}__username")
    def column(obj: Any) -> str:
        user = getattr(obj, field)
        if user is None:
            return "-"  # the changelist's empty value
        # Escaping writes no "@" and no ".", so the breaks go in after it.
        escaped = escape(user.get_username())
        return mark_safe(escaped.replace("@", "<wbr>@").replace(".", ".<wbr>"))  # noqa: S308

    column.__name__ = field  # the cells keep their class: field-<field>
    return column


class CappedCountPaginator(Paginator):
    """Counts at most COUNT_CAP rows: a full COUNT(*) over millions of messages is the slow part."""

    @cached_property
    def count(self) -> int:
        return int(self.object_list.order_by()[: COUNT_CAP + 1].count())  # type: ignore[attr-defined]


class TenantScopedAdmin(admin.ModelAdmin):
    """Scopes every queryset to the viewer's tenant; tenant admins may view, not change."""

    tenant_field = "tenant"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            # cross-tenant: superusers audit every tenant.
            return qs.cross_tenant() if isinstance(qs, TenantQuerySet) else qs
        tenant = tenant_of_admin(request)
        if tenant is None:
            return qs.none()
        if isinstance(qs, TenantQuerySet):
            return qs.for_tenant(tenant)
        return qs.filter(**{self.tenant_field: tenant.pk})

    def get_list_display(self, request: HttpRequest) -> Any:
        """A tenant admin sees one tenant: its name on every row says nothing, and the column
        goes (unless it names the row: the first column is the link to it)."""
        columns = super().get_list_display(request)
        if request.user.is_superuser:
            return columns
        return (columns[0], *(c for c in columns[1:] if c != "tenant"))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser or is_tenant_admin(request)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return request.user.is_superuser or is_tenant_admin(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return bool(request.user.is_superuser)


@admin.register(Tenant)
class TenantAdmin(TenantScopedAdmin):
    tenant_field = "pk"
    list_display = ("slug", "name", "created_at")
    search_fields = ("slug", "name")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return bool(request.user.is_superuser)


@admin.register(Membership)
class MembershipAdmin(TenantScopedAdmin):
    list_display = (user_column("user", "user"), "tenant", "role", "created_at")
    list_filter = (("tenant", admin.RelatedOnlyFieldListFilter), "role")
    list_select_related = ("user", "tenant")
    search_fields = ("user__username",)


@admin.register(Agent)
class AgentAdmin(TenantScopedAdmin):
    list_display = ("name", "tenant", "description", "is_paused", "next_run_at", "created_at")
    list_filter = (
        ("tenant", admin.RelatedOnlyFieldListFilter),
        ("paused_at", admin.EmptyFieldListFilter),
    )
    list_select_related = ("tenant",)
    search_fields = ("name",)  # descriptions are encrypted
    readonly_fields = (
        "id",
        "tenant",
        "name",
        "description",
        "config",
        "paused_at",
        "next_run_at",
        "created_by",
        "created_at",
    )
    actions = ("pause_agents", "resume_agents")

    @admin.display(boolean=True, description="paused", ordering="paused_at")
    def is_paused(self, obj: Agent) -> bool:
        return obj.paused

    def has_pause_permission(self, request: HttpRequest) -> bool:
        """Pausing and resuming is operations work: tenant admins may, for their tenant."""
        return bool(request.user.is_superuser or is_tenant_admin(request))

    @admin.action(
        description="Pause the selected agents (they run only when asked)", permissions=["pause"]
    )
    def pause_agents(self, request: HttpRequest, queryset: QuerySet[Agent]) -> None:
        count = _set_paused(queryset.filter(paused_at__isnull=True), paused=True)
        self.message_user(request, f"Paused {count} agent(s).")

    @admin.action(description="Resume the selected agents", permissions=["pause"])
    def resume_agents(self, request: HttpRequest, queryset: QuerySet[Agent]) -> None:
        count = _set_paused(queryset.filter(paused_at__isnull=False), paused=False)
        self.message_user(request, f"Resumed {count} agent(s).")

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        """Only the schedule is changed here (the chat and the API change the rest)."""
        return bool(request.user.is_superuser or is_tenant_admin(request))

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        kwargs["form"] = AgentScheduleForm
        return super().get_form(request, obj, change, **kwargs)

    def save_model(self, request: HttpRequest, obj: Agent, form: Any, change: bool) -> None:
        # Through the service, so next_run_at follows the new schedule.
        agent_update(agent=obj, schedule=form.cleaned_data.get("schedule"))


def _set_paused(queryset: QuerySet[Agent], *, paused: bool) -> int:
    agents = list(queryset[:1000])
    for agent in agents:
        agent_update(agent=agent, paused=paused)
    return len(agents)


class AgentScheduleForm(forms.ModelForm):
    """The schedule, validated as the API validates it."""

    class Meta:
        model = Agent
        fields = ("schedule",)

    def clean_schedule(self) -> Any:
        try:
            return schedule_clean(self.cleaned_data.get("schedule"))
        except ValidationError as exc:
            raise ValidationError(exc.message_dict.get("schedule", exc.messages)) from None


@admin.register(Conversation)
class ConversationAdmin(TenantScopedAdmin):
    list_display = (
        "id",
        "title",
        "tenant",
        user_column("user", "user"),
        "message_total",
        "updated_at",
    )
    list_filter = (
        ("tenant", admin.RelatedOnlyFieldListFilter),
        ("user", admin.RelatedOnlyFieldListFilter),
    )
    list_select_related = ("tenant", "user")
    date_hierarchy = "created_at"
    # Titles are encrypted at rest: the database cannot search them (docs/OPERATIONS.md).
    search_fields = ("=id", "user__username")
    ordering = ("-updated_at",)
    show_full_result_count = False
    paginator = CappedCountPaginator
    fields = (
        "id", "tenant", "user", "title", "message_count", "created_at", "updated_at",
        "metadata", "transcript",
    )  # fmt: skip
    readonly_fields = fields

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        response = super().change_view(request, object_id, form_url, extra_context)
        if request.method == "GET" and response.status_code == 200:
            conversation = self.get_object(request, object_id)
            if conversation is not None:
                transcript_view_record(conversation=conversation, viewer=request.user)
        return response

    @admin.display(description="messages", ordering="message_count")
    def message_total(self, obj: Conversation) -> int:
        return obj.message_count

    @admin.display(description="Transcript")
    def transcript(self, obj: Conversation) -> SafeString:
        messages = list(obj.messages.order_by("-seq")[:TRANSCRIPT_LIMIT])
        messages.reverse()
        rows = format_html_join(
            "",
            '<tr><td>{}</td><td>{}</td><td style="white-space:pre-wrap">{}</td><td>{}</td>'
            "<td>{}</td></tr>",
            (
                (
                    m.seq,
                    m.role,
                    m.content,
                    (m.metadata.get("intent") or {}).get("action_type", ""),
                    (m.metadata.get("intent") or {}).get("method", ""),
                )
                for m in messages
            ),
        )
        note = ""
        if obj.message_count > len(messages):
            url = (
                reverse("admin:conversations_message_changelist")
                + f"?conversation__id__exact={obj.id}"
            )
            note = format_html(
                '<p>Showing the last {} of {} messages. <a href="{}">All messages</a></p>',
                len(messages),
                obj.message_count,
                url,
            )
        return format_html(
            "{}<table><thead><tr><th>#</th><th>Role</th><th>Content</th><th>Intent</th>"
            "<th>Method</th></tr></thead><tbody>{}</tbody></table>",
            note,
            rows,
        )


class IntentFilter(admin.SimpleListFilter):
    """Filters assistant messages on a key of the intent stored with them."""

    key = ""

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return []

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value():
            # A plain column beside the encrypted metadata (Message.intent_action/_method).
            return queryset.filter(**{self.key: self.value()})
        return queryset


class ActionTypeFilter(IntentFilter):
    title = "action type"
    parameter_name = "action_type"
    key = "intent_action"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        from intents.types import ActionType

        return [(a.value, a.value) for a in ActionType]


class MethodFilter(IntentFilter):
    title = "intent method"
    parameter_name = "method"
    key = "intent_method"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        from intents.types import Method

        return [(m.value, m.value) for m in Method]


@admin.register(Message)
class MessageAdmin(TenantScopedAdmin):
    list_display = (
        "conversation",
        "seq",
        "role",
        "short_content",
        "action_type",
        "tenant",
        "created_at",
    )
    list_filter = (
        ("tenant", admin.RelatedOnlyFieldListFilter),
        "role",
        ActionTypeFilter,
        MethodFilter,
    )
    list_select_related = ("tenant", "conversation")
    search_fields = ("=conversation__id", "=id")
    ordering = ("-created_at",)
    show_full_result_count = False
    paginator = CappedCountPaginator
    fields = (
        "id", "tenant", "conversation", "seq", "role", "content", "token_count", "metadata",
        "client_message_id", "created_at",
    )  # fmt: skip
    readonly_fields = fields

    @admin.display(description="Content")
    def short_content(self, obj: Message) -> str:
        return obj.content if len(obj.content) <= 80 else obj.content[:79] + "…"

    @admin.display(description="Action")
    def action_type(self, obj: Message) -> str:
        return str((obj.metadata.get("intent") or {}).get("action_type", ""))


@admin.register(TranscriptView)
class TranscriptViewAdmin(TenantScopedAdmin):
    list_display = ("viewed_at", "viewer_username", "conversation_id", "tenant")
    list_filter = (("tenant", admin.RelatedOnlyFieldListFilter),)
    list_select_related = ("tenant",)
    search_fields = ("viewer_username", "=conversation_id")
    date_hierarchy = "viewed_at"

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(TenantScopedAdmin):
    """Tokens by their first characters: the key itself is never stored, so never shown."""

    tenant_field = "user__membership__tenant"
    list_display = (
        "prefix",
        user_column("user", "user"),
        "created_at",
        "last_used_at",
        "revoked_at",
    )
    list_select_related = ("user",)
    list_filter = ("revoked_at",)
    search_fields = ("prefix", "user__username")
    exclude = ("digest",)
    readonly_fields = ("prefix", "user", "created_at", "last_used_at", "revoked_at")
    actions = ("revoke",)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return obj is None and (request.user.is_superuser or is_tenant_admin(request))

    @admin.action(description="Revoke selected tokens")
    def revoke(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        count = queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        self.message_user(request, f"{count} token(s) revoked.")


# DRF's plaintext tokens are not used (migration 0004 hashed them into API tokens): their page
# would only invite keys that never authenticate.
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)

# The runs' pages (registered on import: Django discovers this module only).
import conversations.runs.admin  # noqa: E402, F401
