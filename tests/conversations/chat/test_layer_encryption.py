"""With keys set, what crosses Redis between server processes (chat frames, published on the
pub/sub layer) is encrypted."""

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
        import asyncio, django, redis.asyncio as aioredis
        django.setup()
        from channels.layers import get_channel_layer

        async def main():
            layer = get_channel_layer()
            channel = await layer.new_channel()
            await layer.group_add("conversation.x", channel)
            # What crosses Redis: listen to everything published under the layer's prefix.
            spy = aioredis.Redis.from_url("{os.environ["REDIS_URL"]}").pubsub()
            await spy.psubscribe("{prefix}*")
            await spy.get_message(timeout=5)  # the subscription's confirmation
            frame = {{"type": "chat.frame", "content": "Okapicanary"}}
            await layer.group_send("conversation.x", frame)
            published = await spy.get_message(timeout=5)
            assert published and published["type"] == "pmessage", published
            print("readable" if b"Okapicanary" in published["data"] else "sealed")
            message = await layer.receive(channel)
            print(message["content"])
            await spy.aclose()
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
