"""Season pages stitched from kept parts: a kept part never shows an older state than the
page around it. After every kind of change a worker that kept parts answers the same page as
a worker rendering it from nothing, and a contribution's figure is on the pages at once."""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.store import season
from tests.web.conquest_support import copy_season, make_app
from tests.web.test_conquest_page_cache import CHANGES, CONTRIBUTE, HTML, _open_pool

FORM_KEY = re.compile(rb'name="idempotency_key" value="[^"]+"')


def _pages(path: Path, code: str) -> list[str]:
    """The season home, the latest episode and faction cards (each a kept page): the card
    of `code` (the faction a ledger batch adds to), of the waiting rebel, of both sides of
    the next battle (their facts, holdings, battles and luck move with it), and of a
    faction absorbed with an empty fund (its figures stay as they are to the season's end,
    but its fund stops taking money then)."""
    summary = season.summary(path)
    newest = summary.battles
    idle = next(card for card, held in sorted(summary.board["factions"].items())
                if not held["standing"] and held["pool"] == 0 and card != "KY")
    cards = dict.fromkeys([code, "KY", *_fighting_next(path), idle])
    return ["/conquest/1", f"/conquest/1/battles/{newest}",
            *(f"/conquest/1/factions/{card}" for card in cards)]


def _fighting_next(path: Path) -> list[str]:
    """Both sides of the season's next battle, found by fighting it on a copy."""
    with tempfile.TemporaryDirectory() as scratch:
        entry = next(season.fight(copy_season(path, Path(scratch)), 1))
    return [str(entry["attacker"]), str(entry["defender"])]


def _shown(client: TestClient, page: str) -> bytes:
    """A page as a visitor gets it, but for the card's per-visitor form key."""
    answer = client.get(page, headers=HTML)
    assert answer.status_code == 200, page
    return FORM_KEY.sub(b"", answer.content)


def _both(reader: TestClient, fresh: TestClient, pages: list[str],
          path: Path) -> tuple[list[bytes], list[bytes]]:
    """The pages from both workers at one season version and one second. On a schedule an
    airing loop (any of the apps') may air a due battle at any moment, and the countdown's
    words are whole seconds of the clock ("in 10 h" becomes "in 9 h 59 min" one second after
    a schedule starts): the pages are read again while a battle aired or the clock's second
    turned in between and they differ."""
    for _ in range(5):
        aired = season.summary(path).battles
        second = int(time.time())
        rendered = [_shown(fresh, page) for page in pages]
        after = [_shown(reader, page) for page in pages]
        if season.summary(path).battles == aired and (
                after == rendered or int(time.time()) == second):
            break
    return after, rendered


def _parts(client: TestClient) -> int:
    return int(client.app.state.conquest.parts.rendered)  # type: ignore[attr-defined]


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_after_every_kind_of_change_the_pages_are_as_rendered_from_nothing(
        season_file: Path, change: str) -> None:
    """The reader kept every part of the pages before the change (written by another app, as
    another worker would); after it, its pages must be byte for byte what a new worker
    renders. The episode is the one latest before the change: a battle gives it a link to the
    next one, inside its kept part."""
    code = _open_pool(season_file)
    pages = _pages(season_file, code)
    with TestClient(make_app(season_file)) as reader, \
            TestClient(make_app(season_file)) as writer:
        before = [_shown(reader, page) for page in pages]
        kept = _parts(reader)
        assert kept > 0 and [_shown(reader, page) for page in pages] == before
        assert _parts(reader) == kept  # the pages came from the page cache as they were
        CHANGES[change](writer, season_file)
        with TestClient(make_app(season_file)) as fresh:
            after, rendered = _both(reader, fresh, pages, season_file)
        assert after == rendered
        assert after[0] != before[0]


