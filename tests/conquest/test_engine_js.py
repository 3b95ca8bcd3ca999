"""engine.js against engine.py: the two verifiers agree on every season and every tampering.

A corpus of seasons with random fan money, FAN CLASHes, secured wins, rebellions, beacon and
plain seeds and battle caps is played by the Python engine and written as archives; one Node
process then verifies them all with engine.js, and every verdict and message must be the one
the Python verifier gives.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import archive, season_luck
from fairfight.conquest.rules import engine, tables
from tests.conquest.helpers import champion_code, reseal
from tests.conquest.verifiers import ENGINE_JS, javascript_verdicts, python_verdict
from tests.system import node_path

SEASONS = 56
QUICKNET = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"


def _contribute(state: dict[str, Any], ledger: list[Any], faction: str, amount: int) -> None:
    with contextlib.suppress(engine.LedgerRefusal):  # a refused one never enters the ledger
        ledger.append(engine.check_contribution(state, ledger, faction, amount))


def _fans(rng: random.Random, state: dict[str, Any], ledger: list[Any], style: str) -> None:
    """Contributions before one battle, in the season's style."""
    board = state["board"]
    codes = sorted(board["factions"])
    standing = [c for c in codes if board["factions"][c]["standing"]]
    absorbed = [c for c in codes if not board["factions"][c]["standing"]]
    if style == "clash" and len(standing) > 1:
        for code in rng.sample(standing, min(len(standing), 4)):
            _contribute(state, ledger, code, 50)
    if style in ("secured", "mixed") and standing and rng.random() < 0.4:
        _contribute(state, ledger, rng.choice(standing), 50)
    if style in ("rebels", "mixed") and absorbed and rng.random() < 0.5:
        rebel = rng.choice(absorbed)
        for amount in (20, 30):
            _contribute(state, ledger, rebel, amount)
    for _ in range(rng.randint(0, 3)):
        _contribute(state, ledger, rng.choice(codes), rng.choice(range(5, 55, 5)))


