"""Stored wars on PostgreSQL by URL: the schema made by `fairfight db upgrade`, a war played
through two stores (two processes' worth) on one database, a sealed sheet that cannot change,
and two racing last seals that publish the result once."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fairfight.warscore.published import published_result, war_standing
from fairfight.warscore.sealed import RoundSetup, WarSetup
from fairfight.warscore.store import RESULTS, SheetSealed, WarStore
from fairfight.web.migrations import upgrade
from tests.warscore.war_sheets import BATTLE, GONDOR, GONDOR_TOTAL, MORDOR, SETUP
from tests.web.postgres_cluster import postgres_cluster

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_cluster() as url:
        upgrade(url)  # the war tables as the migration makes them, before any store runs
        yield url


def test_a_war_across_two_stores_on_postgres(database: str) -> None:
    first, second = WarStore(database), WarStore(database)
    try:
        war_id, _, _ = first.create(WarSetup.model_validate(SETUP), client="pg")
        number = first.open_round(war_id, RoundSetup.model_validate(BATTLE), client="pg")
        first.submit(war_id, number, 0, MORDOR, client="pg")
        second.submit(war_id, number, 1, GONDOR, client="pg")
        second.approve(war_id, number, 1, "Saruman", "", client="pg")
        first.seal(war_id, number, 0, client="pg")
        with pytest.raises(SheetSealed):
            second.submit(war_id, number, 0, GONDOR, client="pg")
        found = second.seal(war_id, number, 1, client="pg")
        assert found is not None
        with Session(first.engine) as session:
            result = published_result(session, found)
            standing = war_standing(session, war_id)
        assert result is not None and result.figures()["defender"]["total"] == GONDOR_TOTAL
        assert standing is not None and standing.battles[0].winner == "Gondor"
    finally:
        first.close()
        second.close()


def test_two_racing_last_seals_publish_once(database: str) -> None:
    stores = [WarStore(database) for _ in range(2)]
    try:
        war_id, _, _ = stores[0].create(WarSetup.model_validate(SETUP), client="race")
        number = stores[0].open_round(war_id, RoundSetup.model_validate(BATTLE), client="race")
        stores[0].submit(war_id, number, 0, MORDOR, client="race")
        stores[0].submit(war_id, number, 1, GONDOR, client="race")
        stores[0].approve(war_id, number, 1, "Saruman", "", client="race")
        outcomes: list[object] = []

        def seal(store: WarStore, nation: int) -> None:
            try:
                outcomes.append(store.seal(war_id, number, nation, client="race"))
            except Exception as error:  # noqa: BLE001 - the race's loser is what is counted
                outcomes.append(error)

        threads = [threading.Thread(target=seal, args=(store, nation))
                   for store, nation in zip(stores, (0, 1), strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        assert sorted(o is None for o in outcomes) == [False, True]  # one seal publishes
        rounds = stores[0].rounds(war_id)
        assert rounds[0].status == "published"
        with stores[0].engine.connect() as connection:
            count = connection.execute(select(func.count()).select_from(RESULTS).where(
                RESULTS.c.war_id == war_id)).scalar_one()
        assert count == 1
    finally:
        for store in stores:
            store.close()
