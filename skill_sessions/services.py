"""Skill-creation sessions and skills: save, load, list, delete; every read scoped to a tenant.

Saving is optimistic: a save names the version it read, and a session saved by someone else in
between is *refused* (``StaleSession``), never silently overwritten; the caller reloads and
answers again from the newer state (the chat turn turns the refusal into a reply saying so).
Reads go through Django's cache (Redis with several processes, local memory embedded): the
entry for a session names its current version and holds that version's document, encrypted like
the row; a save writes the new version through once its transaction commits.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from conversations.agents.selectors import agent_name
from conversations.api.pagination import Page, by_name, newest_first
from conversations.models import Membership, Tenant
from conversations.models.fields import decrypt_text, encrypt_text
from skill_sessions.context import SkillContext, UnreadableContext, context_dumps, context_loads
from skill_sessions.models import Skill, SkillCreationSession

logger = logging.getLogger("omniforge.skills")
CACHE_TTL_S = 3600
Status = SkillCreationSession.Status
_FINAL_STATES = {"completed": Status.COMPLETED, "cancelled": Status.ABANDONED}


class StaleSession(Exception):
    """The session changed since it was read: reload it and answer again."""


@dataclass(frozen=True)
class LoadedSession:
    row: SkillCreationSession
    context: SkillContext


def _key(tenant_id: int, session_id: str) -> str:
    return f"omniforge:skill-session:{tenant_id}:{session_id}"


def _cache_put(row: SkillCreationSession, stored: str) -> None:
    key = _key(row.tenant_id, row.session_id)
    try:
        cache.set_many(
            {
                key: row.version,
                f"{key}:v{row.version}": {
                    "pk": row.pk,
                    "user_id": row.user_id,
                    "status": row.status,
                    "document": encrypt_text(stored),
                },
            },
            CACHE_TTL_S,
        )
    except Exception:
        logger.warning("skills: could not cache a session", exc_info=True)


def session_new_id() -> str:
    return "sk_" + secrets.token_urlsafe(12)


@transaction.atomic
def session_save(
    *,
    tenant: Tenant,
    user: User,
    session_id: str,
    context: SkillContext,
    expected_version: int,
    conversation_id: str = "",
    user_spoke: bool = True,
) -> SkillCreationSession:
    """Create (``expected_version`` 0) or update the session; ``StaleSession`` if it moved on."""
    now = timezone.now()
    stored = context_dumps(context)
    status = _FINAL_STATES.get(context.state, Status.ERROR if context.state == "error" else None)
    if expected_version == 0:
        row = SkillCreationSession(
            tenant=tenant,
            user=user,
            session_id=session_id,
            conversation_id=conversation_id,
            context=stored,
            state=context.state,
            skill_name=context.name[:80],
            status=status or Status.ACTIVE,
            status_changed_at=now,
            last_activity_at=now,
            version=1,
            created_at=now,
            updated_at=now,
        )
        try:
            with transaction.atomic():
                row.save(force_insert=True)
        except IntegrityError as exc:
            raise StaleSession(session_id) from exc
    else:
        current = (
            SkillCreationSession.objects.for_tenant(tenant)
            .filter(session_id=session_id)
            .only("status")
            .first()
        )
        if current is None:
            raise StaleSession(session_id)
        changes: dict[str, Any] = {
            "context": stored,  # the field encrypts it, as on insert
            "state": context.state,
            "skill_name": context.name[:80],
            "version": expected_version + 1,
            "updated_at": now,
        }
        if user_spoke:
            changes["last_activity_at"] = now
        new_status = status or Status.ACTIVE
        if new_status != current.status:
            changes["status"], changes["status_changed_at"] = new_status, now
        # Compare-and-set: only the version that was read may be replaced.
        updated = (
            SkillCreationSession.objects.for_tenant(tenant)
            .filter(session_id=session_id, version=expected_version)
            .update(**changes)
        )
        if not updated:
            raise StaleSession(session_id)
        row = SkillCreationSession.objects.for_tenant(tenant).get(session_id=session_id)
    transaction.on_commit(lambda: _cache_put(row, stored))
    return row


def session_load(*, tenant: Tenant, session_id: str) -> LoadedSession | None:
    """The session and its context, through the cache; None if missing or unreadable."""
    key = _key(tenant.pk, session_id)
    try:
        version = cache.get(key)
        entry = cache.get(f"{key}:v{version}") if version else None
    except Exception:
        entry = None
    row: SkillCreationSession | None = None
    stored: str | None = None
    if entry:
        row = (
            SkillCreationSession.objects.for_tenant(tenant)
            .filter(pk=entry["pk"], version=version)
            .defer("context")
            .first()
        )
        stored = decrypt_text(entry["document"]) if row is not None else None
    if row is None or stored is None:
        row = SkillCreationSession.objects.for_tenant(tenant).filter(session_id=session_id).first()
        if row is None:
            return None
        stored = row.context
        try:
            if cache.add(key, row.version, CACHE_TTL_S):  # only if no newer version is named
                _cache_put(row, stored)
        except Exception:
            logger.warning("skills: could not cache a session", exc_info=True)
    try:
        return LoadedSession(row=row, context=context_loads(stored))
    except UnreadableContext as exc:
        logger.error("skills: session %s has an unreadable document: %s", session_id, exc)
        return None


def sessions_visible(*, tenant: Tenant, user: User) -> QuerySet[SkillCreationSession]:
    """A member's own sessions; a tenant admin's view is the tenant's."""
    rows = SkillCreationSession.objects.for_tenant(tenant)
    is_admin = Membership.objects.filter(
        tenant=tenant, user=user, role=Membership.Role.ADMIN
    ).exists()
    return rows if is_admin else rows.filter(user=user)


