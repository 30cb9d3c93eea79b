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

    def __init__(
        self, turn: ChatTurn, *, origin: str | None = None, to_origin: bool = False
    ) -> None:
        self.turn = turn
        self.origin = origin  # the asking socket's channel: the group skips it...
        # ...unless it hears the turn through the group like every other socket (one stream,
        # one order for all of them).
        self.to_origin = to_origin
        self.replayed = False
        # Whether the event ``events()`` gave last went out through the group (when not, a
        # socket that counted on hearing it there sends it itself: the layer is down).
        self.last_via_group = False
        # The turn's user message: every frame relayed to the group says which turn it is of.
        self.turn_id = ""
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._task = asyncio.create_task(self._drive())
        _RUNNING.add(self._task)
        self._task.add_done_callback(_RUNNING.discard)

    async def _drive(self) -> None:
        group: str | None = None
        try:
            async for event in self.turn.events():
                if event["type"] == "ack":
                    group = conversation_group(event["conversation_id"])
                    self.turn_id = str(event["message_id"])
                    # A re-sent message is answered to its sender only: the others saw it.
                    self.replayed = bool(event.get("replayed"))
                via_group = False
                if group and not self.replayed:
                    origin = None if self.to_origin else self.origin
                    message: dict[str, Any] = {"type": "turn.frame", "frame": socket_frame(event)}
                    message |= {"origin": origin, "turn": self.turn_id}
                    via_group = await group_send(group, message)
                self._queue.put_nowait((event, via_group))
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
        message = {"type": "turn.frame", "frame": frame, "origin": self.origin}
        await group_send(group, message | {"turn": self.turn_id})

    async def events(self) -> AsyncIterator[dict[str, Any]]:
        """The turn's events; a ``ChatError`` (or a failure) is raised where it happened."""
        while True:
            item = await self._queue.get()
            if item is _END:
                return
            if isinstance(item, Exception):
                raise item
            event, self.last_via_group = item
            yield event

    def stop(self) -> None:
        self.turn.stop.set()

    @property
    def done(self) -> bool:
        return self._task.done()

    async def finished(self) -> None:
        await asyncio.shield(self._task)
