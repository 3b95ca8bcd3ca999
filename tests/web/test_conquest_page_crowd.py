"""With stand-ins on (`crowd_stand_in_seconds`), a crowded worker answers the newest page it
rendered for an address while the season's current version renders, and renders that version
in the background; a worker that is not crowded always renders the current version first.
With the default (off), a crowded worker is as fresh as a quiet one."""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.responses import HTMLResponse, Response
from fastapi.testclient import TestClient
from pydantic import ValidationError
from typer.testing import CliRunner

from fairfight.cli import app as cli
from fairfight.core.errors import InputError
from fairfight.web.conquest.page_cache import (
    CROWD_REQUESTS,
    REFRESH_SECONDS,
    PageCache,
    page_address,
)
from fairfight.web.settings import STAND_IN_CAP_SECONDS, WebSettings, settings_from_environment
from tests.web.conquest_support import make_app
from tests.web.test_conquest_page_cache import CONTRIBUTE, HTML, _open_pool


def _key(version: int) -> tuple[Hashable, ...]:
    """A route's key: its path, then the season's mark (version, countdown, odds, public
    base, payments, cosignatures seen — these move with the season too)."""
    return ("/conquest/1", version, None, None, "http://testserver", False, version)


BEGAN = threading.Event()


def _visit(cache: PageCache, version: int, render: HTMLResponse | threading.Event) -> object:
    """Ask for the page at `version`; a render says it began and waits for the event when
    given one."""
    def rendered() -> Response:
        if isinstance(render, threading.Event):
            BEGAN.set()
            render.wait(30)
            return HTMLResponse(f"<p>version {version}</p>")
        return render

    return cache.page(_key(version), rendered, lambda: _key(version))


def test_the_address_leaves_out_only_what_moves_with_the_season() -> None:
    assert page_address(_key(1)) == page_address(_key(2)) == (
        "/conquest/1", "http://testserver", False)
    other_host = (*_key(1)[:-3], "http://elsewhere", False, 1)
    assert page_address(other_host) != page_address(_key(1))


def test_a_crowded_waiter_gets_the_last_page_a_quiet_one_waits() -> None:
    BEGAN.clear()
    cache = PageCache(stand_in_seconds=STAND_IN_CAP_SECONDS)
    first = _visit(cache, 1, HTMLResponse("<p>version 1</p>"))
    finish = threading.Event()
    with ThreadPoolExecutor(2) as visitors:
        renderer = visitors.submit(_visit, cache, 2, finish)
        assert BEGAN.wait(30)
        cache.open_requests = CROWD_REQUESTS
        assert _visit(cache, 2, finish) is first  # answered while version 2 renders
        cache.open_requests = CROWD_REQUESTS - 1
        quiet = visitors.submit(_visit, cache, 2, finish)
        finish.set()
        newest = renderer.result(30)
        assert quiet.result(30) is newest  # waited for version 2
    assert getattr(newest, "body", b"") == b"<p>version 2</p>"


def test_no_stand_in_is_older_than_the_bound() -> None:
    cache = PageCache(stand_in_seconds=STAND_IN_CAP_SECONDS)
    page = _visit(cache, 1, HTMLResponse("<p>version 1</p>"))
    address = page_address(_key(1))
    assert cache.stand_in(address) is not None
    cache.stand_ins.put(address, (page, time.monotonic() - STAND_IN_CAP_SECONDS - 1))  # type: ignore[arg-type]
    assert cache.stand_in(address) is None


def _same(page: bytes, other: bytes) -> bool:
    """Whether two pages are the same bytes (a call, so a failure prints no quadratic diff of
    two 200 KB pages, which once kept a failing run busy for half an hour)."""
    return page == other


def _contribute(writer: TestClient, path: Path, key: str) -> None:
    answer = writer.post(CONTRIBUTE, json={"faction": _open_pool(path), "amount": 10},
                         headers={"Idempotency-Key": key})
    assert answer.status_code == 201, answer.text


