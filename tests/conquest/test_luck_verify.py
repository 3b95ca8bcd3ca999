"""Both verifiers recompute `luck.json` from the archive and name a changed one in one line;
an archive from before the luck (thirteen verifier files) carries none and still verifies."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import archive
from fairfight.conquest.rules import tables
from tests.conquest.helpers import SEED, record_of, reseal
from tests.conquest.verifiers import javascript_verdicts, python_verdict
from tests.system import node_path

LUCK = "luck.json"


@pytest.fixture(scope="module")
def season_record() -> dict[str, Any]:
    return record_of(synthetic_map(10, 13, 4), SEED, {1: [("ZZ-003", 50)], 3: [("ZZ-006", 25)]})


def _folder(record: dict[str, Any], folder: Path,
            sources: dict[str, bytes] | None = None) -> Path:
    shipped = archive.engine_sources() if sources is None else sources
    archive.write_folder(archive.archive_files(record, shipped), folder)
    return folder


def _bare(folder: Path, target: str = ".") -> tuple[int, str]:
    """`python3 -S verifier.py verify TARGET` inside the folder, with the files it carries."""
    run = subprocess.run([sys.executable, "-S", "-B", "verifier.py", "verify", target],
                         cwd=folder, capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin"}, check=False)
    return run.returncode, run.stderr


def _node(folder: Path, target: str = ".") -> tuple[int, str]:
    run = subprocess.run([node_path(), "engine.js", "verify", target], cwd=folder,
                         capture_output=True, text=True, check=False)
    return run.returncode, run.stderr


def _rewrite(folder: Path, change: Any) -> None:
    luck = json.loads((folder / LUCK).read_text(encoding="utf-8"))
    change(luck)
    (folder / LUCK).write_text(json.dumps(luck, sort_keys=True, separators=(",", ":")) + "\n",
                               encoding="utf-8")
    reseal(folder)


def test_both_verifiers_recompute_the_luck(season_record: dict[str, Any], tmp_path: Path
                                           ) -> None:
    folder = _folder(season_record, tmp_path / "a")
    note = "luck.json matches the luck recomputed from the battles and their exact chances"
    passed, _, notes = python_verdict(folder)
    assert passed and notes is not None and note in notes
    assert note in javascript_verdicts([folder], tmp_path)[str(folder)]["notes"]
    for code, output in (_bare(folder), _node(folder)):
        assert code == 0, output


def _first_faction(luck: dict[str, Any]) -> str:
    return sorted(luck["factions"])[0]


def test_a_changed_win_count_is_named_in_one_line_by_every_verifier(
        season_record: dict[str, Any], tmp_path: Path) -> None:
    folder = _folder(season_record, tmp_path / "b")
    code = _first_faction(season_record["luck"])
    observed = season_record["luck"]["factions"][code]["observed"]

    def change(luck: dict[str, Any]) -> None:
        luck["factions"][code]["observed"] = observed + 1

    _rewrite(folder, change)
    expected = (f"luck.json: field factions.{code}.observed: "
                f"expected {observed}, found {observed + 1}")
    assert python_verdict(folder)[1] == expected
    assert javascript_verdicts([folder], tmp_path)[str(folder)]["message"] == expected
    for exit_code, output in (_bare(folder), _node(folder)):
        assert exit_code == 1 and output == f"MISMATCH {expected}\n"


def test_a_changed_tail_or_a_dropped_faction_is_named_by_both(
        season_record: dict[str, Any], tmp_path: Path) -> None:
    changes = {
        "tail": lambda luck: luck["season"].update(at_least="0x1/0x2"),
        "dropped": lambda luck: luck["factions"].pop(_first_faction(luck)),
        "champion": lambda luck: luck.update(champion=None),
    }
    folders = []
    for name, change in changes.items():
        folders.append(_folder(season_record, tmp_path / name))
        _rewrite(folders[-1], change)
    verdicts = javascript_verdicts(folders, tmp_path)
    places = {"tail": "field season.at_least", "champion": "field champion",
              "dropped": f"field factions.{_first_faction(season_record['luck'])}"}
    for folder in folders:
        message = python_verdict(folder)[1]
        assert message is not None and message.startswith(f"luck.json: {places[folder.name]}")
        assert verdicts[str(folder)]["message"] == message


def test_a_new_archive_without_luck_is_refused_by_both(
        season_record: dict[str, Any], tmp_path: Path) -> None:
    record = {key: value for key, value in season_record.items() if key != "luck"}
    folder = _folder(record, tmp_path / "none")
    expected = "luck.json: missing from the record"
    assert python_verdict(folder)[1] == expected
    assert javascript_verdicts([folder], tmp_path)[str(folder)]["message"] == expected


def _before_luck(record: dict[str, Any]) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The record as a season begun before the luck: its header names thirteen files."""
    sources = {name: source for name, source in archive.engine_sources().items()
               if name in tables.BEFORE_LUCK_ENGINE_FILES}
    older = {key: value for key, value in record.items() if key != "luck"}
    older["header"] = {**record["header"], "engine_files": archive.engine_digests(sources)}
    return older, sources


