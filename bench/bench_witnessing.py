"""Fan contributions with witnessing on against off, in the same run (issue 35: ≥ 0.9x).

Two season files from the same start, each served by `fairfight serve --workers 1`, take the
same load as `bench_contributions` (CLIENTS keep-alive clients posting $5 contributions, rate
limits and forecasts off). One server sends nothing; the other sends every new checkpoint to a
real witness (`fairfight witness serve`, its own process, following that season's origin),
stores the cosignatures and serves them. Every answer must be 201. The two are run in turn,
ROUNDS times each on fresh seasons (a seed of their own each, so each witnessed season is a log
of its own for the witness), and the better run of each compared, so a burst of other work on
the machine weighs on both.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.bench_contributions import CLIENTS, _run
from bench.served import free_port
from bench.timing import report
from fairfight.conquest.rules import scenario, tables
from fairfight.conquest.store import checkpoints, season
from fairfight.witness.config import generate_key

TARGET = 0.9
"""Witnessing on: at least this share of the contribution rate with it off."""
ROUNDS = 3
WITNESS = "bench.witness/w1"


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
    return (f"witnessed run: {stored} cosignatures stored while the load ran; the largest "
            f"checkpoint cosigned covers {largest} of {size} leaves")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-witnessing-") as scratch:
        folder = Path(scratch)
        plans = [(label, folder / f"{label}-{round_}.db", f"{round_ * 2 + on:02x}" * 32)
                 for round_ in range(ROUNDS) for on, label in enumerate(("off", "on"))]
        made = {path: _season(path, seed) for _, path, seed in plans}
        process, base, vkey = _witness(folder, [made[path][1:] for label, path, _ in plans
                                                if label == "on"])
        witnesses = json.dumps([{"name": WITNESS, "vkey": vkey, "url": base}])
        rates: dict[str, list[float]] = {"off": [], "on": []}
        try:
            for label, path, _ in plans:
                settings = {"witnesses": witnesses} if label == "on" else {}
                rates[label].append(_run(str(path), 1, 1, made[path][0], **settings)[0])
                if label == "on":
                    print(f"{'':<48} {_witnessed(path)}", flush=True)
        finally:
            process.terminate()
            process.wait(30)
    best = {label: max(values) for label, values in rates.items()}
    print(f"{'':<48} witnessing off: {', '.join(f'{r:,.0f}' for r in rates['off'])}/s; "
          f"on: {', '.join(f'{r:,.0f}' for r in rates['on'])}/s", flush=True)
    report(f"contributions/s with a witness, SQLite ({CLIENTS} clients)", best["on"], "/s",
           best["off"])
    ratio = best["on"] / best["off"]
    print(f"{'':<48} target ≥ {TARGET:.2f}x: {'ok' if ratio >= TARGET else 'UNDER TARGET'}",
          flush=True)


if __name__ == "__main__":
    main()
