"""Digit strings outside ASCII and digit strings too long for `int()`: the command line and the
web refuse them with one line naming the field, never a traceback or a 500. `str.isdigit`
says yes to `²` (which `int()` then refuses) and `int()` reads `٣` as 3; only 0-9 count."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.store import season
from fairfight.core.errors import InputError
from fairfight.core.validation import MAX_DIGITS, is_plain_digits, plain_integer
from fairfight.web import WebSettings, create_app
from tests.conquest.helpers import SEED, star_map
from tests.fuzz.conftest import assert_refused, invoke

SPEC = Path(__file__).parents[2] / "src/fairfight/web/clash/specs/worked-example.json"

NOT_PLAIN = ["²", "٣", "１２", "1²", "5" * 5000, "", " 7", "7 ", "+7", "1_000", "0x10", "७"]
"""Text `int()` or `str.isdigit` would take (or choke on) that no field accepts."""


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_only_ascii_digits_of_bounded_length_are_plain(text: str) -> None:
    assert not is_plain_digits(text)
    with pytest.raises(InputError) as refused:
        plain_integer(text, "count")
    line = refused.value.one_line()
    assert line.startswith("InputError: count: ") and "\n" not in line and len(line) < 120


def test_plain_digits_are_read_up_to_the_limit() -> None:
    assert plain_integer("0042", "count") == 42
    assert plain_integer("-5", "offset", signed=True) == -5
    assert plain_integer("9" * MAX_DIGITS, "count") == 10**MAX_DIGITS - 1
    assert not is_plain_digits("9" * (MAX_DIGITS + 1))
    assert not is_plain_digits("12", max_digits=1)


def _fairfight(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fairfight", *arguments],
                          capture_output=True, text=True, timeout=300)


def _commands(path: Path, text: str) -> list[list[str]]:
    """A conquest count, a season address and a clash range, each given `text`."""
    return [
        ["conquest", "contribute", str(path), "AB", text],
        ["conquest", "show", f"postgresql+psycopg://nobody@/none#{text}"],
        ["clash", "preview", str(SPEC), "--strength-range", f"{text}-9"],
    ]


@pytest.mark.parametrize("text", ["²", "٣", "5" * 5000])
def test_the_command_line_refuses_them_in_one_line(tmp_path: Path, text: str) -> None:
    """Every text through every command in this process (the root command, as the fuzz suite
    runs it); `python -m fairfight` as a real process is the test below."""
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    for arguments in _commands(path, text):
        line = assert_refused(invoke(*arguments), codes=(2,), given=text)
        assert len(line) < 300, arguments


def test_the_installed_command_refuses_one_in_one_line(tmp_path: Path) -> None:
    """The same refusals from `python -m fairfight` itself, for one of the texts: the exit
    status and the one stderr line as a shell sees them."""
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    for arguments in _commands(path, "²"):
        done = _fairfight(*arguments)
        assert done.returncode == 2, (arguments, done.stderr[-400:])
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr, (arguments, done.stderr)
        assert len(lines[0]) < 300


@pytest.mark.parametrize("text", ["²", "٣", "5" * 5000])
def test_the_web_refuses_them_with_a_4xx(tmp_path: Path, text: str) -> None:
    app = create_app(WebSettings(database_url=f"sqlite:///{tmp_path / 'ff.db'}"))
    with TestClient(app, raise_server_exceptions=False) as client:
        exchange = client.get("/clash/exchange", params={"r": text})
        assert exchange.status_code == 422
        assert "Traceback" not in exchange.text
        table = client.post("/ballot/tables", data={"seat_0": "human", "seat_1": "machine",
                                                  "my_seat": text, "years": text})
        assert 400 <= table.status_code < 500 and "Traceback" not in table.text
