"""At the connection cap, half-open connections make room for a request that arrives whole
(fairfight.web.serve.HeaderTimeoutProtocol); uvicorn alone would answer it 503."""

from __future__ import annotations

import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from fairfight.web.serve import GracefulServer, HeaderTimeoutProtocol, ServiceConfig
from tests.web.conquest_support import free_port

CAP = 10


async def _hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


@contextmanager
def _capped_server() -> Iterator[int]:
    """A uvicorn server in a thread with fairfight's protocol, CAP connections at most and a
    header timeout far longer than the test."""
    port = free_port()
    config = ServiceConfig(_hello, host="127.0.0.1", port=port, log_level="warning",
                           http=HeaderTimeoutProtocol, limit_concurrency=CAP,
                           header_read_seconds=300, lifespan="off")
    server = GracefulServer(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive(), "the test server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.handle_exit(signal.SIGINT, None)
        thread.join(30)


def _ask(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=60) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return connection.recv(4096)


def test_a_whole_request_is_served_while_half_open_connections_fill_the_cap() -> None:
    with _capped_server() as port:
        assert _ask(port).startswith(b"HTTP/1.1 200")
        silent = []
        for number in range(CAP):
            connection = socket.create_connection(("127.0.0.1", port), timeout=60)
            if number % 2:
                connection.sendall(b"GET / HT")  # part of a head, then nothing
            silent.append(connection)
        try:
            answer = _ask(port)
            assert answer.startswith(b"HTTP/1.1 200"), answer[:120]
            assert silent[0].recv(1) == b"", "the oldest half-open connection made room"
            silent[-1].setblocking(False)
            with pytest.raises(BlockingIOError):  # the newest is still open, nothing sent
                silent[-1].recv(1)
        finally:
            for connection in silent:
                connection.close()


def test_at_the_cap_with_no_half_open_connection_uvicorn_still_refuses() -> None:
    with _capped_server() as port:
        idle = []
        for _ in range(CAP - 1):  # keep-alive connections that finished a request: not shed
            connection = socket.create_connection(("127.0.0.1", port), timeout=60)
            connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert connection.recv(4096).startswith(b"HTTP/1.1 200")
            idle.append(connection)
        try:
            assert _ask(port).startswith(b"HTTP/1.1 503")
        finally:
            for connection in idle:
                connection.close()
