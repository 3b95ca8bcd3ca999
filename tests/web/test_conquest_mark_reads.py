"""After a commit, the season's mark is read once on a thread of the worker's own and the
requests waiting for it are answered before routing: a kept page the commit did not change
never goes back to the router's render slots, and a page the commit changed still shows it."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from fairfight.conquest.store import season
from fairfight.web.conquest.mark_reads import MarkReads
from tests.web.test_conquest_page_cache import HTML, _open_pool


def _routed_renders(client: TestClient) -> list[object]:
    """The page flights asked for from now on: one per request the router answered."""
    flights: Any = client.app.state.conquest.pages.flights  # type: ignore[attr-defined]
    asked: list[object] = []
    plain = flights.page

    async def counted(name: object, make: Any) -> object:
        asked.append(name)
        return await plain(name, make)

    flights.page = counted
    return asked


def test_a_kept_card_a_commit_left_alone_is_answered_before_routing(
        client: TestClient, season_file: Path) -> None:
    code = _open_pool(season_file)
    other = next(f"/conquest/1/factions/{faction}" for faction in sorted(
        season.summary(season_file).board["factions"]) if faction != code)
    before = client.get(other, headers=HTML)
    own = client.get(f"/conquest/1/factions/{code}", headers=HTML)
    routed = _routed_renders(client)
    season.contribute(season_file, code, 5)  # another connection commits
    again = client.get(other, headers=HTML)
    assert again.status_code == 200 and routed == []
    assert again.text.count("pool-amount") == before.text.count("pool-amount")
    moved = client.get(f"/conquest/1/factions/{code}", headers=HTML)
    assert '<span id="pool-amount">$5</span>' in moved.text
    assert '<span id="pool-amount">$5</span>' not in own.text
    assert routed == [(f"/conquest/1/factions/{code}",)]  # the card the commit changed


def test_a_request_during_a_read_waits_for_the_next_one() -> None:
    """A read that began before a request came may have missed the commit it was asked
    after: the request is answered by the read that starts when that one ends, and all the
    requests that came meanwhile share it."""
    began = threading.Event()
    go_on = threading.Event()
    reads: list[int] = []

    def read() -> int:
        reads.append(len(reads) + 1)
        began.set()
        go_on.wait(30)
        return len(reads)

    async def scene() -> tuple[int | None, ...]:
        marks: MarkReads[int] = MarkReads()
        first = asyncio.ensure_future(marks.fresh(1, read))
        while not began.is_set():
            await asyncio.sleep(0.001)
        later = [asyncio.ensure_future(marks.fresh(1, read)) for _ in range(3)]
        other_season = asyncio.ensure_future(marks.fresh(2, lambda: 99))
        go_on.set()
        return (await first, *[await each for each in later], await other_season)

    assert asyncio.run(scene()) == (1, 2, 2, 2, 99)
    assert reads == [1, 2]


def test_a_failed_read_lets_the_request_go_to_the_route() -> None:
    def broken() -> int:
        raise RuntimeError("the file is gone")

    assert asyncio.run(MarkReads[int]().fresh(1, broken)) is None
