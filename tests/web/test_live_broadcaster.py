"""The broadcaster on its own, on one event loop: an exact stream cap when many streams open
at once, a slow client dropped instead of buffered, heartbeats, and events written with the
change they announce (none for a rolled-back change)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fairfight.conquest.store import season, season_events
from fairfight.conquest.store.season_store import SeasonStore
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.database import SeasonDatabase
from fairfight.web.conquest.live import NEWS_GAP_SECONDS, Broadcaster, parse_last_event_id
from fairfight.web.conquest.refusals import Refusal


def _catalog(path: Path) -> SeasonCatalog:
    return SeasonCatalog(SeasonDatabase(f"sqlite:///{path}"))


def _run_with(path: Path, live_options: dict[str, float], body: object) -> None:
    catalog = _catalog(path)
    live = Broadcaster(catalog, **live_options)  # type: ignore[arg-type]

    async def main() -> None:
        try:
            await body(live)  # type: ignore[operator]
        finally:
            await live.close()

    try:
        asyncio.run(main())
    finally:
        catalog.close()


def test_the_cap_holds_when_1500_streams_open_at_once(season_file: Path) -> None:
    outcomes: dict[str, int] = {}

    async def body(live: Broadcaster) -> None:
        async def one() -> AsyncIterator[bytes] | Refusal:
            try:
                return await live.stream(1, None)
            except Refusal as refusal:
                return refusal

        answers = await asyncio.gather(*(one() for _ in range(1500)))
        refused = [a for a in answers if isinstance(a, Refusal)]
        outcomes["open"] = live.clients()
        outcomes["refused"] = len(refused)
        outcomes["retry"] = sum(1 for r in refused if r.status == 503
                                and r.headers == {"Retry-After": "10"})
        for answer in answers:
            if not isinstance(answer, Refusal):
                await answer.__anext__()  # the opening block
                await answer.aclose()
        outcomes["after"] = live.clients()

    _run_with(season_file, {"max_clients": 500}, body)
    assert outcomes == {"open": 500, "refused": 1000, "retry": 1000, "after": 0}


def test_a_client_that_falls_behind_is_dropped_not_buffered(season_file: Path) -> None:
    received: list[bytes] = []

    async def body(live: Broadcaster) -> None:
        slow = await live.stream(1, None)
        received.append(await slow.__anext__())  # opened, then it stops reading
        list(season.fight(season_file, 2))  # a battle and a head each: 4 events > queue of 2
        assert await live.catch_up() == 4
        received.extend([chunk async for chunk in slow])  # the stream ends: it is dropped
        assert live.clients() == 0

    _run_with(season_file, {"queue_size": 2, "poll_seconds": 3600}, body)
    assert len(received) == 1 and received[0].startswith(b"retry: 3000\nid: ")


def test_a_quiet_stream_gets_heartbeat_comments(season_file: Path) -> None:
    async def body(live: Broadcaster) -> None:
        stream = await live.stream(1, None)
        await stream.__anext__()
        assert await stream.__anext__() == b": heartbeat\n\n"
        await stream.aclose()

    _run_with(season_file, {"heartbeat_seconds": 0.05}, body)


def test_no_event_is_stored_for_a_change_that_rolled_back(season_file: Path) -> None:
    store = SeasonStore.open(season_file, write=True)
    try:
        with store.transaction() as session:
            before = season_events.event_window(session)[1]
        with pytest.raises(RuntimeError), store.transaction() as session:
            season_events.announce(session, season_events.EventKind.LEDGER, {"last_seq": 1})
            raise RuntimeError("the change fails after its event was added")
        with store.transaction() as session:
            assert season_events.event_window(session)[1] == before
    finally:
        store.close()
    aired = list(season.fight(season_file, 1))
    store = SeasonStore.open(season_file)
    try:
        with store.transaction() as session:
            new = season_events.events_after(session, before)
    finally:
        store.close()
    assert [(e.id, e.kind) for e in new] == [(before + 1, season_events.EventKind.BATTLE),
                                             (before + 2, season_events.EventKind.HEAD)]
    assert new[0].payload == {"number": aired[0]["number"], "ended": False}


def test_a_file_made_before_the_table_gets_it_even_after_a_rolled_back_first_try(
        tmp_path: Path) -> None:
    from tests.web.test_migrations import _release_files, _schema

    path = _release_files(tmp_path)
    assert "season_event" not in dict(_schema(path))
    store = SeasonStore.open(path, write=True)
    try:
        with pytest.raises(RuntimeError), store.transaction() as session:
            season_events.announce(session, season_events.EventKind.LEDGER, {"last_seq": 9})
            raise RuntimeError("the first change with an event fails")
        assert "season_event" not in dict(_schema(path))  # made and rolled back with it
        for amount in (5, 10):  # the next writes make it, then find it
            with store.transaction() as session:
                season_events.announce(session, season_events.EventKind.LEDGER,
                                       {"last_seq": amount})
        with store.transaction() as session:
            stored = [(e.id, e.payload) for e in season_events.events_after(session, 0)]
    finally:
        store.close()
    assert stored == [(1, {"last_seq": 5}), (2, {"last_seq": 10})]


@pytest.mark.parametrize("sent", ["²", "١٢", "１２", "1" * 13, "-1", "", "  "])
def test_a_last_event_id_that_is_not_ascii_digits_means_none(sent: str) -> None:
    """A resuming client's Last-Event-ID in another script's digits is not a cursor (and never
    reaches int(), which reads some of them and refuses others)."""
    assert parse_last_event_id(sent) is None
    assert parse_last_event_id(" 12 ") == 12


def test_a_burst_of_wakes_is_read_in_few_reads_paced_by_the_news_gap(season_file: Path) -> None:
    """Every commit of every worker wakes every watcher; each wake read at once made a worker
    read the table once per commit under a crowd. Wakes within NEWS_GAP_SECONDS of a read's
    start join the next read."""
    reads: list[float] = []
    seen: dict[str, float] = {}

    async def body(live: Broadcaster) -> None:
        loop = asyncio.get_running_loop()
        catch_up = live.catch_up

        async def counted() -> int:  # timed on the loop, as the watcher paces its reads
            reads.append(loop.time())
            return await catch_up()

        live.catch_up = counted  # type: ignore[method-assign]
        await live.start()
        await asyncio.sleep(3 * NEWS_GAP_SECONDS)  # the first read is done and long past
        reads.clear()
        started = loop.time()
        for _ in range(25):
            live.poke()
            await asyncio.sleep(0.002)
        seen["burst"] = loop.time() - started
        await asyncio.sleep(3 * NEWS_GAP_SECONDS)  # the last wakes are read too
        seen["last"] = reads[-1] - started if reads else -1.0

    _run_with(season_file, {"poll_seconds": 3600}, body)
    assert reads, "the wakes were never read"
    assert len(reads) <= seen["burst"] / NEWS_GAP_SECONDS + 2, (len(reads), seen)
    gaps = [later - earlier for earlier, later in zip(reads, reads[1:], strict=False)]
    assert all(gap >= NEWS_GAP_SECONDS * 0.99 for gap in gaps), gaps
    assert seen["last"] >= seen["burst"] - NEWS_GAP_SECONDS  # the burst's end was read
