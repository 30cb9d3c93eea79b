"""Tenant-scoped managers that fail closed.

Every tenant-owned model uses ``TenantManager`` as its default manager. A queryset from it can
be built and chained freely, but evaluating it raises ``TenantScopeError`` unless one of these
holds:

- it was narrowed with ``.for_tenant(tenant)`` (or any top-level ``tenant=`` / ``tenant__in=``
  filter, which is what Django's own unique-constraint validation produces);
- it came from a related manager (``conversation.messages``): the parent row is already scoped;
- it was opened with ``.cross_tenant()``, which callers must justify with a
  ``# cross-tenant: why`` comment (admin, migrations, retention).

Django's cascade collector and reverse one-to-one access use the base manager, which stays the
plain ``models.Manager``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self, TypeVar

from django.db import models
from django.db.models.lookups import Exact, In

if TYPE_CHECKING:
    from conversations.models import Tenant

_M = TypeVar("_M", bound=models.Model)


class TenantScopeError(RuntimeError):
    """A query on tenant-owned rows was about to run without a tenant scope."""


def _constrains_tenant(query: Any) -> bool:
    where = query.where
    if where.connector != "AND" or where.negated:
        return False
    for child in where.children:
        target = getattr(getattr(child, "lhs", None), "target", None)
        if (
            isinstance(child, Exact | In)
            and target is not None
            and target.name == "tenant"
            and child.lhs.alias == query.base_table
        ):
            return True
    return False


class TenantQuerySet(models.QuerySet[_M]):
    _scope_ok: bool = False

    def for_tenant(self, tenant: Tenant | int) -> Self:
        if tenant is None:
            raise TenantScopeError("for_tenant() needs a tenant, got None")
        tenant_id = tenant if isinstance(tenant, int) else tenant.pk
        qs = self.filter(tenant_id=tenant_id)
        qs._scope_ok = True
        return qs

    def cross_tenant(self) -> Self:
        """Rows of every tenant. Each caller says why in a ``# cross-tenant:`` comment."""
        qs = self.all()
        qs._scope_ok = True
        return qs

    def _clone(self) -> Self:
        clone = super()._clone()  # type: ignore[misc]
        clone._scope_ok = self._scope_ok
        return clone

    def _check_scope(self) -> None:
        if self._scope_ok or _constrains_tenant(self.query):
            return
        raise TenantScopeError(
            f"Query on {self.model.__name__} without a tenant scope: use .for_tenant(tenant)"
        )

    # Every way a queryset reaches the database goes through one of these.
    def _fetch_all(self) -> None:
        if self._result_cache is None:
            self._check_scope()
        super()._fetch_all()

    def iterator(self, chunk_size: int | None = None) -> Any:
        self._check_scope()
        return super().iterator(chunk_size=chunk_size)

    def count(self) -> int:
        if self._result_cache is None:
            self._check_scope()
        return super().count()

    def exists(self) -> bool:
        if self._result_cache is None:
            self._check_scope()
        return super().exists()

    def contains(self, obj: models.Model) -> bool:
        self._check_scope()
        return super().contains(obj)

    def aggregate(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        self._check_scope()
        return super().aggregate(*args, **kwargs)

    def update(self, **kwargs: Any) -> int:
        self._check_scope()
        return super().update(**kwargs)

    def delete(self) -> tuple[int, dict[str, int]]:
        self._check_scope()
        return super().delete()

    def in_bulk(self, *args: Any, **kwargs: Any) -> dict[Any, _M]:
        self._check_scope()
        return super().in_bulk(*args, **kwargs)

    def explain(self, *args: Any, **kwargs: Any) -> str:
        self._check_scope()
        return super().explain(*args, **kwargs)


class TenantManager(models.Manager[_M]):
    """Default manager of tenant-owned models; see the module docstring.

    A model with QuerySet vocabulary of its own names its ``TenantQuerySet`` subclass in
    ``queryset_class``.
    """

    queryset_class: type[TenantQuerySet[Any]] = TenantQuerySet

    def get_queryset(self) -> TenantQuerySet[_M]:
        qs: TenantQuerySet[_M] = self.queryset_class(self.model, using=self._db)
        # Related managers (conversation.messages) carry the parent instance: the foreign key
        # filter they add scopes the rows as tightly as the parent itself is scoped.
        if getattr(self, "instance", None) is not None:
            qs._scope_ok = True
        return qs

    def for_tenant(self, tenant: Tenant | int) -> TenantQuerySet[_M]:
        return self.get_queryset().for_tenant(tenant)

    def cross_tenant(self) -> TenantQuerySet[_M]:
        return self.get_queryset().cross_tenant()
