"""A reference agent runtime on 127.0.0.1 for the tests, fault drills and browser test.

The product hands runs to a runtime as signed webhooks and hears back through callbacks
(docs/runtime.md). This receiver does what a careful runtime does with a dispatch: it checks
the timestamp and the HMAC signature over the exact bytes it received, refuses replays, and
then acts out the next scripted `Outcome` (or `default` when the script is empty): it answers
an HTTP status and, from a background thread, reports `started`, progress and a final event to
the run's `callback_url` with the tenant's bearer token.

Real HTTP on an ephemeral port, like `tests/intents/llm_server.py`, so the product's real
transport, timeouts and retries run. Everything received and sent is recorded for assertions:
`dispatches` (accepted), `refused` (answered 401 or 400, with the reason) and `callbacks`
(with the status the product answered).

    with runtime_server() as runtime:
        runtime.secret, runtime.token = mint_credentials(tenant)
        settings.OMNIFORGE_RUNTIME_URL = runtime.url
        runtime.script(Outcome.fail("no access"), Outcome.status(503))
        ...
        runtime.wait_for_callbacks(2)
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple

DISPATCH_PATH = "/dispatch"
TIMESTAMP_HEADER = "X-OmniForge-Timestamp"
SIGNATURE_HEADER = "X-OmniForge-Signature"
# How far a dispatch's timestamp may be from the receiver's clock, either way.
TOLERANCE_S = 300
# Signatures remembered against replays; the oldest are forgotten first.
REPLAY_MEMORY = 10_000
CALLBACK_TIMEOUT_S = 10.0
_HEX = frozenset("0123456789abcdef")


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The `X-OmniForge-Signature` value of `body` sent at `timestamp` (Unix seconds)."""
    message = f"{timestamp}.".encode() + body
    digest = hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def verify(
    secret: str,
    timestamp_header: str | None,
    signature_header: str | None,
    body: bytes,
    now: float | None = None,
) -> str | None:
    """None when the headers sign `body` with `secret` at a time near `now`, else the reason.

    Replays are not this function's business (it keeps no state); the server refuses them.
    """
    if not secret:
        return "no secret configured"
    if not timestamp_header:
        return "missing timestamp"
    if not (timestamp_header.isascii() and timestamp_header.isdigit()):
        return "malformed timestamp"
    if not signature_header:
        return "missing signature"
    scheme, _, digest = signature_header.partition("=")
    if scheme != "sha256" or len(digest) != 64 or not set(digest) <= _HEX:
        return "malformed signature"
    timestamp = int(timestamp_header)
    current = time.time() if now is None else now
    if current - timestamp > TOLERANCE_S:
        return "stale timestamp"
    if timestamp - current > TOLERANCE_S:
        return "timestamp in the future"
    if not hmac.compare_digest(sign(secret, timestamp, body), signature_header):
        return "wrong signature"
    return None


@dataclass(frozen=True)
class Outcome:
    """What the runtime does with one accepted dispatch.

    `answer` is the HTTP status answered (after `hang_s`); with `events`, a background thread
    then posts each event to the callback URL, waiting `callback_delay_s` before each one and
    sending each `duplicates` times at once, from as many threads, with the same `event_id`.
    """

    answer: int = 202
    events: tuple[tuple[tuple[str, str], ...], ...] = ()
    hang_s: float = 0.0
    callback_delay_s: float = 0.0
    duplicates: int = 1

    @classmethod
    def succeed(
        cls,
        summary: str,
        link: str | None = None,
        progress: tuple[str, ...] | list[str] = (),
        *,
        callback_delay_s: float = 0.0,
        duplicates: int = 1,
    ) -> Outcome:
        final = [("type", "succeeded"), ("summary", summary)]
        if link is not None:
            final.append(("link", link))
        steps = [(("type", "progress"), ("summary", text)) for text in progress]
        return cls(
            events=((("type", "started"),), *steps, tuple(final)),
            callback_delay_s=callback_delay_s,
            duplicates=duplicates,
        )

    @classmethod
    def fail(cls, reason: str, *, callback_delay_s: float = 0.0, duplicates: int = 1) -> Outcome:
        return cls(
            events=((("type", "started"),), (("type", "failed"), ("reason", reason))),
            callback_delay_s=callback_delay_s,
            duplicates=duplicates,
        )

    @classmethod
    def status(cls, code: int) -> Outcome:
        """Answers `code` (500, 503, 400, ...) and never calls back."""
        return cls(answer=code)

    @classmethod
    def hang(cls, seconds: float) -> Outcome:
        """Answers 202 only after `seconds`: longer than the product waits, it times out."""
        return cls(hang_s=seconds)

    @classmethod
    def silent(cls) -> Outcome:
        """Accepts and never calls back: the run stays open until the product's deadline."""
        return cls()

    @property
    def event_bodies(self) -> list[dict[str, str]]:
        """The callbacks' bodies without their `event_id`s, in order."""
        return [dict(event) for event in self.events]


