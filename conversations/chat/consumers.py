"""``/ws/chat/``: the chat turn over a WebSocket, the same turn service as ``POST chat/``.

On connect: ``ready`` with the history and the assistant's state in short form. Per message:
``ack``, ``thinking``, ``intent``, ``chunk``…, ``done``, sent to every socket on the
conversation (other tabs, devices, server processes, through the channel layer). A bad frame
gets an ``error`` frame and changes nothing; the socket stays open. Turns run in a task of
their own, so ``stop``, another message or a disconnect are handled while one streams; only
``stop`` cuts a turn short.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist

from conversations.api.door import client_json_problem
from conversations.assistant.respond import state_summary
from conversations.assistant.state import AssistantState
from conversations.chat.auth import (
    AUTH_SESSION,
    AUTH_THROTTLED,
    AUTH_UNAVAILABLE,
    origin_allowed,
)
from conversations.chat.frames import ChatError, message_dict, socket_frame
from conversations.chat.runner import TurnRunner
from conversations.chat.serializers import ChatRequestSerializer
from conversations.chat.turn import ChatTurn
from conversations.models import Conversation
from conversations.store import selectors
from conversations.store.broadcast import conversation_group, user_group
from conversations.store.outage import TRANSIENT_STORAGE_ERRORS, UNAVAILABLE
from conversations.tenancy.permissions import membership_of

logger = logging.getLogger("omniforge.chat")

MAX_FRAME_BYTES = 64 * 1024
HISTORY_ON_CONNECT = 50
QUEUED_MESSAGES = 10  # sent while a turn runs; more is "busy"
WINDOW_TTL_S = 120  # a minute's shared counters outlive their minute, then go
LAYER_RETRY_MIN_S, LAYER_RETRY_MAX_S = 0.2, 2.0  # while the channel layer is unreachable
# Close codes of the contract, all in the application range: Autobahn refuses to let an
# application send the protocol's own codes (1009 "too big", 1013 "try again later") and
# raises instead, which Channels turns into a 1011 and a traceback.
NOT_AUTHENTICATED, NOT_ALLOWED, NOT_FOUND, TOO_FAST, TOO_LARGE = 4401, 4403, 4404, 4429, 4009
TRY_AGAIN_LATER = 4503  # storage is down for now (HTTP 503 in the 4xxx range)


class _RateLimit:
    """A token bucket per socket; a client that keeps sending into an empty one is closed."""

    def __init__(self) -> None:
        self.capacity = float(settings.OMNIFORGE_WS_BURST)
        self.rate = float(settings.OMNIFORGE_WS_RATE_PER_S)
        self.tokens = self.capacity
        self.at = time.monotonic()
        self.strikes = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.strikes = 0
            return True
        self.strikes += 1
        return False


def _ready(conversation: Conversation | None) -> dict[str, Any]:
    if conversation is None:
        return {"type": "ready", "conversation_id": None, "history": [], "state": None}
    page = selectors.message_page(conversation=conversation, limit=HISTORY_ON_CONNECT)
    return {
        "type": "ready",
        "conversation_id": conversation.id,
        "history": [message_dict(m, conversation.id) for m in page.items],
        "state": state_summary(
            AssistantState.from_json(conversation.assistant_state), tenant=conversation.tenant
        ),
    }


def _minute() -> int:
    """The current minute: the window the shared message counters count in."""
    return int(time.time() // 60)


def _count(key: str) -> int:
    """One more in a window's counter, atomically across processes: the cache's own ``incr``
    (Redis INCR; a lock in the local-memory cache). ``cache.aincr`` is a get then a set, and
    concurrent sockets lost each other's counts through it."""
    for _ in range(2):
        cache.add(key, 0, WINDOW_TTL_S)
        try:
            return int(cache.incr(key))
        except ValueError:  # the window's key expired between the two calls: start it again
            continue
    return int(cache.incr(key))


def _over_any(limits: tuple[tuple[str, int], ...]) -> bool:
    """Counts the message in every window; True when one of them is over its limit."""
    return any(_count(key) > limit for key, limit in limits)


