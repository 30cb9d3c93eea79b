"""Pages of a list as the API answers them: keyset positions, cursors, links between pages.

A cursor is "n" (the next page: the rows after a position) or "p" (the previous page: the rows
before it), then the position of the row at the page's edge in the list's order. Every string
matching a list's documented pattern is a valid position, so the OpenAPI document can say
exactly what a cursor is; a position between rows, or past either end, is a page like any other.
Keyset pages stay stable while rows are written, and page N costs the same as page 1, as long as
an index holds the list's order (each list's index names its caller).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from operator import attrgetter
from typing import Any, Generic, TypeVar

from django.core.exceptions import ValidationError
from django.db.models import Model, Q, QuerySet
from rest_framework.request import Request
from rest_framework.utils.urls import remove_query_param, replace_query_param

Row = TypeVar("Row", bound=Model)

# Newest first: microseconds since the epoch, then the row's id (ids break ties).
TIME_CURSOR_PATTERN = r"^[np][0-9]{1,16}\.[0-9A-Za-z]{1,26}$"
# By a name unique in the tenant (a slug): the name alone.
NAME_CURSOR_PATTERN = r"^[np][A-Za-z0-9_-]{1,80}$"
_TIME_CURSOR = re.compile(TIME_CURSOR_PATTERN)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


@dataclass(frozen=True)
class Page(Generic[Row]):
    items: list[Row]
    next_cursor: str | None
    previous_cursor: str | None


def keyset_page(
    rows: QuerySet[Row],
    *,
    order: Sequence[str],
    limit: int,
    cursor: str | None,
    write: Callable[[Row], str],
    read: Callable[[str], Sequence[Any]],
) -> Page[Row]:
    """One page of ``rows`` in ``order`` (fields, "-" for descending, unique together).

    ``write`` gives a row's position as a cursor holds it; ``read`` turns a position back into
    the values of ``order``'s fields.
    """
    backwards = cursor is not None and cursor.startswith("p")
    if cursor:
        rows = rows.filter(_beyond(order, read(cursor[1:]), backwards=backwards))
    reading = [_reversed(field) for field in order] if backwards else list(order)
    found = list(rows.order_by(*reading)[: limit + 1])
    more = len(found) > limit
    found = found[:limit]
    if backwards:
        found.reverse()
        has_previous, has_next = more, True
    else:
        has_previous, has_next = bool(cursor), more
    return Page(
        items=found,
        next_cursor=f"n{write(found[-1])}" if found and has_next else None,
        previous_cursor=f"p{write(found[0])}" if found and has_previous else None,
    )


def newest_first(rows: QuerySet[Row], *, field: str, limit: int, cursor: str | None) -> Page[Row]:
    """A page of ``rows`` by ``field`` (a datetime), newest first, the id breaking ties."""
    return keyset_page(
        rows,
        order=(f"-{field}", "-id"),
        limit=limit,
        cursor=cursor,
        write=lambda row: f"{(getattr(row, field) - _EPOCH) // _MICROSECOND}.{row.pk}",
        read=_read_time_position,
    )


def by_name(rows: QuerySet[Row], *, limit: int, cursor: str | None) -> Page[Row]:
    """A page of ``rows`` by their ``name`` (unique, so the name alone is a position)."""
    return keyset_page(
        rows, order=("name",), limit=limit, cursor=cursor, write=attrgetter("name"),
        read=lambda position: (position,),
    )  # fmt: skip


def page_body(request: Request, page: Page[Any], serializer: Callable[..., Any]) -> dict[str, Any]:
    """A cursor page as every list answers it: ``{"results", "next", "previous"}``."""
    return {
        "results": serializer(page.items, many=True).data,
        "next": page_url(request, "cursor", page.next_cursor),
        "previous": page_url(request, "cursor", page.previous_cursor),
    }


def page_url(request: Request, param: str, value: str | None, *, drop: str = "") -> str | None:
    if value is None:
        return None
    url = request.build_absolute_uri()
    if drop:
        url = remove_query_param(url, drop)
    return replace_query_param(url, param, value)


def _read_time_position(position: str) -> tuple[datetime, str]:
    if not _TIME_CURSOR.match(f"n{position}"):
        raise ValidationError({"cursor": ["Invalid cursor."]}, code="invalid_cursor")
    micros, row_id = position.split(".", 1)
    return _EPOCH + int(micros) * _MICROSECOND, row_id


def _reversed(field: str) -> str:
    return field[1:] if field.startswith("-") else f"-{field}"


def _beyond(order: Sequence[str], values: Sequence[Any], *, backwards: bool) -> Q:
    """The rows after the position in ``order`` (before it when ``backwards``).

    Lexicographic: a greater first field, or an equal first field and a greater second…
    """
    beyond = Q()
    for i, field in enumerate(order):
        name, descending = field.removeprefix("-"), field.startswith("-") != backwards
        equal = {order[j].removeprefix("-"): values[j] for j in range(i)}
        beyond |= Q(**equal, **{f"{name}__{'lt' if descending else 'gt'}": values[i]})
    if len(order) == 1:
        return beyond
    # Implied by the OR above, but PostgreSQL does not see it there: said on its own, it bounds
    # the index scan, so a page deep in the list does not read every row before it.
    first, descending = order[0].removeprefix("-"), order[0].startswith("-") != backwards
    return Q(**{f"{first}__{'lte' if descending else 'gte'}": values[0]}) & beyond