DONE = Outcome.succeed("done")


@dataclass(frozen=True)
class Dispatch:
    """One accepted dispatch: what came in and what was done with it."""

    body: dict[str, Any]
    headers: dict[str, str]
    raw: bytes
    run_id: str
    attempt: int  # 1 for a run id's first accepted dispatch, 2 for the next, ...
    outcome: Outcome
    status: int  # answered (or, for a hang the product gave up on, meant to be)
    received_at: float

    @property
    def callback_url(self) -> str:
        return str(self.body["run"]["callback_url"])


@dataclass(frozen=True)
class Refusal:
    reason: str
    status: int
    headers: dict[str, str]
    raw: bytes
    received_at: float


class Callback(NamedTuple):
    url: str
    body: dict[str, Any]
    status: int  # what the product answered; 0 when it could not be reached


class _HTTPServer(ThreadingHTTPServer):
    # socketserver's backlog of 5 drops connections when many dispatches arrive at once.
    request_queue_size = 128


class RuntimeServer:
    """Receives dispatches at `url`; `secret` and `token` may be set after it started."""

    def __init__(
        self, secret: str = "", token: str = "", default: Outcome = DONE, verify: bool = True
    ) -> None:
        self.secret = secret
        self.token = token
        self.default = default
        self.verify = verify
        self.dispatches: list[Dispatch] = []
        self.refused: list[Refusal] = []
        self.callbacks: list[Callback] = []
        self._script: deque[Outcome] = deque()
        self._attempts: Counter[str] = Counter()
        self._seen: set[str] = set()
        self._seen_order: deque[str] = deque()
        self._changed = threading.Condition()
        self._closing = threading.Event()
        self._workers: list[threading.Thread] = []
        self._httpd = _HTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="reference-runtime",
            daemon=True,
        )

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{DISPATCH_PATH}"

    def script(self, *outcomes: Outcome) -> None:
        """Replace the queue of outcomes; later dispatches get `default`."""
        with self._changed:
            self._script = deque(outcomes)

    def start(self) -> RuntimeServer:
        self._thread.start()
        return self

    def shutdown(self) -> None:
        # Wakes hanging handlers and waiting callback threads so they end with the server.
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)
        with self._changed:
            workers = list(self._workers)
        for worker in workers:
            worker.join(timeout=CALLBACK_TIMEOUT_S + 1)

    def wait_for_dispatches(self, n: int, timeout: float = 10.0) -> list[Dispatch]:
        """At least `n` accepted dispatches, or AssertionError naming what did arrive."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.dispatches) >= n, timeout):
                raise AssertionError(
                    f"{len(self.dispatches)} of {n} dispatches in {timeout} s: "
                    f"{[(d.run_id, d.attempt, d.status) for d in self.dispatches]}; "
                    f"refused: {[r.reason for r in self.refused]}"
                )
            return list(self.dispatches)

    def wait_for_callbacks(self, n: int, timeout: float = 10.0) -> list[Callback]:
        """At least `n` callbacks answered, or AssertionError naming those that were."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.callbacks) >= n, timeout):
                raise AssertionError(
                    f"{len(self.callbacks)} of {n} callbacks in {timeout} s: "
                    f"{[(c.body.get('type'), c.status) for c in self.callbacks]}"
                )
            return list(self.callbacks)

    # -- the handler's side ---------------------------------------------------------------

    def _check(self, headers: dict[str, str], raw: bytes) -> str | None:
        """Why the dispatch is refused, or None; remembers an accepted signature."""
        if not self.verify:
            return None
        signature = headers.get(SIGNATURE_HEADER.lower())
        reason = verify(self.secret, headers.get(TIMESTAMP_HEADER.lower()), signature, raw)
        if reason is not None or signature is None:
            return reason
        with self._changed:
            if signature in self._seen:
                return "replayed signature"
            self._seen.add(signature)
            self._seen_order.append(signature)
            if len(self._seen_order) > REPLAY_MEMORY:
                self._seen.discard(self._seen_order.popleft())
        return None

    def _refuse(self, reason: str, status: int, headers: dict[str, str], raw: bytes) -> None:
        with self._changed:
            self.refused.append(Refusal(reason, status, headers, raw, time.time()))
            self._changed.notify_all()

    def _accept(self, body: dict[str, Any], headers: dict[str, str], raw: bytes) -> Dispatch:
        run_id = str(body["run"]["id"])
        with self._changed:
            outcome = self._script.popleft() if self._script else self.default
            self._attempts[run_id] += 1
            dispatch = Dispatch(
                body=body,
                headers=headers,
                raw=raw,
                run_id=run_id,
                attempt=self._attempts[run_id],
                outcome=outcome,
                status=outcome.answer,
                received_at=time.time(),
            )
            self.dispatches.append(dispatch)
            self._changed.notify_all()
        return dispatch

    def _call_back_later(self, dispatch: Dispatch) -> None:
        if not dispatch.outcome.events or self._closing.is_set():
            return
        worker = threading.Thread(
            target=self._call_back,
            args=(dispatch,),
            name=f"runtime-callbacks-{dispatch.run_id}",
            daemon=True,
        )
        with self._changed:
            self._workers.append(worker)
        worker.start()

    def _call_back(self, dispatch: Dispatch) -> None:
        outcome = dispatch.outcome
        for event in outcome.event_bodies:
            if self._closing.wait(outcome.callback_delay_s):
                return
            body = {**event, "event_id": uuid.uuid4().hex}
            count = max(1, outcome.duplicates)
            # A storm: the copies leave together, so the product sees them concurrently.
            together = threading.Barrier(count)
            copies = [
                threading.Thread(
                    target=self._post,
                    args=(dispatch.callback_url, body, together),
                    daemon=True,
                )
                for _ in range(count)
            ]
            for copy in copies:
                copy.start()
            for copy in copies:
                copy.join(timeout=CALLBACK_TIMEOUT_S + 2)

    def _post(self, url: str, body: dict[str, Any], together: threading.Barrier) -> None:
        # A copy slow to start breaks the barrier; the others are sent anyway.
        with contextlib.suppress(threading.BrokenBarrierError):
            together.wait(timeout=1.0)
        request = urllib.request.Request(  # noqa: S310 - the run's callback URL, http(s) only
            url,
            data=json.dumps(body).encode(),
            method="POST",
            headers={
                "Authorization": f"Bearer {self.token}",
                "Content-Type": "application/json",
                "Accept": "application/json",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=CALLBACK_TIMEOUT_S) as response:  # noqa: S310
                status = int(response.status)
        except urllib.error.HTTPError as error:
            status = int(error.code)
        except (urllib.error.URLError, OSError):
            status = 0
        with self._changed:
            self.callbacks.append(Callback(url, body, status))
            self._changed.notify_all()


def _parse_dispatch(raw: bytes) -> dict[str, Any] | None:
    """The dispatch's body when it has the contract's shape enough to act on, else None."""
    try:
        body = json.loads(raw)
    except ValueError:
        return None
    run = body.get("run") if isinstance(body, dict) else None
    if not isinstance(run, dict) or not run.get("id") or not run.get("callback_url"):
        return None
    return body


def _make_handler(server: RuntimeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Idle keep-alive connections of a stopped server must not hold threads forever.
        timeout = 10

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            if self.path.split("?", 1)[0] != DISPATCH_PATH:
                server._refuse(f"no route {self.path}", 404, headers, raw)
                self._send(404, {"detail": "not found"})
                return
            reason = server._check(headers, raw)
            if reason is not None:
                server._refuse(reason, 401, headers, raw)
                self._send(401, {"detail": reason})
                return
            body = _parse_dispatch(raw)
            if body is None:
                server._refuse("not a dispatch", 400, headers, raw)
                self._send(400, {"detail": "not a dispatch"})
                return
            dispatch = server._accept(body, headers, raw)
            outcome = dispatch.outcome
            if outcome.hang_s and server._closing.wait(outcome.hang_s):
                return
            self._send(outcome.answer, {"accepted": 200 <= outcome.answer < 300})
            if 200 <= outcome.answer < 300:
                server._call_back_later(dispatch)

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                # The product gave up waiting (its timeout fired): what a hang provokes.
                self.close_connection = True

    return Handler


@contextlib.contextmanager
def runtime_server(
    secret: str = "", token: str = "", default: Outcome = DONE, *, verify: bool = True
) -> Iterator[RuntimeServer]:
    server = RuntimeServer(secret=secret, token=token, default=default, verify=verify).start()
    try:
        yield server
    finally:
        server.shutdown()
