"""A turn runs to its end in a task of its own, whatever happens to the client that asked.

Only ``stop`` cuts a turn short: a client that disconnects (a socket, a Server-Sent Events
stream) does not, and finds the whole reply stored when it returns. Every frame also goes to
the conversation's group, so other tabs, devices and server processes see the same turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

from conversations.chat.frames import ChatError, socket_frame
from conversations.chat.turn import ChatTurn
from conversations.store.broadcast import conversation_group, group_send

logger = logging.getLogger("omniforge.chat")

# Turns whose client went away: held so they are not collected before they finish.
_RUNNING: set[asyncio.Task[None]] = set()
_END = object()


class TurnRunner:
    """Drives one ``ChatTurn``; ``events()`` gives the asking door its events, as they come."""

    def __init__(self, turn: ChatTurn, *, origin: str | None = None) -> None:
        self.turn = turn
        self.origin = origin  # the asking socket's channel: the group skips it
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._task = asyncio.create_task(self._drive())
        _RUNNING.add(self._task)
        self._task.add_done_callback(_RUNNING.discard)

    async def _drive(self) -> None:
        group: str | None = None
        replayed = False
        try:
            async for event in self.turn.events():
                self._queue.put_nowait(event)
                if event["type"] == "ack":
                    group = conversation_group(event["conversation_id"])
                    # A re-sent message is answered to its sender only: the others saw it.
                    replayed = bool(event.get("replayed"))
                if group and not replayed:
                    message = {"type": "turn.frame", "frame": socket_frame(event)}
                    await group_send(group, {**message, "origin": self.origin})
        except ChatError as exc:
            self._queue.put_nowait(exc)
            await self._tell_the_others(group, exc.code, exc.detail)
        except Exception as exc:
            logger.exception("chat: a turn failed")
            self._queue.put_nowait(exc)
            await self._tell_the_others(group, "server_error", "Something went wrong.")
        finally:
            self._queue.put_nowait(_END)

    async def _tell_the_others(self, group: str | None, code: str, detail: str) -> None:
        """Sockets that saw the turn begin learn that it failed, not only the one that asked."""
        if group is None:
            return
        frame = {"type": "error", "code": code, "detail": detail}
        if self.turn.client_message_id:
            frame["client_message_id"] = self.turn.client_message_id
        await group_send(group, {"type": "turn.frame", "frame": frame, "origin": self.origin})

    async def events(self) -> AsyncIterator[dict[str, Any]]:
        """The turn's events; a ``ChatError`` (or a failure) is raised where it happened."""
        while True:
            item = await self._queue.get()
            if item is _END:
                return
            if isinstance(item, Exception):
                raise item
            yield item

    def stop(self) -> None:
        self.turn.stop.set()

    @property
    def done(self) -> bool:
        return self._task.done()

    async def finished(self) -> None:
        await asyncio.shield(self._task)
