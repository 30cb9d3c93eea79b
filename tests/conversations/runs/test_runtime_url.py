"""A tenant's own runtime URL, checked again at dispatch time: refused before any request
unless allowed, redirects never followed, a name that does not resolve fails the run."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from conversations.models import AgentRun, RuntimeConnection
from tests.conversations.runs.conftest import Connected


def _own_url(connected: Connected, url: str) -> None:
    """The tenant's own URL, written as stored (the admin's check is not what is tested)."""
    RuntimeConnection.objects.for_tenant(connected.world.tenant_a).update(url=url)


def _run_now(connected: Connected) -> str:
    client = connected.world.client(connected.world.owner)
    response = client.post(f"/api/v1/agents/{connected.agent.id}/runs/")
    assert response.status_code == 201, response.content
    return str(response.json()["id"])


def _wait_final(connected: Connected, run_id: str, timeout: float = 10.0) -> AgentRun:
    deadline = time.monotonic() + timeout
    while True:
        run = connected.run(run_id)
        if run.final or time.monotonic() > deadline:
            return run
        time.sleep(0.05)


def _runtime_path(connected: Connected) -> str:
    return f"127.0.0.1:{connected.runtime.port}/dispatch"


@pytest.mark.parametrize(
    ("scheme", "reason"),
    [
        ("http", "The runtime URL must use https."),
        ("https", "resolves to an address that is not public"),
    ],
)
def test_a_tenant_url_on_a_private_address_is_refused_before_any_request(
    connected: Connected, settings: Any, scheme: str, reason: str
) -> None:
    settings.OMNIFORGE_RUNTIME_ALLOWED_HOSTS = []
    _own_url(connected, f"{scheme}://{_runtime_path(connected)}")
    run = _wait_final(connected, _run_now(connected))
    assert run.status == AgentRun.Status.FAILED
    assert reason in run.reason
    assert run.attempts == 0  # no attempt was made
    assert connected.runtime.dispatches == [] and connected.runtime.refused == []
    shown = connected.world.client(connected.world.owner).get(f"/api/v1/runs/{run.id}/").json()
    assert shown["status"] == "failed" and reason in shown["reason"]


def test_an_allowed_host_receives_the_dispatch(connected: Connected, settings: Any) -> None:
    settings.OMNIFORGE_RUNTIME_ALLOWED_HOSTS = ["127.0.0.1"]
    settings.OMNIFORGE_RUNTIME_URL = ""  # only the tenant's own URL leads to the runtime
    _own_url(connected, f"http://{_runtime_path(connected)}")
    run_id = _run_now(connected)
    dispatch = connected.runtime.wait_for_dispatches(1)[0]
    assert dispatch.run_id == run_id
    connected.runtime.wait_for_callbacks(2)
    assert _wait_final(connected, run_id).status == AgentRun.Status.SUCCEEDED


class _Recorder(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, location: str = "") -> None:
        self.location = location  # answers 302 to it; empty: answers 204
        self.received: list[str] = []
        super().__init__(("127.0.0.1", 0), _Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"


class _Handler(BaseHTTPRequestHandler):
    server: _Recorder

    def log_message(self, format: str, *args: Any) -> None:
        return

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.server.received.append(f"{self.command} {self.path}")
        if self.server.location:
            self.send_response(302)
            self.send_header("Location", self.server.location)
        else:
            self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = _answer


@contextlib.contextmanager
def _serving(location: str = "") -> Iterator[_Recorder]:
    server = _Recorder(location)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_a_redirect_fails_the_run_at_once_and_is_not_followed(
    connected: Connected, settings: Any
) -> None:
    settings.OMNIFORGE_RUNTIME_ALLOWED_HOSTS = ["127.0.0.1"]
    with _serving() as target, _serving(location=target.url) as redirector:
        _own_url(connected, redirector.url)
        run = _wait_final(connected, _run_now(connected))
        assert run.status == AgentRun.Status.FAILED
        assert run.reason == "The agent runtime answered a redirect (HTTP 302)."
        assert run.attempts == 1
        assert redirector.received == ["POST /"]
        assert target.received == []


def _fails_as_unresolved(connected: Connected, settings: Any, *, allowed: bool) -> None:
    settings.OMNIFORGE_RUNTIME_ALLOWED_HOSTS = ["does-not-exist.invalid"] if allowed else []
    _own_url(connected, "https://does-not-exist.invalid/")
    run = _wait_final(connected, _run_now(connected))
    assert run.status == AgentRun.Status.FAILED
    assert "could not be resolved" in run.reason, run.reason
    assert connected.runtime.dispatches == []


def test_a_name_that_does_not_resolve_fails_the_run(connected: Connected, settings: Any) -> None:
    _fails_as_unresolved(connected, settings, allowed=False)


def test_an_allowed_name_that_does_not_resolve_is_retried_as_unreachable(
    connected: Connected, settings: Any
) -> None:
    # An allowed host is the operator's word: it is not checked, and a name that does not
    # resolve (yet: DNS may be catching up) is retried like any unreachable runtime.
    settings.OMNIFORGE_RUNTIME_ALLOWED_HOSTS = ["does-not-exist.invalid"]
    _own_url(connected, "https://does-not-exist.invalid/")
    run = _wait_final(connected, _run_now(connected))
    assert run.status == AgentRun.Status.FAILED
    assert run.reason == "The agent runtime could not be reached."
    assert run.attempts == settings.OMNIFORGE_RUNTIME_MAX_ATTEMPTS
