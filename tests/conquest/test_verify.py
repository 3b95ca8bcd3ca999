"""The replay verifier [§9]: a true record passes, any single change is caught and named."""

from __future__ import annotations

import ast
import copy
import functools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import archive, verifier
from fairfight.conquest.rules import engine
from fairfight.core.records import canonical_json
from tests.conquest.helpers import SEED, record_of, reseal

CONTRIBUTIONS = {
    1: [("ZZ-010", 25), ("ZZ-011", 50), ("ZZ-010", 10)],
    3: [("ZZ-020", 5), ("ZZ-021", 45)],
    10: [("ZZ-030", 30), ("ZZ-031", 50), ("ZZ-032", 50)],
    40: [("ZZ-040", 15)],
}


@functools.cache
def _season() -> dict[str, Any]:
    return record_of(synthetic_map(), SEED, CONTRIBUTIONS)


def season() -> dict[str, Any]:
    return copy.deepcopy(_season())


def _mismatch(record: dict[str, Any]) -> engine.ReplayMismatch:
    with pytest.raises(engine.ReplayMismatch) as caught:
        verifier.verify_record(record)
    return caught.value


def test_a_true_record_replays_exactly() -> None:
    record = season()
    assert len(record["history"]) >= 135
    notes = verifier.verify_record(record)
    assert any("final map matches" in note for note in notes)


def test_engine_canonical_bytes_match_core_records() -> None:
    record = season()
    for value in (record["map"], record["history"][5], record["final_map"]):
        assert engine.canonical_bytes(value) == canonical_json(value)


@settings(max_examples=20)
@given(st.data())
def test_any_flipped_draw_is_named(data: st.DataObject) -> None:
    record = season()
    battle = data.draw(st.integers(min_value=0, max_value=len(record["history"]) - 1))
    index = data.draw(st.integers(min_value=0, max_value=7))
    bit = data.draw(st.integers(min_value=0, max_value=63))
    record["history"][battle]["draws"][index]["value"] ^= 1 << bit
    mismatch = _mismatch(record)
    assert mismatch.place == f"battle {battle + 1}"
    assert f"draws[{index}].value" in mismatch.detail


@settings(max_examples=12)
@given(st.data())
def test_any_changed_ledger_amount_is_caught(data: st.DataObject) -> None:
    record = season()
    position = data.draw(st.integers(min_value=0, max_value=len(record["ledger"]) - 1))
    entry = record["ledger"][position]
    entry["amount"] = data.draw(
        st.integers(min_value=-5, max_value=60).filter(lambda a: a != entry["amount"])
    )
    mismatch = _mismatch(record)
    if mismatch.place.startswith("battle "):  # caught where the pool is used or spent
        assert int(mismatch.place.split()[1]) >= entry["before_battle"]
    elif mismatch.place == "final map":  # a pool never used: its amount differs
        assert f"factions.{entry['faction']}.pool" in mismatch.detail
    else:  # refused: this entry, or a later one the changed pools now refuse
        assert mismatch.place.startswith("ledger seq ")
        assert int(mismatch.place.split()[2].split(".")[0]) >= entry["seq"]


@settings(max_examples=12)
@given(st.data())
def test_any_changed_owner_in_the_final_map_is_named(data: st.DataObject) -> None:
    record = season()
    codes = sorted(record["final_map"]["regions"])
    code = data.draw(st.sampled_from(codes))
    holder = record["final_map"]["regions"][code]["owner"]
    other = data.draw(st.sampled_from([c for c in codes if c != holder]))
    record["final_map"]["regions"][code]["owner"] = other
    mismatch = _mismatch(record)
    assert mismatch.place == "final map" and f"regions.{code}.owner" in mismatch.detail


def test_a_changed_seed_fails_the_commitment() -> None:
    record = season()
    record["seed"] = ("0" if record["seed"][0] != "0" else "1") + record["seed"][1:]
    assert _mismatch(record).place == "seed"
    record["seed"] = None
    assert "not revealed" in _mismatch(record).detail


