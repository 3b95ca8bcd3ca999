"""An archive exported before the conquest package was split into wings still verifies.

`golden/before-wings.zip` was exported by the flat package (commit 8986ecb): the tiny example
map, one fan contribution, six battles, the seed revealed, a season log with its signed heads.
Its own files name the flat package (`from fairfight.conquest import tables`); the verifiers
of the split package, the library, the command line and the site's `engine.js`, must all
accept it, and the archive's own verifier must still run inside it.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from typer.testing import CliRunner

from fairfight.conquest.cli.season_cli import app
from fairfight.conquest.store import publication
from tests.conquest.verifiers import javascript_verdicts, python_verdict

ARCHIVE = Path(__file__).parent / "golden" / "before-wings.zip"


def _unpacked(tmp_path: Path) -> Path:
    folder = tmp_path / "archive"
    with zipfile.ZipFile(ARCHIVE) as archive:
        archive.extractall(folder)
    return folder


def test_the_library_and_the_command_line_verify_the_old_archive(tmp_path: Path) -> None:
    passed, difference, _notes = python_verdict(_unpacked(tmp_path))
    assert passed, difference
    assert publication.verify_folder(ARCHIVE, [], [])
    run = CliRunner().invoke(app, ["verify", str(ARCHIVE)])
    assert run.exit_code == 0, run.output


def test_the_sites_engine_js_verifies_the_old_archive(tmp_path: Path) -> None:
    folder = _unpacked(tmp_path)
    verdict = javascript_verdicts([folder], tmp_path)[str(folder)]
    assert verdict["ok"], verdict["message"]


def test_the_old_archive_verifies_itself_with_its_own_files(tmp_path: Path) -> None:
    folder = _unpacked(tmp_path)
    run = subprocess.run([sys.executable, "-S", "verifier.py", "verify", "."], cwd=folder,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "final map matches" in run.stdout


def test_a_changed_battle_in_the_old_archive_is_still_caught(tmp_path: Path) -> None:
    """The check can fail: one changed draw in the history is refused by the new verifiers."""
    folder = _unpacked(tmp_path)
    history = folder / "history.jsonl"
    lines = history.read_text().splitlines()
    lines[2] = lines[2].replace('"value":', '"value":1', 1)
    history.write_text("\n".join(lines) + "\n")
    passed, difference, _notes = python_verdict(folder)
    assert not passed and difference is not None
