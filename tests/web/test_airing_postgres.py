"""The airing schedule on PostgreSQL: the same tables and statements as on SQLite, and two
racing airers (own engines, own connections) still air each slot of a season once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from fairfight.conquest.rules.schedule import parse_schedule
from fairfight.conquest.store import schedule_store, season
from tests.conquest.helpers import SEED, star_map
from tests.conquest.test_schedule import set_schedule_on
from tests.web.postgres_cluster import postgres_cluster

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")  # as test_conquest_postgres

NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A fresh cluster with two star-map seasons."""
    with postgres_cluster() as url:
        for _ in range(2):
            season.create_season(url, star_map(), "star", seed=SEED)
        yield url


def test_two_airers_on_postgres_air_each_slot_once(database: str) -> None:
    address = f"{database}#1"
    set_schedule_on(address, parse_schedule("every", minutes=5, now=NOON), NOON)
    statuses: list[str] = []
    for minutes in (0, 5, 10):
        gate = threading.Barrier(2)

        def air(holder: str, when: datetime, gate: threading.Barrier = gate) -> None:
            gate.wait()
            # the lease is always free (-1 s): only the slot record keeps them apart
            statuses.append(schedule_store.air_due(address, holder, when, -1).status)

        when = NOON + timedelta(minutes=minutes)
        threads = [threading.Thread(target=air, args=(name, when)) for name in ("A", "B")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert statuses.count("aired") == 3
    assert season.summary(address).battles == 3
    assert season.summary(f"{database}#2").battles == 0  # the other season is untouched


def test_the_lease_keeps_a_second_airer_out_until_handed_back(database: str) -> None:
    address = f"{database}#2"
    set_schedule_on(address, parse_schedule("every", seconds=10, now=NOON), NOON)
    assert schedule_store.air_due(address, "A", NOON).status == "aired"  # A's lease: to +30 s
    slot_2 = NOON + timedelta(seconds=10)
    assert schedule_store.air_due(address, "B", slot_2).status == "leased"
    schedule_store.release_lease(address, "A")
    assert schedule_store.air_due(address, "B", slot_2).status == "aired"
    assert season.summary(address).battles == 2