def test_missing_and_extra_entries_are_named() -> None:
    record = season()
    last = len(record["history"])
    record["history"].pop()
    assert _mismatch(record).place == f"battle {last}"
    record = season()
    record["history"].append(copy.deepcopy(record["history"][-1]))
    assert _mismatch(record).place == f"battle {last + 1}"


def test_ledger_out_of_order_and_changed_map_are_named() -> None:
    record = season()
    record["ledger"][1]["seq"] = record["ledger"][0]["seq"]
    assert _mismatch(record).place == "ledger[1].seq"
    record = season()
    record["map"]["regions"][0]["population"] += 1
    assert _mismatch(record).place == "map"


def _standalone_engine(folder: Path) -> None:
    """Lay out the verifier's files as namespace packages, as in `src/`, nothing else."""
    for name, source in archive.engine_sources().items():
        if name.endswith(".py"):
            home = folder / "fairfight" / _HOMES.get(name, "core")
            home.mkdir(parents=True, exist_ok=True)
            (home / name).write_bytes(source)


_HOMES = {
    "beacons.py": "conquest/record",
    "engine.py": "conquest/rules",
    "log_check.py": "conquest/record",
    "season_luck.py": "conquest/record",
    "tables.py": "conquest/rules",
    "verifier.py": "conquest/record",
}
"""The shipped conquest files by their package folder in `src/` (the rest are `fairfight.core`)."""


def _write_record(record: dict[str, Any], folder: Path) -> None:
    """The record as a full archive folder, engine files and manifest included."""
    archive.write_folder(archive.archive_files(record, archive.engine_sources()), folder)


