"""Skill sessions, skills and retention runs in the operations console.

Sessions: filter by tenant, state and status, read the context (decoded, read-only), and mark
sessions abandoned or deleted through the services. Retention runs are a read-only record; the
changelist's buttons start a dry run or a real run (superusers only).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_POST

from conversations.admin import TenantScopedAdmin, user_column
from skill_sessions import services
from skill_sessions.context import UnreadableContext, context_loads
from skill_sessions.models import RetentionRun, Skill, SkillCreationSession
from skill_sessions.retention import retention_run


@admin.register(SkillCreationSession)
class SkillCreationSessionAdmin(TenantScopedAdmin):
    list_display = (
        "session_id", "tenant", user_column("user", "user"), "state_name", "status", "skill_name",
        "updated_at",
    )  # fmt: skip
    list_filter = (("tenant", admin.RelatedOnlyFieldListFilter), "status", "state")
    list_select_related = ("tenant", "user")
    search_fields = ("session_id", "skill_name")
    exclude = ("context",)
    readonly_fields = (
        "tenant", "user", "session_id", "conversation_id", "state", "skill_name", "status",
        "status_changed_at", "last_activity_at", "version", "created_at", "updated_at",
        "document",
    )  # fmt: skip
    actions = ("mark_abandoned", "soft_delete")

    @admin.display(description="state", ordering="state")
    def state_name(self, obj: SkillCreationSession) -> SafeString:
        """The state as stored, which may break after an underscore in a narrow column."""
        parts = ((part,) for part in obj.state.split("_"))
        return format_html_join(mark_safe("_<wbr>"), "{}", parts)

    @admin.display(description="context (read-only)")
    def document(self, obj: SkillCreationSession) -> SafeString:
        try:
            data = context_loads(obj.context).to_json()
        except UnreadableContext as exc:
            return format_html("<em>unreadable: {}</em>", str(exc))
        return format_html("<pre>{}</pre>", json.dumps(data, indent=2, ensure_ascii=False))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser) and obj is None  # actions, not edits

    @admin.action(description="Mark selected sessions abandoned")
    def mark_abandoned(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        count = sum(services.session_mark_abandoned(session=row) for row in queryset)
        self.message_user(request, f"{count} session(s) marked abandoned.")

    @admin.action(description="Delete selected sessions (soft: retention purges them)")
    def soft_delete(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for session in queryset:
            services.session_delete(session=session)
        self.message_user(request, f"{queryset.count()} session(s) deleted.")


@admin.register(Skill)
class SkillAdmin(TenantScopedAdmin):
    list_display = ("name", "tenant", user_column("created_by", "created by"), "created_at")
    list_filter = (("tenant", admin.RelatedOnlyFieldListFilter),)
    list_select_related = ("tenant", "created_by")
    search_fields = ("name",)  # descriptions are encrypted
    readonly_fields = ("tenant", "created_by", "name", "description", "definition",
                       "session_id", "created_at")  # fmt: skip


@admin.register(RetentionRun)
class RetentionRunAdmin(admin.ModelAdmin):
    list_display = ("started_at", "as_of", "trigger", "dry_run", "tenant_slug", "totals")
    list_filter = ("trigger", "dry_run")
    readonly_fields = ("started_at", "finished_at", "as_of", "trigger", "dry_run",
                       "tenant_slug", "counts", "per_tenant")  # fmt: skip

    @admin.display(description="counts")
    def totals(self, obj: RetentionRun) -> str:
        return ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in (obj.counts or {}).items())

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_urls(self) -> list[URLPattern]:
        run = self.admin_site.admin_view(require_POST(self.start_run))
        return [path("start/", run, name="skill_sessions_retentionrun_start"), *super().get_urls()]

    def start_run(self, request: HttpRequest) -> HttpResponse:
        if not request.user.is_superuser:
            return HttpResponse(status=403)
        dry = request.POST.get("dry_run") == "1"
        run = retention_run(dry_run=dry, trigger="admin")
        self.message_user(
            request,
            f"{'Dry run' if dry else 'Retention run'} done: {self.totals(run)}.",
            messages.SUCCESS,
        )
        return HttpResponseRedirect(reverse("admin:skill_sessions_retentionrun_changelist"))
