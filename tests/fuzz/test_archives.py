"""Hostile season archives through all three verifiers: the same refusal, one line, every time.

The three are the library (`publication.verify_folder`, what the service's child process
runs), the command line (`fairfight conquest verify`) and the bare verifier an archive ships
(`python3 -S verifier.py verify ...`, run as a real process from an extracted archive); the
service's upload route is checked on top, through its limited child process, for a sample of
the cases that holds every kind of rule (`THROUGH_THE_UPLOAD`).
"""

from __future__ import annotations

import hashlib
import math
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import archive
from fairfight.conquest.store import publication, season
from fairfight.core import records
from fairfight.core.errors import VerificationError
from fairfight.web import WebSettings, create_app
from tests.conquest.helpers import SEED, reseal
from tests.conquest.verifiers import javascript_verdicts
from tests.fuzz.conftest import assert_refused, invoke
from tests.fuzz.hostile_zips import CASES, Entry, deflated, raw_zip

LONGEST_REFUSAL = 2 * records.QUOTED_LENGTH
"""No refusal line is longer than this, whatever the input (it quotes at most 200 chars)."""
THROUGH_THE_UPLOAD = {
    "declared size over the cap", "inflates past its declared size", "total over the cap",
    "compression ratio over the cap", "shorter than declared", "stored with unequal sizes",
    "not a zip", "too many members", "name with ..", "corrupt deflate stream",
}
"""The cases also sent to the upload route, whose child process runs the library's verifier
under CPU and memory limits (about a second each, the child's start): every size and bomb
case, where those limits could change the answer, and one case of each other kind of rule
(the whole file, the member count, a name, a deflate stream). The rest reach the same library
function with the same bytes; the library's verdict on them is checked above."""


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished season's archive, as a folder (its files are the ones hostile zips reuse)."""
    root = tmp_path_factory.mktemp("hostile")
    path = root / "season.db"
    season.create_season(path, synthetic_map(8, 10, 3), "hostile", seed=SEED)
    season.contribute(path, "ZZ-002", 20)
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, root / "record")
    return root / "record"


@pytest.fixture(scope="module")
def files(good: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in good.iterdir()}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebSettings(database_url="sqlite://"))) as test_client:
        yield test_client


def _bare(good: Path, source: Path) -> subprocess.CompletedProcess[str]:
    """The bare verifier of the extracted archive, standard library only, on `source`."""
    return subprocess.run(
        [sys.executable, "-S", "verifier.py", "verify", str(source)], cwd=good,
        capture_output=True, text=True, check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"},
    )


def _three_verdicts(good: Path, source: Path) -> list[str]:
    """The refusal line of the library, the command line and the bare verifier."""
    with pytest.raises(VerificationError) as caught:
        publication.verify_folder(source)
    library = str(caught.value)
    command = assert_refused(invoke("conquest", "verify", source), codes=(1,))
    bare = _bare(good, source)
    assert bare.returncode == 1 and "Traceback" not in bare.stderr, bare.stderr
    assert len(bare.stderr.splitlines()) == 1, bare.stderr
    return [library, command, bare.stderr.strip()]


def test_the_hand_written_zip_of_a_good_archive_verifies_everywhere(
    good: Path, files: dict[str, bytes], tmp_path: Path, client: TestClient
) -> None:
    """The builder itself is honest: every refusal below comes from the one lie it adds."""
    path = tmp_path / "good.zip"
    path.write_bytes(raw_zip([Entry(name, files[name]) for name in sorted(files)]))
    assert any("final map matches" in note for note in publication.verify_folder(path))
    assert invoke("conquest", "verify", path).exit_code == 0
    assert _bare(good, path).returncode == 0
    assert javascript_verdicts([path], tmp_path)[str(path)]["ok"]
    answer = client.post("/api/upload/verify", files={"archive": path.read_bytes()})
    assert answer.status_code == 200 and answer.json()["ok"], answer.text


