"""The re-play attack of issue 21 on the real service, not on a test builder of logs.

An honest season runs through `season.create_season`, `contribute`, `fight`, `reveal` and
`export_record`; a fan keeps every receipt and every head published after each step. The
operator, who knows the seed and holds the season key, re-runs the season with the same seed
and key, dropping a contribution, changing an amount or swapping two, copies the original
header into the rebuilt archive and recomputes its manifest (tests/conquest/service_replay.py).
All four verifiers must refuse the rebuilt archive given one receipt or one head saved after
the change, naming that file, and accept the honest archive with all of them: the bare
`python3 -S verifier.py verify` inside the folder, `fairfight conquest verify`, `node engine.js
verify` inside the folder, and the /verify page's engine (`verifyArchive` on the zip, in Node;
tests/web/test_conquest_receipt_browser.py runs it in Chromium).
"""

from __future__ import annotations

import filecmp
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairfight.conquest.cli.season_cli import app
from fairfight.conquest.record import archive
from fairfight.conquest.rules import engine, tables
from fairfight.conquest.store import publication
from tests.conquest.service_replay import (
    ATTACK_PLANS,
    HEADER_FILE,
    HONEST_PLAN,
    ServiceSeason,
    replayed_archive,
    run_service_season,
    save_json,
)
from tests.system import node_path

ENGINE_JS = Path(engine.__file__).parents[1] / "record" / "engine.js"
"""The site's engine.js, which the /verify page runs."""
Verdict = tuple[bool, str | None]
"""(accepted, the refusal's `place: detail` line)."""


@dataclass
class Saved:
    """The honest season, its archive and the files the fan saved, named as on disk."""

    run: ServiceSeason
    archive: Path
    receipts: list[Path]
    heads: list[Path]

    def head_after(self, receipt: int) -> Path:
        """The head published right after the receipt's contribution was recorded."""
        size = self.run.receipts[receipt]["leaf_index"] + 1
        return next(path for path in self.heads if path.name == f"head-{size}.json")


def _options(receipts: list[Path], heads: list[Path]) -> list[str]:
    return [
        *(item for path in receipts for item in ("--receipt", str(path))),
        *(item for path in heads for item in ("--head", str(path))),
    ]


