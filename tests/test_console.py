"""The command-line edge: bad input is one line and exit 2, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from pydantic import BaseModel, Field
from typer.testing import CliRunner

from fairfight.console import guarded
from fairfight.core.errors import InputError, VerificationError
from fairfight.core.validation import parse_model
from fairfight.inputs import load_json, load_yaml


class Army(BaseModel):
    troops: int = Field(ge=0)


class Battle(BaseModel):
    attacker: Army


def test_parse_model_names_the_nested_field() -> None:
    with pytest.raises(InputError) as caught:
        parse_model(Battle, {"attacker": {"troops": -3}})
    assert caught.value.field == "attacker.troops"
    assert "greater than or equal to 0" in caught.value.rule


def test_parse_model_prefix_and_list_positions() -> None:
    class Many(BaseModel):
        armies: list[Army]

    with pytest.raises(InputError) as caught:
        parse_model(Many, {"armies": [{"troops": 1}, {"troops": "x"}]}, prefix="war")
    assert caught.value.field == "war.armies[1].troops"


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    source = tmp_path / "bad.yaml"
    source.write_text("a: 1\nb: [2, 3\nc: 4\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_yaml(source)
    assert "line " in caught.value.rule
    assert "\n" not in caught.value.one_line()


def test_json_syntax_error_and_missing_file(tmp_path: Path) -> None:
    source = tmp_path / "bad.json"
    source.write_text('{"a": 1,\n}', encoding="utf-8")
    with pytest.raises(InputError, match="line 2"):
        load_json(source)
    with pytest.raises(InputError, match="file not found"):
        load_json(tmp_path / "absent.json")


def make_app() -> typer.Typer:
    app = typer.Typer()

    @app.command()
    @guarded
    def check(mode: str) -> None:
        if mode == "input":
            raise InputError("defender.troops", "must be a whole number of at least 0")
        if mode == "verify":
            raise VerificationError("battle 3", "draw 2 differs")
        typer.echo("fine")

    return app


@pytest.mark.parametrize(
    ("mode", "code", "text"),
    [
        ("ok", 0, "fine"),
        ("input", 2, "InputError: defender.troops: must be a whole number of at least 0"),
        ("verify", 1, "VerificationError: battle 3: draw 2 differs"),
    ],
)
def test_guarded_exit_codes(mode: str, code: int, text: str) -> None:
    result = CliRunner().invoke(make_app(), [mode])
    assert result.exit_code == code
    assert result.output.strip() == text
    assert "Traceback" not in result.output


LOSES_INTERRUPTS = '''
import sys, time, weakref
from fairfight.console import keep_interrupts
keep_interrupts()
class Thing: pass
def slow_callback(ref):
    time.sleep(0.02)  # half the loop's time is spent in a callback, where Python drops Ctrl-C
try:
    print("ready", flush=True)
    while True:
        thing = Thing()
        ref = weakref.ref(thing, slow_callback)
        del thing
        time.sleep(0.02)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
'''


def test_a_ctrl_c_swallowed_in_a_callback_is_sent_again(tmp_path: Path) -> None:
    """Without `keep_interrupts` this program prints "Exception ignored" and runs on."""
    import signal
    import subprocess
    import sys

    program = tmp_path / "loses_interrupts.py"
    program.write_text(LOSES_INTERRUPTS, encoding="utf-8")
    for _ in range(3):
        process = subprocess.Popen([sys.executable, str(program)], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        try:
            assert process.stdout is not None and process.stdout.readline() == "ready\n"
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=120)
        finally:
            process.kill()
            process.communicate()
        assert (process.returncode, out, err) == (130, "interrupted\n", "")