@pytest.mark.parametrize("kind", sorted(CASES))
def test_every_verifier_refuses_a_hostile_zip_the_same_way(
    kind: str, good: Path, files: dict[str, bytes], tmp_path: Path, client: TestClient
) -> None:
    case = CASES[kind]
    path = tmp_path / "hostile.zip"
    path.write_bytes(case.build(files))
    expected = f"{case.member}: "
    for line in _three_verdicts(good, path):
        assert expected in line and case.words in line, (kind, line)
        assert len(line) <= LONGEST_REFUSAL
    if kind not in THROUGH_THE_UPLOAD:
        return
    answer = client.post("/api/upload/verify", files={"archive": path.read_bytes()})
    assert answer.status_code == 200, answer.text
    verdict = answer.json()
    assert (verdict["ok"], verdict["place"]) == (False, case.member), verdict
    assert case.words in verdict["detail"]


def test_the_upload_sample_names_real_cases() -> None:
    assert THROUGH_THE_UPLOAD.issubset(CASES)  # a renamed case would leave the sample


def test_the_javascript_verifier_refuses_each_hostile_zip_in_the_same_words(
    files: dict[str, bytes], tmp_path: Path
) -> None:
    """engine.js (Node here, a browser on the verify page) applies the same table of rules."""
    paths = {}
    for number, kind in enumerate(sorted(CASES)):
        paths[kind] = tmp_path / f"case-{number}.zip"
        paths[kind].write_bytes(CASES[kind].build(files))
    verdicts = javascript_verdicts([*paths.values(), Path("/dev/zero")], tmp_path)
    for kind, path in paths.items():
        verdict = verdicts[str(path)]
        assert not verdict["ok"], kind
        assert f"{CASES[kind].member}: " in verdict["message"], (kind, verdict)
        assert CASES[kind].words in verdict["message"], (kind, verdict)
    assert verdicts["/dev/zero"]["message"] == "archive: not a regular file"


def test_a_device_as_the_archive_is_one_line(good: Path) -> None:
    """`/dev/zero` never blocks or crashes a verifier: it is not a regular file."""
    bare = _bare(good, Path("/dev/zero"))
    assert (bare.returncode, bare.stderr.strip()) == (1, "MISMATCH archive: not a regular file")
    assert_refused(invoke("conquest", "verify", "/dev/zero"), codes=(2,))


def _noise(length: int) -> bytes:
    """Hex digits that deflate poorly (a long line that no ratio rule catches first)."""
    blocks = (hashlib.sha256(b"%d" % n).hexdigest().encode() for n in range(length // 64 + 1))
    return b"".join(blocks)[:length]


def _resealed(good: Path, tmp_path: Path, name: str, content: bytes) -> Path:
    """A copy of the archive folder with one record file replaced and the manifest rewritten."""
    folder = tmp_path / "forged"
    shutil.copytree(good, folder)
    (folder / name).write_bytes(content)
    reseal(folder)
    path = tmp_path / "forged.zip"
    archive.write_zip({p.name: p.read_bytes() for p in folder.iterdir()}, path)
    return path


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("header.json", b"[" * 20_000 + b"]" * 20_000 + b"\n", "header.json: line 1: nested"),
        ("map.json", b'{"a":' * 40 + b"1" + b"}" * 40 + b"\n",
         f"nested more than {records.MAX_NESTING} levels deep"),
        ("ledger.jsonl", b'{"seq":1,"x":"' + _noise(records.MAX_LINE_BYTES + 1) + b'"}\n',
         f"line 1: longer than {records.MAX_LINE_BYTES} characters"),
        ("history.jsonl", b'"' + b"z" * 5_000 + b"\n", "history.jsonl: line 1: not valid JSON"),
    ],
    ids=["deep brackets", "deep objects", "huge line", "long bad line"],
)
def test_hostile_json_in_a_record_file_is_one_short_line(
    good: Path, tmp_path: Path, name: str, content: bytes, words: str
) -> None:
    path = _resealed(good, tmp_path, name, content)
    for line in _three_verdicts(good, path):
        assert words in line and len(line) <= LONGEST_REFUSAL, line


