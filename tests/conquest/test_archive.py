"""The season archive: self-contained, sealed by its manifest, its engine pinned by the header."""

from __future__ import annotations

import hashlib
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import archive
from fairfight.conquest.rules import engine, tables
from fairfight.conquest.store import publication, season
from fairfight.core.errors import InputError, VerificationError
from tests.conquest.helpers import SEED, record_of, reseal
from tests.conquest.verifiers import javascript_verdicts, python_verdict


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One finished season with a secured win, exported as a folder and as a zip."""
    root = tmp_path_factory.mktemp("archive")
    path = root / "season.db"
    season.create_season(path, synthetic_map(20, 28, 10), "twenty", seed=SEED)
    season.contribute(path, "ZZ-004", 50)
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, root / "record")
    publication.export_record(path, root / "season.zip")
    return root / "record", root / "season.zip"


@pytest.fixture
def record(exported: tuple[Path, Path], tmp_path: Path) -> Path:
    copy = tmp_path / "record"
    shutil.copytree(exported[0], copy)
    return copy


@pytest.fixture
def zipped(exported: tuple[Path, Path]) -> Path:
    return exported[1]


def _failure(source: Path) -> VerificationError:
    with pytest.raises(VerificationError) as caught:
        publication.verify_folder(source)
    return caught.value


def test_the_archive_holds_the_record_the_verifiers_and_a_manifest(
    record: Path, zipped: Path
) -> None:
    names = sorted(p.name for p in record.iterdir())
    expected = {*tables.RECORD_FILES.values(), *tables.LOG_RECORD_FILES.values(),
                *archive.ENGINE_FILES, archive.GUIDE}
    assert set(names) == (expected - {"beacon.json"}) | {archive.MANIFEST}
    with zipfile.ZipFile(zipped) as packed:
        assert sorted(packed.namelist()) == names
        for name in names:
            assert packed.read(name) == (record / name).read_bytes(), name
    lines = (record / archive.MANIFEST).read_text(encoding="ascii").splitlines()
    assert lines == [
        f"{hashlib.sha256((record / n).read_bytes()).hexdigest()}  {n}"
        for n in names
        if n != archive.MANIFEST
    ]
    assert any("battles replayed" in note for note in publication.verify_folder(zipped))
    assert any("manifest.sha256" in note for note in publication.verify_folder(record))


def test_the_header_names_the_engine_files_of_the_season(record: Path) -> None:
    header = json.loads((record / "header.json").read_text(encoding="utf-8"))
    for name in archive.ENGINE_FILES:
        assert (
            header["engine_files"][name] == hashlib.sha256((record / name).read_bytes()).hexdigest()
        )
    assert (record / "engine.py").read_bytes() == Path(engine.__file__).read_bytes()


def test_a_file_changed_without_the_manifest_is_named(record: Path) -> None:
    history = record / "history.jsonl"
    history.write_bytes(history.read_bytes().replace(b'"kind":"regular"', b'"kind":"bonus"', 1))
    failure = _failure(record)
    assert (failure.place, failure.detail) == (
        "history.jsonl",
        "its SHA-256 does not match manifest.sha256",
    )


def test_missing_and_unlisted_files_are_named(record: Path) -> None:
    (record / "engine.js").unlink()
    assert _failure(record).place == "engine.js"
    assert "missing from the record" in _failure(record).detail
    reseal(record)  # without engine.js; but the header names it, so it is still required
    assert _failure(record).place == "engine.js"
    assert "header.engine_files" in _failure(record).detail
    manifest = record / archive.MANIFEST
    lines = manifest.read_text(encoding="ascii").splitlines()
    manifest.write_text("".join(f"{line}\n" for line in lines if "VERIFY.md" not in line))
    failure = _failure(record)
    assert (failure.place, failure.detail) == ("VERIFY.md", "not listed in manifest.sha256")


def test_an_engine_swapped_after_the_fact_is_detected(record: Path) -> None:
    for name in archive.ENGINE_FILES:
        original = (record / name).read_bytes()
        edit = b"\n// a later edit\n" if name.endswith(".js") else b"\n# a later edit\n"
        (record / name).write_bytes(original + edit)
        reseal(record)
        failure = _failure(record)
        assert failure.place == name
        assert "header.engine_files" in failure.detail
        (record / name).write_bytes(original)
    reseal(record)
    assert publication.verify_folder(record)


def test_the_export_publishes_the_engine_files_the_season_began_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.db"
    season.create_season(path, synthetic_map(8, 9, 3), "small", seed=SEED)
    newer = {**archive.engine_sources(), "engine.js": b"// another release\n"}
    monkeypatch.setattr(archive, "engine_sources", lambda: newer)
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, tmp_path / "record")
    assert (tmp_path / "record" / "engine.js").read_bytes() != newer["engine.js"]
    assert publication.verify_folder(tmp_path / "record")


def test_export_refuses_an_unusable_target_before_any_work(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "folder.zip").mkdir()
    for target, words in (
        (tmp_path / "file", "is a file"),
        (tmp_path / "folder.zip", "is a folder"),
        (tmp_path / "absent" / "deeper" / "x.zip", "no such folder"),
    ):
        with pytest.raises(InputError, match=words):
            publication.export_record(tmp_path / "no-season.db", target)


def test_a_damaged_zip_is_one_line(tmp_path: Path, zipped: Path) -> None:
    broken = tmp_path / "broken.zip"
    broken.write_bytes(zipped.read_bytes()[:-200])
    assert _failure(broken).place == "archive"
    stray = tmp_path / "stray.zip"
    with zipfile.ZipFile(stray, "w") as packed:
        packed.writestr("../evil.txt", "x")
    failure = _failure(stray)
    climbing = ("../evil.txt", "its name climbs out of the folder (..)")
    assert (failure.place, failure.detail) == climbing
    with zipfile.ZipFile(stray, "w") as packed:
        packed.writestr("evil.txt", "x")
    failure = _failure(stray)
    assert (failure.place, failure.detail) == ("evil.txt", "is not a file of a season record")


def test_the_web_download_is_the_exported_zip_byte_for_byte(exported: tuple[Path, Path]) -> None:
    folder, zipped = exported
    files = publication.archive_files_of(folder.parent / "season.db")
    assert archive.zip_bytes(files) == zipped.read_bytes()


EARLIER = Path(__file__).parent / "fixtures" / "archive-from-an-earlier-release"
"""An archive made by an earlier release, with its three verifier files."""
SRC = Path(archive.__file__).resolve().parents[2]


def _legacy_archive(folder: Path, extra: bytes | None = None) -> None:
    """A season whose header names the three verifier files of older archives, written with
    the earlier release's own three files (and, with `extra`, a `verifier.py` it does not
    name)."""
    legacy = {name: (EARLIER / name).read_bytes() for name in tables.LEGACY_ENGINE_FILES}
    record = record_of(synthetic_map(8, 9, 3), SEED, {1: [("ZZ-003", 25)]})
    del record["luck"]  # its verifiers know no luck.json
    record["header"]["engine_files"] = archive.engine_digests(legacy)
    archive.write_folder(archive.archive_files(record, legacy), folder)
    if extra is not None:
        (folder / "verifier.py").write_bytes(extra)
        reseal(folder)


def test_an_archive_of_an_older_release_is_still_accepted_by_both_verifiers(
    tmp_path: Path,
) -> None:
    """Seasons started before the verifier had its own file name three files in the header."""
    _legacy_archive(tmp_path / "old")
    assert python_verdict(tmp_path / "old")[0] is True
    assert javascript_verdicts([tmp_path / "old"], tmp_path)[str(tmp_path / "old")]["ok"] is True


def test_a_verifier_file_the_header_does_not_name_is_refused_by_both(tmp_path: Path) -> None:
    """A `verifier.py` slipped into an older archive would run first for a fan following
    today's guide; the header never named it, so both verifiers refuse the archive."""
    folder = tmp_path / "slipped"
    _legacy_archive(folder, extra=b"print('all fine')\n")
    expected = "verifier.py: is not one of the files header.engine_files names"
    assert python_verdict(folder)[1] == expected
    assert javascript_verdicts([folder], tmp_path)[str(folder)]["message"] == expected


