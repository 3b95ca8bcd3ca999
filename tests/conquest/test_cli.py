"""The season command line: every verb, its refusals (exit 2) and failed checks (exit 1)."""

from __future__ import annotations

import hashlib
import json
import sys
import threading
import types
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from fairfight.conquest.cli.season_cli import app
from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import archive
from fairfight.conquest.store import publication, season
from fairfight.core.errors import InputError, RuleError
from tests.conquest.helpers import SEED, reseal, star_map, table_dump
from tests.web.conquest_support import store_unchecked_beacon

runner = CliRunner()


def cli(*arguments: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in arguments])


def _one_line(result: Result) -> str:
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    return lines[0]


def test_new_prints_the_header_and_commitment(tmp_path: Path) -> None:
    map_file = tmp_path / "star.json"
    map_file.write_text(json.dumps(star_map()), encoding="utf-8")
    result = cli("new", tmp_path / "s.db", "--map", map_file, "--seed", SEED, "--max-battles", "3")
    assert result.exit_code == 0, result.output
    assert f"commitment: {hashlib.sha256(SEED.encode()).hexdigest()}" in result.output
    assert "max_battles: 3" in result.output
    assert SEED not in result.output
    again = cli("new", tmp_path / "s.db", "--map", map_file)
    assert again.exit_code == 2 and "already exists" in _one_line(again)
    bad_seed = cli("new", tmp_path / "t.db", "--map", map_file, "--seed", "XYZ")
    assert bad_seed.exit_code == 2 and "seed" in _one_line(bad_seed)


@pytest.mark.parametrize(
    ("arguments", "field", "words"),
    [
        (("AB", "7"), "amount", "$5 steps"),
        (("AB", "55"), "amount", "$5 steps"),
        (("QQ", "5"), "faction", "no faction"),
        (("AB", "30", "AB", "25"), "amount", "pass the $50 cap"),
    ],
)
def test_refused_contributions_exit_2_and_write_nothing(
    season_file: Path, arguments: tuple[str, ...], field: str, words: str
) -> None:
    if len(arguments) == 4:
        assert cli("contribute", season_file, *arguments[:2]).exit_code == 0
        arguments = arguments[2:]
    before = table_dump(season_file)
    result = cli("contribute", season_file, *arguments)
    assert result.exit_code == 2
    line = _one_line(result)
    assert line.startswith(f"LedgerRefusal: {field}: ") and words in line
    assert table_dump(season_file) == before


def test_spent_pool_and_finished_season_are_refused(season_file: Path) -> None:
    for faction in ("AA", "AB", "AC", "AD", "AE"):
        assert cli("contribute", season_file, faction, "5").exit_code == 0
    assert cli("next", season_file).exit_code == 0
    fought = season.battle(season_file, 1)
    spender = fought["attacker"]
    before = table_dump(season_file)
    spent = cli("contribute", season_file, spender, "5")
    assert spent.exit_code == 2 and "already spent" in _one_line(spent)
    assert table_dump(season_file) == before
    assert cli("next", season_file, "--to-end").exit_code == 0
    before = table_dump(season_file)
    over = cli("contribute", season_file, "AB", "5")
    assert over.exit_code == 2 and "season is over" in _one_line(over)
    assert table_dump(season_file) == before
    again = cli("next", season_file)
    assert again.exit_code == 2 and "season is over" in _one_line(again)


def test_the_same_key_records_one_contribution(season_file: Path) -> None:
    first = cli("contribute", season_file, "AC", "10", "--key", "order-1")
    second = cli("contribute", season_file, "AC", "10", "--key", "order-1")
    assert first.exit_code == second.exit_code == 0
    assert "already recorded: seq 1" in second.output
    assert len(season.summary(season_file).ledger) == 1
    clash = cli("contribute", season_file, "AD", "10", "--key", "order-1")
    assert clash.exit_code == 2 and "key" in _one_line(clash)