@pytest.mark.parametrize("module", ["record.verifier", "rules.engine"])
def test_bare_python_verifies_with_the_shipped_files_alone(tmp_path: Path, module: str) -> None:
    """`python -S -m fairfight.conquest.record.verifier` (and the engine's older alias) with only
    the shipped files on the path."""
    standalone = tmp_path / "standalone"
    _standalone_engine(standalone)
    good, bad = season(), season()
    bad["history"][7]["draws"][4]["value"] ^= 1
    _write_record(good, tmp_path / "good")
    _write_record(bad, tmp_path / "bad")
    command = [sys.executable, "-S", "-m", f"fairfight.conquest.{module}", "verify"]
    environment = {"PATH": "/usr/bin:/bin"}
    passed = subprocess.run(
        [*command, str(tmp_path / "good")],
        cwd=standalone,
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    assert passed.returncode == 0, passed.stderr
    assert "final map matches" in passed.stdout
    failed = subprocess.run(
        [*command, str(tmp_path / "bad")],
        cwd=standalone,
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    assert failed.returncode == 1
    assert "battle 8" in failed.stderr and "draws[4].value" in failed.stderr
    where = subprocess.run(
        [sys.executable, "-S", "-c", f"import fairfight.conquest.{module} as m; print(m.__file__)"],
        cwd=standalone,
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    assert where.stdout.strip().startswith(str(standalone))


@pytest.mark.parametrize("program", ["verifier.py", "engine.py"])
def test_the_archive_verifies_itself_with_its_own_files(tmp_path: Path, program: str) -> None:
    """`python3 verifier.py verify .` inside an archive uses the files beside it; `engine.py
    verify .`, as older archives' guides say, runs the same verifier."""
    good, bad = season(), season()
    bad["history"][7]["draws"][4]["value"] ^= 1
    _write_record(good, tmp_path / "good")
    _write_record(bad, tmp_path / "bad")
    for name, code in (("good", 0), ("bad", 1)):
        run = subprocess.run(
            [sys.executable, "-S", program, "verify", "."],
            cwd=tmp_path / name,
            capture_output=True,
            text=True,
            env={"PATH": "/usr/bin:/bin"},
            check=False,
        )
        assert run.returncode == code, run.stderr
    assert "battle 8: field draws[4].value: expected " in run.stderr


_SHIPPED_PACKAGES = ("fairfight.conquest.record", "fairfight.conquest.rules", "fairfight.core")
"""The packages whose modules an archive ships as plain files."""


def _imported_modules(path: Path) -> set[str]:
    """Every module a file imports, `from package import module` counted as package.module."""
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            shipped_module = node.module in _SHIPPED_PACKAGES
            imported.update(
                f"{node.module}.{alias.name}" if shipped_module else node.module
                for alias in node.names
            )
    return imported


_UNLOCK_ONLY = {"py_arkworks_bls12381", "fairfight.core.timelock"}
"""What the bare verifier imports only to unlock a timelocked seed (`--beacon`): inside
`unlock_record`, whose ImportError becomes the one line saying what to install."""


@pytest.mark.parametrize("name", [n for n in archive.ENGINE_FILES if n.endswith(".py")])
def test_each_shipped_file_imports_only_the_standard_library_and_shipped_files(name: str) -> None:
    """The archive carries every file its Python verifier imports, and nothing else is needed:
    as a package module (`fairfight.core.draws`) or as a plain file beside it (`draws`)."""
    path = next(
        Path(str(m.__file__)) for m in archive._SHIPPED if Path(str(m.__file__)).name == name
    )
    shipped = {n.removesuffix(".py") for n in archive.ENGINE_FILES if n.endswith(".py")}
    for module in _imported_modules(path):
        if module.split(".")[0] in sys.stdlib_module_names:
            continue
        if name == "verifier.py" and module in _UNLOCK_ONLY:
            continue
        plain = module.rpartition(".")[2] if module.startswith("fairfight.") else module
        assert plain in shipped, (name, module)


def test_a_malformed_record_is_a_named_mismatch_not_a_crash() -> None:
    record = season()
    record["history"][3] = ["not", "an", "entry"]
    assert _mismatch(record).place == "battle 4"
    record = season()
    record["header"] = []
    assert _mismatch(record).place == "header"
    record = season()
    del record["ledger"][0]["faction"]
    assert _mismatch(record).place.startswith("ledger seq 1")


def test_a_ledger_entry_dated_before_battle_one_is_refused() -> None:
    """No step has number 0, so such an entry could never have been the next battle [§6]."""
    record = season()
    for entry in record["ledger"]:
        entry["seq"] += 1
    record["ledger"].insert(0, {"seq": 1, "before_battle": 0, "faction": "ZZ-001", "amount": 5})
    mismatch = _mismatch(record)
    assert mismatch.place.startswith("ledger seq 1")
    assert "next battle" in mismatch.detail


def test_the_ledger_is_checked_before_any_battle_is_compared() -> None:
    """§9 order: the ledger validates (step 2) before the history is compared (step 3)."""
    record = season()
    record["history"][1]["draws"][4]["value"] ^= 1
    late = next(e for e in record["ledger"] if e["before_battle"] == 40)
    late["amount"] = 7
    mismatch = _mismatch(record)
    assert mismatch.place == f"ledger seq {late['seq']}.amount"
    record = season()
    record["history"][1]["draws"][4]["value"] ^= 1
    after_end = len(record["history"]) + 1
    record["ledger"].append(
        {"seq": 999, "before_battle": after_end, "faction": "ZZ-001", "amount": 5}
    )
    assert _mismatch(record).place == "ledger seq 999"


HEADER_TAMPERS = [
    (lambda h: h.update(extra=1), "field extra: expected nothing, found 1"),
    (lambda h: h.pop("max_battles"), "field max_battles: missing"),
    (lambda h: h.update(ruleset="clash"), 'field ruleset: expected "conquest", found "clash"'),
    (lambda h: h.update(map_name="elsewhere"), 'field map_name: expected "synthetic", found'),
    (lambda h: h.update(max_battles="5"), "field max_battles: must be null or a whole number"),
    (lambda h: h.update(max_battles=0), "field max_battles: must be null or a whole number"),
    (lambda h: h.update(engine_version="other-2"), "field engine_version: expected"),
    (lambda h: h.update(map_sha256="AB" * 32), "field map_sha256: must be 64 lowercase hex"),
    (
        lambda h: h.update(
            beacon={
                "name": "quicknet",
                "chain_hash": "0" * 64,
                "period_seconds": 3,
                "round": 9,
                "salt": "x",
            }
        ),
        "field beacon.salt: expected nothing",
    ),
]


@pytest.mark.parametrize(("tamper", "words"), HEADER_TAMPERS)
def test_every_header_field_is_checked(tamper: Any, words: str) -> None:
    record = season()
    tamper(record["header"])
    mismatch = _mismatch(record)
    assert mismatch.place == "header"
    assert mismatch.detail.startswith(words), mismatch.detail


def test_unknown_keys_are_refused_in_every_record_file() -> None:
    record = season()
    record["ledger"][0]["note"] = "thanks"
    mismatch = _mismatch(record)
    assert (mismatch.place, mismatch.detail) == (
        "ledger seq 1",
        'field note: expected nothing, found "thanks"',
    )
    record = season()
    record["map"]["regions"][2]["ratings"]["X"] = 3
    mismatch = _mismatch(record)
    assert mismatch.place == "map" and "field regions[2].ratings.X" in mismatch.detail
    record = season()
    record["beacon"] = {"round": 1, "randomness": "ab" * 32, "signature": None}
    assert _mismatch(record).place == "beacon"  # the header names no beacon round
    record = season()
    record["final_map"]["factions"]["ZZ-001"]["bonus"] = True
    mismatch = _mismatch(record)
    assert mismatch.place == "final map" and "factions.ZZ-001.bonus" in mismatch.detail
    record = season()
    record["history"][4]["comment"] = "nice"
    mismatch = _mismatch(record)
    assert (mismatch.place, mismatch.detail) == (
        "battle 5",
        'field comment: expected nothing, found "nice"',
    )


def test_a_recorded_beacon_holds_exactly_its_fields() -> None:
    record = season()
    record["header"]["beacon"] = {
        "name": "quicknet",
        "chain_hash": "0" * 64,
        "period_seconds": 3,
        "round": 9,
    }
    record["beacon"] = {"round": 9, "randomness": "ab" * 32, "signature": None, "note": 1}
    mismatch = _mismatch(record)
    assert (mismatch.place, mismatch.detail) == ("beacon", "field note: expected nothing, found 1")


def test_messages_are_one_short_line_with_expected_and_found() -> None:
    record = season()
    record["history"][9]["attacker"] = "Z\n" * 5_000
    mismatch = _mismatch(record)
    line = str(mismatch)
    assert "\n" not in line and len(line) <= 200, line
    assert line.startswith("battle 10: field attacker: expected ")
    assert ', found "Z\\nZ\\n' in line and line.endswith("...")


def test_record_files_hold_only_whole_numbers_and_unique_keys(tmp_path: Path) -> None:
    record = season()
    _write_record(record, tmp_path / "r")
    map_file = tmp_path / "r" / "map.json"
    map_file.write_text(map_file.read_text().replace('"population":', '"population":8e6,"x":', 1))
    reseal(tmp_path / "r")
    with pytest.raises(engine.ReplayMismatch) as caught:
        verifier.load_record(tmp_path / "r")
    assert caught.value.place == "map.json" and "numbers must be whole, found 8e6" in str(
        caught.value
    )
    _write_record(record, tmp_path / "s")
    ledger = tmp_path / "s" / "ledger.jsonl"
    ledger.write_text(ledger.read_text().replace('{"amount":', '{"amount":5,"amount":', 1))
    reseal(tmp_path / "s")
    with pytest.raises(engine.ReplayMismatch, match="appears twice"):
        verifier.load_record(tmp_path / "s")
    _write_record(record, tmp_path / "t")
    (tmp_path / "t" / "history.jsonl").write_bytes(b'{"a":"\xff"}\n')
    reseal(tmp_path / "t")
    with pytest.raises(engine.ReplayMismatch, match="not UTF-8"):
        verifier.load_record(tmp_path / "t")


def test_the_verifier_knows_the_same_map_keys_as_the_map_schema() -> None:
    schema_file = Path(engine.__file__).parents[1] / "maps" / "map.schema.json"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    kinds = {"map": schema, **{k.lower(): v for k, v in schema["$defs"].items()}}
    for kind, keys in verifier._MAP_FIELDS.items():
        assert sorted(kinds[kind]["properties"]) == sorted(keys), kind