def test_an_archive_from_before_the_season_log_is_still_accepted_by_both_verifiers(
    tmp_path: Path,
) -> None:
    """Seasons begun before the season log name eight verifier files and have no log_key and
    no log.json: both verifiers accept them as before."""
    previous = {
        name: source
        for name, source in archive.engine_sources().items()
        if name in tables.PREVIOUS_ENGINE_FILES
    }
    record = record_of(synthetic_map(8, 9, 3), SEED, {1: [("ZZ-003", 25)]})
    del record["luck"]
    record["header"]["engine_files"] = archive.engine_digests(previous)
    folder = tmp_path / "eight"
    archive.write_folder(archive.archive_files(record, previous), folder)
    assert sorted(p.name for p in folder.iterdir() if p.suffix in (".py", ".js")) == sorted(
        tables.PREVIOUS_ENGINE_FILES
    )
    assert python_verdict(folder)[0] is True
    assert javascript_verdicts([folder], tmp_path)[str(folder)]["ok"] is True


def test_every_new_archive_ships_the_season_log_checks() -> None:
    """The files the verifiers import for the log lie in every archive, and nothing else."""
    shipped = archive.engine_sources()
    assert set(shipped) == set(tables.ENGINE_FILES)
    for name in ("merkle.py", "ed25519.py", "records.py", "log_check.py", "seasonlog.js"):
        assert name in shipped
    assert shipped["seasonlog.js"] == (SRC / "core" / "seasonlog.js").read_bytes()