def test_next_show_and_odds(season_file: Path) -> None:
    preview = cli("odds", season_file, "AA", "AE", "--json")
    assert preview.exit_code == 0
    odds = json.loads(preview.output)
    assert odds["border_kind"] == "sea" and len(odds["rounds"]) == 5
    assert odds["sides"]["attacker"]["sea"] == "4/5"
    result = cli("next", season_file, "--count", "2")
    assert result.exit_code == 0
    assert "Battle 1:" in result.output and "Battle 2:" in result.output
    shown = cli("show", season_file, "--battle", "2", "--json")
    assert json.loads(shown.output) == season.battle(season_file, 2)
    standings = cli("show", season_file)
    assert standings.exit_code == 0 and "2 battles fought" in standings.output
    missing = cli("show", season_file, "--battle", "9")
    assert missing.exit_code == 2 and "has not been fought" in _one_line(missing)
    lonely = cli("odds", season_file, "AB", "AC")
    assert lonely.exit_code == 2


def test_odds_with_a_named_border(season_file: Path) -> None:
    result = cli("odds", season_file, "AB", "AA", "--border", "AA-AB")
    assert result.exit_code == 0 and "land border" in result.output
    wrong = cli("odds", season_file, "AB", "AA", "--border", "AA-AC")
    assert wrong.exit_code == 2 and "border" in _one_line(wrong)


def test_reveal_only_after_the_end_and_the_seed_stays_secret(
    season_file: Path, tmp_path: Path
) -> None:
    outputs = [cli("contribute", season_file, "AB", "10").output]
    early = cli("reveal", season_file)
    assert early.exit_code == 2 and "only after the season ends" in _one_line(early)
    outputs += [cli("next", season_file, "--json").output, cli("show", season_file).output]
    outputs += [cli("show", season_file, "--json").output]
    outputs += [cli("odds", season_file, "AA", "AB").output]
    outputs += [cli("next", season_file, "--to-end").output, early.output]
    assert cli("export", season_file, tmp_path / "before").exit_code == 0
    exported = b"".join(p.read_bytes() for p in sorted((tmp_path / "before").iterdir()))
    assert SEED.encode() not in exported
    assert not (tmp_path / "before" / "seed.txt").exists()
    assert all(SEED not in text for text in outputs)
    unrevealed = cli("verify", tmp_path / "before")
    assert unrevealed.exit_code == 1 and "not revealed" in _one_line(unrevealed)
    revealed = cli("reveal", season_file)
    assert revealed.exit_code == 0 and SEED in revealed.output
    assert cli("export", season_file, tmp_path / "after").exit_code == 0
    assert (tmp_path / "after" / "seed.txt").read_text() == f"{SEED}\n"
    verified = cli("verify", tmp_path / "after")
    assert verified.exit_code == 0 and "final map matches" in verified.output


def _finished(path: Path, map_data: dict) -> None:
    season.create_season(path, map_data, "synthetic", seed=SEED)
    for faction, amount in (("ZZ-001", 25), ("ZZ-002", 50), ("ZZ-001", 20)):
        season.contribute(path, faction, amount)
    list(season.fight(path, 20))
    season.contribute(path, "ZZ-020", 35)
    list(season.fight(path, None))
    season.reveal(path)


def test_exports_are_byte_identical_across_runs(tmp_path: Path) -> None:
    """One season exported twice gives the same bytes; two seasons from one seed play the same
    battles (their season keys, and so their headers and heads, differ by design)."""
    map_data = synthetic_map()
    digests = []
    for run in ("one", "two"):
        _finished(tmp_path / f"{run}.db", map_data)
    for export in ("first", "again"):
        folder = tmp_path / f"{export}-record"
        publication.export_record(tmp_path / "one.db", folder)
        publication.export_record(tmp_path / "one.db", tmp_path / f"{export}.zip")
        digests.append(
            {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.glob("*")}
        )
        digests[-1]["zip"] = hashlib.sha256((tmp_path / f"{export}.zip").read_bytes()).hexdigest()
    record_files = len(archive.tables.RECORD_FILES) - 1 + len(archive.tables.LOG_RECORD_FILES)
    files = record_files + len(archive.ENGINE_FILES) + 2 + 1  # no beacon; guide, manifest; zip
    assert digests[0] == digests[1] and len(digests[0]) == files
    publication.export_record(tmp_path / "two.db", tmp_path / "two-record")
    for name in ("history.jsonl", "ledger.jsonl", "final-map.json", "seed.txt"):
        first = (tmp_path / "first-record" / name).read_bytes()
        assert first == (tmp_path / "two-record" / name).read_bytes(), name


