"""Fan contributions with witnessing on against off, in the same run (issue 35: ≥ 0.9x).

Two season files from the same start, each served by `fairfight serve --workers 1`, take the
same load as `bench_contributions` (CLIENTS keep-alive clients posting $5 contributions, rate
limits and forecasts off). One server sends nothing; the other sends new checkpoints to a real
witness (`fairfight witness serve`, its own process, following that season's origin) at the
service's default pace, stores the cosignatures and serves them. Every answer must be 201.
The two are run ROUNDS times each on fresh seasons (a seed of their own each, so each witnessed
season is a log of its own for the witness), in the order off-on, on-off, off-on, ... so that
a drift of the machine's load over the sitting weighs on both alike. Compared: the better run
of each (the issue's figure) and the median of each; the target is met when both ratios are.
After each witnessed run the bench waits, the server still up, until the newest head is
cosigned, and reports how long that took (how fresh a cosigned checkpoint is under load).
"""

from __future__ import annotations

import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from bench.bench_contributions import CLIENTS, _run
from bench.served import _tree_cpu_seconds, free_port
from bench.timing import report
from fairfight.conquest.rules import scenario, tables
from fairfight.conquest.store import checkpoints, season
from fairfight.witness.config import generate_key

TARGET = 0.9
"""Witnessing on: at least this share of the contribution rate with it off."""
ROUNDS = 4
WITNESS = "bench.witness/w1"
CATCH_UP_SECONDS = 30.0
"""How long a witnessed run waits, after its load, for the newest head to be cosigned."""


def _season(path: Path, seed: str) -> tuple[list[str], str, str]:
    """A fresh season: its factions, its checkpoint origin and verifier key (no public_url)."""
    season.create_season(path, scenario.load_map("north-america"), "north-america", seed=seed)
    summary = season.summary(path)
    origin = checkpoints.origin("localhost", summary.commitment)
    vkey = checkpoints.verifier("localhost", summary.commitment,
                                summary.header[tables.LOG_KEY]).vkey()
    return sorted(summary.board["factions"]), origin, vkey


def _witness(folder: Path, logs: list[tuple[str, str]]) -> tuple[subprocess.Popen[bytes], str,
                                                                   str]:
    """A witness process following the seasons (origin, vkey); (process, base URL, its vkey)."""
    vkey = generate_key(WITNESS, folder / "witness.key").vkey()
    config = folder / "witness.json"
    config.write_text(json.dumps({
        "name": WITNESS, "key_file": str(folder / "witness.key"),
        "database": f"sqlite:///{folder / 'witness.db'}",
        "logs": [{"origin": origin, "vkeys": [log_vkey]} for origin, log_vkey in logs]}),
        encoding="utf-8")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "fairfight", "witness", "serve", "--config", str(config),
         "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(base, timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.05)
    return process, base, vkey


def _witnessed(path: Path) -> str:
    """How far the witness got: cosignatures stored and the largest size cosigned."""
    with sqlite3.connect(path) as db:
        stored, largest = db.execute("SELECT count(*), max(size) FROM log_cosignature").fetchone()
        size = db.execute("SELECT max(size) FROM log_head").fetchone()[0]
    return (f"witnessed run: {stored} cosignatures stored (warm-up, load and catch-up); the "
            f"largest checkpoint cosigned covers {largest} of {size} leaves")


def _newest_cosigned_after(waits: list[float]) -> Callable[[str], None]:
    """Waits, once the load is over, until the witness has cosigned the season's newest head;
    the seconds it took are appended to `waits` (infinity past CATCH_UP_SECONDS)."""

    def wait(base: str) -> None:
        started = time.monotonic()
        newest = int(httpx.get(f"{base}/api/seasons/1/checkpoint").text.split("\n")[1])
        while time.monotonic() - started < CATCH_UP_SECONDS:
            if httpx.get(f"{base}/api/seasons/1/witnesses").json()["size"] == newest:
                waits.append(time.monotonic() - started)
                return
            time.sleep(0.02)
        waits.append(float("inf"))

    return wait


def _order() -> list[tuple[int, str]]:
    """(round, label) in the order run: off first in even rounds, on first in odd ones."""
    return [(round_, label) for round_ in range(ROUNDS)
            for label in (("off", "on") if round_ % 2 == 0 else ("on", "off"))]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-witnessing-") as scratch:
        folder = Path(scratch)
        plans = [(label, folder / f"{label}-{round_}.db",
                  f"{round_ * 2 + int(label == 'on'):02x}" * 32) for round_, label in _order()]
        made = {path: _season(path, seed) for _, path, seed in plans}
        process, base, vkey = _witness(folder, [made[path][1:] for label, path, _ in plans
                                                if label == "on"])
        witnesses = json.dumps([{"name": WITNESS, "vkey": vkey, "url": base}])
        rates: dict[str, list[float]] = {"off": [], "on": []}
        cpus: dict[str, list[float]] = {"off": [], "on": []}
        waits: list[float] = []
        try:
            for label, path, _ in plans:
                settings = {"witnesses": witnesses} if label == "on" else {}
                after = _newest_cosigned_after(waits) if label == "on" else None
                witness_cpu = _tree_cpu_seconds(process.pid)
                rate, _, _, cpu = _run(str(path), 1, 1, made[path][0], after, **settings)
                witness_cpu = _tree_cpu_seconds(process.pid) - witness_cpu
                rates[label].append(rate)
                cpus[label].append(cpu)
                print(f"{'':<48} witnessing {label}: {rate:,.0f}/s, server CPU {cpu:.2f} ms a "
                      f"contribution (load average {os.getloadavg()[0]:.2f}); the witness's "
                      f"CPU over the whole run {witness_cpu:.2f} s", flush=True)
                if label == "on":
                    print(f"{'':<48} {_witnessed(path)}; the newest head cosigned "
                          f"{waits[-1]:.2f} s after the load ended", flush=True)
        finally:
            process.terminate()
            process.wait(30)
    best = {label: max(values) for label, values in rates.items()}
    middle = {label: statistics.median(values) for label, values in rates.items()}
    print(f"{'':<48} witnessing off: {', '.join(f'{r:,.0f}' for r in rates['off'])}/s; "
          f"on: {', '.join(f'{r:,.0f}' for r in rates['on'])}/s", flush=True)
    report(f"contributions/s with a witness, SQLite ({CLIENTS} clients)", best["on"], "/s",
           best["off"])
    print(f"{'':<48} server CPU per contribution (median): off "
          f"{statistics.median(cpus['off']):.2f} ms, on {statistics.median(cpus['on']):.2f} ms "
          f"(steadier than the rates when the machine is shared)", flush=True)
    ratios = {"best": best["on"] / best["off"], "median": middle["on"] / middle["off"]}
    print(f"{'':<48} best against best {ratios['best']:.2f}x, median against median "
          f"{ratios['median']:.2f}x; target ≥ {TARGET:.2f}x for both: "
          f"{'ok' if min(ratios.values()) >= TARGET else 'UNDER TARGET'}", flush=True)


if __name__ == "__main__":
    main()
