"""Pages kept per season version: every kind of change is a new page, nothing personal is
shared, and a client holding the page gets a 304."""

from __future__ import annotations

import re
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.responses import HTMLResponse, Response
from fastapi.testclient import TestClient
from starlette.requests import Request

from fairfight.conquest.store import season
from fairfight.web.conquest.page_cache import PageCache
from tests.web.conquest_support import ADMIN_TOKEN, make_app

BEARER = {"authorization": f"Bearer {ADMIN_TOKEN}"}
HTML = {"accept": "text/html"}
CONTRIBUTE = "/api/seasons/1/contributions"


def _open_pool(path: Path) -> str:
    """A standing faction whose pool takes money and holds none yet for the next battle."""
    summary = season.summary(path)
    due = summary.board["next_battle"]
    pending = {e["faction"] for e in summary.ledger if e["before_battle"] == due}
    return next(code for code, f in sorted(summary.board["factions"].items())
                if f["standing"] and f["pool_state"] == "open" and f["pool"] == 0
                and code not in pending)


def _rendered(client: TestClient) -> int:
    return int(client.app.state.conquest.pages.rendered)  # type: ignore[attr-defined]


def test_a_page_is_rendered_once_and_revalidated_with_304(client: TestClient) -> None:
    first = client.get("/conquest/1", headers=HTML)
    again = client.get("/conquest/1", headers=HTML)
    assert first.status_code == again.status_code == 200
    assert first.content == again.content
    assert _rendered(client) == 1
    tag = first.headers["etag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', tag)  # strong: no W/
    assert first.headers["cache-control"] == "public, max-age=5, must-revalidate"
    held = client.get("/conquest/1", headers={**HTML, "if-none-match": f'"other", {tag}'})
    assert held.status_code == 304 and held.content == b""
    assert held.headers["etag"] == tag
    other = client.get("/conquest/1", headers={**HTML, "if-none-match": '"other"'})
    assert other.status_code == 200 and other.content == first.content


@pytest.mark.parametrize("path", ["/conquest/1", "/conquest/1/battles", "/conquest/1/battles/2",
                                  "/conquest/1/verify", "/embed/seasons/1"])
def test_every_public_page_is_kept(client: TestClient, path: str) -> None:
    first = client.get(path, headers=HTML)
    assert first.status_code == 200 and "etag" in first.headers
    assert client.get(path, headers=HTML).content == first.content
    assert _rendered(client) == 1
    assert "set-cookie" not in first.headers


def _battle(writer: TestClient, path: Path) -> str:
    assert writer.post("/api/seasons/1/operator/air", json={"count": 1},
                       headers=BEARER).status_code == 200
    return f'href="/conquest/1/battles/{season.summary(path).battles}"'


def _ledger_batch(writer: TestClient, path: Path) -> str:
    code = _open_pool(path)
    answer = writer.post(CONTRIBUTE, json={"faction": code, "amount": 10},
                         headers={"Idempotency-Key": "page-cache-1"})
    assert answer.status_code == 201, answer.text
    return f'<tr data-faction="{code}"'


def _head(writer: TestClient, path: Path) -> str:
    _ledger_batch(writer, path)
    heads = writer.get("/api/seasons/1/heads").json()
    newest = heads["heads"][-1] if isinstance(heads, dict) else heads[-1]
    return str(newest["root"])


def _schedule(writer: TestClient, path: Path) -> str:
    answer = writer.put("/api/seasons/1/operator/schedule",
                        json={"kind": "every", "minutes": 600}, headers=BEARER)
    assert answer.status_code == 200
    return "Next episode: "


def _reveal(writer: TestClient, path: Path) -> str:
    while not season.summary(path).board["ended"]:
        assert writer.post("/api/seasons/1/operator/air", json={"count": 10},
                           headers=BEARER).status_code == 200
    assert writer.post("/api/seasons/1/operator/reveal", headers=BEARER).status_code == 200
    seed = season.summary(path).revealed_seed
    assert seed is not None
    return seed


CHANGES: dict[str, Callable[[TestClient, Path], str]] = {
    "battle": _battle, "ledger batch": _ledger_batch, "signed head": _head,
    "schedule": _schedule, "reveal": _reveal,
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_every_kind_of_change_is_a_new_page(season_file: Path, change: str) -> None:
    """The change is written by another app over the same file (another worker, as the
    command line would), so only the version read per request can tell this one."""
    with TestClient(make_app(season_file)) as reader, \
            TestClient(make_app(season_file)) as writer:
        before = reader.get("/conquest/1", headers=HTML)
        assert reader.get("/conquest/1", headers=HTML).content == before.content
        shown = CHANGES[change](writer, season_file)
        after = reader.get("/conquest/1", headers=HTML)
        assert after.status_code == 200
        assert after.headers["etag"] != before.headers["etag"]
        assert shown in after.text
        if change != "ledger batch":  # that row was on the page before, with another pool
            assert shown not in before.text
        held = reader.get("/conquest/1", headers={"if-none-match": before.headers["etag"]})
        assert held.status_code == 200 and held.content == after.content


def test_the_form_key_is_each_visitors_own(client: TestClient, season_file: Path) -> None:
    code = _open_pool(season_file)
    pages = [client.get(f"/conquest/1/factions/{code}", headers=HTML) for _ in range(3)]
    keys = [re.search(r'name="idempotency_key" value="([^"]+)"', page.text) for page in pages]
    assert all(key is not None for key in keys)
    assert len({key.group(1) for key in keys if key}) == 3
    assert _rendered(client) == 1
    for page in pages:
        assert "etag" not in page.headers and page.headers["cache-control"] == "no-store"
        assert "form-key-" not in page.text


def test_a_receipt_is_never_shown_to_another_visitor(client: TestClient,
                                                     season_file: Path) -> None:
    code = _open_pool(season_file)
    posted = client.post(f"/conquest/1/factions/{code}/contribute",
                         data={"amount": "10", "idempotency_key": "own-form"},
                         follow_redirects=False)
    assert posted.status_code == 303
    own = client.get(posted.headers["location"].split("#")[0], headers=HTML)
    assert 'id="receipt' in own.text or "receipt" in own.text.lower()
    other = client.get(f"/conquest/1/factions/{code}", headers=HTML)
    mine = set(re.findall(r'id="(receipt[^"]*|confirmation[^"]*)"', own.text))
    assert mine and not mine & set(re.findall(r'id="([^"]+)"', other.text))


def _request(cookie: str = "") -> Request:
    headers = [(b"cookie", cookie.encode())] if cookie else []
    return Request({"type": "http", "method": "GET", "path": "/", "headers": headers,
                    "query_string": b""})


def test_a_response_setting_a_cookie_is_never_served_to_another_visitor() -> None:
    cache = PageCache()
    visits = iter(["first", "second"])

    def render() -> Response:
        page = HTMLResponse("<p>the same page</p>")
        page.set_cookie("visitor", next(visits))
        return page

    first = cache.serve(_request(), ("/",), render)
    second = cache.serve(_request(), ("/",), render)
    assert "visitor=first" in first.headers["set-cookie"]
    assert "visitor=second" in second.headers["set-cookie"]
    assert cache.rendered == 2 and len(cache.kept) == 0


def test_only_a_200_is_kept() -> None:
    cache = PageCache()
    answers = iter([HTMLResponse("gone", status_code=404), HTMLResponse("here")])
    assert cache.serve(_request(), ("/",), lambda: next(answers)).status_code == 404
    assert cache.serve(_request(), ("/",), lambda: next(answers)).body == b"here"
    assert len(cache.kept) == 1


def test_visitors_missing_the_same_page_together_wait_for_one_render() -> None:
    cache = PageCache()
    started, finish = threading.Event(), threading.Event()

    def render() -> Response:
        started.set()
        finish.wait(10)
        return HTMLResponse("<p>new version</p>")

    with ThreadPoolExecutor(4) as visitors:
        first = visitors.submit(cache.page, ("/", 2), render)
        assert started.wait(10)
        others = [visitors.submit(cache.page, ("/", 2), render) for _ in range(3)]
        finish.set()
        pages = [first.result(10), *(other.result(10) for other in others)]
    assert cache.rendered == 1
    assert all(page is pages[0] for page in pages)


def test_templates_are_compiled_once_unless_reload_is_asked(season_file: Path) -> None:
    from fairfight.web import WebSettings, create_app
    from fairfight.web.templating import templates

    try:
        create_app(WebSettings(database_url=f"sqlite:///{season_file}", template_reload=True))
        assert templates.env.auto_reload is True
        create_app(WebSettings(database_url=f"sqlite:///{season_file}"))
        assert templates.env.auto_reload is False
    finally:
        templates.env.auto_reload = False


def test_words_are_the_same_from_the_kept_figures() -> None:
    """Kept per figure and per type: 1/2 as a Fraction and as text read alike, and a
    simulated share of 1 never reads "certain" although the exact 1 does."""
    from fractions import Fraction

    from fairfight.plainwords import in_words

    assert in_words(Fraction(1, 2)) == in_words("1/2") == "about 5 in 10"
    assert in_words(Fraction(1)) == "certain"
    assert in_words(Fraction(1), True) != "certain"
    assert in_words(Fraction(1)) == "certain"


PAGE_CODE = ("web/conquest/page_cache.py", "web/conquest/routes/pages.py")
"""The page code's files, by their paths inside the package: a bare "page_cache.py" would
also match this test file, which is on every counted stack, and count the airing loop's own
reads whenever a pass fell between two cards."""


def _count_page_reads(conquest: Any) -> list[int]:
    """The seasons the page code reads from now on, a read each: the event feed and the
    airing loop (a pass a second) read the season on their own, and are not counted."""
    reads: list[int] = []
    plain_read = conquest.catalog.read

    def counted(season_id: int) -> object:
        if any(frame.filename.endswith(PAGE_CODE) for frame in traceback.extract_stack()):
            reads.append(season_id)
        return plain_read(season_id)

    conquest.catalog.read = counted
    return reads


def test_a_kept_page_is_answered_without_a_query_until_something_is_committed(
    client: TestClient, season_file: Path,
) -> None:
    """Between two commits to the season file, a kept page is served from memory (no read
    transaction, no render); a commit from another connection (here the command line) is
    seen on the very next request."""
    conquest = client.app.state.conquest  # type: ignore[attr-defined]
    first = client.get("/conquest/1", headers=HTML)
    card = client.get("/conquest/1/factions/" + _open_pool(season_file), headers=HTML)
    reads = _count_page_reads(conquest)
    again = [client.get("/conquest/1", headers=HTML) for _ in range(3)]
    cards = [client.get(card.url.path, headers=HTML) for _ in range(2)]
    assert reads == [] and _rendered(client) == 2
    assert all(page.content == first.content for page in again)
    assert all(page.headers["etag"] == first.headers["etag"] for page in again)
    assert len({page.text for page in [card, *cards]}) == 3  # each its own form key
    assert all(page.headers["cache-control"] == "no-store" for page in cards)
    season.contribute(season_file, _open_pool(season_file), 5)
    after = client.get("/conquest/1", headers=HTML)
    assert reads and after.headers["etag"] != first.headers["etag"]
    assert _rendered(client) == 3


def test_pages_rendered_between_two_commits_read_the_season_once(
    client: TestClient, season_file: Path,
) -> None:
    """After a commit the first page rendered reads the season (its mark, its snapshot, its
    schedule); the cards rendered after it read nothing more until the next commit, and
    each commit, made over another connection, is on the next card. Only the pages' reads
    are counted: the event feed and the airing loop read the season on their own."""
    conquest = client.app.state.conquest  # type: ignore[attr-defined]
    code = _open_pool(season_file)
    others = [f"/conquest/1/factions/{other}" for other in sorted(
        season.summary(season_file).board["factions"]) if other != code][:3]
    reads = _count_page_reads(conquest)
    for amount in (5, 10):
        season.contribute(season_file, code, 5)
        page = client.get(f"/conquest/1/factions/{code}", headers=HTML)
        assert f'<span id="pool-amount">${amount}</span>' in page.text and reads
        reads.clear()
        assert all(client.get(other, headers=HTML).status_code == 200 for other in others)
        assert reads == []
        others = others[1:] + others[:1]
