from __future__ import annotations

from typing import Any

import pytest
from django.test import Client


@pytest.mark.django_db
def test_healthz_reports_each_dependency() -> None:
    response = Client().get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"] == "ok"


@pytest.mark.django_db
def test_healthz_is_503_naming_a_broker_that_is_down(settings: Any) -> None:
    from config.celery import app

    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    original = app.conf.broker_url
    app.conf.broker_url = settings.REDIS_URL
    try:
        response = Client().get("/healthz")
    finally:
        app.conf.broker_url = original
    assert response.status_code == 503
    assert response.json()["checks"]["broker"] == "down"
    assert response.json()["checks"]["database"] == "ok"
