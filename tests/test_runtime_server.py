"""The reference runtime itself: its signature check, its recording and its callbacks."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.runtime_server import Outcome, RuntimeServer, runtime_server, sign, verify

SECRET = "s3cret-ü"
TOKEN = "callback-token"


def _dispatch_body(run_id: str, callback_url: str) -> bytes:
    return json.dumps(
        {
            "version": 1,
            "run": {
                "id": run_id,
                "trigger": "chat",
                "requested_by": "alice",
                "callback_url": callback_url,
                "agent": {"id": "a1", "name": "jira-monitor", "config": {}},
            },
        }
    ).encode()


def _post(url: str, body: bytes, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def _signed_post(server: RuntimeServer, body: bytes, timestamp: int | None = None) -> int:
    ts = int(time.time()) if timestamp is None else timestamp
    headers = {
        "Content-Type": "application/json",
        "X-OmniForge-Timestamp": str(ts),
        "X-OmniForge-Signature": sign(SECRET, ts, body),
    }
    return _post(server.url, body, headers)


class _Endpoint:
    """A tiny product stand-in: records each callback and answers 204."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, str], dict[str, Any]]] = []
        self.lock = threading.Lock()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with endpoint.lock:
                    endpoint.requests.append((self.path, dict(self.headers), json.loads(raw)))
                self.send_response(204)
                self.end_headers()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, run_id: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/api/v1/runs/{run_id}/events/"


@pytest.fixture
def endpoint() -> Iterator[_Endpoint]:
    ep = _Endpoint()
    ep.thread.start()
    yield ep
    ep.httpd.shutdown()
    ep.httpd.server_close()
    ep.thread.join(timeout=5)


# -- sign and verify ------------------------------------------------------------------------


def test_sign_matches_an_independently_computed_vector() -> None:
    body = b'{"version": 1}'
    expected = hmac.new(
        "s3cret-ü".encode(), b'1700000000.{"version": 1}', hashlib.sha256
    ).hexdigest()
    assert sign(SECRET, 1700000000, body) == f"sha256={expected}"
    assert verify(SECRET, "1700000000", f"sha256={expected}", body, now=1700000000) is None


def test_verify_refuses_a_wrong_signature() -> None:
    body = b"{}"
    assert verify(SECRET, "100", sign("other", 100, body), body, now=100) == "wrong signature"
    assert verify(SECRET, "100", sign(SECRET, 100, b"{ }"), body, now=100) == "wrong signature"
    assert verify(SECRET, "101", sign(SECRET, 100, body), body, now=100) == "wrong signature"


def test_verify_refuses_stale_and_future_timestamps() -> None:
    body = b"{}"
    now = 1_700_000_000
    old, new = now - 301, now + 301
    assert verify(SECRET, str(old), sign(SECRET, old, body), body, now=now) == "stale timestamp"
    assert verify(SECRET, str(new), sign(SECRET, new, body), body, now=now) == (
        "timestamp in the future"
    )
    edge = now - 300
    assert verify(SECRET, str(edge), sign(SECRET, edge, body), body, now=now) is None


@pytest.mark.parametrize(
    ("timestamp", "signature", "reason"),
    [
        (None, "sha256=" + "0" * 64, "missing timestamp"),
        ("12a", "sha256=" + "0" * 64, "malformed timestamp"),
        ("-5", "sha256=" + "0" * 64, "malformed timestamp"),
        ("100", None, "missing signature"),
        ("100", "0" * 64, "malformed signature"),
        ("100", "sha1=" + "0" * 40, "malformed signature"),
        ("100", "sha256=" + "z" * 64, "malformed signature"),
        ("100", "sha256=abc", "malformed signature"),
    ],
)
def test_verify_refuses_malformed_headers(
    timestamp: str | None, signature: str | None, reason: str
) -> None:
    assert verify(SECRET, timestamp, signature, b"{}", now=100) == reason


def test_verify_refuses_without_a_secret() -> None:
    assert verify("", "100", sign("", 100, b"{}"), b"{}", now=100) == "no secret configured"


# -- the live receiver ----------------------------------------------------------------------


def test_a_signed_dispatch_is_accepted_and_recorded() -> None:
    with runtime_server(secret=SECRET, default=Outcome.silent()) as server:
        body = _dispatch_body("run-1", "http://127.0.0.1:9/unused")
        assert _signed_post(server, body) == 202
        (dispatch,) = server.wait_for_dispatches(1)
        assert dispatch.run_id == "run-1"
        assert dispatch.attempt == 1
        assert dispatch.status == 202
        assert dispatch.raw == body
        assert dispatch.body["run"]["agent"]["name"] == "jira-monitor"
        assert dispatch.headers["content-type"] == "application/json"
        assert server.refused == []
        # A retry is signed afresh (a new timestamp); it counts as the run's second attempt.
        assert _signed_post(server, body, timestamp=int(time.time()) - 1) == 202
        assert server.wait_for_dispatches(2)[1].attempt == 2


