"""Real Daphne processes serving the project against the test database, for tests over sockets."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.conftest import subprocess_database_url

ROOT = Path(__file__).resolve().parents[1]
DAPHNE = Path(sys.executable).with_name("daphne")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``daphne config.asgi:application`` on a free port, against the test database.

    ``env`` adds to (or, with a None value, removes from) the environment; by default each
    process is on its own (no Redis), so only the database is shared. Output goes to a file
    (a pipe nobody reads would block the server once full); ``log()`` reads it.
    """

    def __init__(self, env: Mapping[str, str | None] | None = None, port: int | None = None):
        self.port = port or free_port()
        self.env: dict[str, str] = {
            **os.environ,
            "DATABASE_URL": subprocess_database_url(),
            "LOG_LEVEL": "WARNING",
        }
        self.env.pop("REDIS_URL", None)
        for key, value in (env or {}).items():
            if value is None:
                self.env.pop(key, None)
            else:
                self.env[key] = value
        self._log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - kept open for the process
            prefix="daphne-", suffix=".log", delete=False
        )
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> None:
        self.process = subprocess.Popen(
            [str(DAPHNE), "-b", "127.0.0.1", "-p", str(self.port), "config.asgi:application"],
            cwd=ROOT, env=self.env, stdout=self._log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:  # noqa: S310
                    if response.status == 200:
                        return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"daphne exited:\n{self.log()}") from None
                time.sleep(0.1)
        raise RuntimeError(f"daphne did not start:\n{self.log()}")

    def log(self) -> str:
        return Path(self._log.name).read_text(errors="replace")

    def request(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
        timeout: float = 30,
    ) -> tuple[int, dict[str, str], bytes]:
        """One HTTP request; (status, headers, body), errors included."""
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method)  # noqa: S310
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Token {token}")
        for key, value in (headers or {}).items():
            request.add_header(key, value)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def chat(self, token: str, message: str, conversation_id: str | None) -> dict[str, Any]:
        body = {"message": message}
        if conversation_id:
            body["conversation_id"] = conversation_id
        status, _, raw = self.request("POST", "/api/v1/chat/", token=token, body=body)
        if status != 200:
            raise AssertionError(f"chat answered {status}: {raw!r}")
        return dict(json.loads(raw))

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to finish anything."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


class LiveSocket:
    """A WebSocket client of a live server (aiohttp), collecting a turn's frames."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.sidebar: list[dict[str, Any]] = []

    @classmethod
    async def open(
        cls, session: Any, server: Server, token: str, conversation_id: str | None = None
    ) -> tuple[LiveSocket, dict[str, Any]]:
        query = f"?conversation_id={conversation_id}" if conversation_id else ""
        ws = await session.ws_connect(
            f"ws://127.0.0.1:{server.port}/ws/chat/{query}",
            headers={"Authorization": f"Token {token}"},
        )
        socket = cls(ws)
        return socket, await socket.frame()

    async def frame(self, timeout: float = 10) -> dict[str, Any]:  # noqa: ASYNC109
        while True:
            frame = dict(await self.ws.receive_json(timeout=timeout))
            if frame["type"] != "conversation":
                return frame
            self.sidebar.append(frame)

    async def until_done(self, timeout: float = 10) -> list[dict[str, Any]]:  # noqa: ASYNC109
        frames = [await self.frame(timeout)]
        while frames[-1]["type"] not in ("done", "error"):
            frames.append(await self.frame(timeout))
        return frames

    async def say(self, content: str, **extra: Any) -> list[dict[str, Any]]:
        await self.ws.send_json({"type": "message", "content": content, **extra})
        return await self.until_done()
