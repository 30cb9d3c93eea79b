"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1 for the LLM tier's tests.

Real HTTP on an ephemeral port in a background thread, so litellm and the openai SDK under it
run their real transport, timeouts and error mapping. Each request pops the next scripted
`Reply` (or gets `default` when the script is empty) and is recorded for assertions. `default`
may also be a function of the request (a `Responder`), for drills that answer many concurrent
clients by what each asks rather than by arrival order.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHAT_PATHS = frozenset({"/v1/chat/completions", "/chat/completions"})


def intent_json(
    action_type: str = "query_info",
    confidence: float = 0.9,
    **extra: Any,
) -> dict[str, Any]:
    """A well-formed intent object as a model would return it."""
    body: dict[str, Any] = {
        "action_type": action_type,
        "confidence": confidence,
        "entities": {},
        "reasoning": "scripted",
        "is_ambiguous": False,
        "alternative_action": None,
        "clarifying_question": None,
    }
    body.update(extra)
    return body


@dataclass(frozen=True)
class Reply:
    """One scripted answer: an HTTP status, the assistant content, and an optional delay."""

    status: int = 200
    content: str | None = None
    delay_s: float = 0.0
    usage: Mapping[str, int] = field(
        default_factory=lambda: {"prompt_tokens": 120, "completion_tokens": 30}
    )
    # When set, sent verbatim instead of a chat-completion body (non-JSON bodies, odd shapes).
    raw_body: bytes | None = None
    # When set, the answer waits until the test sets it (a state, not a time), at most a minute.
    hold: threading.Event | None = None

    @classmethod
    def intent(
        cls, action_type: str = "query_info", confidence: float = 0.9, **extra: Any
    ) -> Reply:
        return cls(content=json.dumps(intent_json(action_type, confidence, **extra)))

    @classmethod
    def text(cls, content: str) -> Reply:
        return cls(content=content)

    @classmethod
    def error(cls, status: int, message: str = "scripted error") -> Reply:
        return cls(status=status, content=message)

    @classmethod
    def slow(cls, delay_s: float, action_type: str = "query_info") -> Reply:
        return cls(
            content=json.dumps(intent_json(action_type)),
            delay_s=delay_s,
        )


@dataclass(frozen=True)
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    received_at: float
    client_port: int = 0  # tells requests on one pooled connection from fresh connections

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    @property
    def prompt_text(self) -> str:
        """Every message's content joined, for "is X in the prompt" assertions."""
        return "\n".join(str(m.get("content", "")) for m in self.messages)


# Answers a request when the script is empty; called under the server's lock, one request at a
# time, so it may keep state (attempts per conversation, say) without locking of its own.
Responder = Callable[[RecordedRequest], Reply]


class _HTTPServer(ThreadingHTTPServer):
    # socketserver's backlog of 5 drops connections when dozens of clients connect at once.
    request_queue_size = 128


class ScriptedLLMServer:
    """Serves scripted chat completions; `base_url` ends in /v1 like OpenAI's."""

    def __init__(self, default: Reply | Responder | None = None) -> None:
        self.default: Reply | Responder = default if default is not None else Reply.intent()
        self.requests: list[RecordedRequest] = []
        self._script: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._httpd = _HTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="scripted-llm-server",
            daemon=True,
        )

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.path in CHAT_PATHS]

    @property
    def call_count(self) -> int:
        return len(self.chat_requests)

    def script(self, *replies: Reply) -> None:
        """Replace the queue of replies; later requests get `default`."""
        with self._lock:
            self._script = deque(replies)

    def start(self) -> ScriptedLLMServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        # Wakes handlers sleeping in a scripted delay so the threads end with the server.
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def _released(self, hold: threading.Event, limit_s: float = 60.0) -> bool:
        """Whether ``hold`` was set (False when the server closes or a minute passes first)."""
        deadline = time.monotonic() + limit_s
        while not hold.wait(0.05):
            if self._closing.is_set() or time.monotonic() > deadline:
                return False
        return True

    def _next_reply(self, record: RecordedRequest) -> Reply:
        with self._lock:
            self.requests.append(record)
            if self._script:
                return self._script.popleft()
            return self.default if isinstance(self.default, Reply) else self.default(record)


def _make_handler(server: ScriptedLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        # Keep-alive like a real provider, so the SDK's connection pool behaves as in production.
        protocol_version = "HTTP/1.1"
        # Idle keep-alive connections of a stopped server must not hold threads forever.
        timeout = 10
        # Headers and body go out in separate writes; with Nagle on, the client's delayed ACK
        # adds ~40 ms to every response and swamps what the benchmark measures.
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {"_unparsed": raw.decode("utf-8", "replace")}
            record = RecordedRequest(
                path=self.path.split("?", 1)[0],
                headers={k.lower(): v for k, v in self.headers.items()},
                body=body if isinstance(body, dict) else {"_body": body},
                received_at=time.monotonic(),
                client_port=int(self.client_address[1]),
            )
            if record.path not in CHAT_PATHS:
                with server._lock:
                    server.requests.append(record)
                self._send(404, {"error": {"message": f"no route {record.path}"}})
                return
            reply = server._next_reply(record)
            if reply.delay_s and server._closing.wait(reply.delay_s):
                return
            if reply.hold is not None and not server._released(reply.hold):
                return
            if reply.raw_body is not None:
                self._send_bytes(reply.status, reply.raw_body, "application/json")
            elif reply.status != 200:
                error_type = "rate_limit_error" if reply.status == 429 else "scripted_error"
                self._send(
                    reply.status,
                    {"error": {"message": reply.content, "type": error_type, "code": None}},
                )
            else:
                self._send(200, _completion_body(body.get("model"), reply))

        def do_GET(self) -> None:
            self._send(404, {"error": {"message": "not found"}})

        def _send(self, status: int, payload: Mapping[str, Any]) -> None:
            self._send_bytes(status, json.dumps(payload).encode(), "application/json")

        def _send_bytes(self, status: int, data: bytes, content_type: str) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                # The client gave up (its timeout fired): exactly what a timeout test provokes.
                self.close_connection = True

    return Handler


def _completion_body(model: Any, reply: Reply) -> dict[str, Any]:
    prompt = int(reply.usage.get("prompt_tokens", 0))
    completion = int(reply.usage.get("completion_tokens", 0))
    return {
        "id": f"chatcmpl-scripted-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model if isinstance(model, str) else "scripted",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


@contextmanager
def running_server(default: Reply | Responder | None = None) -> Iterator[ScriptedLLMServer]:
    server = ScriptedLLMServer(default=default).start()
    try:
        yield server
    finally:
        server.stop()
