"""The drills' own processes and Redis database: a Celery worker, a clean Redis db."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType

import redis

ROOT = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).with_name("celery")


def own_redis_db(number: int) -> str:
    """A Redis database of the drill's own, emptied: nothing another test (or an earlier run)
    queued there is taken by the drill's worker, and whatever is found there is the drill's."""
    base = os.environ["REDIS_URL"].rsplit("/", 1)[0]
    url = f"{base}/{number}"
    redis.Redis.from_url(url).flushdb()
    return url


class CeleryWorker:
    """``celery -A config worker`` with the given environment, its output in a file."""

    def __init__(self, env: Mapping[str, str], queues: str = "celery,maintenance") -> None:
        self.env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env}
        self.queues = queues
        self._log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - kept open for the process
            prefix="celery-", suffix=".log", delete=False
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> CeleryWorker:
        self.process = subprocess.Popen(
            [str(CELERY), "-A", "config", "worker", "-Q", self.queues, "--pool=threads",
             "--concurrency=4", "--loglevel=INFO", "-n", f"drill-{uuid.uuid4().hex[:8]}@%h"],
            cwd=ROOT, env=self.env, stdout=self._log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while "ready." not in self.log():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the worker did not start:\n{self.log()[-3000:]}")
            time.sleep(0.2)
        return self

    def log(self) -> str:
        return Path(self._log.name).read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL, mid-task: the worker gets no chance to finish or to give anything back."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> CeleryWorker:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
