"""Title odds over time, kept in the season's database: one forecast per aired battle and the
stakes of the battle that followed it.

A row is written once: several service processes may make the same forecast after the same
battle (same board, same forecast seed, same figures), and whichever commits second inserts
nothing (`INSERT … ON CONFLICT DO NOTHING` on the (season, battle) key, SQLite and
PostgreSQL alike). The tables are `rows.KEY_TABLES`, made on first write, so season files
made before them still open; a reader finds none and shows no history.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from fairfight.conquest.forecast.title_odds import Forecast, forecast
from fairfight.conquest.rules import engine
from fairfight.conquest.store.rows import (
    BattleStakesRow,
    OddsHistoryRow,
    ensure_key_table,
    has_table,
    json_text,
    load_column,
    season_of,
)
from fairfight.core.errors import InputError

__all__ = [
    "HISTORY_SEASONS",
    "backfill",
    "forecast_from_json",
    "history_version",
    "read_history",
    "read_stakes",
    "record_forecast",
    "record_stakes",
    "replayed_states",
    "seed_before",
]

HISTORY_SEASONS = 20_000
"""Seasons simulated for each kept forecast and for each outcome of the stakes: a title
chance's 95% interval is then at most ±0.7 points wide."""


def seed_before(stem: str, next_battle: int) -> str:
    """The recorded forecast seed of a forecast standing before `next_battle`: public text
    (the season's commitment, or the service's fixed text) and the battle number."""
    return f"{stem}-before-{next_battle}"


forecast_from_json = Forecast.from_json
"""A `Forecast` back from its stored JSON (one home: `Forecast.from_json`)."""


def replayed_states(map_data: dict[str, Any], max_battles: int | None,
                    ledger: list[dict[str, Any]],
                    history: list[dict[str, Any]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(battles fought, public state) after each aired battle, 0 first: the season replayed
    from its map, ledger and each battle's saved draws by the engine's own step (no seed is
    needed once a battle has aired). A replay that misses the recorded winner is refused."""
    from fairfight.conquest.forecast.stakes import engine_step

    state = engine.new_state(map_data, "", max_battles)
    yield 0, state
    for aired in history:
        state, replayed = engine_step(state, ledger, [int(d["value"]) for d in aired["draws"]])
        if replayed["winner"] != aired["winner"]:
            raise InputError(f"battle {aired['number']}", "the replay does not match the record")
        yield int(aired["number"]), state


def backfill(transaction: Callable[[bool], AbstractContextManager[Session]], stem: str,
             seasons: int = HISTORY_SEASONS) -> list[int]:
    """Keep every forecast missing from the history, each from the board its battle left,
    with the seed `seed_before(stem, battle + 1)`; returns the battles added.

    `transaction(write)` opens a transaction on the season; the forecasts are made outside
    any transaction and each row is written in a short one of its own, so contributions are
    never held up while seasons are simulated."""
    from fairfight.conquest.store.season import summary_in
    from fairfight.conquest.store.season_store import SeasonStore

    with transaction(False) as session:
        public = summary_in(session)
        aired = SeasonStore.history(session)
        kept = {battle for battle, _ in read_history(session)}
    added = []
    for battle, state in replayed_states(public.map_data, public.header["max_battles"],
                                         public.ledger, aired):
        if battle not in kept:
            made = forecast(state, [], seasons=seasons,
                            forecast_seed=seed_before(stem, battle + 1))
            with transaction(True) as session:
                if record_forecast(session, battle, made):
                    added.append(battle)
    return added


def _insert_once(session: Session, table: Any, values: dict[str, Any]) -> bool:
    """Insert unless a row with the same key exists; True when this call inserted it."""
    ensure_key_table(session.connection())
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    key = next(iter(table.primary_key.columns))
    statement = insert(table).values(**values).on_conflict_do_nothing().returning(key)
    return session.execute(statement).first() is not None


def record_forecast(session: Session, battle: int, made: Forecast) -> bool:
    """Keep the forecast made after `battle` battles (in a write transaction); True if new."""
    return _insert_once(session, OddsHistoryRow.__table__, {
        "season_id": season_of(session), "battle": battle,
        "forecast_seed": made.forecast_seed, "seasons": made.seasons,
        "forecast": json_text(made.to_json())})


def record_stakes(session: Session, battle: int, ledger_seq: int,
                  stakes: dict[str, Any]) -> bool:
    """Keep the stakes worked out before `battle` aired, with the ledger up to `ledger_seq`;
    True if this call stored them."""
    return _insert_once(session, BattleStakesRow.__table__, {
        "season_id": season_of(session), "battle": battle, "ledger_seq": ledger_seq,
        "stakes": json_text(stakes)})


def history_version(session: Session) -> tuple[int, int, int]:
    """(forecasts kept, highest battle, stakes kept): changes whenever a forecast or stakes
    are added (two cheap counts)."""
    if not has_table(session.connection(), OddsHistoryRow.__tablename__):
        return 0, -1, 0
    season = season_of(session)
    query = select(func.count(), func.max(OddsHistoryRow.battle)).where(
        OddsHistoryRow.season_id == season)
    count, highest = session.execute(query).one()
    stakes = session.scalar(select(func.count()).select_from(BattleStakesRow).where(
        BattleStakesRow.season_id == season))
    return int(count or 0), -1 if highest is None else int(highest), int(stakes or 0)


def read_history(session: Session) -> list[tuple[int, Forecast]]:
    """Every kept forecast, (battles fought, forecast), oldest first."""
    if not has_table(session.connection(), OddsHistoryRow.__tablename__):
        return []
    query = select(OddsHistoryRow.battle, OddsHistoryRow.forecast).where(
        OddsHistoryRow.season_id == season_of(session)).order_by(OddsHistoryRow.battle)
    return [(int(battle), forecast_from_json(load_column("odds_history.forecast", text)))
            for battle, text in session.execute(query)]


def read_stakes(session: Session, battle: int,
                ledger_seq: int | None = None) -> dict[str, Any] | None:
    """The stakes kept for `battle` with the ledger up to `ledger_seq`, or the latest kept."""
    if not has_table(session.connection(), BattleStakesRow.__tablename__):
        return None
    query = select(BattleStakesRow.stakes).where(
        BattleStakesRow.season_id == season_of(session), BattleStakesRow.battle == battle)
    if ledger_seq is not None:
        query = query.where(BattleStakesRow.ledger_seq == ledger_seq)
    text = session.scalars(query.order_by(BattleStakesRow.ledger_seq.desc())).first()
    return None if text is None else dict(load_column("battle_stakes.stakes", text))
