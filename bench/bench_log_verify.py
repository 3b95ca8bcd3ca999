"""The season log's verification: a full season on the default map with 50 receipts.

The season is played on the default map (136 regions) with 52 contributions (two of them fill
a rebellion fund, so the season runs 136 battles), its log built
and every head signed as the service does (tests/conquest/log_archive.py), and exported as an
archive. Baseline: the same archive verified without the log (the replay and the record
checks alone, in this process). Measured: the bare `python3 -S verifier.py verify .` with the
50 receipts and the final head, as a fan runs it (interpreter start-up included), and the same
checks in this process; the target is 0.5 s for the bare command (issue 21).
"""

from __future__ import annotations

import copy
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.conquest.log_archive import build_logged_season, write_archive
from tests.conquest.log_cases import season_key

from bench.timing import best_seconds, report
from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import verifier
from fairfight.conquest.rules import engine

RECEIPTS = 50
TARGET_SECONDS = 0.5


def _default_map() -> dict[str, Any]:
    try:
        from fairfight.conquest.rules import scenario

        return dict(scenario.load_map("north-america"))
    except Exception:  # the map may not be installed in this checkout
        return synthetic_map()


def _plan(map_data: dict[str, Any], seed: str) -> dict[int, list[tuple[str, int]]]:
    """One contribution before each of the first RECEIPTS battles, to a faction still in the
    season (the first in code order the rules accept), and a rebellion fund filled for the
    faction absorbed in battle 3 (a bonus battle), as in bench_verify."""
    codes = sorted(region["code"] for region in map_data["regions"])
    state = engine.new_state(map_data, seed, None)
    ledger: list[dict[str, Any]] = []
    plan: dict[int, list[tuple[str, int]]] = {}
    rebels: list[tuple[str, int]] = []
    for battle in range(1, RECEIPTS + 1):
        plan[battle] = []
        for code, amount in rebels:
            ledger.append(engine.check_contribution(state, ledger, code, amount))
            plan[battle].append((code, amount))
        for offset in range(len(codes)):
            code = codes[(battle * 7 + offset) % len(codes)]
            try:
                ledger.append(engine.check_contribution(state, ledger, code, 5))
            except engine.LedgerRefusal:
                continue
            plan[battle].append((code, 5))
            break
        state, entry = engine.play_step(state, ledger)
        rebels = [(entry["absorbed"], 25)] * 2 if battle == 3 else []
    return plan


def main() -> None:
    map_data = _default_map()
    seed = "be" * 32
    season = build_logged_season(map_data, seed, _plan(map_data, seed), season_key())
    with tempfile.TemporaryDirectory() as scratch:
        folder = write_archive(season, Path(scratch) / "record")
        saved = Path(scratch) / "saved"
        saved.mkdir()
        options = []
        for receipt in season.receipts:
            path = saved / f"receipt-{receipt['leaf_index']}.json"
            path.write_text(json.dumps(receipt), encoding="utf-8")
            options += ["--receipt", str(path)]
        (saved / "head.json").write_text(json.dumps(season.heads[-1]), encoding="utf-8")
        options += ["--head", str(saved / "head.json")]
        record = verifier.load_record(folder)
        plain = copy.deepcopy(record)
        plain["header"] = {k: v for k, v in plain["header"].items() if k != "log_key"}
        plain["log"] = None
        baseline = best_seconds(lambda: verifier.verify_record(plain), repeats=3)
        receipts = [(f"r{i}", r) for i, r in enumerate(season.receipts)]
        heads = [("head.json", season.heads[-1])]
        inside = best_seconds(lambda: verifier.verify_record(record, receipts, heads), repeats=3)
        started = time.process_time()
        verifier.verify_record(record, receipts, heads)
        inside_cpu = time.process_time() - started
        command = [sys.executable, "-S", "verifier.py", "verify", ".", *options]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        bare = best_seconds(
            lambda: subprocess.run(command, cwd=folder, check=True, capture_output=True), 3
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / 3
    battles = len(season.record["history"])
    report("Python verify without the log (baseline)", 1 / baseline, "seasons/s")
    report(
        f"Python verify with the log, {len(season.receipts)} receipts",
        1 / inside,
        "seasons/s",
        1 / baseline,
    )
    report("python3 -S verifier.py, whole command", 1 / bare, "seasons/s", 1 / baseline)
    verdict = "within" if bare <= TARGET_SECONDS else "OVER"
    print(
        f"  {battles} battles, {len(season.leaves)} leaves, {len(season.receipts)} receipts: "
        f"{baseline:.3f} s without the log, {inside:.3f} s with it, {bare:.3f} s for the bare "
        f"command ({verdict} the {TARGET_SECONDS} s target; CPU: {cpu:.3f} s per command, "
        f"{inside_cpu:.3f} s in process; wall times include waiting on a busy machine)",
        flush=True,
    )
