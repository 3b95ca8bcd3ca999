"""The verify commands the fans' guides show (VERIFY.md, docs/season-log.md) are ones the
verifiers take: every option a known flag with its value, and the refusal they quote is the
verifiers' own words (`quorum_check.quorum_words`)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairfight.cli import app
from fairfight.conquest.record import archive
from fairfight.conquest.record.quorum_check import parse_options, quorum_words

ROOT = Path(__file__).resolve().parents[2]
GUIDES = {"VERIFY.md": Path(archive.__file__).parent / archive.GUIDE,
          "season-log.md": ROOT / "docs" / "season-log.md"}
NODE_FLAGS = {"--receipt", "--head", "--checkpoint", "--witness", "--quorum"}
"""engine.js's options (it opens no timelock: no --beacon)."""


def commands(text: str) -> list[list[str]]:
    """Each verify or unlock command of a guide's code blocks (fenced or indented), its lines
    joined where they end in a backslash; usage lines (with `[OPTION]...`) left out."""
    found: list[list[str]] = []
    lines = text.splitlines()
    in_fence = False
    pending = ""
    for line in lines:
        if line.strip().startswith("```"):
            in_fence = not in_fence
            continue
        code = in_fence or line.startswith("    ")
        if not code:
            continue
        pending += line.strip().removesuffix("\\")
        if line.rstrip().endswith("\\"):
            pending += " "
            continue
        if re.match(r"(python3 verifier\.py|node engine\.js|fairfight conquest) (verify|unlock)",
                    pending) and "[" not in pending:
            found.append(shlex.split(pending))
        pending = ""
    return found


def _options(name: str) -> set[str]:
    """The options `fairfight conquest NAME --help` lists."""
    shown = CliRunner().invoke(app, ["conquest", name, "--help"], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    return set(re.findall(r"--[a-z][a-z-]*", shown.output))


@pytest.mark.parametrize("guide", sorted(GUIDES))
def test_every_command_in_the_guide_takes_its_options(guide: str) -> None:
    found = commands(GUIDES[guide].read_text(encoding="utf-8"))
    assert len(found) >= 3, found
    for words in found:
        if words[0] == "python3":
            assert parse_options(words[4:]) is not None, words
        elif words[0] == "node":
            flags = words[4::2]
            assert len(words[4:]) % 2 == 0 and set(flags) <= NODE_FLAGS, words
        else:
            known = _options(words[2])
            flags = [word for word in words[4:] if word.startswith("--")]
            assert set(flags) <= known and len(words) > 3, words


def test_a_guide_command_with_an_unknown_option_is_caught() -> None:
    bad = commands("```\npython3 verifier.py verify . --checkpont my.checkpoint\n```\n")
    assert bad and parse_options(bad[0][4:]) is None


@pytest.mark.parametrize("guide", sorted(GUIDES))
def test_the_guides_quote_the_refusal_in_the_verifiers_words(guide: str) -> None:
    text = " ".join(GUIDES[guide].read_text(encoding="utf-8").split())
    assert quorum_words([], 2) in text
    if guide == "VERIFY.md":
        assert quorum_words(["alpha"], 2) == "cosigned by 1 of the 2 witnesses you require: alpha"
        assert f"REFUSED checkpoint my.checkpoint: {quorum_words(['alpha'], 2)}" in text
