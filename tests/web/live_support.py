"""Helpers of the live-update tests: apps over one database, and a reader of an event stream
running on its own thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

import httpx
from fastapi import FastAPI

from fairfight.web import WebSettings, create_app
from fairfight.web.conquest.operator import token_digest
from tests.web.conquest_support import ADMIN_TOKEN

BEARER = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
GIVE_UP_SECONDS = 60.0
"""How long a test waits for something that should come (a safety net, not a speed test)."""


def service_app(database_url: str, **settings: object) -> FastAPI:
    """One service instance over `database_url`, polling its events table often."""
    values: dict[str, object] = {"database_url": database_url, "forecast_seasons": 0,
                                 "admin_token_sha256": token_digest(ADMIN_TOKEN),
                                 "live_poll_seconds": 0.05, **settings}
    return create_app(WebSettings(**values))  # type: ignore[arg-type]


def wait_until(condition: Callable[[], bool], what: str) -> None:
    """Wait for `condition`, failing with `what` if it never holds."""
    give_up = time.monotonic() + GIVE_UP_SECONDS
    while not condition():
        assert time.monotonic() < give_up, f"gave up waiting: {what}"
        time.sleep(0.02)


def sse_blocks(response: httpx.Response) -> Iterator[dict[str, str]]:
    """Each block of fields of a server-sent event stream (comments left out)."""
    current: dict[str, str] = {}
    for line in response.iter_lines():
        if not line:
            if current:
                yield current
            current = {}
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        current[name] = value.removeprefix(" ")


class StreamReader:
    """Reads one event stream on a thread and keeps every block it received."""

    def __init__(self, base: str, path: str, last_event_id: str | None = None) -> None:
        self.blocks: list[dict[str, str]] = []
        self.status: int | None = None
        self.ended = threading.Event()
        self._stop = threading.Event()
        headers = {} if last_event_id is None else {"Last-Event-ID": last_event_id}
        self._thread = threading.Thread(target=self._read, args=(base + path, headers),
                                        daemon=True)
        self._thread.start()

    def _open(self, url: str, headers: dict[str, str]) -> AbstractContextManager[httpx.Response]:
        """The stream's response, on a connection of its own (a subclass may choose one)."""
        return httpx.stream("GET", url, headers=headers, timeout=GIVE_UP_SECONDS)

    def _read(self, url: str, headers: dict[str, str]) -> None:
        try:
            with self._open(url, headers) as response:
                self.status = response.status_code
                for block in sse_blocks(response):
                    self.blocks.append(block)
                    if self._stop.is_set():
                        return
        except httpx.HTTPError:
            pass
        finally:
            self.ended.set()

    def events(self, kind: str | None = None) -> list[dict[str, str]]:
        """The events received (blocks naming an event), of `kind` when given."""
        return [b for b in self.blocks if "event" in b and kind in (None, b["event"])]

    def wait_for(self, count: int, kind: str | None = None) -> list[dict[str, str]]:
        """Wait until `count` events (of `kind`) have arrived; returns them."""
        wait_until(lambda: len(self.events(kind)) >= count or self.ended.is_set(),
                   f"{count} {kind or 'any'} events")
        found = self.events(kind)
        assert len(found) >= count, (found, self.blocks)
        return found

    def opened(self) -> dict[str, str]:
        """The stream's first block (retry, and for a fresh stream the current id)."""
        wait_until(lambda: bool(self.blocks) or self.ended.is_set(), "the opening block")
        return self.blocks[0]

    def close(self) -> None:
        """Stop at the next block (the server's heartbeat or event ends the read)."""
        self._stop.set()
