"""Every command that takes --scheduler fed addresses made wrong in one or more parts, and one
nothing answers at: each is exit 2 with one line naming --scheduler, before any work."""

from __future__ import annotations

import itertools
import socket
from pathlib import Path
from typing import Any

import pytest

from tests.fuzz.conftest import assert_refused, invoke

ROOT = Path(__file__).resolve().parents[2]
TINY_MAP = ROOT / "examples" / "conquest" / "tiny-record" / "map.json"
SCHEMES = ["", "tcp://", "tls://", "http://", "tcp:/", "TCP://", "tcp:///"]
HOSTS = ["", "host", "127.0.0.1", "a b", "-x", "[::1", "\ud800", "x" * 300, "１２７.0.0.1",
         "host/path"]
PORTS = ["", ":", ":0", ":65536", ":-1", ":8786/x", ":８７８６", ":1e3", ":" + "9" * 30, ":8786 "]
BAD_HOSTS = ["", "a b", "-x", "[::1", "\ud800", "x" * 300, "１２７.0.0.1", "host/path"]
SAMPLE_SIZE = 15
COMMANDS: dict[str, list[str]] = {
    "clash playtest": ["clash", "playtest", "--games", "1"],
    "clash sweep": ["clash", "sweep"],
    "ballot simulate": ["ballot", "simulate", "--games", "1"],
    "conquest forecast": ["conquest", "forecast", "{season}", "--seasons", "1"],
}


def malformed_addresses() -> list[str]:
    """Every scheme with every host and a wrong port, and every scheme with a wrong host and a
    right port: none is an address a scheduler can have."""
    wrong_port = [s + h + p for s, h, p in itertools.product(SCHEMES, HOSTS, PORTS)]
    wrong_host = [s + h + ":8786" for s, h in itertools.product(SCHEMES, BAD_HOSTS)]
    wrong_scheme = [s + "127.0.0.1:8786" for s in SCHEMES if s not in ("", "tcp://", "tls://")]
    return wrong_port + wrong_host + wrong_scheme


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("season") / "s.db"
    created = invoke("conquest", "new", path, "--map", TINY_MAP, "--seed", "ab" * 32)
    assert created.exit_code == 0, created.output
    return path


def _run(command: str, address: str, season: Path) -> Any:
    words = [str(season) if word == "{season}" else word for word in COMMANDS[command]]
    return invoke(*words, "--scheduler", address)


def _check(command: str, address: str, season: Path) -> None:
    try:
        line = assert_refused(_run(command, address, season), codes=(2,), given=address)
    except AssertionError as error:
        raise AssertionError(f"{command} --scheduler {address!r}: {error}") from None
    assert "--scheduler" in line


def _sample() -> list[str]:
    every = malformed_addresses()
    step = len(every) // SAMPLE_SIZE
    return every[::step][:SAMPLE_SIZE]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_sample_of_malformed_addresses(command: str, season: Path) -> None:
    for address in _sample():
        _check(command, address, season)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_malformed_address(command: str, season: Path) -> None:
    for address in malformed_addresses():
        _check(command, address, season)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_address_nothing_answers_at(command: str, season: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listening:
        port = listening.getsockname()[1]   # closed on leaving: nothing listens there now
    line = assert_refused(_run(command, f"tcp://127.0.0.1:{port}", season), codes=(2,))
    assert "cannot reach" in line
