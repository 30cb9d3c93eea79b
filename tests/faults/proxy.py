"""A TCP proxy the drills own, between the servers and PostgreSQL or Redis, that can be cut.

The machine's PostgreSQL and Redis are shared with every other test, so a drill never stops
them: it points the processes under test at this proxy and cuts it. ``cut()`` closes every
connection it carries and stops listening, so new connections are refused exactly as if the
service were down; ``restore()`` listens on the same port again.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
from collections.abc import Iterator
from types import TracebackType


def proxied_database_url(proxy: TcpProxy) -> str:
    """DATABASE_URL of the test database, reached through ``proxy``."""
    from django.db import connection

    from tests.conftest import subprocess_database_url

    params = connection.settings_dict
    return subprocess_database_url().replace(
        f"@{params.get('HOST') or '127.0.0.1'}:{params.get('PORT') or 5432}/",
        f"@127.0.0.1:{proxy.port}/",
    )


class TcpProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self._lock = threading.Lock()
        self._pairs: set[tuple[socket.socket, socket.socket]] = set()
        self._listener: socket.socket | None = None
        self._acceptor: threading.Thread | None = None
        self.port = 0
        self.accepted = 0
        self.restore()

    # -- control ---------------------------------------------------------------------------

    @property
    def is_up(self) -> bool:
        return self._listener is not None

    def restore(self) -> None:
        """Listen (again, on the same port once one was chosen)."""
        with self._lock:
            if self._listener is not None:
                return
            listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", self.port))
            listener.listen(512)
            self.port = listener.getsockname()[1]
            self._listener = listener
        self._acceptor = threading.Thread(
            target=self._accept, args=(listener,), name=f"proxy-{self.port}", daemon=True
        )
        self._acceptor.start()

    def cut(self) -> None:
        """Refuse new connections and drop every open one, as a service going down does."""
        with self._lock:
            listener, self._listener = self._listener, None
            pairs, self._pairs = self._pairs, set()
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        for pair in pairs:
            for sock in pair:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
        if self._acceptor is not None:
            self._acceptor.join(timeout=5)

    @contextlib.contextmanager
    def down(self) -> Iterator[None]:
        self.cut()
        try:
            yield
        finally:
            self.restore()

    def close(self) -> None:
        self.cut()

    def __enter__(self) -> TcpProxy:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- the data path ---------------------------------------------------------------------

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            for sock in (client, upstream):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            pair = (client, upstream)
            with self._lock:
                if self._listener is not listener:  # cut meanwhile
                    client.close()
                    upstream.close()
                    return
                self._pairs.add(pair)
                self.accepted += 1
            threading.Thread(target=self._pump, args=(pair,), daemon=True).start()

    def _pump(self, pair: tuple[socket.socket, socket.socket]) -> None:
        client, upstream = pair
        other = {client: upstream, upstream: client}
        selector = selectors.DefaultSelector()
        try:
            selector.register(client, selectors.EVENT_READ)
            selector.register(upstream, selectors.EVENT_READ)
            while True:
                for key, _ in selector.select(timeout=1.0):
                    source = key.fileobj
                    assert isinstance(source, socket.socket)
                    data = source.recv(65536)
                    if not data:
                        return
                    other[source].sendall(data)
                with self._lock:
                    if pair not in self._pairs:
                        return
        except (OSError, ValueError):
            return  # cut, or one side went away
        finally:
            selector.close()
            with self._lock:
                self._pairs.discard(pair)
            for sock in pair:
                with contextlib.suppress(OSError):
                    sock.close()