def test_an_unsigned_dispatch_is_refused_and_recorded() -> None:
    with runtime_server(secret=SECRET) as server:
        body = _dispatch_body("run-1", "http://127.0.0.1:9/unused")
        assert _post(server.url, body, {"Content-Type": "application/json"}) == 401
        assert server.dispatches == []
        (refusal,) = server.refused
        assert refusal.reason == "missing timestamp"
        assert refusal.status == 401
        assert refusal.raw == body


def test_a_replayed_dispatch_is_refused() -> None:
    with runtime_server(secret=SECRET, default=Outcome.silent()) as server:
        body = _dispatch_body("run-1", "http://127.0.0.1:9/unused")
        ts = int(time.time())
        headers = {
            "X-OmniForge-Timestamp": str(ts),
            "X-OmniForge-Signature": sign(SECRET, ts, body),
        }
        assert _post(server.url, body, headers) == 202
        assert _post(server.url, body, headers) == 401
        assert [r.reason for r in server.refused] == ["replayed signature"]
        assert len(server.dispatches) == 1


def test_the_secret_may_be_set_after_start_and_verification_turned_off() -> None:
    with runtime_server(default=Outcome.silent()) as server:
        body = _dispatch_body("run-1", "http://127.0.0.1:9/unused")
        assert _signed_post(server, body) == 401
        server.secret = SECRET
        assert _signed_post(server, body, timestamp=int(time.time()) - 2) == 202
    with runtime_server(default=Outcome.silent(), verify=False) as server:
        assert _post(server.url, body, {}) == 202


def test_succeed_calls_back_started_then_succeeded_with_the_token(endpoint: _Endpoint) -> None:
    outcome = Outcome.succeed("3 issues", link="https://example.com/r", progress=("reading",))
    with runtime_server(secret=SECRET, token=TOKEN, default=outcome) as server:
        assert _signed_post(server, _dispatch_body("run-7", endpoint.url("run-7"))) == 202
        callbacks = server.wait_for_callbacks(3)
    assert [c.status for c in callbacks] == [204, 204, 204]
    assert [path for path, _, _ in endpoint.requests] == ["/api/v1/runs/run-7/events/"] * 3
    assert {h["Authorization"] for _, h, _ in endpoint.requests} == {f"Bearer {TOKEN}"}
    bodies = [body for _, _, body in endpoint.requests]
    assert [b["type"] for b in bodies] == ["started", "progress", "succeeded"]
    assert bodies[1]["summary"] == "reading"
    assert bodies[2]["summary"] == "3 issues"
    assert bodies[2]["link"] == "https://example.com/r"
    assert len({b["event_id"] for b in bodies}) == 3


def test_fail_calls_back_started_then_failed(endpoint: _Endpoint) -> None:
    with runtime_server(secret=SECRET, token=TOKEN, default=Outcome.fail("no access")) as server:
        assert _signed_post(server, _dispatch_body("run-8", endpoint.url("run-8"))) == 202
        callbacks = server.wait_for_callbacks(2)
    assert [c.body["type"] for c in callbacks] == ["started", "failed"]
    assert callbacks[1].body["reason"] == "no access"


def test_duplicates_send_each_event_several_times_with_one_event_id(endpoint: _Endpoint) -> None:
    outcome = Outcome.succeed("done", duplicates=3)
    with runtime_server(secret=SECRET, token=TOKEN, default=outcome) as server:
        assert _signed_post(server, _dispatch_body("run-9", endpoint.url("run-9"))) == 202
        server.wait_for_callbacks(6)
    bodies = [body for _, _, body in endpoint.requests]
    assert [b["type"] for b in bodies] == ["started"] * 3 + ["succeeded"] * 3
    assert len({b["event_id"] for b in bodies[:3]}) == 1
    assert len({b["event_id"] for b in bodies[3:]}) == 1
    assert bodies[0]["event_id"] != bodies[3]["event_id"]


def test_scripted_statuses_are_answered_without_callbacks(endpoint: _Endpoint) -> None:
    with runtime_server(secret=SECRET, token=TOKEN) as server:
        server.script(Outcome.status(503), Outcome.status(400))
        body = _dispatch_body("run-5", endpoint.url("run-5"))
        assert _signed_post(server, body) == 503
        assert _signed_post(server, body, timestamp=int(time.time()) - 1) == 400
        # The script is spent: the default outcome (succeed) takes over.
        assert _signed_post(server, body, timestamp=int(time.time()) - 2) == 202
        server.wait_for_callbacks(2)
        assert [(d.attempt, d.status) for d in server.dispatches] == [(1, 503), (2, 400), (3, 202)]


def test_a_hang_answers_late_and_waits_time_out_with_what_arrived() -> None:
    with runtime_server(secret=SECRET, default=Outcome.hang(0.5)) as server:
        started = time.monotonic()
        assert _signed_post(server, _dispatch_body("run-h", "http://127.0.0.1:9/x")) == 202
        assert time.monotonic() - started >= 0.5
        assert server.callbacks == []
        with pytest.raises(AssertionError) as waited:
            server.wait_for_dispatches(2, timeout=0.2)
        assert "1 of 2 dispatches" in str(waited.value)
