"""Token counting with cl100k_base, done once when a message is stored."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tiktoken


@cache
def _encoding() -> tiktoken.Encoding:
    # settings.py points TIKTOKEN_CACHE_DIR at the copy litellm ships, so this never downloads.
    import tiktoken

    return tiktoken.get_encoding("cl100k_base")


def count_tokens(text: str) -> int:
    # encode_ordinary: user text may contain "<|endoftext|>", which encode() refuses.
    return len(_encoding().encode_ordinary(text))
