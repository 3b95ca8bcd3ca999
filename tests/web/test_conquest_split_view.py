"""The split-view attack on the real service and two real witnesses (`fairfight.witness`, each
in process behind its own app), and the quorum clients that catch it.

The operator copies one season (same seed, key and commitment, so the same checkpoint origin)
and shows fan A the copy holding A's contribution, fan B the copy holding B's instead. Both
services send their checkpoints to the same witnesses: the witnesses cosign A's view first and
refuse B's, which is not consistent with it. B's saved checkpoint then carries no cosignature,
so B's verifier, asked for a quorum of one, refuses it (exit 2); A's passes. Given both
receipts, the verifiers name the split (the command line, the bare Python and Node), and
Node holds checkpoints to a quorum with the bare Python's words. The attack itself is
tests/web/split_support.py's; test_conquest_split_view_processes.py plays it against two
`fairfight witness serve` processes.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from fairfight.conquest.cli.season_cli import app as conquest_cli
from fairfight.conquest.record.quorum_check import parse_options
from fairfight.core.cosignature import WitnessKey
from fairfight.web.witness_settings import WitnessSetting
from fairfight.witness.config import LogConfig, WitnessConfig, WitnessIdentity
from fairfight.witness.cosigner import Witness
from fairfight.witness.service import create_app as witness_app
from fairfight.witness.store import WitnessStore
from tests.system import node_path
from tests.web.split_support import Split, play_split, two_views
from tests.web.split_support import verify as _verify


def _witness(name: str, origin: str, log_vkey: str, folder: Path) -> tuple[WitnessSetting,
                                                                           TestClient]:
    """A real witness following the season's origin, and the setting that trusts it; its key
    is the first of a fixed series whose base64 holds a '+' (the vkey's separator), so every
    reader of vkeys is held to splitting at the first two only."""
    for number in range(1, 256):
        private = Ed25519PrivateKey.from_private_bytes(bytes([number, len(name)]) * 16)
        key = WitnessKey.of(name, private.public_key().public_bytes_raw())
        if "+" in key.vkey().split("+", 2)[2]:
            break
    config = WitnessConfig(name=name, key_file=folder / f"{name}.key",
                           database=f"sqlite:///{folder / f'{name}.db'}",
                           logs=[LogConfig(origin=origin, vkeys=[log_vkey])])
    witness = Witness(config, WitnessIdentity(private, key), WitnessStore(config.database))
    setting = WitnessSetting(name=name, vkey=key.vkey(), url=f"http://{name}.witness.test")
    return setting, TestClient(witness_app(witness))


@pytest.fixture(scope="module")
def split(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Split]:
    """Both views, their checkpoints after the witnesses had their say, both receipts and
    the archive of A's view (the one the operator publishes)."""
    root = tmp_path_factory.mktemp("split")
    view_a, view_b, origin, vkey = two_views(root)
    witnesses = {name: _witness(name, origin, vkey, root) for name in ("alpha", "beta")}
    with ExitStack() as stack:
        for _, client in witnesses.values():
            stack.enter_context(client)
        settings = [setting for setting, _ in witnesses.values()]
        # a TestClient is the httpx.Client the sender wants, bound to the witness's app
        yield play_split(root, view_a, view_b, settings,
                         lambda setting: witnesses[setting.name][1])  # type: ignore[arg-type,return-value]


def test_the_witnesses_cosign_the_first_view_and_refuse_the_other(
        split: Split) -> None:
    seen_a = Path(split["checkpoint_a"]).read_text()
    seen_b = Path(split["checkpoint_b"]).read_text()
    assert seen_a.split("\n")[:2] == seen_b.split("\n")[:2]  # one origin, one size
    assert seen_a.split("\n")[2] != seen_b.split("\n")[2]  # two roots
    assert "\u2014 alpha " in seen_a and "\u2014 beta " in seen_a
    assert "\u2014 alpha " not in seen_b and "\u2014 beta " not in seen_b
    assert int(str(split["failures_b"])) >= 2  # each witness refused B's view


def test_the_command_line_holds_checkpoints_to_the_quorum(split: Split) -> None:
    code, shown = _verify(split, "--quorum", "1", "--checkpoint", str(split["checkpoint_b"]))
    assert code == 2, shown
    assert "checkpoint b.checkpoint: cosigned by 0 of the 1 witnesses you require" in shown
    assert len(shown.strip().splitlines()) == 1
    code, shown = _verify(split, "--quorum", "2", "--checkpoint", str(split["checkpoint_a"]),
                          "--receipt", str(split["receipt_a"]))
    assert code == 0, shown
    assert "checkpoint a.checkpoint: 2 leaves, signed by the season key, cosigned by 2 of 2 " \
        "witnesses: alpha, beta" in shown
    code, shown = _verify(split, "--quorum", "3", "--checkpoint", str(split["checkpoint_a"]))
    assert code == 2 and "--quorum: 3 needs at least 3 --witness keys" in shown, shown


def test_given_both_receipts_the_verifiers_name_the_split(split: Split) -> None:
    code, shown = _verify(split, "--receipt", str(split["receipt_a"]),
                          "--receipt", str(split["receipt_b"]))
    assert code == 1, shown
    assert "split view: receipt receipt-a.json and receipt receipt-b.json are both signed by " \
        "the season key for 2 leaves, with different roots" in shown
    bare = subprocess.run(
        [sys.executable, "-S", "verifier.py", "verify", ".", "--receipt",
         str(split["receipt_a"]), "--receipt", str(split["receipt_b"])],
        cwd=split["archive"], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"},
        check=False)
    assert bare.returncode == 1 and bare.stderr.startswith("MISMATCH split view: "), bare.stderr
    node = subprocess.run(
        [node_path(), "engine.js", "verify", ".", "--receipt", str(split["receipt_a"]),
         "--receipt", str(split["receipt_b"])],
        cwd=split["archive"], capture_output=True, text=True, check=False, timeout=600)
    assert node.returncode == 1, node.stderr
    assert node.stderr.strip() == bare.stderr.strip(), (node.stderr, bare.stderr)
    witnesses = [item for vkey in str(split["vkeys"]).split() for item in ("--witness", vkey)]
    bare = subprocess.run(
        [sys.executable, "-S", "verifier.py", "verify", ".", *witnesses, "--quorum", "1",
         "--checkpoint", str(split["checkpoint_b"])],
        cwd=split["archive"], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"},
        check=False)
    assert bare.returncode == 2, bare.stderr
    assert bare.stderr.strip() == ("REFUSED checkpoint b.checkpoint: cosigned by 0 of the 1 "
                                   "witnesses you require")
    for options in (["--quorum", "1", "--checkpoint", str(split["checkpoint_b"])],
                    ["--quorum", "2", "--checkpoint", str(split["checkpoint_a"]), "--receipt",
                     str(split["receipt_a"])]):
        node = subprocess.run(
            [node_path(), "engine.js", "verify", ".", *witnesses, *options],
            cwd=split["archive"], capture_output=True, text=True, check=False, timeout=600)
        python = subprocess.run(
            [sys.executable, "-S", "verifier.py", "verify", ".", *witnesses, *options],
            cwd=split["archive"], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"},
            check=False)
        assert (node.returncode, node.stderr) == (python.returncode, python.stderr), options
        checkpoint_lines = [line for line in python.stdout.splitlines() if "checkpoint" in line]
        assert checkpoint_lines or python.returncode == 2, python.stdout
        assert checkpoint_lines == [line for line in node.stdout.splitlines()
                                    if "checkpoint" in line], options


def test_bad_witness_options_are_one_line_before_any_replay(
        split: Split, tmp_path: Path) -> None:
    result = CliRunner().invoke(conquest_cli, ["verify", str(split["archive"]), "--witness",
                                               "alpha+00000000+AAAA", "--quorum", "1"])
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert "--witness" in result.output
    code, shown = _verify(split, "--quorum", "1")
    assert code == 2 and "--quorum: needs at least one --checkpoint" in shown, shown
    note = Path(split["checkpoint_a"]).read_text().split("\n")
    note[1] = str(int(note[1]) + 1)  # the size changed: the season key's signature fails
    changed = tmp_path / "changed.checkpoint"
    changed.write_text("\n".join(note))
    code, shown = _verify(split, "--checkpoint", str(changed))
    assert code == 1 and "checkpoint changed.checkpoint: not a checkpoint signed by the " \
        "season key" in shown, shown


@pytest.mark.parametrize("options", [["--receipt"], ["--quorum", "x"], ["--quorum", "1000"],
                                     ["--checkpoints", "a"]])
def test_the_bare_verifier_refuses_malformed_options(options: list[str]) -> None:
    assert parse_options(options) is None
    parsed = parse_options(["--witness", "w+1+2", "--quorum", "2", "--checkpoint", "c"])
    assert parsed is not None and (parsed.witnesses, parsed.quorum) == (["w+1+2"], 2)
    assert [path.name for path in parsed.checkpoints] == ["c"]
