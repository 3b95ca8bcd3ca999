"""The split-view attack against two real witness processes: each `fairfight witness serve`
with its own key, configuration and SQLite file, on its own port, reached by the season
service over HTTP as in production. The witnesses cosign fan A's view and refuse fan B's;
`fairfight conquest verify` refuses B's checkpoint at a quorum of two, and given both
receipts names the split. (tests/web/test_conquest_split_view.py plays the same attack with
the witnesses in process, and holds every verifier to it.)
"""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from fairfight.web.witness_settings import WitnessSetting
from fairfight.witness.config import generate_key
from tests.web.split_support import Split, play_split, two_views, verify

ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 60.0
"""How long a witness may take to start listening (never a speed check)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _start(stack: ExitStack, folder: Path, name: str, origin: str,
           log_vkey: str) -> WitnessSetting:
    """A `fairfight witness serve` process following the season, ended and reaped when
    `stack` closes; the setting that trusts it."""
    folder.mkdir()
    vkey = generate_key(name, folder / "witness.key").vkey()
    config = folder / "witness.toml"
    config.write_text(
        f'name = "{name}"\nkey_file = "witness.key"\n'
        f'database = "sqlite:///{folder / "witness.db"}"\n'
        f'[[logs]]\norigin = "{origin}"\nvkeys = ["{log_vkey}"]\n', encoding="utf-8")
    port = _free_port()
    process = stack.enter_context(subprocess.Popen(
        [sys.executable, "-m", "fairfight", "witness", "serve", "--config", str(config),
         "--port", str(port)], env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def stop() -> None:
        process.terminate()
        process.wait(timeout=30)

    stack.callback(stop)
    return WitnessSetting(name=name, vkey=vkey, url=f"http://127.0.0.1:{port}")


def _listening(setting: WitnessSetting) -> str:
    """The witness's status line, once it answers."""
    with httpx.Client(timeout=5, transport=httpx.HTTPTransport(retries=0)) as client:
        for _ in range(int(WAIT_SECONDS / 0.05)):
            try:
                return client.get(f"{setting.url}/").text
            except httpx.TransportError:
                time.sleep(0.05)
    raise AssertionError(f"{setting.name} never answered at {setting.url}")


@pytest.fixture(scope="module")
def split(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Split, dict[str, str]]]:
    """The attack played out, and what each witness serves to monitors afterwards."""
    root = tmp_path_factory.mktemp("split-processes")
    view_a, view_b, origin, vkey = two_views(root)
    with ExitStack() as stack:
        witnesses = [_start(stack, root / name, f"{name}.witness.test", origin, vkey)
                     for name in ("alpha", "beta")]
        for setting in witnesses:
            assert _listening(setting).startswith(f"{setting.name} witnesses 1 logs")
        saved = play_split(root, view_a, view_b, witnesses)
        origin_hash = hashlib.sha256(origin.encode()).hexdigest()
        held = {setting.name: httpx.get(f"{setting.url}/{origin_hash}/checkpoint").text
                for setting in witnesses}
    yield saved, held


def test_two_witness_processes_refuse_the_split(split: tuple[Split, dict[str, str]]) -> None:
    saved, held = split
    seen_a = Path(saved["checkpoint_a"]).read_text()
    seen_b = Path(saved["checkpoint_b"]).read_text()
    assert seen_a.split("\n")[:2] == seen_b.split("\n")[:2]  # one origin, one size
    assert seen_a.split("\n")[2] != seen_b.split("\n")[2]  # two roots
    for name in ("alpha.witness.test", "beta.witness.test"):
        assert f"\u2014 {name} " in seen_a and f"\u2014 {name} " not in seen_b
        # what each witness holds is A's tree: its origin, size and root
        assert held[name].split("\n")[:3] == seen_a.split("\n")[:3]
    assert int(str(saved["failures_b"])) >= 2  # each witness refused B's view


def test_the_command_line_refuses_b_and_names_the_split(
        split: tuple[Split, dict[str, str]]) -> None:
    saved, _ = split
    code, shown = verify(saved, "--quorum", "2", "--checkpoint", str(saved["checkpoint_b"]))
    assert code == 2 and len(shown.strip().splitlines()) == 1, shown
    assert "checkpoint b.checkpoint: cosigned by 0 of the 2 witnesses you require" in shown
    code, shown = verify(saved, "--quorum", "2", "--checkpoint", str(saved["checkpoint_a"]),
                         "--receipt", str(saved["receipt_a"]))
    assert code == 0, shown
    assert "cosigned by 2 of 2 witnesses: alpha.witness.test, beta.witness.test" in shown
    code, shown = verify(saved, "--receipt", str(saved["receipt_a"]),
                         "--receipt", str(saved["receipt_b"]))
    assert code == 1, shown
    assert "split view: receipt receipt-a.json and receipt receipt-b.json are both signed by " \
        "the season key for 2 leaves, with different roots" in shown