def test_a_contribution_shows_at_once_on_home_and_card_and_renders_one_row(
        season_file: Path) -> None:
    """The faction's pool held $0 (`_open_pool`), so after $10 it shows $10 on the home's
    standings row and on its card; of the home's parts only that row is rendered again (the
    map, the episodes, the luck and the other rows do not read the ledger); of its card only
    the pool and the list of its entries; another faction's card is the page kept before
    (title odds off: nothing on it moved); the episode, which shows nothing of the ledger,
    is the page kept before, not rendered again."""
    code = _open_pool(season_file)
    home, episode, card, other = _pages(season_file, code)[:4]
    row = re.compile(rf'<tr data-faction="{code}".*?<td class="num pool">\$(\d+) (\w+)</td>',
                     re.S)
    with TestClient(make_app(season_file)) as reader, \
            TestClient(make_app(season_file)) as writer:
        first = reader.get(home, headers=HTML).text
        assert row.search(first) is not None and row.search(first).groups() == ("0", "open")
        assert '<span id="pool-amount">$0</span>' in reader.get(card, headers=HTML).text
        other_card = _shown(reader, other)
        shown_episode = _shown(reader, episode)
        kept = _parts(reader)
        answer = writer.post(CONTRIBUTE, json={"faction": code, "amount": 10},
                             headers={"Idempotency-Key": "page-parts-1"})
        assert answer.status_code == 201, answer.text
        now = reader.get(home, headers=HTML).text
        assert _parts(reader) == kept + 1
        found = row.search(now)
        assert found is not None and found.groups() == ("10", "open")
        pages = reader.app.state.conquest.pages  # type: ignore[attr-defined]
        rendered = pages.rendered
        assert _shown(reader, other) == other_card
        assert _parts(reader) == kept + 1
        assert pages.rendered == rendered  # the page kept before the contribution
        assert '<span id="pool-amount">$10</span>' in reader.get(card, headers=HTML).text
        assert _parts(reader) == kept + 3
        rendered = pages.rendered
        assert _shown(reader, episode) == shown_episode
        assert pages.rendered == rendered  # kept once for the battles, not per contribution


def test_a_visitors_own_pool_is_never_kept(season_file: Path) -> None:
    """A card with a visitor's receipt, or with a refused form, renders its pool for that
    visitor alone: once every visitor's card is kept for the version, neither renders a
    part that is kept (the pool with them in it would be one)."""
    code = _open_pool(season_file)
    card = f"/conquest/1/factions/{code}"
    with TestClient(make_app(season_file)) as client:
        posted = client.post(f"{card}/contribute",
                             data={"amount": "10", "idempotency_key": "own-form"},
                             follow_redirects=False)
        assert posted.status_code == 303
        _shown(client, card)
        kept = _parts(client)
        own = client.get(posted.headers["location"].split("#")[0], headers=HTML)
        assert 'id="contribution-recorded"' in own.text
        refused = client.post(f"{card}/contribute",
                              data={"amount": "7", "idempotency_key": "own-form-2"})
        assert refused.status_code == 422 and 'id="contribution-error"' in refused.text
        assert _parts(client) == kept
        assert 'id="contribution-recorded"' not in client.get(card, headers=HTML).text


def test_title_odds_parts_follow_the_forecast(season_file: Path) -> None:
    """With title odds on, a contribution makes the kept odds stale at once ("updating"),
    and the fresh forecast replaces them once made: both as a new worker shows them, on the
    home and on the card of another faction than the one added to. Each contribution's
    "updating" is looked for on the first page asked after it (that render asks for the new
    forecast, which may land before the next page is asked). The reader's live watcher
    polls once a minute: a poll between the contribution and the page would start the new
    forecast itself, and a forecast of 40 seasons can be ready before the page is asked."""
    code = _open_pool(season_file)
    pages = ["/conquest/1/factions/KY", "/conquest/1"]
    with TestClient(make_app(season_file, forecast_seasons=40, forecast_seed="parts",
                             live_poll_seconds=60)) as reader, \
            TestClient(make_app(season_file)) as writer:
        reader.get("/conquest/1", headers=HTML)
        reader.app.state.conquest.forecasts.settle()  # type: ignore[attr-defined]
        assert all('data-status="ready"' in reader.get(page, headers=HTML).text
                   for page in pages)
        for number, page in enumerate(pages):
            answer = writer.post(CONTRIBUTE, json={"faction": code, "amount": 10},
                                 headers={"Idempotency-Key": f"page-parts-{number}"})
            assert answer.status_code == 201, answer.text
            stale = reader.get(page, headers=HTML).text
            assert 'data-status="updating"' in stale and 'data-status="ready"' not in stale
        reader.app.state.conquest.forecasts.settle()  # type: ignore[attr-defined]
        ready = [_shown(reader, page) for page in pages]
        with TestClient(make_app(season_file, forecast_seasons=40,
                                 forecast_seed="parts")) as fresh:
            fresh.get("/conquest/1", headers=HTML)
            fresh.app.state.conquest.forecasts.settle()  # type: ignore[attr-defined]
            assert ready == [_shown(fresh, page) for page in pages]
