"""Client addresses behind reverse proxies, through a live Daphne: every limit counts the client.

Without trusted proxies a forwarded header is the client's own words and is ignored; behind N
of them the N-th ``X-Forwarded-For`` entry from the right is the client, whatever the client
wrote to its left. The REST throttles, the WebSocket handshake throttle and the sign-in
lockout all count that one address.
"""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest
from django.db import connections
from django.test import Client

from config.proxies import forwarded_client
from tests.conftest import World
from tests.live import Server

pytestmark = pytest.mark.django_db(transaction=True)
URL = "/api/v1/conversations/"
BAD_TOKEN = "0" * 40


def _statuses(server: Server, forwarded: list[str], *, token: str | None = BAD_TOKEN) -> list[int]:
    return [
        server.request("GET", URL, token=token, headers={"X-Forwarded-For": hop})[0]
        for hop in forwarded
    ]


def test_a_new_forwarded_address_per_request_does_not_escape_the_wrong_token_throttle(
    world: World, servers: list[Server]
) -> None:
    connections.close_all()
    server = Server(env={"AUTH_FAILURE_THROTTLE_RATE": "10/min"})
    servers.append(server)
    statuses = _statuses(server, [f"203.0.113.{n}" for n in range(15)])
    assert statuses[:10] == [401] * 10 and set(statuses[10:]) == {429}


def test_a_new_forwarded_address_per_request_does_not_escape_the_anonymous_throttle(
    world: World, servers: list[Server]
) -> None:
    connections.close_all()
    server = Server(env={"ANON_THROTTLE_RATE": "5/min"})
    servers.append(server)
    statuses = _statuses(server, [f"203.0.113.{n}" for n in range(8)], token=None)
    assert statuses[:5] == [401] * 5 and set(statuses[5:]) == {429}


def test_behind_one_proxy_each_client_is_throttled_by_the_address_the_proxy_wrote(
    world: World, servers: list[Server]
) -> None:
    connections.close_all()
    server = Server(env={"OMNIFORGE_TRUSTED_PROXIES": "1", "AUTH_FAILURE_THROTTLE_RATE": "5/min"})
    servers.append(server)
    # What the client wrote (left) changes every time; what the proxy appended does not.
    first = _statuses(server, [f"198.51.100.{n}, 10.0.0.1" for n in range(8)])
    assert first[:5] == [401] * 5 and set(first[5:]) == {429}
    # Another client behind the same proxy is not throttled for the first one's failures.
    assert _statuses(server, ["10.0.0.1, 10.0.0.2"]) == [401]


def test_wrong_token_handshakes_are_throttled_and_closed_with_4429(
    world: World, servers: list[Server]
) -> None:
    connections.close_all()
    server = Server(env={"AUTH_FAILURE_THROTTLE_RATE": "5/min"})
    servers.append(server)

    async def handshakes(count: int, token: str) -> list[int]:
        codes = []
        async with aiohttp.ClientSession() as session:
            for n in range(count):
                ws = await session.ws_connect(
                    f"ws://127.0.0.1:{server.port}/ws/chat/",
                    headers={"Authorization": f"Token {token}", "X-Forwarded-For": f"192.0.2.{n}"},
                )
                message = await ws.receive(timeout=10)
                assert message.type == aiohttp.WSMsgType.CLOSE, message
                codes.append(int(message.data))
                await ws.close()
        return codes

    codes = asyncio.run(handshakes(8, BAD_TOKEN))
    assert codes[:5] == [4401] * 5 and set(codes[5:]) == {4429}
    # The REST API and the socket count one address's wrong tokens together.
    assert _statuses(server, ["192.0.2.99"]) == [429]


def test_behind_one_proxy_a_locked_out_client_does_not_lock_out_the_others(
    world: World, settings: Any
) -> None:
    settings.OMNIFORGE_TRUSTED_PROXIES = 1
    settings.AXES_FAILURE_LIMIT = 3
    attacker = Client(REMOTE_ADDR="10.9.9.9")  # the proxy, as Daphne sees every client
    for n in range(3):
        attacker.post(
            "/accounts/login/",
            {"username": "olivia", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n}, 203.0.113.7",
        )
    # A new left-most address does not lift the attacker's lockout …
    locked = attacker.post(
        "/accounts/login/",
        {"username": "olivia", "password": "pw-olivia-1"},
        HTTP_X_FORWARDED_FOR="198.51.100.200, 203.0.113.7",
    )
    assert locked.status_code == 429
    # … and the owner, behind the same proxy from another address, still signs in.
    owner = Client(REMOTE_ADDR="10.9.9.9")
    signed_in = owner.post(
        "/accounts/login/",
        {"username": "olivia", "password": "pw-olivia-1"},
        HTTP_X_FORWARDED_FOR="203.0.113.8",
    )
    assert signed_in.status_code == 302 and "_auth_user_id" in owner.session


@pytest.mark.parametrize(
    ("remote", "forwarded", "trusted", "client"),
    [
        ("10.0.0.1", "203.0.113.7", 0, "10.0.0.1"),  # no trusted proxy: the header is ignored
        ("10.0.0.1", None, 1, "10.0.0.1"),  # nothing forwarded: the peer
        ("10.0.0.1", "evil, 203.0.113.7", 1, "203.0.113.7"),
        ("10.0.0.1", "evil, 203.0.113.7, 10.0.0.2", 2, "203.0.113.7"),
        ("10.0.0.1", "203.0.113.7", 3, "203.0.113.7"),  # fewer entries: the left-most (DRF's)
    ],
)
def test_the_client_is_the_nth_forwarded_entry_from_the_right(
    remote: str, forwarded: str | None, trusted: int, client: str
) -> None:
    assert forwarded_client(remote, forwarded, trusted) == client
