"""The season log against what fans saved: every verifier on the shared table of cases.

Four verifiers: the bare `python3 -S verifier.py` inside the archive (the shipped files only),
`fairfight conquest verify` (the library through the command line), `node engine.js verify`
inside the archive, and the page's engine (`verifyArchive` on the archive's zip, with the
saved files as the page hands them over). Each case is answered the same way by all four:
accepted, or refused with the same message naming the saved file. The re-play attacks of
issue 21 are among the cases (tests/conquest/log_cases.py builds them).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairfight.conquest.cli.season_cli import app
from fairfight.conquest.record import archive, log_check
from fairfight.conquest.rules import engine
from fairfight.core import merkle
from tests.conquest.log_cases import Case, build_cases, honest_season
from tests.system import node_path

ENGINE_JS = Path(engine.__file__).parents[1] / "record" / "engine.js"
Verdict = tuple[bool, str | None]

_NODE_DRIVER = """
const fs = require("node:fs");
const path = require("node:path");
const [engineFile, casesFile] = process.argv.slice(2);
(async () => {
  for (const item of JSON.parse(fs.readFileSync(casesFile, "utf8"))) {
    process.chdir(item.archive);
    const cli = await require(path.join(item.archive, "engine.js")).verifyPath(".", item);
    const read = (file) => ({ name: path.basename(file), bytes: fs.readFileSync(file) });
    const page = await require(engineFile).verifyArchive(fs.readFileSync(item.zip), {
      receipts: item.receipts.map(read),
      heads: item.heads.map(read),
    });
    process.stdout.write(JSON.stringify({ node: [cli.ok, cli.message || null],
      page: [page.ok, page.message || null] }) + "\\n");
  }
})();
"""


def _zip_of(folder: Path) -> Path:
    target = folder.with_suffix(".zip")
    if not target.exists():
        files = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
        archive.write_zip(files, target)
    return target


def _saved_options(case: Case) -> list[str]:
    return [
        *(item for path in case.receipts for item in ("--receipt", str(path))),
        *(item for path in case.heads for item in ("--head", str(path))),
    ]


def _run_bare(case: Case, program: str) -> subprocess.CompletedProcess[str]:
    """`python3 -S PROGRAM verify .` run inside the archive, nothing else on the path."""
    return subprocess.run(
        [sys.executable, "-S", program, "verify", ".", *_saved_options(case)],
        cwd=case.archive,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
        check=False,
    )


def _bare_python(case: Case) -> Verdict:
    run = _run_bare(case, "verifier.py")
    assert run.returncode in (0, 1), run.stderr
    return run.returncode == 0, run.stderr.removeprefix("MISMATCH ").strip() or None


def _command_line(case: Case) -> Verdict:
    result = CliRunner().invoke(app, ["verify", str(case.archive), *_saved_options(case)])
    assert result.exit_code in (0, 1), result.output
    if result.exit_code == 0:
        return True, None
    line = next(x for x in result.output.splitlines() if x.startswith("VerificationError: "))
    return False, line.removeprefix("VerificationError: ")


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> list[Case]:
    return build_cases(tmp_path_factory.mktemp("log-cases"))


@pytest.fixture(scope="module")
def verdicts(
    cases: list[Case], tmp_path_factory: pytest.TempPathFactory
) -> list[tuple[Case, dict[str, Verdict]]]:
    """Every case answered by every verifier (Node runs all of them in one process)."""
    root = tmp_path_factory.mktemp("log-runs")
    listing = [
        {
            "archive": str(case.archive),
            "zip": str(_zip_of(case.archive)),
            "receipts": [str(p) for p in case.receipts],
            "heads": [str(p) for p in case.heads],
        }
        for case in cases
    ]
    (root / "cases.json").write_text(json.dumps(listing), encoding="utf-8")
    (root / "driver.js").write_text(_NODE_DRIVER, encoding="utf-8")
    run = subprocess.run(
        [node_path(), str(root / "driver.js"), str(ENGINE_JS), str(root / "cases.json")],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == len(cases)
    return [
        (
            case,
            {
                "python3 -S verifier.py": _bare_python(case),
                "fairfight conquest verify": _command_line(case),
                "node engine.js": tuple(answer["node"]),
                "the page's engine": tuple(answer["page"]),
            },
        )
        for case, answer in zip(cases, answers, strict=True)
    ]


def test_every_verifier_gives_every_case_the_same_verdict(
    verdicts: list[tuple[Case, dict[str, Verdict]]],
) -> None:
    for case, answers in verdicts:
        assert len(set(answers.values())) == 1, (case.name, answers)


def test_each_case_is_accepted_or_refused_as_the_table_says(
    verdicts: list[tuple[Case, dict[str, Verdict]]],
) -> None:
    for case, answers in verdicts:
        passed, message = answers["python3 -S verifier.py"]
        if case.refused is None:
            assert passed, (case.name, message)
        else:
            assert not passed, case.name
            assert message is not None and message.startswith(case.refused), (case.name, message)


def test_the_replay_attacks_are_caught_by_a_receipt_or_a_head_saved_after_the_change(
    verdicts: list[tuple[Case, dict[str, Verdict]]],
) -> None:
    """Issue 21's attack: each forged archive passes on its own and against what was saved
    before the change, and is refused, naming the saved file, given what was saved after."""
    attacks = {"dropped", "amount changed", "reordered"}
    seen = set()
    for case, answers in verdicts:
        attack, _, what = case.name.partition(": ")
        if attack not in attacks:
            continue
        seen.add(attack)
        passed, message = answers["node engine.js"]
        if what.endswith("passes"):
            assert passed, (case.name, message)
        else:
            assert not passed and message is not None, case.name
            named = (case.receipts or case.heads)[0].name
            assert message.split(":")[0] in (f"receipt {named}", f"head {named}"), message
    assert seen == attacks


def test_the_forged_receipt_message_names_the_first_leaf_that_differs(
    verdicts: list[tuple[Case, dict[str, Verdict]]],
) -> None:
    by_name = {case.name: answers for case, answers in verdicts}
    _, message = by_name["dropped: the receipt of the change"]["fairfight conquest verify"]
    assert message == (
        "receipt receipt-4.json: leaf 4 of the final log is not its entry: field "
        "entry.amount: expected 10, found 20"
    )


def test_the_builder_signs_heads_the_library_verifies() -> None:
    """The test archives' heads and receipts are what the contract says: checked here with
    `cryptography` itself, so the verifiers are not only checked against their own reading."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    season = honest_season()
    key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(season.record["header"]["log_key"]))
    for head in season.heads:
        message = (
            b"fairfight season head v1\n"
            + json.dumps(
                {k: head[k] for k in ("root", "season", "size", "time")},
                sort_keys=True,
                separators=(",", ":"),
            ).encode()
        )
        assert message == log_check.head_message(head)
        key.verify(bytes.fromhex(head["signature"]), message)
    assert [r["leaf_index"] for r in season.receipts] == [1, 4, 5, 8, 9]


