"""Logging for management commands that run the chat or the classifier many times over.

Every classification and every chat turn logs a line at INFO, which is right for a server and
noise around a command's table: an evaluation of 300 cases wrote 300 lines to stderr. Such a
command runs its work inside ``quiet_unless_verbose`` so those lines show only when asked for
with ``-v 2`` (or more).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

# The loggers that write a line per classification or per turn.
PER_CASE_LOGGERS = ("omniforge", "intents", "conversations", "skill_sessions")


@contextmanager
def quiet_unless_verbose(verbosity: int) -> Iterator[None]:
    """Within the block, per-case loggers write warnings and errors only, unless ``-v 2``."""
    if verbosity >= 2:
        yield
        return
    loggers = [logging.getLogger(name) for name in PER_CASE_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(max(logger.getEffectiveLevel(), logging.WARNING))
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