def test_an_archive_from_before_the_luck_still_verifies(
        season_record: dict[str, Any], tmp_path: Path) -> None:
    older, sources = _before_luck(season_record)
    folder = _folder(older, tmp_path / "older", sources)
    assert sorted(p.name for p in folder.iterdir() if p.suffix in (".py", ".js")) == sorted(
        tables.BEFORE_LUCK_ENGINE_FILES)
    assert not (folder / LUCK).exists()
    assert python_verdict(folder)[0] is True
    assert javascript_verdicts([folder], tmp_path)[str(folder)]["ok"] is True
    today = tmp_path / "today"  # today's verifier files, as a new archive carries them
    archive.write_folder(archive.engine_sources(), today)
    for code, output in (_bare(today, str(folder)), _node(today, str(folder))):
        assert code == 0, output


def test_luck_in_an_archive_from_before_the_luck_is_refused(
        season_record: dict[str, Any], tmp_path: Path) -> None:
    older, sources = _before_luck(season_record)
    folder = _folder({**older, "luck": season_record["luck"]}, tmp_path / "slipped", sources)
    expected = "luck.json: the header names no season_luck.py to check it"
    assert python_verdict(folder)[1] == expected
    assert javascript_verdicts([folder], tmp_path)[str(folder)]["message"] == expected


def test_a_season_begun_before_the_luck_exports_without_it_and_verifies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A season whose stored verifier files are the thirteen of before: its export carries no
    luck.json (its own verifier would refuse one), verifies, and `luck` still computes its
    figures from the battles."""
    from fairfight.conquest.luck import luck_of_record
    from fairfight.conquest.record import verifier
    from fairfight.conquest.store import publication, season

    thirteen = {name: source for name, source in archive.engine_sources().items()
                if name in tables.BEFORE_LUCK_ENGINE_FILES}
    path = tmp_path / "older.db"
    with monkeypatch.context() as patched:
        patched.setattr(archive, "engine_sources", lambda: dict(thirteen))
        season.create_season(path, synthetic_map(8, 10, 3), "older", seed=SEED)
    list(season.fight(path, None))
    season.reveal(path)
    folder = tmp_path / "record"
    publication.export_record(path, folder)
    assert not (folder / LUCK).exists() and not (folder / tables.LUCK_ENGINE_FILE).exists()
    assert python_verdict(folder)[0] is True  # (its files are today's, so not run in place)
    today = tmp_path / "today"
    archive.write_folder(archive.engine_sources(), today)
    for code, output in (_bare(today, str(folder)), _node(today, str(folder))):
        assert code == 0, output
    record = verifier.load_record(folder)
    assert record["luck"] is None
    assert luck_of_record(record)["battles"] == len(record["history"])
