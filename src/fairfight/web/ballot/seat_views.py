"""Each viewer's game page kept per state version, so reading a seat again costs nothing.

A seat's page at the declare step of a presidential year prices every card of the hand in
~480 races and asks the advice for the year; the same seat reads the same page again and
again (a reload, the live update's refresh, the page and its JSON twin) while the state stays
put. The page depends only on the table, its state version, the viewer and whether the viewer
is asked (plus the seats' names, which change when a person leaves), so it is kept under
exactly that key: a page built for one seat is never found under another seat's key, and a
spectator's page is kept under `NOBODY`, apart from every seat's.

A page being built is known too: a second reader of the same key (the page prepared after the
move that opened the step, then the person's own read) waits for that build instead of
building the page again.

A page is kept as its JSON (the twin's own bytes): weighed exactly by its length, some four
times smaller than the built models, invisible to the garbage collector (a few hundred kept
pages as objects would be walked by every full collection), and read back as a fresh model
for each request, so no two requests share a page object.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence

from fairfight.web.ballot.seat_page import GamePage
from fairfight.web.byte_cache import ByteCappedCache

__all__ = ["BUILD_WAIT_SECONDS", "SEAT_HTML_BYTES", "SEAT_VIEWS_BYTES", "SeatViewKey",
           "SeatViews"]

SEAT_VIEWS_BYTES = 32 * 1024 * 1024
"""The budget of kept seat pages per process: a page at the declare step of a presidential
year is some 300 KB of JSON, the other steps far less."""

SEAT_HTML_BYTES = 16 * 1024 * 1024
"""The budget of kept seat pages as HTML per process (a declare page is some 200 KB of it)."""

BUILD_WAIT_SECONDS = 30.0
"""The longest a reader waits for the same page another thread is building before it builds
its own (a build takes well under a second; this only bounds a stuck one)."""

SeatViewKey = tuple[str, int, int, bool, tuple[str, ...]]
"""(table, state version, viewer, asked, the seats' names): everything a page is built from
besides the table's steps, which the version counts."""


class SeatViews:
    """The kept pages of one process, capped by bytes, the least recently read dropped first."""

    def __init__(self, max_bytes: int = SEAT_VIEWS_BYTES) -> None:
        self.kept: ByteCappedCache[SeatViewKey, bytes] = ByteCappedCache(max_bytes, len)
        self.built = 0
        """Pages built so far (the ones not found kept), for tests and the curious."""
        self.building: dict[SeatViewKey, threading.Event] = {}
        """The pages some thread is building now, each with the event set once it is done."""
        self._lock = threading.Lock()
        self.html: ByteCappedCache[bytes, bytes] = ByteCappedCache(SEAT_HTML_BYTES, len)
        self.rendered = 0
        """HTML pages rendered so far (the ones not found kept)."""

    def page(
        self, table_id: str, version: int, viewer: int, asked: bool, names: Sequence[str],
        build: Callable[[], GamePage],
    ) -> GamePage:
        """The page kept for this viewer of this version, or `build()` kept and returned; when
        another thread is building the same page, its page once it is done."""
        key = (table_id, version, viewer, asked, tuple(names))
        kept = self.kept.get(key)
        if kept is None:
            with self._lock:
                other = self.building.get(key)
                if other is None:
                    self.building[key] = mine = threading.Event()
            if other is None:
                return self._build(key, build, mine)
            other.wait(BUILD_WAIT_SECONDS)
            kept = self.kept.get(key)
            if kept is None:  # that build failed, or its page was too large to keep
                self.built += 1
                return build()
        return GamePage.model_validate_json(kept)

    def _build(self, key: SeatViewKey, build: Callable[[], GamePage],
               done: threading.Event) -> GamePage:
        """Build the page, keep it, then wake whoever waits for it (even when the build fails)."""
        try:
            self.built += 1
            page = build()
            self.kept.put(key, page.model_dump_json().encode())
            return page
        finally:
            with self._lock:
                del self.building[key]
            done.set()

    def html_of(self, shown: bytes, render: Callable[[], bytes]) -> bytes:
        """The HTML kept for exactly what a page shows, or `render()` kept and returned.

        `shown` is everything the page is rendered from (the viewer's table as JSON and the
        address asked), so it is its own key: the same bytes in, the same page out, whoever
        asks, and a page can only be found by someone whose own view is byte for byte the
        same. The key is its SHA-256, so a kept page costs its HTML and 32 bytes."""
        key = hashlib.sha256(shown).digest()
        kept = self.html.get(key)
        if kept is not None:
            return kept
        self.rendered += 1
        html = render()
        self.html.put(key, html)
        return html
