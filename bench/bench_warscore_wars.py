"""warscore_wars: sealing a sheet and publishing a battle in a stored war, p50 and p95.

Each sample is one war on a SQLite file: both sheets sent, then timed: the first seal (the
sheet checked again with the war's terms, one conditional UPDATE) and the last seal (the same,
then the battle scored from both sealed sheets and the result published). The baseline, in the
same run and on the same database, is one bare write transaction (an UPDATE of a sheet row and
its commit): the floor any durable seal pays. The issue asks for at most 50 ms p95.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import update
from tests.warscore.war_sheets import BATTLE, GONDOR, MORDOR, SETUP

from bench import timing
from fairfight.warscore.sealed import RoundSetup, WarSetup
from fairfight.warscore.store import SHEETS, WarStore

SAMPLES = 200
LIMIT_MS = 50.0


def _quantiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, timing.p95(ordered) * 1000


def _line(label: str, samples: list[float], baseline: float | None = None) -> float:
    p50, p95 = _quantiles(samples)
    ratio = f"  ({p95 / baseline:,.1f}x baseline p95)" if baseline else ""
    verdict = "" if baseline is None else ("  ok" if p95 <= LIMIT_MS else "  OVER 50 ms")
    print(f"{label:<44} p50 {p50:7.2f} ms  p95 {p95:7.2f} ms{ratio}{verdict}", flush=True)
    return p95


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-wars-") as folder:
        store = WarStore(f"sqlite:///{Path(folder) / 'wars.db'}")
        try:
            first, last, bare = [], [], []
            for sample in range(SAMPLES):
                client = f"bench-{sample // 10}"  # under the daily caps of one address
                war_id, _, _ = store.create(WarSetup.model_validate(SETUP), client=client)
                number = store.open_round(war_id, RoundSetup.model_validate(BATTLE),
                                          client=client)
                store.submit(war_id, number, 0, MORDOR, client=client)
                store.submit(war_id, number, 1, GONDOR, client=client)
                store.approve(war_id, number, 1, "Bench", "", client=client)
                start = time.perf_counter()
                with store.engine.begin() as connection:
                    connection.execute(update(SHEETS).where(
                        SHEETS.c.war_id == war_id, SHEETS.c.nation == 0).values(submitted=1.0))
                bare.append(time.perf_counter() - start)
                start = time.perf_counter()
                store.seal(war_id, number, 0, client=client)
                first.append(time.perf_counter() - start)
                start = time.perf_counter()
                published = store.seal(war_id, number, 1, client=client)
                last.append(time.perf_counter() - start)
                assert published is not None
        finally:
            store.close()
    baseline = _line("bare write transaction (baseline)", bare)
    _line("seal a sheet", first, baseline)
    _line("seal the last sheet: score and publish", last, baseline)
