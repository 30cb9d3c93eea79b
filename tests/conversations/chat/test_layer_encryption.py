"""With keys set, what crosses Redis between server processes (chat frames) is encrypted."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest
from cryptography.fernet import Fernet

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis")


def test_a_frame_in_redis_is_not_readable_but_arrives_whole() -> None:
    prefix = f"layer-test-{uuid.uuid4().hex[:8]}"
    script = textwrap.dedent(f"""
        import asyncio, django, redis
        django.setup()
        from channels.layers import get_channel_layer

        async def main():
            layer = get_channel_layer()
            channel = await layer.new_channel()
            await layer.group_add("conversation.x", channel)
            frame = {{"type": "chat.frame", "content": "Okapicanary"}}
            await layer.group_send("conversation.x", frame)
            stored = redis.Redis.from_url("{os.environ["REDIS_URL"]}")
            values = []
            for key in stored.scan_iter("{prefix}*"):
                kind = stored.type(key).decode()
                if kind == "zset":
                    values += [m for m, _ in stored.zrange(key, 0, -1, withscores=True)]
                elif kind == "list":
                    values += stored.lrange(key, 0, -1)
                elif kind == "string":
                    values.append(stored.get(key))
            assert values, "nothing was in Redis"
            print("readable" if any(b"Okapicanary" in v for v in values) else "sealed")
            message = await layer.receive(channel)
            print(message["content"])
        asyncio.run(main())
    """)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
           "CHANNEL_LAYER_PREFIX": prefix,
           "OMNIFORGE_ENCRYPTION_KEYS": Fernet.generate_key().decode()}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["sealed", "Okapicanary"]
