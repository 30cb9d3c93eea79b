"""Links between pages of a list, as the API answers them."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.utils.urls import remove_query_param, replace_query_param


def page_url(request: Request, param: str, value: str | None, *, drop: str = "") -> str | None:
    if value is None:
        return None
    url = request.build_absolute_uri()
    if drop:
        url = remove_query_param(url, drop)
    return replace_query_param(url, param, value)
