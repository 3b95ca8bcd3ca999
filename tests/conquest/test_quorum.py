"""Every case of the witness-quorum table (tests/conquest/quorum_cases.py) through the bare
Python verifier, `node engine.js verify` and `fairfight conquest verify`: the same exit code
and the same words."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from fairfight.cli import app
from tests.conquest.quorum_cases import QuorumCase, build_quorum_cases
from tests.system import node_path


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> list[QuorumCase]:
    return build_quorum_cases(tmp_path_factory.mktemp("quorum-cases"))


def _run(command: list[str], case: QuorumCase) -> tuple[int, str, str]:
    done = subprocess.run([*command, "verify", ".", *case.options()], cwd=case.archive,
                          capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"},
                          check=False, timeout=600)
    return done.returncode, done.stdout, done.stderr


def test_the_table_spans_passes_refusals_and_mismatches(cases: list[QuorumCase]) -> None:
    assert {case.exit_code for case in cases} == {0, 1, 2}
    assert any("split view" in case.said for case in cases)


def test_both_verifiers_give_every_case_the_same_words(cases: list[QuorumCase]) -> None:
    for case in cases:
        python = _run([sys.executable, "-S", "verifier.py"], case)
        node = _run([node_path(), "engine.js"], case)
        assert python[0] == case.exit_code, (case.name, python)
        word = {1: "MISMATCH", 2: "REFUSED"}.get(case.exit_code)
        if word is None:
            assert f"ok: {case.said}" in python[1].splitlines(), (case.name, python[1])
        else:
            assert python[2].strip() == f"{word} {case.said}", (case.name, python[2])
        assert node[0] == python[0] and node[2] == python[2], (case.name, node, python)
        shown = [line for line in node[1].splitlines() if "checkpoint" in line]
        assert shown == [line for line in python[1].splitlines() if "checkpoint" in line]


def test_the_command_line_gives_every_case_the_same_verdict(cases: list[QuorumCase]) -> None:
    for case in cases:
        shown = CliRunner().invoke(app, ["conquest", "verify", str(case.archive),
                                         *case.options()], terminal_width=400)
        assert shown.exit_code == case.exit_code, (case.name, shown.output)
        assert case.said in " ".join(shown.output.split()), (case.name, shown.output)
