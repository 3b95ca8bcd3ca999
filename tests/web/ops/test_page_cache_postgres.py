"""Kept pages on `fairfight serve --workers 2` over PostgreSQL: whatever changes a season
through one worker, the other worker's next page load shows it (its kept page is for an older
version and is not served again), and a client holding the new page gets a 304 from either."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from fairfight.conquest.rules import scenario, tables
from fairfight.conquest.store import season
from tests.web.live_support import BEARER
from tests.web.ops.worker_support import PinnedClient, ServedWorkers, served_workers
from tests.web.postgres_cluster import postgres_cluster

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")  # as test_conquest_postgres

SEASON = 1
HOME = f"/conquest/{SEASON}"
OPERATOR = f"/api/seasons/{SEASON}/operator"


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_cluster() as url:
        season.create_season(url, scenario.load_map("north-america"), "north-america",
                             seed="5a" * 32, max_battles=4)
        yield url


@pytest.fixture(scope="module")
def server(database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedWorkers]:
    with served_workers(database, tmp_path_factory.mktemp("workers")) as served:
        yield served


def _kept_home(reader: PinnedClient) -> tuple[str, str]:
    """The home on the reader's worker, loaded twice: the same kept bytes, then a 304."""
    first = reader.get(HOME)
    assert first.status_code == 200
    tag = first.headers["etag"]
    assert reader.get(HOME).headers["etag"] == tag
    assert reader.get(HOME, headers={"if-none-match": tag}).status_code == 304
    return tag, first.text


def _changed_home(reader: PinnedClient, old_tag: str) -> str:
    after = reader.get(HOME, headers={"if-none-match": old_tag})
    assert after.status_code == 200, "the reader's worker served its kept page after a change"
    assert after.headers["etag"] != old_tag
    return after.text


def test_a_change_through_one_worker_is_on_the_others_next_page(
        server: ServedWorkers, database: str) -> None:
    writer, reader = server.pinned_pair()
    try:
        tag, _ = _kept_home(reader)
        assert writer.post(f"{OPERATOR}/air", json={"count": 1},
                           headers=BEARER).status_code == 200
        page = _changed_home(reader, tag)
        assert f'href="{HOME}/battles/1"' in page

        tag, before = _kept_home(reader)
        faction = next(code for code, held in sorted(
            season.summary(database).board["factions"].items())
            if held["standing"] and held["pool_state"] == "open" and held["pool"] == 0)
        answer = writer.post(f"/api/seasons/{SEASON}/contributions",
                             json={"faction": faction, "amount": tables.POOL_STEP},
                             headers={"Idempotency-Key": "page-cache-across"})
        assert answer.status_code == 201, answer.text
        page = _changed_home(reader, tag)
        root = re.search(r'id="log-head">.*?<span class="mono hash">([0-9a-f]+)', page, re.S)
        old_root = re.search(r'id="log-head">.*?<span class="mono hash">([0-9a-f]+)', before,
                             re.S)
        assert root and old_root and root.group(1) != old_root.group(1)  # a new signed head

        tag, _ = _kept_home(reader)
        assert writer.request("PUT", f"{OPERATOR}/schedule", json={"kind": "every",
                              "minutes": 600}, headers=BEARER).status_code == 200
        assert "Next episode: " in _changed_home(reader, tag)
        assert writer.post(f"{OPERATOR}/schedule/pause", headers=BEARER).status_code == 200

        while not season.summary(database).board["ended"]:
            assert writer.post(f"{OPERATOR}/air", json={"count": 10},
                               headers=BEARER).status_code == 200
        tag, _ = _kept_home(reader)
        assert writer.post(f"{OPERATOR}/reveal", headers=BEARER).status_code == 200
        seed = season.summary(database).revealed_seed
        assert seed is not None and seed in _changed_home(reader, tag)
    finally:
        writer.close()
        reader.close()
