"""Overhead of the LLM tier over a bare litellm call, against the instant local test server.

Both sides send the same messages to the same scripted server in the same event loop, in
alternating blocks, so the server, the transport and litellm's own cost cancel out and the ratio
is what `classify_llm` adds: prompt building, the retry loop, parsing, usage and cost.
Target: median ratio <= 1.2.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

N = 200
BLOCK = 10
WARMUP = 20
TARGET_RATIO = 1.2
FAKE_KEY = "sk-bench-not-a-real-key"


def run() -> None:
    repo = Path(__file__).resolve().parent.parent
    if str(repo) not in sys.path:
        sys.path.insert(0, str(repo))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()

    from django.conf import settings

    from bench.common import median, percentile, print_table
    from intents.llm.client import reset_llm_status
    from tests.intents.llm_server import Reply, running_server

    saved = {
        name: getattr(settings, name)
        for name in (
            "OMNIFORGE_INTENT_API_BASE",
            "OMNIFORGE_INTENT_MODEL",
            "OMNIFORGE_INTENT_TIMEOUT_S",
            "OMNIFORGE_INTENT_MAX_RETRIES",
        )
    }
    saved_key = os.environ.get("OPENAI_API_KEY")
    # A real key must never travel, even to 127.0.0.1.
    os.environ["OPENAI_API_KEY"] = FAKE_KEY
    try:
        with running_server(default=Reply.intent("query_info", 0.95)) as server:
            settings.OMNIFORGE_INTENT_API_BASE = server.base_url
            settings.OMNIFORGE_INTENT_MODEL = "openai/bench-model"
            settings.OMNIFORGE_INTENT_TIMEOUT_S = 5.0
            settings.OMNIFORGE_INTENT_MAX_RETRIES = 0
            reset_llm_status()
            bare, tier = asyncio.run(_measure(server.base_url))
            calls = server.call_count
    finally:
        for name, value in saved.items():
            setattr(settings, name, value)
        if saved_key is None:
            os.environ.pop("OPENAI_API_KEY", None)
        else:
            os.environ["OPENAI_API_KEY"] = saved_key
        reset_llm_status()

    ratio = median(tier) / median(bare)
    ratio_p95 = percentile(tier, 95) / percentile(bare, 95)
    print_table(
        f"LLM intent tier vs bare litellm.acompletion (local server, n={N} each, "
        f"{calls} upstream calls)",
        ["call", "median ms", "p95 ms"],
        [
            ["litellm.acompletion (same messages)", _ms(median(bare)), _ms(percentile(bare, 95))],
            ["classify_llm", _ms(median(tier)), _ms(percentile(tier, 95))],
            ["ratio", f"{ratio:.2f}", f"{ratio_p95:.2f}"],
        ],
    )
    verdict = "meets" if ratio <= TARGET_RATIO else "MISSES"
    print(f"\nmedian ratio {ratio:.2f} {verdict} the target of <= {TARGET_RATIO}")


async def _measure(api_base: str) -> tuple[list[float], list[float]]:
    import litellm

    from intents.llm.client import MAX_TOKENS, TEMPERATURE, classify_llm
    from intents.llm.prompt import build_messages
    from intents.types import AgentRef

    message = "Run the weekly report agent for last month"
    agents = [AgentRef(f"agent-{i}", "Summarizes things every week") for i in range(5)]
    messages = build_messages(message, history=(), agents=agents, wizard=None)

    async def bare() -> Any:
        return await litellm.acompletion(
            model="openai/bench-model",
            api_base=api_base,
            api_key=FAKE_KEY,
            messages=messages,
            temperature=TEMPERATURE,
            max_tokens=MAX_TOKENS,
            timeout=5.0,
            response_format={"type": "json_object"},
            num_retries=0,
            max_retries=0,
        )

    async def tier() -> Any:
        return await classify_llm(message, agents=agents)

    for _ in range(WARMUP):
        await bare()
        await tier()
    bare_samples: list[float] = []
    tier_samples: list[float] = []
    for block in range(N // BLOCK):
        # Alternate which side goes first so drift (GC, pool state) hits both equally.
        order = [(bare, bare_samples), (tier, tier_samples)]
        if block % 2:
            order.reverse()
        for fn, samples in order:
            await _timed(fn, samples, BLOCK)
    return bare_samples, tier_samples


async def _timed(fn: Callable[[], Awaitable[Any]], samples: list[float], n: int) -> None:
    for _ in range(n):
        start = time.perf_counter()
        await fn()
        samples.append(time.perf_counter() - start)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


if __name__ == "__main__":
    run()