def test_too_many_lines_are_refused_without_reading_them_all(
    good: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The line cap, lowered for the test (a million real lines would be slow to write)."""
    monkeypatch.setattr(records, "MAX_LINES", 3)
    lines = b"".join(b'{"seq":%d}\n' % n for n in range(1, 5))
    folder = tmp_path / "folder"
    shutil.copytree(good, folder)
    (folder / "ledger.jsonl").write_bytes(lines)
    reseal(folder)
    with pytest.raises(VerificationError, match="ledger.jsonl: more than 3 lines; refused"):
        publication.verify_folder(folder)


def test_the_guides_quote_the_archive_rules_own_figures() -> None:
    """VERIFY.md and docs/operations.md are written by hand: their caps are the constants'."""
    guide = (Path(archive.__file__).parent / archive.GUIDE).read_text(encoding="utf-8")
    operations = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text(
        encoding="utf-8")
    figures = [f"more than {records.MAX_MEMBERS} members",
               f"member over {records.MAX_MEMBER_BYTES >> 20} MiB",
               f"over {records.MAX_ARCHIVE_BYTES >> 20} MiB in all",
               f"{records.RATIO_FLOOR >> 20} MiB more than {records.MAX_RATIO}",
               f"{records.INFLATE_CHUNK >> 10} KiB at a time",
               f"more than {records.MAX_NESTING} levels"]
    for figure in figures:
        assert figure in " ".join(guide.split()), figure
    for name in ("MAX_MEMBERS", "MAX_MEMBER_BYTES", "MAX_ARCHIVE_BYTES", "MAX_RATIO",
                 "RATIO_FLOOR", "INFLATE_CHUNK", "MAX_LINES", "MAX_LINE_BYTES", "MAX_NESTING"):
        assert f"`{name}`" in operations, name


def test_engine_js_states_the_same_caps_as_records() -> None:
    """engine.js repeats the caps of `records.read_zip_members` (it cannot import them)."""
    script = (Path(archive.__file__).parent / "engine.js").read_text(encoding="utf-8")
    rules = script[script.index("const ZIP_RULES = {"):script.index("};", script.index(
        "const ZIP_RULES = {"))]
    stated = {key: math.prod(int(factor) for factor in value.split("*"))
              for key, value in re.findall(r"(\w+): ([\d *]+),", rules)}
    assert stated == {"members": records.MAX_MEMBERS, "memberBytes": records.MAX_MEMBER_BYTES,
                      "archiveBytes": records.MAX_ARCHIVE_BYTES, "ratio": records.MAX_RATIO,
                      "ratioFloor": records.RATIO_FLOOR, "chunk": records.INFLATE_CHUNK}


@pytest.mark.parametrize("size", [0, 1, records.INFLATE_CHUNK - 1, records.INFLATE_CHUNK,
                                  records.INFLATE_CHUNK + 1, 3 * records.INFLATE_CHUNK, 1 << 20])
def test_the_reader_gives_back_exactly_what_was_zipped_around_each_chunk_size(
    size: int, tmp_path: Path
) -> None:
    """Inflating in steps never loses a byte, whatever the size against the step."""
    content = hashlib.sha256(b"seed").digest() * (size // 64) + bytes(size - size // 64 * 32)
    content = content[:size]
    path = tmp_path / "one.zip"
    path.write_bytes(raw_zip([Entry("map.json", content)]))
    assert records.read_zip_members(path, {"map.json"}) == {"map.json": content}
    trailing = raw_zip([Entry("map.json", content, packed=deflated(content) + b"junk")])
    path.write_bytes(trailing)
    with pytest.raises(records.ReadRefusal, match="deflate stream"):
        records.read_zip_members(path, {"map.json"})