class ChatConsumer(AsyncJsonWebsocketConsumer):
    conversation_id: str | None = None
    _closed = False
    _known: Conversation | None = None
    _rejoining: asyncio.Task[None] | None = None
    # Whether the layer is known to deliver to this socket: its groups joined and, after an
    # outage, a message of its own seen coming back through the layer.
    _layer_live = True
    _probe_heard: asyncio.Event | None = None
    _answered: frozenset[str] | set[str] = frozenset()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._groups: set[str] = set()
        self._direct: deque[str] = deque(maxlen=16)  # its own turns it sent itself, lately

    async def connect(self) -> None:
        try:
            await self._open()
        except TRANSIENT_STORAGE_ERRORS:
            await self._unavailable()

    async def _unavailable(self) -> None:
        """Storage is down for now: say so, and close with "try again later" (the page's
        reconnection backs off and comes back; sockets already open go on answering)."""
        logger.warning("chat: refused a WebSocket while storage is unavailable")
        await self.send_json({"type": "error", "code": "unavailable", "detail": UNAVAILABLE})
        await self.close(code=TRY_AGAIN_LATER)

    async def _open(self) -> None:
        method = self.scope.get("auth_method")
        if method == AUTH_SESSION and not origin_allowed(self.scope.get("origin")):
            # A cookie-authenticated handshake from another site: refused before it opens.
            logger.warning(
                "chat: refused a session WebSocket from origin %r", self.scope.get("origin")
            )
            await self.close()
            return
        await self.accept()
        if method == AUTH_UNAVAILABLE:
            await self._unavailable()
            return
        if method == AUTH_THROTTLED:
            await self.close(code=TOO_FAST)
            return
        if method is None:
            await self.close(code=NOT_AUTHENTICATED)
            return
        self.user = self.scope["user"]
        membership = await database_sync_to_async(membership_of)(self.user)
        if membership is None:
            await self.close(code=NOT_ALLOWED)
            return
        self.tenant, self.role = membership.tenant, membership.role
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        requested = (query.get("conversation_id") or [""])[0]
        conversation = None
        if requested:
            conversation = await self._conversation(requested)
            if conversation is None:
                await self.close(code=NOT_FOUND)
                return
            self.conversation_id = conversation.id
            await self._join(conversation_group(conversation.id))
        await self._join(user_group(self.user.pk))
        self._known = conversation  # what a turn goes on with if storage cannot be read
        self._limit = _RateLimit()
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUED_MESSAGES)
        self._runner: TurnRunner | None = None
        self._worker = asyncio.create_task(self._work())
        ready = await database_sync_to_async(_ready)(conversation)
        # Turns already answered in the history the socket starts from: frames of theirs still
        # on their way through the layer (pub/sub fans out on arrival) are not news to it.
        self._answered = {
            str(m["metadata"].get("reply_to"))
            for m in ready["history"]
            if m["role"] == "assistant" and isinstance(m["metadata"], dict)
        }
        await self.send_json(ready)

    async def _conversation(self, conversation_id: str) -> Conversation | None:
        if not (
            len(conversation_id) <= 26 and conversation_id.isascii() and conversation_id.isalnum()
        ):
            return None
        try:
            return await selectors.aconversation_get(
                tenant=self.tenant, user=self.user, conversation_id=conversation_id
            )
        except ObjectDoesNotExist:
            return None

    async def disconnect(self, code: int) -> None:
        self._closed = True
        worker = getattr(self, "_worker", None)
        if worker is not None:
            # A turn already started goes on in its runner and is stored; only messages that
            # were never acknowledged are dropped (their sender re-sends them).
            worker.cancel()
        if self._rejoining is not None:
            self._rejoining.cancel()
        for group in list(self._groups):
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # the layer is down: the membership expires with the group
                logger.warning("chat: could not leave %s", group.split(".")[0])

    # --- the channel layer: down for a while (Redis restarting) is not the socket's end ---

    @property
    def channel_receive(self) -> Callable[[], Awaitable[dict[str, Any]]]:
        return self._receive_from_layer

    @channel_receive.setter
    def channel_receive(self, receive: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        self._layer_receive = receive  # Channels sets it in __call__

    async def _receive_from_layer(self) -> dict[str, Any]:
        """The layer's next message; while the layer is unreachable, wait and try again.

        Channels ends the consumer (and closes the socket) when this raises, but the socket's
        own turns need no layer: they are answered and stored all the same. What the socket
        misses meanwhile (other tabs' turns) it finds in the history when it reconnects.
        """
        delay = LAYER_RETRY_MIN_S
        failing = False
        while True:
            try:
                message = await self._layer_receive()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not failing:
                    logger.warning("chat: channel layer unreachable (%s)", type(exc).__name__)
                    failing = True
                self._layer_lost()
                await asyncio.sleep(delay)
                delay = min(delay * 2, LAYER_RETRY_MAX_S)
                continue
            return message

    async def _join(self, group: str) -> None:
        self._groups.add(group)
        try:
            await self.channel_layer.group_add(group, self.channel_name)
        except Exception:
            logger.warning("chat: could not join %s; rejoining later", group.split(".")[0])
            self._layer_lost()

    def _layer_lost(self) -> None:
        """The layer failed this socket (a read, a join, or a frame of its turn it could not
        take): its own turns come to it directly until ``_rejoin`` sees the layer deliver again.

        Redis pub/sub forgets nothing it is told, but a subscription re-made after a dropped
        connection starts a moment after publishing works again; what is published in between
        reaches no one. So "the layer answers" is not enough: the socket waits for a message of
        its own to come back through it.
        """
        self._layer_live = False
        if not self._closed and (self._rejoining is None or self._rejoining.done()):
            self._rejoining = asyncio.create_task(self._rejoin())

    async def _rejoin(self) -> None:
        """Join the socket's groups again (a restarted Redis has forgotten them), then send the
        socket a probe through the layer until one arrives."""
        delay = LAYER_RETRY_MIN_S
        heard = self._probe_heard = asyncio.Event()
        while not self._layer_live and not self._closed:
            try:
                for group in list(self._groups):
                    await self.channel_layer.group_add(group, self.channel_name)
                await self.channel_layer.send(self.channel_name, {"type": "layer.probe"})
                await asyncio.wait_for(heard.wait(), timeout=max(delay, 0.5))
            except Exception:  # unreachable, or the probe was lost: try again a little later
                await asyncio.sleep(delay)
                delay = min(delay * 2, LAYER_RETRY_MAX_S)
                continue
            self._layer_live = True
            logger.warning("chat: channel layer reachable again; groups rejoined")

    # --- frames from the client ---

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        if len(raw.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
            await self.close(code=TOO_LARGE)
            return
        if not self._limit.allow():
            if self._limit.strikes > settings.OMNIFORGE_WS_STRIKES:
                await self.close(code=TOO_FAST)
            else:
                await self._error("rate_limited", "You are sending messages too fast.")
            return
        try:
            frame = json.loads(raw)
        except (ValueError, RecursionError):
            await self._error("invalid_json", "The frame is not JSON.")
            return
        if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
            await self._error("invalid_frame", 'A frame is a JSON object with a "type".')
            return
        if frame["type"] == "message":
            await self._message(frame)
        elif frame["type"] == "stop":
            await self._stop()
        else:
            await self._error("unknown_type", f"Unknown frame type {frame['type'][:40]!r}.")

    async def _message(self, frame: dict[str, Any]) -> None:
        client_message_id = frame.get("client_message_id")
        problem = client_json_problem(frame)
        if problem is not None:
            await self._error("invalid_message", problem[1], client_message_id)
            return
        body = ChatRequestSerializer(
            data={"message": frame.get("content"), "client_message_id": client_message_id}
        )
        if not body.is_valid():
            field, errors = next(iter(body.errors.items()))
            name = "content" if field == "message" else field
            await self._error("invalid_message", f"{name}: {errors[0]}", client_message_id)
            return
        if await self._over_shared_limit():
            await self._error(
                "rate_limited",
                "Too many messages from your account (or your workspace) this minute; "
                "send it again shortly.",
                client_message_id,
            )
            return
        try:
            self._queue.put_nowait(dict(body.validated_data))
        except asyncio.QueueFull:
            await self._error(
                "busy", "Too many messages are waiting; send it again shortly.", client_message_id
            )

    async def _over_shared_limit(self) -> bool:
        """Messages per minute of this user, and of the whole tenant, over every socket and
        server process (counted in the cache: Redis when configured)."""
        window = _minute()
        limits = (
            (f"omniforge:ws-user:{self.user.pk}:{window}", settings.OMNIFORGE_WS_USER_PER_MIN),
            (
                f"omniforge:ws-tenant:{self.tenant.pk}:{window}",
                settings.OMNIFORGE_WS_TENANT_PER_MIN,
            ),
        )
        try:
            # Off the event loop, and off the thread the ORM work of every socket shares.
            return await sync_to_async(_over_any, thread_sensitive=False)(limits)
        except Exception:  # a cache outage does not stop the chat; the socket's own limit holds
            logger.warning("chat: could not count messages in the cache", exc_info=True)
        return False

    async def _stop(self) -> None:
        if self._runner is not None and not self._runner.done:
            self._runner.stop()
        elif self.conversation_id:
            # The turn in progress may be another tab's, or another process's.
            await self.channel_layer.group_send(
                conversation_group(self.conversation_id), {"type": "turn.stop"}
            )

    # --- turns, one at a time per socket ---

    async def _work(self) -> None:
        while True:
            data = await self._queue.get()
            client_message_id = data.get("client_message_id")
            turn = ChatTurn(
                tenant=self.tenant,
                user=self.user,
                role=self.role,
                content=data["message"],
                conversation_id=self.conversation_id,
                client_message_id=client_message_id,
                known=self._known,
            )
            # On its conversation's group, the socket hears its own turn from the group, in the
            # one order every socket of the conversation hears; a conversation's first turn (no
            # group yet), a replayed one (the others saw it), and every turn while the layer is
            # not known to deliver to it (Redis down, or just back) are sent to it directly.
            direct = self.conversation_id is None or not self._layer_live
            try:
                await turn.open()
                runner = self._runner = TurnRunner(
                    turn, origin=self.channel_name, to_origin=not direct
                )
                async for event in runner.events():
                    if event["type"] == "ack" and self.conversation_id is None:
                        self.conversation_id = event["conversation_id"]
                        await self._join(conversation_group(self.conversation_id))
                    if not runner.replayed and not runner.last_via_group:
                        self._layer_lost()
                    # Once one frame of the turn comes directly, the rest do too, and copies
                    # the layer delivers after all are dropped: the turn reaches the socket
                    # whole and once.
                    if direct or runner.replayed or not runner.last_via_group:
                        direct = True
                        if runner.turn_id not in self._direct:
                            self._direct.append(runner.turn_id)
                        await self._send(socket_frame(event))
            except ChatError as exc:
                await self._error(exc.code, exc.detail, client_message_id)
            except Exception:
                logger.exception("chat: a socket's turn failed")
                await self._error(
                    "server_error", "Something went wrong; please try again.", client_message_id
                )
            finally:
                self._runner = None
                if turn.conversation is not None:
                    self._known = turn.conversation

    # --- frames to the client ---

    async def _send(self, frame: dict[str, Any]) -> None:
        if not self._closed:
            await self.send_json(frame)

    async def send_json(self, content: Any, close: bool = False) -> None:
        try:
            await super().send_json(content, close=close)
        except Disconnected:
            # The client closed while this frame was on its way (Daphne's socket is closing
            # before the consumer hears of it): the frame is for no one, not an error.
            self._closed = True

    async def _error(self, code: str, detail: str, client_message_id: Any = None) -> None:
        frame: dict[str, Any] = {"type": "error", "code": code, "detail": detail}
        if isinstance(client_message_id, str):
            frame["client_message_id"] = client_message_id
        await self._send(frame)

    # --- the channel layer's messages (handlers named after their types) ---

    async def turn_frame(self, event: dict[str, Any]) -> None:
        if event.get("origin") == self.channel_name:  # the asking socket has it already
            return
        if event.get("turn") in self._answered:  # in the history it was sent on connect
            return
        if event.get("turn") in self._direct:  # the asking socket sent this turn itself
            return
        await self._send(event["frame"])

    async def conversation_frame(self, event: dict[str, Any]) -> None:
        await self._send(event["frame"])

    async def layer_probe(self, event: dict[str, Any]) -> None:
        if self._probe_heard is not None:
            self._probe_heard.set()

    async def turn_stop(self, event: dict[str, Any]) -> None:
        if self._runner is not None:
            self._runner.stop()