@pytest.mark.parametrize("target", ["draw", "ledger", "owner", "seed"])
def test_verify_names_the_tampered_place(tmp_path: Path, target: str) -> None:
    path, folder = tmp_path / "s.db", tmp_path / "record"
    _finished(path, synthetic_map(30, 40, 20))
    publication.export_record(path, folder)
    if target == "draw":
        lines = (folder / "history.jsonl").read_text().splitlines()
        entry = json.loads(lines[4])
        entry["draws"][6]["value"] ^= 1 << 40
        lines[4] = json.dumps(entry)
        (folder / "history.jsonl").write_text("\n".join(lines) + "\n")
        expected = ("battle 5", "draws[6].value")
    elif target == "ledger":
        lines = (folder / "ledger.jsonl").read_text().splitlines()
        entry = json.loads(lines[0])
        entry["amount"] = 30
        lines[0] = json.dumps(entry)
        (folder / "ledger.jsonl").write_text("\n".join(lines) + "\n")
        expected = ("battle", "")
    elif target == "owner":
        final = json.loads((folder / "final-map.json").read_text())
        holder = final["regions"]["ZZ-003"]["owner"]
        final["regions"]["ZZ-003"]["owner"] = "ZZ-004" if holder != "ZZ-004" else "ZZ-005"
        (folder / "final-map.json").write_text(json.dumps(final))
        expected = ("final map", "regions.ZZ-003.owner")
    else:
        (folder / "seed.txt").write_text("f" * 64 + "\n")
        expected = ("seed", "commitment")
    unsealed = cli("verify", folder)
    assert unsealed.exit_code == 1 and "does not match manifest.sha256" in _one_line(unsealed)
    reseal(folder)  # a forger would rewrite the manifest too; the replay still catches it
    result = cli("verify", folder)
    assert result.exit_code == 1
    line = _one_line(result)
    assert line.startswith(f"VerificationError: {expected[0]}") and expected[1] in line


# A published drand quicknet round: its BLS signature and the randomness it yields.
QUICKNET_ROUND = 657413
QUICKNET_SIGNATURE = (
    "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b"
)
QUICKNET_RANDOMNESS = "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587"
# Before quicknet's round 42 (genesis 1692803367 + 41 × 3 s = 15:11:30 UTC that day), so the
# recorded rounds of these tests come out after their seasons' headers are published.
EARLY = datetime(2023, 8, 23, 15, 0, 0, tzinfo=UTC)


def test_beacon_round_is_required_before_the_first_battle(tmp_path: Path) -> None:
    path = tmp_path / "b.db"
    season.create_season(path, star_map(), "star", seed=SEED, beacon_round=QUICKNET_ROUND,
                         published=EARLY)
    waiting = cli("next", path)
    assert waiting.exit_code == 2 and "record it with `conquest beacon`" in _one_line(waiting)
    bad = cli("beacon", path, "--randomness", "xyz")
    assert bad.exit_code == 2 and "randomness" in _one_line(bad)
    recorded = cli("beacon", path, "--randomness", QUICKNET_RANDOMNESS,
                   "--signature", QUICKNET_SIGNATURE)
    assert recorded.exit_code == 0
    assert cli("next", path, "--to-end").exit_code == 0
    assert cli("beacon", path, "--randomness", "cd" * 32).exit_code == 2
    season.reveal(path)
    publication.export_record(path, tmp_path / "record")
    beacon = json.loads((tmp_path / "record" / "beacon.json").read_text())
    assert beacon == {"round": QUICKNET_ROUND, "randomness": QUICKNET_RANDOMNESS,
                      "signature": QUICKNET_SIGNATURE}
    verified = cli("verify", tmp_path / "record")
    assert verified.exit_code == 0
    assert f"beacon round {QUICKNET_ROUND} signature verified" in verified.output
    plain = tmp_path / "plain.db"
    season.create_season(plain, star_map(), "star", seed=SEED)
    list(season.fight(plain, 1))
    assert season.battle(plain, 1)["draws"] != season.battle(path, 1)["draws"]


def test_a_forged_beacon_signature_fails_verification(tmp_path: Path) -> None:
    path = tmp_path / "forged.db"
    season.create_season(path, star_map(), "star", seed=SEED, beacon_round=QUICKNET_ROUND,
                         published=EARLY)
    forged = "a" + QUICKNET_SIGNATURE[1:]
    store_unchecked_beacon(path, QUICKNET_RANDOMNESS, forged)
    assert cli("next", path, "--to-end").exit_code == 0
    season.reveal(path)
    publication.export_record(path, tmp_path / "record")
    verified = cli("verify", tmp_path / "record")
    assert verified.exit_code == 1 and "beacon.signature" in _one_line(verified)


