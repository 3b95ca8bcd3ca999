"""A lean HTTP/1.1 load generator for the web benchmarks: keep-alive connections on asyncio
streams, requests written as bytes, responses read by Content-Length.

The server and the load share this machine's two cores, so every millisecond the load
generator spends is taken from the server it measures. A general client (httpx) spends about
a millisecond of CPU per request and builds a TLS context per client; 50 of those created at
once stall the event loop for most of a second, which every first request then counts as
latency. This client does neither: connections are opened before the clock starts, and a
request costs a few tens of microseconds of the generator's CPU.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Answer", "Request", "read_answer", "run_load"]


@dataclass(frozen=True, slots=True)
class Request:
    """One request to send: method, path, JSON body (or none) and extra headers."""

    method: str
    path: str
    body: Any = None
    headers: tuple[tuple[str, str], ...] = ()

    def encode(self, host: str) -> bytes:
        payload = b"" if self.body is None else json.dumps(self.body).encode()
        lines = [f"{self.method} {self.path} HTTP/1.1", f"Host: {host}",
                 f"Content-Length: {len(payload)}"]
        if self.body is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{name}: {value}" for name, value in self.headers]
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + payload


@dataclass(frozen=True, slots=True)
class Answer:
    """One response: its status and its parsed JSON body."""

    status: int
    body: Any


async def read_answer(reader: asyncio.StreamReader) -> Answer:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
        elif name.strip().lower() == "transfer-encoding":
            raise RuntimeError("chunked responses are not expected by this benchmark")
    payload = await reader.readexactly(length) if length else b""
    try:
        return Answer(status, json.loads(payload) if payload else None)
    except ValueError:  # uvicorn's own refusals (503 at the connection cap) are plain text
        return Answer(status, payload.decode("utf-8", "replace"))


async def _load(
    host: str, port: int, requests: Sequence[Request], clients: int,
    check: Callable[[Request, Answer], None],
) -> tuple[float, list[float]]:
    connections = [await asyncio.open_connection(host, port) for _ in range(clients)]
    wire = [request.encode(f"{host}:{port}") for request in requests]
    next_index = iter(range(len(requests)))
    latencies: list[float] = []

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for index in next_index:
            started = time.perf_counter()
            writer.write(wire[index])
            answer = await read_answer(reader)
            latencies.append(time.perf_counter() - started)
            check(requests[index], answer)

    started = time.perf_counter()
    await asyncio.gather(*(client(reader, writer) for reader, writer in connections))
    seconds = time.perf_counter() - started
    for _, writer in connections:
        writer.close()
    return seconds, latencies


def run_load(
    base: str, requests: Sequence[Request], clients: int,
    check: Callable[[Request, Answer], None],
) -> tuple[float, list[float]]:
    """Send `requests` over `clients` keep-alive connections to `base` (http://host:port),
    each client sending its next request when its last one has been answered and checked.
    Returns the wall seconds and every request's latency in seconds."""
    host, _, port = base.removeprefix("http://").partition(":")
    return asyncio.run(_load(host, int(port), requests, clients, check))