_NO_ED25519 = """
const real = require(process.argv[2]);
globalThis.FairfightSeasonLog = { ...real, async verifyEd25519() {
  throw new Error("this browser's Web Crypto has no Ed25519"); } };
const engine = require(process.argv[3]);
(async () => {
  const [archive, ...receipts] = process.argv.slice(4);
  const result = await engine.verifyPath(archive, { receipts });
  process.stdout.write(JSON.stringify(result));
})();
"""


def test_where_ed25519_cannot_be_checked_it_says_so_and_fails_nothing(
    cases: list[Case], tmp_path: Path
) -> None:
    """A browser without Ed25519: the signatures are "cannot check here", an unchecked note,
    never a failure; every other check still runs, so the re-played season is still refused."""
    by_name = {case.name: case for case in cases}
    driver = tmp_path / "no-ed25519.js"
    driver.write_text(_NO_ED25519, encoding="utf-8")
    library = ENGINE_JS.parents[2] / "core" / "seasonlog.js"

    def run(case: Case) -> dict[str, object]:
        command = [node_path(), str(driver), str(library), str(ENGINE_JS), str(case.archive)]
        done = subprocess.run(
            [*command, *map(str, case.receipts)], capture_output=True, text=True, check=True
        )
        result: dict[str, object] = json.loads(done.stdout)
        return result

    honest = run(by_name["honest with every receipt and head"])
    assert honest["ok"] is True
    unchecked = honest["unchecked"]
    assert isinstance(unchecked, list) and len(unchecked) == 1
    assert "the signatures of the heads: cannot check here" in unchecked[0]
    forged = run(by_name["dropped: the receipt of the change"])
    assert forged["ok"] is False
    assert str(forged["message"]).startswith("receipt receipt-4.json: leaf 4 of the final log")


