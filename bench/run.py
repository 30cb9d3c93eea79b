"""`make bench`: every benchmark table, on a scratch database unless DATABASE_URL is set."""

from __future__ import annotations

import importlib
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SECTIONS = (
    "bench.persistence",
    "bench.chat",
    "bench.websocket",
    "bench.intents_offline",
    "bench.intents_llm",
    "bench.skill_sessions",
    "bench.runs",
)


def main() -> None:
    if not os.environ.get("DATABASE_URL"):
        work = ROOT / "bench" / ".work"
        work.mkdir(exist_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{work / 'bench.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # Measure what production runs: with DEBUG on, Django's SQLite cursor runs an extra query
    # per statement to log it with quoted parameters.
    os.environ.setdefault("DEBUG", "false")
    # Production settings, but over plain HTTP on loopback: no redirect to HTTPS.
    os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
    # Figures stay comparable with earlier runs (encryption costs are measured in persistence).
    os.environ.setdefault("OMNIFORGE_ALLOW_PLAINTEXT", "true")
    # The load runs measure capacity, not the per-account message limits.
    os.environ.setdefault("OMNIFORGE_WS_USER_PER_MIN", "1000000")
    os.environ.setdefault("OMNIFORGE_WS_TENANT_PER_MIN", "1000000")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    print(f"# make bench, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(
        f"{platform.node()}: {platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    )
    database = os.environ["DATABASE_URL"].split(":")[0]
    print(f"Python {platform.python_version()}, database {database}, DEBUG={os.environ['DEBUG']}")
    only = {arg for arg in sys.argv[1:] if not arg.startswith("-")}  # options are a suite's
    for name in SECTIONS:
        if only and name.rsplit(".", 1)[-1] not in only:
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.run()


if __name__ == "__main__":
    main()