def sessions_page(
    *, tenant: Tenant, user: User, status: str | None = None, limit: int, cursor: str | None
) -> Page[SkillCreationSession]:
    """One page of the sessions the caller sees, most recently updated first."""
    rows = sessions_visible(tenant=tenant, user=user).select_related("user")
    rows = rows.filter(status=status) if status else rows.exclude(status=Status.DELETED)
    return newest_first(rows, field="updated_at", limit=limit, cursor=cursor)


def session_open_in(
    *, tenant: Tenant, user: User, conversation_id: str
) -> SkillCreationSession | None:
    """The user's latest active session started in this conversation ("let's finish that")."""
    return (
        SkillCreationSession.objects.for_tenant(tenant)
        .filter(user=user, conversation_id=conversation_id, status=Status.ACTIVE)
        .order_by("-updated_at")
        .first()
    )


def session_delete(*, session: SkillCreationSession) -> None:
    """Soft delete: the row stays until retention purges it."""
    now = timezone.now()
    SkillCreationSession.objects.for_tenant(session.tenant_id).filter(pk=session.pk).update(
        status=Status.DELETED, status_changed_at=now, updated_at=now, version=session.version + 1
    )
    cache.delete(_key(session.tenant_id, session.session_id))


def session_mark_abandoned(*, session: SkillCreationSession) -> bool:
    """An active session abandoned now; its last activity is kept (retention counts from it)."""
    now = timezone.now()
    changed = (
        SkillCreationSession.objects.for_tenant(session.tenant_id)
        .filter(pk=session.pk, status=Status.ACTIVE)
        .update(status=Status.ABANDONED, status_changed_at=now, updated_at=now,
                version=session.version + 1)
    )  # fmt: skip
    cache.delete(_key(session.tenant_id, session.session_id))
    return bool(changed)


def session_purge(*, session: SkillCreationSession) -> None:
    """Remove the row for good (retention does this in batches; this is the single one)."""
    SkillCreationSession.objects.for_tenant(session.tenant_id).filter(pk=session.pk).delete()
    cache.delete(_key(session.tenant_id, session.session_id))


def skill_create(
    *, tenant: Tenant, user: User, skill_id: str, name: str, description: str,
    definition: dict[str, Any], session_id: str = "",
) -> Skill:  # fmt: skip
    """Create the skill; with ``skill_id`` chosen up front a second call returns the first's."""
    existing = Skill.objects.for_tenant(tenant).filter(id=skill_id).first()
    if existing is not None:
        return existing
    base = agent_name(name) or "skill"
    slug, n = base, 2
    while Skill.objects.for_tenant(tenant).filter(name=slug).exists():
        slug, n = f"{base}-{n}"[:80], n + 1
    return Skill.objects.create(
        id=skill_id, tenant=tenant, created_by=user, name=slug, description=description[:2000],
        definition={**definition, "name": slug}, session_id=session_id,
    )  # fmt: skip


def skills_list(*, tenant: Tenant) -> QuerySet[Skill]:
    return Skill.objects.for_tenant(tenant).order_by("name")


def skills_page(*, tenant: Tenant, limit: int, cursor: str | None) -> Page[Skill]:
    """One page of the tenant's skills by name, as the chat lists them."""
    rows = Skill.objects.for_tenant(tenant).select_related("created_by")
    return by_name(rows, limit=limit, cursor=cursor)