def _bare_python(folder: Path, options: list[str]) -> Verdict:
    """`python3 -S verifier.py verify .` inside the archive, nothing else on the path."""
    run = subprocess.run(
        [sys.executable, "-S", "verifier.py", "verify", ".", *options],
        cwd=folder, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"}, check=False)
    assert run.returncode in (0, 1), run.stderr
    return run.returncode == 0, run.stderr.strip().removeprefix("MISMATCH ") or None


def _command_line(folder: Path, options: list[str]) -> Verdict:
    result = CliRunner().invoke(app, ["verify", str(folder), *options])
    assert result.exit_code in (0, 1), result.output
    if result.exit_code == 0:
        return True, None
    line = next(x for x in result.output.splitlines() if x.startswith("VerificationError: "))
    return False, line.removeprefix("VerificationError: ")


def _node(folder: Path, options: list[str]) -> Verdict:
    """`node engine.js verify .` inside the archive: the copy of engine.js the archive ships."""
    run = subprocess.run([node_path(), "engine.js", "verify", ".", *options],
                         cwd=folder, capture_output=True, text=True, check=False, timeout=600)
    assert run.returncode in (0, 1), run.stderr
    return run.returncode == 0, run.stderr.strip().removeprefix("MISMATCH ") or None


_PAGE_DRIVER = """
const fs = require("node:fs");
const path = require("node:path");
const [engineFile, zipFile, ...saved] = process.argv.slice(2);
const read = (file) => ({ name: path.basename(file), bytes: fs.readFileSync(file) });
const pick = (flag) => saved.filter((_, i) => i % 2 === 1 && saved[i - 1] === flag).map(read);
(async () => {
  const result = await require(engineFile).verifyArchive(fs.readFileSync(zipFile), {
    receipts: pick("--receipt"), heads: pick("--head") });
  process.stdout.write(JSON.stringify([result.ok, result.message || null]));
})();
"""


def _page_engine(folder: Path, options: list[str]) -> Verdict:
    """The /verify page's engine (`verifyArchive` of the site's engine.js) on the archive's
    zip, handed the saved files as the page hands them over."""
    zipped = folder.with_suffix(".zip")
    if not zipped.exists():
        files = {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}
        archive.write_zip(files, zipped)  # the files only: running verifier.py adds __pycache__
    driver = folder.with_name("page-driver.js")
    driver.write_text(_PAGE_DRIVER, encoding="utf-8")
    run = subprocess.run([node_path(), str(driver), str(ENGINE_JS), str(zipped), *options],
                         capture_output=True, text=True, check=False, timeout=600)
    assert run.returncode == 0, run.stderr
    passed, message = json.loads(run.stdout)
    return bool(passed), message


VERIFIERS = {
    "python3 -S verifier.py": _bare_python,
    "fairfight conquest verify": _command_line,
    "node engine.js verify": _node,
    "the page's engine": _page_engine,
}


def _verdicts(folder: Path, receipts: list[Path], heads: list[Path]) -> dict[str, Verdict]:
    options = _options(receipts, heads)
    return {name: verify(folder, options) for name, verify in VERIFIERS.items()}


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Saved:
    root = tmp_path_factory.mktemp("honest")
    run = run_service_season(root / "season", HONEST_PLAN)
    folder = root / "archive"
    publication.export_record(run.path, folder)
    receipts = [save_json(root / "saved", f"receipt-{receipt['leaf_index']}.json", receipt)
                for receipt in run.receipts]
    heads = [save_json(root / "saved", f"head-{head['size']}.json", head) for head in run.heads]
    return Saved(run, folder, receipts, heads)


@pytest.fixture(scope="module")
def rebuilt(saved: Saved, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each attack's archive, rebuilt by the operator with the seed and the season key."""
    key = saved.run.private_key()
    return {
        attack: replayed_archive(saved.archive, key, plan,
                                 tmp_path_factory.mktemp(attack.replace(" ", "-")))[0]
        for attack, plan in ATTACK_PLANS.items()
    }


def test_the_honest_season_saved_a_receipt_per_contribution_and_a_head_per_step(
        saved: Saved) -> None:
    contributions = sum(len(batch) for batch in HONEST_PLAN.values())
    assert len(saved.receipts) == contributions
    assert [head["size"] for head in saved.run.heads] == list(range(1, len(saved.heads) + 1))
    for receipt in saved.run.receipts:
        assert receipt["head"] == saved.run.heads[receipt["leaf_index"]]


def test_the_honest_archive_passes_with_every_receipt_and_every_head(saved: Saved) -> None:
    answers = _verdicts(saved.archive, saved.receipts, saved.heads)
    assert answers == {name: (True, None) for name in VERIFIERS}, answers


@pytest.mark.parametrize("attack", list(ATTACK_PLANS))
def test_the_rebuilt_archive_is_sealed_like_the_honest_one_and_passes_alone(
        saved: Saved, rebuilt: dict[str, Path], attack: str) -> None:
    """What issue 21 found: without what fans saved, a re-played season verifies."""
    folder = rebuilt[attack]
    assert filecmp.cmp(folder / HEADER_FILE, saved.archive / HEADER_FILE, shallow=False)
    ledger = tables.RECORD_FILES["ledger"]
    assert (folder / ledger).read_bytes() != (saved.archive / ledger).read_bytes()
    assert _verdicts(folder, [], []) == {name: (True, None) for name in VERIFIERS}
    # A receipt from before the change is a true prefix of the rebuilt log, so it passes too.
    assert _verdicts(folder, saved.receipts[:1], saved.heads[:2]) == \
        {name: (True, None) for name in VERIFIERS}


@pytest.mark.parametrize("attack", list(ATTACK_PLANS))
@pytest.mark.parametrize("kind", ["receipt of the change", "later receipt", "head at the change",
                                  "last head"])
def test_every_verifier_refuses_the_rebuilt_archive_naming_the_saved_file(
        saved: Saved, rebuilt: dict[str, Path], attack: str, kind: str) -> None:
    changed = 1  # the first contribution before battle 3, which every attack touches
    receipts, heads = {
        "receipt of the change": ([saved.receipts[changed]], []),
        "later receipt": ([saved.receipts[-1]], []),
        "head at the change": ([], [saved.head_after(changed)]),
        "last head": ([], [saved.heads[-1]]),
    }[kind]
    (named,) = receipts or heads
    answers = _verdicts(rebuilt[attack], receipts, heads)
    assert len(set(answers.values())) == 1, answers
    passed, message = answers["python3 -S verifier.py"]
    assert not passed
    assert message is not None
    assert message.startswith(f"{'receipt' if receipts else 'head'} {named.name}: "), message
    if receipts:  # a receipt narrows the change down to a leaf, a head only to a range
        assert re.search(r"\bleaf \d+\b|one of leaves \d+ to \d+", message), message
    else:
        assert re.search(r"leaves (0 to \d+|it covers were dropped)", message), message
