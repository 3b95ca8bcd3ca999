"""`fairfight witness`: keygen prints a vkey that reads back; every bad configuration is one
line naming the field, and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairfight.cli import app
from fairfight.core.cosignature import WitnessKey

from .support import WITNESS_NAME, Log, write_config

runner = CliRunner()


def test_keygen_writes_a_key_once_and_prints_its_vkey(tmp_path: Path) -> None:
    key_file = tmp_path / "k.key"
    result = runner.invoke(app, ["witness", "keygen", WITNESS_NAME, "--key-file", str(key_file)])
    assert result.exit_code == 0
    key = WitnessKey.from_vkey(result.stdout.strip())
    assert key.name == WITNESS_NAME
    assert key_file.read_text().startswith(f"PRIVATE+KEY+{WITNESS_NAME}+{key.key_id.hex()}+")
    assert key_file.stat().st_mode & 0o077 == 0
    again = runner.invoke(app, ["witness", "keygen", WITNESS_NAME, "--key-file", str(key_file)])
    assert again.exit_code == 2 and "never overwritten" in again.stderr


def test_check_prints_the_status_line(tmp_path: Path) -> None:
    config = write_config(tmp_path, Log())
    result = runner.invoke(app, ["witness", "check", "--config", str(config)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"{WITNESS_NAME} witnesses 1 logs, 0 cosigned; key ")


def _bad(tmp_path: Path, case: str) -> Path:
    """A configuration broken one way, in `tmp_path`."""
    good = write_config(tmp_path, Log())
    text = good.read_text()
    if case == "missing":
        return tmp_path / "absent.toml"
    if case == "key file":
        (tmp_path / "w1.key").write_text("PRIVATE+KEY+nonsense\n")
        return good
    if case == "key name":
        (tmp_path / "w1.key").unlink()
        write_config(tmp_path, Log())
        good.write_text(text.replace(WITNESS_NAME, "witness.example.org/w2", 1))
        return good
    edits = {
        "toml": text + "[[[",
        "logs": text.split("[[logs]]")[0],
        "vkey": text.replace('vkeys = ["', 'vkeys = ["x'),
        "origin twice": text + text[text.index("[[logs]]"):],
        "unknown field": "colour = 1\n" + text,
        "database": text.replace("sqlite:///", "nosuchdb://"),
        "name": text.replace(WITNESS_NAME, "two words", 1),
    }
    good.write_text(edits[case])
    return good


@pytest.mark.parametrize(
    ("case", "field"),
    [
        ("missing", "config"),
        ("toml", "config"),
        ("logs", "config.logs"),
        ("vkey", "config.logs[0].vkeys"),
        ("origin twice", "config"),
        ("unknown field", "config.colour"),
        ("name", "config.name"),
        ("key file", "key file"),
        ("key name", "key file"),
        ("database", "config.database"),
    ],
)
def test_a_bad_configuration_is_one_line_and_exit_2(
    tmp_path: Path, case: str, field: str
) -> None:
    config = _bad(tmp_path, case)
    for verb in ("check", "serve"):
        result = runner.invoke(app, ["witness", verb, "--config", str(config)])
        assert result.exit_code == 2
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"InputError: {field}"), lines