def test_bad_files_are_one_line_errors(tmp_path: Path) -> None:
    missing = cli("show", tmp_path / "absent.db")
    assert missing.exit_code == 2 and "no season file" in _one_line(missing)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 10)
    broken = cli("show", junk)
    assert broken.exit_code == 2 and "not a conquest season" in _one_line(broken)
    nowhere = cli("verify", tmp_path / "nowhere")
    assert nowhere.exit_code == 2


def test_map_stats_counts_a_map_file(tmp_path: Path) -> None:
    map_file = tmp_path / "generated.json"
    map_file.write_text(json.dumps(synthetic_map(20, 25, 10)), encoding="utf-8")
    result = cli("map-stats", "--map", map_file, "--json")
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert (stats["factions"], stats["borders"], stats["land"], stats["sea"]) == (20, 35, 25, 10)


def test_battles_and_contributions_from_two_threads_stay_consistent(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"
    season.create_season(path, synthetic_map(40, 50, 30), "busy", seed=SEED)
    refused: list[str] = []

    def fans() -> None:
        for i in range(60):
            try:
                season.contribute(path, f"ZZ-{i % 40:03d}", 5 * (1 + i % 3))
            except RuleError as error:
                refused.append(error.field)

    worker = threading.Thread(target=fans)
    worker.start()
    list(season.fight(path, None))
    worker.join()
    season.reveal(path)
    publication.export_record(path, tmp_path / "record")
    assert any("final map matches" in n for n in publication.verify_folder(tmp_path / "record"))
    assert set(refused) <= {"season", "faction", "amount"}


def test_long_runs_can_print_highlights_only(tmp_path: Path) -> None:
    path = tmp_path / "long.db"
    season.create_season(path, synthetic_map(40, 50, 30), "long", seed=SEED)
    result = cli("next", path, "--to-end", "--highlights")
    assert result.exit_code == 0
    history = [season.battle(path, n) for n in range(1, season.summary(path).battles + 1)]
    notable = [e for e in history if e["upset"] or e["reason"] != "NATURAL" or e["kind"] == "bonus"]
    assert notable and all(f"#{e['number']:>3} " in result.output for e in notable)
    assert "Battle 1:" not in result.output
    assert f"{len(history)} battles fought; the season is over" in result.output


def _beacon_record(tmp_path: Path) -> Path:
    path = tmp_path / "b.db"
    season.create_season(path, star_map(), "star", seed=SEED, beacon_round=42, published=EARLY)
    store_unchecked_beacon(path, "ab" * 32, "99" * 48)
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, tmp_path / "record")
    return tmp_path / "record"


def test_beacon_signature_is_checked_when_drand_verify_is_present(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _beacon_record(tmp_path)
    monkeypatch.setitem(sys.modules, "drand_verify", None)  # not installed
    result = cli("verify", folder)
    assert result.exit_code == 0 and "drand-verify package is not installed" in result.output
    calls: list[tuple[int, str]] = []

    def good(round_number: int, signature: str) -> str:
        calls.append((round_number, signature))
        return "ab" * 32

    monkeypatch.setitem(sys.modules, "drand_verify", types.SimpleNamespace(verify_quicknet=good))
    result = cli("verify", folder)
    assert result.exit_code == 0 and "signature verified" in result.output
    assert calls == [(42, "99" * 48)]

    def bad(round_number: int, signature: str) -> str:
        raise ValueError("invalid signature")

    monkeypatch.setitem(sys.modules, "drand_verify", types.SimpleNamespace(verify_quicknet=bad))
    result = cli("verify", folder)
    assert result.exit_code == 1 and "beacon.signature" in _one_line(result)
    other = types.SimpleNamespace(verify_quicknet=lambda r, s: "cd" * 32)
    monkeypatch.setitem(sys.modules, "drand_verify", other)
    result = cli("verify", folder)
    assert result.exit_code == 1 and "beacon.randomness" in _one_line(result)


def test_a_map_with_floats_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    floating = star_map()
    floating["regions"][0]["area_km2"] = 1.5
    with pytest.raises(InputError) as refused:
        season.create_season(tmp_path / "f.db", floating, "floating", seed=SEED)
    assert refused.value.field == "map.value" and "floats" in refused.value.rule
    assert not (tmp_path / "f.db").exists()
