"""Fault drills: the product, as several real processes on PostgreSQL and Redis, made to
survive a dependency going away, a worker killed mid-task, a failing LLM provider and load.

They take minutes and need the machine's PostgreSQL and Redis, so they run only with
``OMNIFORGE_FAULT_TESTS=1`` (CI's PostgreSQL + Redis run sets it). With it set, a missing
service fails the drill instead of skipping it: a drill that did not run must never look green.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: Any, items: list[pytest.Item]) -> None:
    enabled = os.environ.get("OMNIFORGE_FAULT_TESTS") == "1"
    skip = pytest.mark.skip(reason="fault drill: set OMNIFORGE_FAULT_TESTS=1 (CI does)")
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.faults)
            if not enabled:
                item.add_marker(skip)


@pytest.fixture(autouse=True)
def _real_services() -> None:
    """The drills are about PostgreSQL and Redis: without them they cannot say anything."""
    missing = []
    if connection.vendor != "postgresql":
        missing.append("DATABASE_URL (PostgreSQL)")
    if not os.environ.get("REDIS_URL"):
        missing.append("REDIS_URL")
    if missing:
        pytest.fail(f"OMNIFORGE_FAULT_TESTS=1 but {' and '.join(missing)} not set", pytrace=False)