def _season(index: int) -> dict[str, Any]:
    """One season, played by the Python engine, as a record."""
    rng = random.Random(index)
    size = rng.choice([5, 6, 8, 10, 12, 16, 20, 26])
    land = rng.randint(size - 1, size + size // 2)
    sea = rng.randint(1, size // 2 + 1)
    map_data = engine.canonical_map(synthetic_map(size, land, sea, label=f"corpus-{index}"))
    seed = f"{rng.getrandbits(256):064x}"
    beacon, spec = None, None
    if index % 3 == 0:
        beacon = {
            "round": 1000 + index,
            "randomness": f"{rng.getrandbits(256):064x}",
            "signature": None,
        }
        spec = {
            "name": "quicknet",
            "chain_hash": QUICKNET,
            "period_seconds": 3,
            "round": beacon["round"],
        }
    cap = rng.randint(1, size - 1) if index % 5 == 1 else None
    key = engine.season_key(seed, None if beacon is None else beacon["randomness"])
    state = engine.new_state(map_data, key, cap)
    style = ("clash", "secured", "rebels", "mixed", "random")[index % 5]
    ledger: list[Any] = []
    history = []
    while not state["board"]["ended"]:
        _fans(rng, state, ledger, style)
        state, entry = engine.play_step(state, ledger)
        history.append(entry)
    return {
        "header": {
            "ruleset": "conquest",
            "engine_version": tables.ENGINE_VERSION,
            "engine_files": archive.engine_digests(archive.engine_sources()),
            "map_name": map_data["name"],
            "map_sha256": engine.map_sha256(map_data),
            "max_battles": cap,
            "beacon": spec,
        },
        "commitment": hashlib.sha256(seed.encode()).hexdigest(),
        "seed": seed,
        "beacon": beacon,
        "map": map_data,
        "ledger": ledger,
        "history": history,
        "final_map": state["board"],
        "luck": season_luck.season_luck(history, champion_code(state)),
    }


def _write(record: dict[str, Any], folder: Path) -> Path:
    archive.write_folder(archive.archive_files(record, archive.engine_sources()), folder)
    return folder


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    return [_season(index) for index in range(SEASONS)]


def test_the_corpus_covers_every_kind_of_season(corpus: list[dict[str, Any]]) -> None:
    kinds: Counter[str] = Counter()
    for record in corpus:
        kinds["beacon" if record["beacon"] else "plain seed"] += 1
        kinds["capped" if record["header"]["max_battles"] else "uncapped"] += 1
        for entry in record["history"]:
            kinds[entry["reason"]] += 1
            kinds["bonus"] += entry["kind"] == "bonus"
            kinds["restored"] += entry["restored"] is not None
            kinds["secured"] += entry["secured"]
            kinds["upset"] += entry["upset"]
            kinds["partial pool"] += any(
                side["pool"] not in (0, 50) for side in entry["sides"].values()
            )
    assert len(corpus) >= 50
    for kind in (
        "beacon",
        "plain seed",
        "capped",
        "uncapped",
        "FAN CLASH",
        "FAN POWER",
        "NATURAL",
        "bonus",
        "restored",
        "secured",
        "upset",
        "partial pool",
    ):
        assert kinds[kind] >= 3, (kind, kinds)


def test_python_and_javascript_agree_on_every_season(
    corpus: list[dict[str, Any]], tmp_path: Path
) -> None:
    folders = [_write(record, tmp_path / f"season-{i}") for i, record in enumerate(corpus)]
    verdicts = javascript_verdicts(folders, tmp_path)
    for folder in folders:
        ok, message, notes = python_verdict(folder)
        assert ok, message
        result = verdicts[str(folder)]
        assert result["ok"], (folder.name, result["message"])
        assert result["notes"] == notes


def _flip_draw(record: dict[str, Any], rng: random.Random) -> None:
    entry = rng.choice(record["history"])
    entry["draws"][rng.randrange(8)]["value"] ^= 1 << rng.randrange(64)


def _ledger_amount(record: dict[str, Any], rng: random.Random) -> None:
    line = rng.choice(record["ledger"])
    line["amount"] = rng.choice([a for a in range(5, 55, 5) if a != line["amount"]])


def _ledger_key(record: dict[str, Any], rng: random.Random) -> None:
    rng.choice(record["ledger"])["note"] = "thanks"


def _final_owner(record: dict[str, Any], rng: random.Random) -> None:
    regions = record["final_map"]["regions"]
    code = rng.choice(sorted(regions))
    regions[code]["owner"] = rng.choice([c for c in sorted(regions) if c != regions[code]["owner"]])


def _seed(record: dict[str, Any], rng: random.Random) -> None:
    record["seed"] = f"{rng.getrandbits(256):064x}"


def _map(record: dict[str, Any], rng: random.Random) -> None:
    rng.choice(record["map"]["regions"])["population"] += 1


def _swap_lines(record: dict[str, Any], rng: random.Random) -> None:
    history = record["history"]
    i = rng.randrange(len(history) - 1)
    history[i], history[i + 1] = history[i + 1], history[i]


def _remove_line(record: dict[str, Any], rng: random.Random) -> None:
    if rng.random() < 0.5 or len(record["ledger"]) < 2:
        del record["history"][rng.randrange(len(record["history"]))]
    else:
        del record["ledger"][rng.randrange(len(record["ledger"]))]


def _sides_field(record: dict[str, Any], rng: random.Random) -> None:
    side = rng.choice(record["history"])["sides"][rng.choice(["attacker", "defender"])]
    side["morale"] = "11/10" if side["morale"] != "11/10" else "1/1"


TAMPERS: dict[str, Callable[[dict[str, Any], random.Random], None]] = {
    "draw": _flip_draw,
    "ledger amount": _ledger_amount,
    "ledger extra key": _ledger_key,
    "final owner": _final_owner,
    "seed": _seed,
    "map": _map,
    "swapped history lines": _swap_lines,
    "removed line": _remove_line,
    "side factor": _sides_field,
}


def _engine_file(folder: Path, name: str) -> None:
    with (folder / name).open("ab") as file:
        file.write(b"\n")


def test_every_tampering_is_caught_by_both_and_named_alike(
    corpus: list[dict[str, Any]], tmp_path: Path
) -> None:
    rng = random.Random(2026)
    with_ledger = [record for record in corpus if len(record["ledger"]) >= 2]
    cases: list[tuple[str, Path]] = []
    for kind, tamper in TAMPERS.items():
        for round_ in range(4):
            record = copy.deepcopy(rng.choice(with_ledger))
            tamper(record, rng)
            cases.append((kind, _write(record, tmp_path / f"{kind}-{round_}".replace(" ", "-"))))
    for name in archive.ENGINE_FILES:
        folder = _write(copy.deepcopy(rng.choice(corpus)), tmp_path / f"engine-{name}")
        _engine_file(folder, name)
        reseal(folder)
        cases.append((f"engine file {name}", folder))
    unsealed = _write(copy.deepcopy(corpus[0]), tmp_path / "unsealed")
    (unsealed / "final-map.json").write_bytes(b"{}\n")
    cases.append(("file changed without the manifest", unsealed))
    verdicts = javascript_verdicts([folder for _, folder in cases], tmp_path)
    for kind, folder in cases:
        ok, message, _ = python_verdict(folder)
        assert not ok, (kind, folder.name)
        result = verdicts[str(folder)]
        assert not result["ok"], (kind, folder.name)
        assert result["message"] == message, (kind, message, result["message"])


def test_the_node_command_prints_what_the_python_command_prints(
    corpus: list[dict[str, Any]], tmp_path: Path
) -> None:
    """`node engine.js verify DIR` and `python3 engine.py verify DIR`: same lines, same codes."""
    good = _write(corpus[3], tmp_path / "good")
    bad_record = copy.deepcopy(corpus[3])
    bad_record["history"][-1]["winner"] = "ZZ-999"
    bad = _write(bad_record, tmp_path / "bad")
    for folder, code in ((good, 0), (bad, 1), (tmp_path / "absent", 2)):
        runs = [
            subprocess.run(
                [*command, "verify", str(folder)],
                cwd=good,
                capture_output=True,
                text=True,
                check=False,
                env={"PATH": "/usr/bin:/bin"},
            )
            for command in ([node_path(), "engine.js"], [sys.executable, "-S", "engine.py"])
        ]
        assert [run.returncode for run in runs] == [code, code], [run.stderr for run in runs]
        assert runs[0].stdout == runs[1].stdout
        assert runs[0].stderr == runs[1].stderr
        assert len(runs[0].stderr.splitlines()) == (0 if code == 0 else 1)
        if code == 1:
            assert runs[0].stderr.startswith(f"MISMATCH battle {len(bad_record['history'])}: ")
    usage = subprocess.run([node_path(), str(ENGINE_JS)], capture_output=True, check=False)
    assert usage.returncode == 2


CLUES = """
const e = require(process.argv[1]);
const tx = e.populationPower(29145505n), ai = e.populationPower(13572n);
const floor = e.ROUND_FLOOR;
const clamp = e.battleChance([floor, floor, floor, floor, floor]);
const even = e.battleChance([2n ** 31n, 2n ** 31n, 2n ** 31n, 2n ** 31n, 2n ** 31n]);
process.stdout.write(JSON.stringify({ ratio: String((tx * 10000n) / ai), lowest: String(floor),
  clamp, even }));
"""


def test_engine_js_meets_the_rules_clue_checks_on_its_own() -> None:
    """The rules' worked numbers, computed by engine.js alone (no Python result involved)."""
    run = subprocess.run(
        [node_path(), "-e", CLUES, str(ENGINE_JS)], capture_output=True, text=True, check=True
    )
    clues = json.loads(run.stdout)
    expected = (29_145_505 / 13_572) ** 0.35  # Texas over Anguilla: "about 15 times"
    assert abs(int(clues["ratio"]) / 10_000 - expected) < 1e-3
    assert int(clues["lowest"]) == 189 * 2**32 // 1000
    top, bottom = map(int, clues["clamp"].split("/"))
    assert round(top / bottom, 5) == 0.04982  # the 18.9% clamp: about a 5% battle chance
    assert clues["even"] == "1/2"


def test_engine_js_passes_the_shipped_example_archive() -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "conquest" / "tiny-record"
    run = subprocess.run(
        [node_path(), str(ENGINE_JS), "verify", str(example)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert "ok: 8 battles replayed; the final map matches" in run.stdout.splitlines()
