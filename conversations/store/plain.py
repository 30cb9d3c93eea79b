"""What a reader sees of a Markdown message, as plain text (for titles, where markup is noise)."""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token

_MARKDOWN = MarkdownIt("commonmark")
_CODE = frozenset({"fence", "code_block"})


def _inline_text(token: Token) -> str:
    parts = []
    for child in token.children or ():
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(child.content)  # its alt text
    return "".join(parts)


def plain_words(markdown: str) -> str:
    """The words of a Markdown text on one line, without markup: its prose (paragraphs,
    headings, lists, quotes) when it has any, else the first line of its code."""
    tokens = _MARKDOWN.parse(markdown)
    prose = [_inline_text(token) for token in tokens if token.type == "inline"]
    words = " ".join(" ".join(prose).split())
    if words:
        return words
    code = next((token.content for token in tokens if token.type in _CODE), "")
    lines = [line.strip() for line in code.splitlines() if line.strip()]
    return lines[0] if lines else " ".join(markdown.split())
