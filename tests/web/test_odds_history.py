"""The kept title odds: one row per battle whoever writes it, and a backfill that replays the
season to the same forecasts the live service kept."""

from __future__ import annotations

import glob
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from fairfight.conquest.forecast.title_odds import forecast
from fairfight.conquest.store import season
from fairfight.conquest.store.odds_history import (
    forecast_from_json,
    history_version,
    read_history,
    read_stakes,
    record_forecast,
)
from fairfight.web.byte_cache import deep_size
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.database import SeasonDatabase
from fairfight.web.conquest.forecasts import forecast_seed_for, forecast_stem, public_state
from fairfight.web.conquest.odds_views import OddsStory
from tests.conquest.helpers import SEED, star_map


def _catalog(path: Path) -> SeasonCatalog:
    return SeasonCatalog(SeasonDatabase(f"sqlite:///{path}"))


def _season(tmp_path: Path, battles: int) -> Path:
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    list(season.fight(path, battles))
    return path


def test_a_forecast_round_trips_through_its_json() -> None:
    from fairfight.conquest.rules import engine

    made = forecast(engine.new_state(star_map(), SEED), [], seasons=300, forecast_seed="rt")
    assert forecast_from_json(made.to_json()) == made


def _race_two_writers(url: str) -> None:
    """Two catalogs (two connections, as two processes have) write the same forecast at once:
    one inserts it, the other finds it there, and the season keeps one row."""
    catalogs = [SeasonCatalog(SeasonDatabase(url)) for _ in range(2)]
    snap = catalogs[0].snapshot(1)
    made = forecast(public_state(snap), [], seasons=300, forecast_seed="w")
    start, answers = threading.Barrier(2), []

    def write(catalog: SeasonCatalog) -> None:
        start.wait()
        with catalog.database.transaction(1, write=True) as session:
            answers.append(record_forecast(session, 1, made))

    threads = [threading.Thread(target=write, args=(c,)) for c in catalogs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [False, True]
    with catalogs[1].read(1) as session:
        assert history_version(session) == (1, 1, 0)
        assert read_history(session) == [(1, made)]
    for catalog in catalogs:
        catalog.close()


def test_two_writers_at_once_store_the_forecast_once(tmp_path: Path) -> None:
    _race_two_writers(f"sqlite:///{_season(tmp_path, 1)}")


def test_two_services_after_the_same_battle_keep_one_row_each(tmp_path: Path) -> None:
    path = _season(tmp_path, 2)
    stories = [OddsStory(_catalog(path), seasons=300) for _ in range(2)]
    start = threading.Barrier(2)

    def update(story: OddsStory) -> None:
        snap = story.catalog.snapshot(1)
        start.wait()
        story.update(snap, public_state(snap), forecast_seed_for(snap, None))

    threads = [threading.Thread(target=update, args=(s,)) for s in stories]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with stories[0].catalog.read(1) as session:
        assert [battle for battle, _ in read_history(session)] == [2]
        stored = read_stakes(session, 3)
    assert stored is not None and stored["battle"] == 3 and stored["stakes"]
    for story in stories:
        story.catalog.close()


def test_the_backfill_replays_the_season_to_the_forecasts_kept_live(tmp_path: Path) -> None:
    live_path = tmp_path / "live" / "season.db"
    live_path.parent.mkdir()
    season.create_season(live_path, star_map(), "star", seed=SEED)
    live = OddsStory(_catalog(live_path), seasons=300)
    for _ in range(3):
        snap = live.catalog.snapshot(1)
        live.update(snap, public_state(snap), forecast_seed_for(snap, None))
        list(season.fight(live_path, 1))
    copy = tmp_path / "copy"
    copy.mkdir()
    live.catalog.close()
    for companion in live_path.parent.glob("season.db*"):
        shutil.copy2(companion, copy / companion.name)
    connection = sqlite3.connect(copy / "season.db")  # the copy keeps no forecast
    with connection:
        connection.execute("DELETE FROM odds_history")
    connection.close()
    fresh = OddsStory(_catalog(copy / "season.db"), seasons=300)
    snap = fresh.catalog.snapshot(1)
    assert fresh.backfill(snap, forecast_stem(snap, None)) == 4
    kept = fresh.history(1)
    assert [battle for battle, _ in kept] == [0, 1, 2, 3]
    live = OddsStory(_catalog(live_path), seasons=300)
    assert live.history(1) == kept[:3]
    fresh.catalog.close()
    live.catalog.close()


@pytest.mark.filterwarnings("ignore::ResourceWarning")  # pooled psycopg teardown, as elsewhere
def test_two_writers_on_postgresql_store_the_forecast_once() -> None:
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        pytest.skip("PostgreSQL server programs are not installed")
    from tests.web.postgres_cluster import postgres_cluster

    with postgres_cluster() as url:
        season.create_season(url, star_map(), "star", seed=SEED)
        list(season.fight(f"{url}#1", 1))
        _race_two_writers(url)


def test_a_rebellion_s_stakes_resolve_on_its_episode(tmp_path: Path) -> None:
    """A waiting rebellion has known fighters: its stakes are worked out before it airs, and
    its episode shows them beside the chances before and after."""
    path = _season(tmp_path, 2)
    story = OddsStory(_catalog(path), seasons=300)
    board = story.catalog.snapshot(1).board
    rebel = next(code for code, f in sorted(board["factions"].items()) if not f["standing"])
    season.contribute(path, rebel, 50)
    snap = story.catalog.snapshot(1)
    story.update(snap, public_state(snap), forecast_seed_for(snap, None))
    stakes = story.stakes(snap)
    assert stakes is not None and stakes.rebellion and stakes.pairings == 1
    assert [p.attacker for p in stakes.shown] == [rebel]
    list(season.fight(path, 1))
    snap = story.catalog.snapshot(1)
    story.update(snap, public_state(snap), forecast_seed_for(snap, None))
    resolved = story.resolved(snap, 3)
    assert resolved is not None and resolved.worked_out
    assert {f.faction for f in resolved.fighters} == {resolved.winner, resolved.loser}
    assert resolved.pairing_text == "certain"
    assert all(f.if_wins_text and f.if_loses_text for f in resolved.fighters)
    moved, battle = story.movers(snap)
    assert battle == 3
    fought = [m for m in moved if m.faction in (resolved.winner, resolved.loser)]
    assert fought and all("rebellion" in m.reason for m in fought)
    story.catalog.close()


def test_built_views_stay_within_their_byte_budget(tmp_path: Path) -> None:
    """Each faction's chart is a view of its own; past the budget the least recently shown
    are dropped and built again, the same view."""
    path = _season(tmp_path, 2)
    story = OddsStory(_catalog(path), seasons=300)
    snap = story.catalog.snapshot(1)
    story.update(snap, public_state(snap), forecast_seed_for(snap, None))
    codes = sorted(snap.board["factions"])
    budget = deep_size(story.chart(snap, codes[0])) * 5 // 2   # room for two charts
    small = OddsStory(story.catalog, seasons=300, views_bytes=budget)
    charts = []
    for code in codes:
        charts.append(small.chart(snap, code))
        assert small.views.bytes_used <= budget
    assert len(codes) > 2 and len(small.views) == 2
    assert small.chart(snap, codes[-1]) is charts[-1]   # kept
    again = small.chart(snap, codes[0])   # dropped: built again, the same chart
    assert again is not charts[0] and again == charts[0]
    story.catalog.close()
