"""The README's example commands run, in order, and succeed: the front page cannot drift.

Every line of a ```console block that starts with `$ fairfight` is run through the command
line (in a scratch folder that sees the project's `examples/`); lines after it, up to the next
`$`, are text its output must contain.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairfight.cli import app

ROOT = Path(__file__).resolve().parents[1]


def readme_examples() -> list[tuple[list[str], list[str]]]:
    """(arguments, expected output lines) for each `$ fairfight ...` line of the README."""
    examples: list[tuple[list[str], list[str]]] = []
    in_console = False
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_console = line.strip() == "```console"
            continue
        if not in_console:
            continue
        if line.startswith("$ fairfight "):
            examples.append((shlex.split(line[2:], comments=True)[1:], []))
        elif line.strip() and examples:
            examples[-1][1].append(line.strip())
    return examples


def test_readme_has_examples_for_every_ruleset() -> None:
    rulesets = {arguments[0] for arguments, _ in readme_examples()}
    assert {"warscore", "clash", "conquest", "ballot"} <= rulesets


def test_readme_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for arguments, expected in readme_examples():
        result = runner.invoke(app, arguments)
        shown = " ".join(arguments)
        assert result.exit_code == 0, f"fairfight {shown}\n{result.output}"
        for text in expected:
            assert text in result.output, f"fairfight {shown}: missing {text!r}"