def test_the_older_engine_py_alias_takes_receipts_and_heads(cases: list[Case]) -> None:
    """`python3 -S engine.py verify .`, as older guides say, runs the same checks."""
    case = next(c for c in cases if c.name == "dropped: the head saved at the change")
    run = _run_bare(case, "engine.py")
    assert run.returncode == 1
    assert run.stderr.startswith(f"MISMATCH {case.refused}")


def test_bad_usage_of_the_saved_file_options_exits_2(cases: list[Case]) -> None:
    folder = cases[0].archive
    for options in (["--receipt"], ["--signed", "x.json"], ["--head", "absent.json"]):
        run = subprocess.run(
            [sys.executable, "-S", "verifier.py", "verify", ".", *options],
            cwd=folder,
            capture_output=True,
            text=True,
            check=False,
        )
        assert run.returncode == 2, options
        node = subprocess.run(
            [node_path(), "engine.js", "verify", ".", *options],
            cwd=folder,
            capture_output=True,
            text=True,
            check=False,
        )
        assert node.returncode == 2, options


def test_inclusion_ranges_name_the_subtrees_of_each_proof() -> None:
    """By hand: in a tree of 5 leaves (split 4 | 1, then 2 | 2, then 1 | 1), leaf 1's proof is
    leaf 0, leaves 2-3, leaf 4; leaf 4's is leaves 0-3. Then, on every tree up to 33 leaves,
    each range's root is the proof's hash, and seasonlog.js gives the same ranges."""
    assert merkle.inclusion_ranges(1, 5) == [(0, 1), (2, 4), (4, 5)]
    assert merkle.inclusion_ranges(4, 5) == [(0, 4)]
    assert merkle.inclusion_ranges(2, 3) == [(0, 2)]
    assert merkle.inclusion_ranges(0, 1) == []
    with pytest.raises(ValueError):
        merkle.inclusion_ranges(3, 3)
    expected = {}
    for size in range(1, 34):
        tree = merkle.MerkleTree.of_leaves(bytes([i]) for i in range(size))
        for index in range(size):
            ranges = merkle.inclusion_ranges(index, size)
            proof = [tree.subtree_root(start, end) for start, end in ranges]
            assert proof == tree.inclusion_proof(index, size)
            expected[f"{index}/{size}"] = [list(r) for r in ranges]
    library = ENGINE_JS.parents[2] / "core" / "seasonlog.js"
    program = (
        "const log = require(process.argv[1]); const out = {};"
        "for (let n = 1; n < 34; n++) for (let i = 0; i < n; i++)"
        " out[`${i}/${n}`] = log.inclusionRanges(i, n);"
        "process.stdout.write(JSON.stringify(out));"
    )
    run = subprocess.run(
        [node_path(), "-e", program, str(library)], capture_output=True, text=True, check=True
    )
    assert json.loads(run.stdout) == expected
