"""The shipped examples stay valid and current: the example archive carries today's verifier
files (as the export function gives them), verifies the three ways its README says, and is
what tools/conquest_example_archive.py makes; an archive made by an earlier release (a test
fixture, never an example) still verifies with today's verifiers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fairfight.conquest.record import archive, verifier
from fairfight.conquest.rules import engine, scenario, tables
from fairfight.conquest.store import publication
from tests.system import node_path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "conquest"
EXAMPLE = EXAMPLES / "tiny-record"
EARLIER = Path(__file__).parent / "fixtures" / "archive-from-an-earlier-release"
REMAKE = "python tools/conquest_example_archive.py"


def _header(folder: Path) -> dict[str, object]:
    header: dict[str, object] = json.loads((folder / "header.json").read_text(encoding="utf-8"))
    return header


def test_the_example_record_verifies() -> None:
    notes = publication.verify_folder(EXAMPLE)
    assert any("8 battles replayed" in note for note in notes)
    history = verifier.load_record(EXAMPLE)["history"]
    assert [entry["kind"] for entry in history].count("bonus") == 1


def test_the_example_carries_todays_verifier_files() -> None:
    """Byte for byte the files `conquest export` ships today, named by the header; a change to
    any of them fails here until the example is made again."""
    sources = archive.engine_sources()
    shipped = {name: (EXAMPLE / name).read_bytes() for name in sources if (EXAMPLE / name).exists()}
    stale = sorted(name for name in sources if shipped.get(name) != sources[name])
    assert not stale, f"the example's verifier files {stale} are not today's: run {REMAKE}"
    assert _header(EXAMPLE)["engine_files"] == archive.engine_digests(sources)
    guide = Path(verifier.__file__).with_name(tables.GUIDE).read_bytes()
    assert (EXAMPLE / tables.GUIDE).read_bytes() == guide, f"VERIFY.md is not today's: {REMAKE}"


def _bare_python(folder: Path, program: Path, archive_path: str = ".") -> str:
    """`python3 -S PROGRAM verify ARCHIVE` in `folder`, nothing else on the path (and no
    `__pycache__` written beside the shipped files)."""
    run = subprocess.run(
        [sys.executable, "-S", "-B", str(program), "verify", archive_path], cwd=folder,
        capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"}, check=False)
    assert run.returncode == 0, run.stderr
    return run.stdout


def _node(folder: Path, program: Path, archive_path: str = ".") -> str:
    run = subprocess.run([node_path(), str(program), "verify", archive_path], cwd=folder,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_the_example_verifies_as_its_readme_says() -> None:
    """From inside the folder, with the files it carries: `python3 -S verifier.py verify .`
    and `node engine.js verify .`."""
    for output in (_bare_python(EXAMPLE, EXAMPLE / "verifier.py"),
                   _node(EXAMPLE, EXAMPLE / "engine.js")):
        assert "8 battles replayed" in output and "season log: 14 leaves" in output
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    assert "python3 -S verifier.py verify ." in readme and "node engine.js verify ." in readme
    assert "engine.py verify" not in readme


def test_the_archive_of_an_earlier_release_verifies_with_todays_verifiers(
        tmp_path: Path) -> None:
    """The fixture carries the three verifier files of its release (from before the zip
    rules); today's verifiers, taken from the export function, still accept it."""
    named = _header(EARLIER)["engine_files"]
    assert isinstance(named, dict) and sorted(named) == sorted(tables.LEGACY_ENGINE_FILES)
    assert not (EARLIER / "verifier.py").exists()
    today = tmp_path / "today"
    archive.write_folder(archive.engine_sources(), today)
    notes = publication.verify_folder(EARLIER)
    assert any("8 battles replayed" in note for note in notes)
    assert "8 battles replayed" in _bare_python(today, today / "verifier.py", str(EARLIER))
    assert "8 battles replayed" in _node(today, today / "engine.js", str(EARLIER))


@pytest.mark.skipif(not (ROOT / "tools").is_dir(), reason="the tools are not installed")
def test_the_tool_makes_the_example_again(tmp_path: Path) -> None:
    """The same battles, ledger and maps as the shipped example, and today's verifier files
    (the season log's key and times are new each time)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import conquest_example_archive
    finally:
        sys.path.remove(str(ROOT / "tools"))
    made = tmp_path / "made"
    conquest_example_archive.make_archive(made)
    kept = ["commitment.txt", "seed.txt", "map.json", "ledger.jsonl", "history.jsonl",
            "final-map.json", *archive.engine_sources()]
    assert [name for name in kept if (made / name).read_bytes() != (EXAMPLE / name).read_bytes()
            ] == []
    assert {p.name for p in made.iterdir()} == {p.name for p in EXAMPLE.iterdir()}


def test_the_example_record_plays_the_example_map() -> None:
    tiny = scenario.load_map(str(EXAMPLES / "tiny-map.json"))  # as `conquest new --map` loads it
    header = _header(EXAMPLE)
    assert header["map_sha256"] == engine.map_sha256(tiny)
    assert header["map_name"] == tiny["name"]


def test_the_example_map_passes_the_map_loader() -> None:
    loaded = scenario.load_map(str(EXAMPLES / "tiny-map.json"))
    assert len(loaded["regions"]) == 8