def test_a_crowd_reads_the_stand_in_and_the_current_page_is_rendered_behind_it(
        season_file: Path) -> None:
    with TestClient(make_app(season_file, crowd_stand_in_seconds=5)) as reader, \
            TestClient(make_app(season_file)) as writer:
        pages: PageCache = reader.app.state.conquest.pages  # type: ignore[attr-defined]
        before = reader.get("/conquest/1", headers=HTML)
        _contribute(writer, season_file, "crowd-1")
        pages.open_requests = CROWD_REQUESTS  # as if a crowd's requests were open
        stood_in = reader.get("/conquest/1", headers=HTML)
        assert _same(stood_in.content, before.content)
        assert pages.rendered == 1  # young: nothing rendered again yet
        address = next(iter(pages.stand_ins._entries))  # noqa: SLF001 (the one address)
        kept, _ = pages.stand_ins.get(address)  # type: ignore[misc]
        pages.stand_ins.put(address, (kept, time.monotonic() - REFRESH_SECONDS))
        assert _same(reader.get("/conquest/1", headers=HTML).content, before.content)
        for _ in range(3000):  # the background render ends (no time is asserted)
            if pages.rendered == 2:
                break
            time.sleep(0.01)
        assert pages.rendered == 2
        pages.open_requests = 0
        after = reader.get("/conquest/1", headers=HTML)
        assert not _same(after.content, before.content)
        assert pages.rendered == 2  # the background render's page, kept
        _contribute(writer, season_file, "crowd-2")
        quiet = reader.get("/conquest/1", headers=HTML)
        assert not _same(quiet.content, after.content) and pages.rendered == 3


def test_by_default_a_crowded_waiter_waits_for_the_current_version() -> None:
    BEGAN.clear()
    cache = PageCache()
    _visit(cache, 1, HTMLResponse("<p>version 1</p>"))
    finish = threading.Event()
    with ThreadPoolExecutor(2) as visitors:
        renderer = visitors.submit(_visit, cache, 2, finish)
        assert BEGAN.wait(30)
        cache.open_requests = 4 * CROWD_REQUESTS
        assert not cache.crowded()
        crowded = visitors.submit(_visit, cache, 2, finish)
        finish.set()
        newest = renderer.result(30)
        assert crowded.result(30) is newest
    assert getattr(newest, "body", b"") == b"<p>version 2</p>"
    assert cache.stand_ins.get(page_address(_key(1))) is None  # none kept while off


def test_by_default_a_crowded_worker_answers_every_page_of_the_current_version(
        season_file: Path) -> None:
    with TestClient(make_app(season_file)) as reader, \
            TestClient(make_app(season_file)) as writer:
        pages: PageCache = reader.app.state.conquest.pages  # type: ignore[attr-defined]
        pages.open_requests = CROWD_REQUESTS  # as if a crowd's requests were open
        code = _open_pool(season_file)
        card = "/conquest/1/factions/" + code
        seen = {path: reader.get(path, headers=HTML).content for path in ("/conquest/1", card)}
        for number in range(2):  # to the card's faction: another's is not a new card
            answer = writer.post(CONTRIBUTE, json={"faction": code, "amount": 10},
                                 headers={"Idempotency-Key": f"fresh-{number}"})
            assert answer.status_code == 201, answer.text
            for path, before in seen.items():
                now = reader.get(path, headers=HTML)
                assert now.status_code == 200 and now.content != before, (path, number)
                seen[path] = now.content
        assert pages.rendered == 6 and not pages.crowded()


@pytest.mark.parametrize("seconds", [-1, STAND_IN_CAP_SECONDS + 1])
def test_a_stand_in_age_off_its_range_is_refused_naming_the_setting(
        seconds: int, monkeypatch: pytest.MonkeyPatch) -> None:
    assert WebSettings.model_fields["crowd_stand_in_seconds"].default == 0
    assert WebSettings(crowd_stand_in_seconds=STAND_IN_CAP_SECONDS).crowd_stand_in_seconds \
        == 30
    with pytest.raises(ValidationError, match="crowd_stand_in_seconds"):
        WebSettings(crowd_stand_in_seconds=seconds)
    monkeypatch.setenv("FAIRFIGHT_CROWD_STAND_IN_SECONDS", str(seconds))
    with pytest.raises(InputError) as refused:
        settings_from_environment()
    assert refused.value.one_line() == ("InputError: FAIRFIGHT_CROWD_STAND_IN_SECONDS: must be "
                                        f"0 (off) to 30 seconds, given {seconds}")


def test_serve_refuses_a_bad_stand_in_age_in_one_line_before_touching_the_database(
        tmp_path: Path) -> None:
    database = tmp_path / "never.db"
    result = CliRunner().invoke(cli, ["serve", "--db", str(database)],
                                env={"FAIRFIGHT_CROWD_STAND_IN_SECONDS": "45"})
    assert result.exit_code == 2
    assert result.stderr.strip() == ("InputError: FAIRFIGHT_CROWD_STAND_IN_SECONDS: must be "
                                     "0 (off) to 30 seconds, given 45")
    assert not database.exists()
